"""§4 DNS And Caching (AID v2.1), provider role: the TTL of the _agent record."""

from __future__ import annotations

from conformance.dns import TxtAnswer
from conformance.outcomes import clause, untestable, violation

LOW, HIGH = 300, 900


@clause("AID-4-15")
def test_4_ttl_between_300_and_900(lookup: TxtAnswer) -> None:
    """Providers **SHOULD** set a DNS TTL of 300 to 900 seconds on `_agent.<domain>` TXT records.

    The TTL of the TXT RRset at _agent.<domain> is 300 to 900 seconds, both included: 299 and
    901 fail. (Asked of a caching resolver, a TTL counts down: the kit reads the answer of the
    nameserver it is given, the builtin world's authoritative one.)"""
    if lookup.status != "ok" or lookup.ttl is None:
        untestable(f"no TXT record at {lookup.name}: {lookup.status} (see AID-2-02)")
    if not LOW <= lookup.ttl <= HIGH:
        violation(f"the TTL of the TXT records at {lookup.name} is {lookup.ttl} s; expected {LOW} to {HIGH} s")
