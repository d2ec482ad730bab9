"""v2.1 3.2 (client): the threat model's defence against unauthorized association, requested by default."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios
from conformance.aid.v2_1._pka import proof_works
from conformance.aid.v2_1.test_3_1_client_binding import judge_binding_requested
from conformance.outcomes import clause

#: Policies that set other knobs and leave domain-binding at its default.
OTHER_KNOBS = ({"mode": "balanced"}, {"pka": "require"}, {"pka": "if-present"}, {"dnssec": "prefer"},
               {"downgrade": "warn"}, {"well-known": "auto"}, {"pka": "require", "downgrade": "fail"})


@clause("AID-3.2-17")
def test_3_2_client_requests_binding_whatever_else_the_policy_sets(client: AidClient, scenarios: AidScenarios) -> None:
    """**Unauthorized association:** the domain-binding profile (Appendix B.7), which v2 clients
    SHOULD request by default."""
    client.needs("aid.policy", "a policy setting other knobs leaves domain binding at its default")
    proof_works(client, scenarios)
    for policy in OTHER_KNOBS:
        judge_binding_requested(client, scenarios, policy, f"the policy {policy} (domain-binding not named)")
