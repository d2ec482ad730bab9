"""§7.1 Structure, judged on a search response given as a document on its own (AMB-30);
a server's own answers are judged by the server-role test of the same clause."""

from __future__ import annotations

from conformance.aidre.test_16_1_document_search_response import results_array
from conformance.document import Document
from conformance.outcomes import clause


@clause("AIDRE-7.1-01")
def test_7_1_document_search_response_has_results_array(document: Document) -> None:
    """Responses MUST include a results array."""
    results_array(document)
