"""§2.4 Character Encoding."""

from __future__ import annotations

from conformance.document import Document
from conformance.outcomes import clause, violation


@clause("AIE-2.4-01")
def test_2_4_encoded_in_utf8(document: Document) -> None:
    """The AI Discovery Document MUST be encoded in UTF-8."""
    if document.utf8_error:
        violation(f"the document is not UTF-8: {document.utf8_error}")
