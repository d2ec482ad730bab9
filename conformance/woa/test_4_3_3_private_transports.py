"""§4.3.3 Private transport names."""

from __future__ import annotations

from conformance.document import Document
from conformance.outcomes import clause, not_applicable, violation
from conformance.woa._checks import REGISTERED, REVERSE_DNS, transports_object


@clause("WOA-4.3.3-02")
def test_4_3_3_private_names_use_reverse_dns(document: Document) -> None:
    """Private transport names MUST use a reverse DNS prefix, such as "com.example.mytransport",
    to avoid collisions with registered transports."""
    private = [n for n in transports_object(document) if n not in REGISTERED]
    if not private:
        not_applicable("the document configures only registered transports (rest, mcp)")
    bad = [repr(n) for n in private if not REVERSE_DNS.fullmatch(n)]
    if bad:
        violation("transport names that are neither registered nor reverse DNS (AMB-10): " + ", ".join(bad[:5]))
