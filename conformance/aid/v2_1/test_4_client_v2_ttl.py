"""v2.1 4 DNS And Caching (client): the TTL of the TXT answer bounds its reuse."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, connected_to, said, txt
from conformance.aid.v2_1._discovery import after, aid2_works
from conformance.outcomes import clause, untestable, violation


def _first(client: AidClient, scenario, session: str, what: str) -> None:
    __tracebackhide__ = True
    reply = client.discover(scenario, session=session)
    if connected_to(reply) != f"https://{scenario.host}/first":
        untestable(f"with {what} {said(reply)}, not a connection to https://{scenario.host}/first (see AID-2.3-47)")


@clause("AID-4-16")
def test_4_client_respects_the_ttl(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST** respect the TTL of DNS records. (The record changes; once its TTL has
    passed, a returning client uses the new one: TTLs of 1 s to an hour.)"""
    aid2_works(client, scenarios)
    for ttl in (1, 60, 300, 3600):
        scenario = scenarios.new("ttl", txt(u="https://{host}/first"), ttl=ttl)
        session = client.session(scenario)
        _first(client, scenario, session, f"the record {txt(u='https://{host}/first')!r} (TTL {ttl} s)")
        scenario.publish([txt(u=f"https://{scenario.host}/second").encode()], ttl=ttl)
        reply = client.discover(scenario, session=session, at=after(ttl))
        if connected_to(reply) != f"https://{scenario.host}/second":
            violation(f"the record (TTL {ttl} s) named /first, then /second; {ttl + 1} s after the first discovery "
                      f"expected a connection to https://{scenario.host}/second, and {said(reply)}")


@clause("AID-4-17")
def test_4_client_never_caches_past_the_ttl(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients ... **MUST NOT** cache DNS records longer than the received TTL. (Once the TTL has
    passed and the name no longer answers with the record, removed or failing, the cached record
    is not used.)"""
    aid2_works(client, scenarios)
    for ttl in (60, 300):
        for how in ("NXDOMAIN", "NODATA", "SERVFAIL"):
            scenario = scenarios.new("stale", txt(u="https://{host}/first"), ttl=ttl)
            session = client.session(scenario)
            _first(client, scenario, session, f"the record {txt(u='https://{host}/first')!r} (TTL {ttl} s)")
            if how == "SERVFAIL":
                scenario.dns.fault(f"_agent.{scenario.zone_name}", "servfail")
            else:
                scenario.dns.add_zone(scenario.zone_name, "" if how == "NXDOMAIN" else "_agent 300 IN A 127.0.0.1\n")
            reply = client.discover(scenario, session=session, at=after(ttl))
            if how == "SERVFAIL":
                scenario.dns.fault(f"_agent.{scenario.zone_name}", None)
            if connected_to(reply) == f"https://{scenario.host}/first":
                violation(f"the record (TTL {ttl} s) named /first; {ttl + 1} s later _agent.{scenario.zone_name} answers "
                          f"{how}, and the client still used the cached record: {said(reply)}")
