"""v2.1 3.1 (client): v2 clients request the domain-binding profile by default."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, pka_route
from conformance.aid.v2_1._pka import accept_member, header, keyed, pka_requests, proof_works
from conformance.outcomes import clause, untestable, violation


def judge_binding_requested(client: AidClient, scenarios: AidScenarios, policy: dict | None, what: str) -> None:
    """The PKA request under ``policy`` asks for the B.7 profile: AID-Domain, and an aid-pka
    Accept-Signature whose covered set adds "aid-domain";req after "@authority";req."""
    __tracebackhide__ = True
    scenario = scenarios.new("default-binding", keyed(), routes=[pka_route()])
    client.discover(scenario, policy=policy)
    sent = pka_requests(scenario)
    if not sent:
        untestable(f"with {what} the client sent no PKA request (see AID-2.3-56)")
    member = accept_member(sent[0])
    covered = member[0] if member else []
    if header(sent[0].headers, "AID-Domain") is None or covered[3:4] != ['"aid-domain";req']:
        violation(f"with {what} the client must request domain binding (Appendix B.7: AID-Domain and "
                  f"\"aid-domain\";req after \"@authority\";req in Accept-Signature); it sent AID-Domain "
                  f"{header(sent[0].headers, 'AID-Domain')!r} and the covered set ({' '.join(covered)})")


@clause("AID-3.1-01")
def test_3_1_client_requests_binding_by_default(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients that need the endpoint's consent to the association use the domain-binding profile
    in Appendix B.7; v2 clients **SHOULD** request this by default."""
    proof_works(client, scenarios)
    judge_binding_requested(client, scenarios, None, "no policy given (the client's defaults)")
    if "aid.policy" in client.features:
        judge_binding_requested(client, scenarios, {}, "an empty policy")
