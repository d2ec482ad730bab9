"""v2.1 4 (client): the PKA request is not to be stored."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, pka_route
from conformance.aid.v2_1._pka import header, keyed, pka_requests, proof_works
from conformance.outcomes import clause, untestable, violation


@clause("AID-4-19")
def test_4_client_sends_no_store_on_pka_requests(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **SHOULD** also send `Cache-Control: no-store` on PKA requests."""
    proof_works(client, scenarios)
    policies: list[dict | None] = [None]
    if "aid.policy" in client.features:
        policies += [{"domain-binding": "off"}, {"domain-binding": "require"}]
    for policy in policies:
        scenario = scenarios.new("no-store", keyed(), routes=[pka_route()])
        client.discover(scenario, policy=policy)
        sent = pka_requests(scenario)
        if not sent:
            untestable("the client sent no PKA request (see AID-2.3-56)")
        for request in sent:
            value = header(request.headers, "Cache-Control")
            directives = [d.split("=")[0].strip().lower() for d in (value or "").split(",")]
            if "no-store" not in directives:
                violation(f"the PKA request (policy {policy or 'default'}) carries Cache-Control {value!r}, without "
                          "the no-store directive")
