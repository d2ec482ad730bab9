"""AID v1.2 §4 DNS and Caching: the record's TTL (provider role)."""

from __future__ import annotations

from conformance.dns import TxtAnswer
from conformance.outcomes import clause, untestable, violation

LOW, HIGH = 300, 900


@clause("AID-4-12")
def test_4_ttl_between_300_and_900(lookup: TxtAnswer) -> None:
    """**Provider TTL:** It is **RECOMMENDED** that providers set a Time-To-Live (TTL) of
    **300–900 seconds (5–15 minutes)** on their `_agent.<domain>` TXT record.

    Inclusive: 300 and 900 pass, 299 and 901 fail."""
    if lookup.status != "ok" or lookup.ttl is None:
        untestable(f"no TXT record at {lookup.name}: {lookup.status} (see AID-2-01, AID-2-02)")
    if not LOW <= lookup.ttl <= HIGH:
        violation(f"expected a TTL of {LOW}-{HIGH} s on {lookup.name}; saw {lookup.ttl} s")
