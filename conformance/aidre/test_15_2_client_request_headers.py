"""§15.2 Request Headers, client role: Accept and Content-Type, as 14.1 states them."""

from __future__ import annotations

from conformance.aidre._client_fixtures import check_accept, check_content_type
from conformance.outcomes import clause


@clause("AIDRE-15.2-01")
def test_15_2_client_sends_accept(aidre_client, aidre_scenarios) -> None:
    """"Clients SHOULD send: * Accept: application/aidre+json" As AIDRE-14.1-03 (AMB-13):
    every request, the discovery GET included, lists application/aidre+json in Accept with
    a q-value above 0 (AMB-52)."""
    check_accept(aidre_client, aidre_scenarios)


@clause("AIDRE-15.2-02")
def test_15_2_client_sends_content_type(aidre_client, aidre_scenarios) -> None:
    """"Clients sending request bodies MUST send: * Content-Type: application/aidre+json" As
    AIDRE-14.1-02 (AMB-13): every request with a body is labelled application/aidre+json,
    parameters allowed (AMB-51)."""
    check_content_type(aidre_client, aidre_scenarios)
