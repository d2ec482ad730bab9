"""§16.1, judged on a search response given as a document on its own (AMB-30): a JSON object
with a results array, and the SHOULD members request_id, collection and meta. A server's own
answers are judged by the server-role tests of the same clauses."""

from __future__ import annotations

from conformance.aidre._kinds import only
from conformance.document import Document, kind_name
from conformance.outcomes import clause, untestable, violation


def _response(document: Document) -> dict:
    __tracebackhide__ = True
    if document.unreadable:
        untestable(f"{document.unreadable} (see AIDRE-14.2-01)")
    only(document, "search-response")
    return document.value()


def results_array(document: Document) -> None:
    __tracebackhide__ = True
    value = _response(document)
    results = value["results"]
    if not isinstance(results, list):
        violation(f"results is a JSON {kind_name(results)}, not an array")


@clause("AIDRE-16.1-01")
def test_16_1_document_search_response_is_object_with_results_array(document: Document) -> None:
    """A successful search response MUST be a JSON object containing a results member whose
    value is an array."""
    results_array(document)


def _member(document: Document, member: str) -> None:
    __tracebackhide__ = True
    value = _response(document)
    if member not in value:
        violation(f"the search response has no {member} (members: {', '.join(sorted(value)[:8])})")


@clause("AIDRE-16.1-03")
def test_16_1_document_search_response_has_request_id(document: Document) -> None:
    """A successful response SHOULD also contain: request_id."""
    _member(document, "request_id")


@clause("AIDRE-16.1-04")
def test_16_1_document_search_response_has_collection(document: Document) -> None:
    """A successful response SHOULD also contain: collection."""
    _member(document, "collection")


@clause("AIDRE-16.1-05")
def test_16_1_document_search_response_has_meta(document: Document) -> None:
    """A successful response SHOULD also contain: meta."""
    _member(document, "meta")
