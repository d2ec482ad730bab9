"""Appendix B: DNS TTL and Caching Guidance."""

from __future__ import annotations

from conformance.dns import TxtAnswer
from conformance.outcomes import clause, untestable, violation

RECOMMENDED_TTL = 300


@clause("AID-B-01")
def test_B_low_ttl_on_agent_record(lookup: TxtAnswer) -> None:
    """It is **STRONGLY RECOMMENDED** that providers set a low TTL on their `_agent.<domain>`
    TXT record. (A TTL of 300 seconds (5 minutes) is ideal; the checklist says TTL ≤ 300 s.)"""
    if lookup.status != "ok" or lookup.ttl is None:
        untestable(f"no TXT record at {lookup.name} (see AID-2.1-01)")
    if lookup.ttl > RECOMMENDED_TTL:
        violation(f"the TTL of {lookup.name} is {lookup.ttl} s")
