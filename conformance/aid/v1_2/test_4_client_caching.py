"""v1.2 4 DNS and Caching (client): the TXT record is cached no longer than its TTL.

Two discoveries of one domain in one session (the client keeps its memory), the second after the
record's TTL on the clock the kit passes (nothing sleeps): the client asks DNS again (AID-4-13) and
returns what the name holds then (AID-4-14).
"""

from __future__ import annotations

from datetime import timedelta

from conformance.aid.clients import AidClient, AidScenarios, connected_to, said
from conformance.aid.v1_2._client import aid1, aid1_works, endpoint
from conformance.outcomes import clause, untestable, violation

#: TTLs from none to a day, each with when the second discovery comes: one second after it ran out
#: (a TTL of 0: at once, and one second later).
TTLS = [(0, 0), (0, 1), (1, 2), (30, 31), (299, 300), (300, 301), (900, 901), (3600, 3601), (86400, 86401)]


def _query_count(scenario) -> int:
    return sum(1 for q in scenario.queries() if q.name.lower().rstrip(".").startswith("_agent.")
               and q.rdtype in ("TXT", 16))


@clause("AID-4-13")
def test_4_client_asks_dns_again_after_the_ttl(client: AidClient, scenarios: AidScenarios) -> None:
    """**Client Caching:** Clients **MUST** respect the TTL of the DNS record they receive and **MUST NOT** cache the
    record for longer."""
    aid1_works(client, scenarios)
    for ttl, after in TTLS:
        scenario = scenarios.new("ttl", aid1(), ttl=ttl)
        session = client.session(scenario)
        first = client.discover(scenario, session=session)
        if connected_to(first) != endpoint(scenario):
            untestable(f"a plain record with TTL {ttl}: {said(first)} (see AID-2.3-22)")
        asked = _query_count(scenario)
        client.discover(scenario, at=timedelta(seconds=after), session=session)
        if _query_count(scenario) == asked:
            violation(f"_agent.{scenario.zone_name} was received with TTL {ttl}; {after} s later the client "
                      f"discovered it again without asking DNS: it kept the record past its TTL (AMB-89)")


@clause("AID-4-14")
def test_4_client_returns_the_record_of_after_the_ttl(client: AidClient, scenarios: AidScenarios) -> None:
    """**Client Caching:** Clients **MUST** respect the TTL of the DNS record they receive and **MUST NOT** cache the
    record for longer."""
    aid1_works(client, scenarios)
    for ttl, after in TTLS:
        scenario = scenarios.new("ttl-changed", aid1(), ttl=ttl)
        session = client.session(scenario)
        first = client.discover(scenario, session=session)
        if connected_to(first) != endpoint(scenario):
            untestable(f"a plain record with TTL {ttl}: {said(first)} (see AID-2.3-22)")
        changed = aid1(u="https://{host}/v2")
        scenario.publish([changed.replace("{host}", scenario.host).encode()], ttl=ttl)
        asked = _query_count(scenario)
        second = client.discover(scenario, at=timedelta(seconds=after), session=session)
        if _query_count(scenario) == asked:
            untestable(f"{after} s after a record with TTL {ttl} the client did not ask DNS again (see AID-4-13)")
        if connected_to(second) != f"https://{scenario.host}/v2":
            violation(f"_agent.{scenario.zone_name} was received with TTL {ttl} and then changed to {changed!r}; "
                      f"{after} s later the client asked DNS again and {said(second)}, not the record it holds now (AMB-89)")
