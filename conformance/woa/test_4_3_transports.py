"""§4.3 Transports: the top-level transports object."""

from __future__ import annotations

from conformance.document import Document
from conformance.outcomes import clause, not_applicable
from conformance.woa._checks import REGISTERED, transports_object


@clause("WOA-4.3-01")
def test_4_3_other_transports_may_be_named(document: Document) -> None:
    """Additional transports MAY be defined and registered in the WoA Transport Registry (see Section 9.3)."""
    if not [n for n in transports_object(document) if n not in REGISTERED]:
        not_applicable("the document configures only rest and mcp transports")
