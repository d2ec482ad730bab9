"""1.2 (client): SVCB/HTTPS records at _agent are for AID v2; a v1 client ignores them."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, connected_to, found_record, record, said
from conformance.outcomes import clause, violation

#: An HTTPS and an SVCB record at _agent.<domain>, both pointing at another name.
SVCB = ('_agent 300 IN HTTPS 1 other.{host}. alpn="aid" port=443\n'
        '_agent 300 IN SVCB 1 other.{host}. alpn="aid" port=443\n')


@clause("AID-1.2-02")
def test_1_2_client_ignores_svcb_and_https_records(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients MUST ignore SVCB/HTTPS records until v2 is published; providers can publish them now without breaking v1."""
    scenario = scenarios.new("txt-and-svcb", record(), zone=SVCB)
    reply = client.discover(scenario)
    found_record(reply)
    if connected_to(reply) != f"https://api.{scenario.host}/mcp":
        violation(f"_agent.{scenario.zone_name} holds the TXT record naming https://api.{scenario.host}/mcp and "
                  f"HTTPS/SVCB records naming other.{scenario.host}, and {said(reply)}")
    scenario = scenarios.new("svcb-only", None, zone=SVCB)
    reply = client.discover(scenario)
    uri = connected_to(reply) or ""
    if f"other.{scenario.host}" in uri:
        violation(f"_agent.{scenario.zone_name} holds only HTTPS/SVCB records (no TXT record) naming "
                  f"other.{scenario.host}, and {said(reply)}")
