"""§6.3 Score Components, client role: scores are local to a service; unknown components are
ignored."""

from __future__ import annotations

import math

from conformance.adp._client_fixtures import candidate, must_choose, said
from conformance.outcomes import clause, each_case, violation

#: What is done to the second service's scores, its order kept (AMB-60, AMB-70): rescalings,
#: and an increasing function that is no rescaling (the square root).
TRANSFORMS = {"x1": lambda s: s, "x0.5": lambda s: s * 0.5, "x100": lambda s: s * 100,
              "square root": math.sqrt}


def _two_services(adp_services, transform, name: str):
    a = adp_services.new(f"{name}-a", [candidate("alpha-one", 0.62), candidate("alpha-two", 0.40)])
    b = adp_services.new(f"{name}-b", [candidate("beta-one", round(transform(0.71), 4)),
                                       candidate("beta-two", round(transform(0.45), 4))])
    return a, b


@clause("ADP-6.3-01")
def test_6_3_client_does_not_compare_scores_across_services(adp_client, adp_services) -> None:
    """"Clients MUST NOT compare scores from different discovery services unless a common
    scoring profile is explicitly defined." Two services with no common scoring profile; the
    second one's scores are multiplied by 1, by 0.5 and by 100, and replaced by their square
    roots (its own scale, its order kept), nothing else changed. A client that does not compare
    scores across the services makes the same choice each time; one that compares raw scores
    chooses the second service's best at one scale and the first's at another, and one that
    compares each service's scores normalised (by their sum) does so between the rescalings and
    the square root (AMB-60, AMB-70: the kit's reading of "compare")."""
    choices = []
    for label, transform in TRANSFORMS.items():
        a, b = _two_services(adp_services, transform, "scale")
        reply = adp_client.discover(a, also=[b])
        agent, endpoint = must_choose(reply, "candidates of two services")
        choices.append((label, agent, endpoint, said(reply)))
    if len({(agent, endpoint) for _, agent, endpoint, _ in choices}) > 1:
        violation("the same two services, only the second one's scores changed, their order kept: "
                  + "; ".join(f"scores {label}: {text}" for label, _, _, text in choices),
                  readings=["AMB-60", "AMB-70"])


UNKNOWN = {"x_latency_ms": 3.5, "x_sponsor": "acme", "x_trust": {"level": 9, "by": "x"}, "x_boost": None,
           "x_weight": 1000}
#: Names that differ from the recommended ones only in case or by a space: unknown components
#: too, since names are case-sensitive and compared whole (AMB-70).
NEAR = {"TAG": 0.99, "Context": 0.99, "example ": 0.99}


@clause("ADP-6.3-04")
def test_6_3_client_ignores_unknown_score_components(adp_client, adp_services) -> None:
    """"Unknown components MUST be ignored by clients that do not understand them." The same
    Discovery Response, offered without and with score components the draft does not name, on
    its candidates, larger on the service's second candidate: names of their own (numbers large
    and small, a string, an object, null), and near misses of the recommended names (TAG,
    Context, "example " with a space: names are case-sensitive and compared whole). The client chooses the same
    candidate and binding, and does not fail (AMB-65, AMB-70)."""
    def offer(extra: dict | None, tag: str) -> dict:
        first, second = candidate("first-choice", 0.9), candidate("second-choice", 0.7)
        if extra is not None:
            first["score_components"] = {**first["score_components"], "x_sponsor": "none", "x_weight": 1}
            second["score_components"] = {**second["score_components"], **extra}
        return adp_client.discover(adp_services.new(f"components-{tag}", [first, second], unknown=tuple(NEAR)))

    def check(case) -> None:
        what, extra = case
        before = offer(None, "known")
        must_choose(before, "candidates with the recommended components only")
        after = offer(extra, "unknown")
        if (after.get("candidate"), after.get("invocation")) != (before.get("candidate"), before.get("invocation")):
            violation(f"with unknown score components ({what}: {', '.join(extra)}), {said(after)}; without them "
                      f"{said(before)}", readings=["AMB-65", "AMB-70"])

    each_case([("names of their own", UNKNOWN), ("near misses of the recommended names", NEAR)], check)
