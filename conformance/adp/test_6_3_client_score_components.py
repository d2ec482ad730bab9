"""§6.3 Score Components, client role: scores are local to a service; unknown components are
ignored."""

from __future__ import annotations

from conformance.adp._client_fixtures import candidate, must_choose, said
from conformance.outcomes import clause, violation


def _two_services(adp_services, scale: float, name: str):
    a = adp_services.new(f"{name}-a", [candidate("alpha-one", 0.62), candidate("alpha-two", 0.40)])
    b = adp_services.new(f"{name}-b", [candidate("beta-one", round(0.71 * scale, 4)),
                                       candidate("beta-two", round(0.45 * scale, 4))])
    return a, b


@clause("ADP-6.3-01")
def test_6_3_client_does_not_compare_scores_across_services(adp_client, adp_services) -> None:
    """"Clients MUST NOT compare scores from different discovery services unless a common
    scoring profile is explicitly defined." Two services with no common scoring profile; the
    second one's scores are multiplied by 1, by 0.5 and by 100 (its own scale, order kept),
    nothing else changed. A client that does not compare scores across the services makes the
    same choice each time; one that compares raw scores chooses the second service's best at one
    scale and the first's at another (AMB-60: the kit's reading of "compare")."""
    choices = []
    for scale in (1.0, 0.5, 100.0):
        a, b = _two_services(adp_services, scale, "scale")
        reply = adp_client.discover(a, also=[b])
        agent, endpoint = must_choose(reply, "candidates of two services")
        choices.append((scale, agent, endpoint, said(reply)))
    if len({(agent, endpoint) for _, agent, endpoint, _ in choices}) > 1:
        violation("the same two services, only the second one's score scale changed: "
                  + "; ".join(f"scores x{scale}: {text}" for scale, _, _, text in choices))


UNKNOWN = {"x_latency_ms": 3.5, "x_sponsor": "acme", "x_trust": {"level": 9, "by": "x"}, "x_boost": None,
           "x_weight": 1000}


@clause("ADP-6.3-04")
def test_6_3_client_ignores_unknown_score_components(adp_client, adp_services) -> None:
    """"Unknown components MUST be ignored by clients that do not understand them." The same
    Discovery Response, offered without and with score components the draft does not name
    (numbers large and small, a string, an object, null) on its candidates, larger on the
    service's second candidate: the client chooses the same candidate and binding, and does
    not fail (AMB-65)."""
    def offer(unknown: bool) -> dict:
        first, second = candidate("first-choice", 0.9), candidate("second-choice", 0.7)
        if unknown:
            first["score_components"] = {**first["score_components"], "x_sponsor": "none", "x_weight": 1}
            second["score_components"] = {**second["score_components"], **UNKNOWN}
        return adp_client.discover(adp_services.new("components-unknown" if unknown else "components-known",
                                                    [first, second]))

    before = offer(False)
    must_choose(before, "candidates with the recommended components only")
    after = offer(True)
    if (after.get("candidate"), after.get("invocation")) != (before.get("candidate"), before.get("invocation")):
        violation(f"with unknown score components ({', '.join(UNKNOWN)}), {said(after)}; without them {said(before)}")
