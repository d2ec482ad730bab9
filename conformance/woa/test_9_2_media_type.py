"""§9.2 The application/woa+json media type: encoding."""

from __future__ import annotations

from conformance.document import Document
from conformance.outcomes import clause, untestable, violation


@clause("WOA-9.2-02")
def test_9_2_document_is_utf8_json(document: Document) -> None:
    """WoA documents are encoded as UTF-8 JSON text."""
    if document.truncated:
        untestable(f"the document is larger than the {len(document.raw)} bytes the kit reads")
    if document.utf8_error:
        violation(f"the document is not UTF-8: {document.utf8_error}")
    if document.raw.startswith(b"\xef\xbb\xbf"):
        violation("the document starts with a byte order mark (RFC 8259 8.1)")
    if document.too_deep:
        untestable(document.parse_error or "the JSON is nested too deeply to parse")
    if document.parse_error:
        violation(f"the document is not one JSON text: {document.parse_error}")
