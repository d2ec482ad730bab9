"""§3.3 DNS Considerations, client role: discovery needs no DNS SRV lookup."""

from __future__ import annotations

from conformance.aidre._client_fixtures import SEARCH, TEXT, WELL_KNOWN, said
from conformance.outcomes import clause, violation


@clause("AIDRE-3.3-01")
def test_3_3_client_discovers_without_srv_records(aidre_client, aidre_scenarios) -> None:
    """"Clients MUST NOT require DNS SRV lookup for discovery." The scenario's origin has no
    DNS record at all: the step names no DNS server, only the mapping of its name to the
    loopback listener, so an SRV lookup can only fail (AMB-19, AMB-56). The client must still
    fetch /.well-known/ai-discovery and go on to send the search the user asked for to the
    endpoint the document names: discovery is complete when it does."""
    scenario = aidre_scenarios.new("no-srv-record")
    reply = aidre_client.search(scenario, query=TEXT)
    fetched = scenario.requests(WELL_KNOWN)
    if not fetched:
        violation(f"{scenario.host} has no DNS SRV record (no DNS record at all, only its address mapping); the "
                  f"client never asked for {scenario.authority}{WELL_KNOWN}, and {said(reply)}")
    if not scenario.searches():
        violation(f"the client fetched {scenario.authority}{WELL_KNOWN} (status {fetched[0].status}), whose "
                  f"endpoints.search is {scenario.authority}{SEARCH}, sent no search there, and {said(reply)}; "
                  f"the origin has no DNS SRV record")
