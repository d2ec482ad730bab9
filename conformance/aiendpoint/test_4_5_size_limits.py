"""§4.5 Size Limits."""

from __future__ import annotations

from conformance.document import Document
from conformance.outcomes import clause, violation

#: "64 kilobytes", read as 64 KiB so that no document fails on the unit alone (AMB-11).
SIZE_LIMIT = 64 * 1024


@clause("AIE-4.5-01")
def test_4_5_document_at_most_64_kilobytes(document: Document) -> None:
    """An AI Discovery Document SHOULD NOT exceed 64 kilobytes in size."""
    if document.truncated:
        violation(f"the document is larger than the {len(document.raw)} bytes the kit reads")
    if len(document.raw) > SIZE_LIMIT:
        violation(f"the document is {len(document.raw)} bytes")
