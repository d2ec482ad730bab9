"""§14.2 Character Encoding."""

from __future__ import annotations

import re

from conformance.document import Document
from conformance.outcomes import clause, untestable, violation

_CHARSET = re.compile(r";\s*charset\s*=\s*\"?([^\";\s]+)", re.I)


@clause("AIDRE-14.2-01")
def test_14_2_payload_is_utf8(document: Document) -> None:
    """AIDRE JSON payloads MUST use UTF-8 encoding."""
    if document.utf8_error:
        violation(f"the bytes are not UTF-8: {document.utf8_error}")
    if document.truncated:
        untestable(f"the document is larger than the {len(document.raw)} bytes the kit reads; "
                   "the bytes it read are UTF-8")
    final = document.fetch.final if document.fetch else None
    content_type = final.header("Content-Type") if final else None
    match = _CHARSET.search(content_type or "")
    if match and match.group(1).lower() not in ("utf-8", "utf8"):
        violation(f"the payload is labelled Content-Type: {content_type}, another encoding than UTF-8")
