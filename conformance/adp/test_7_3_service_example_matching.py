"""§7.3 Example-level matching: one capability of a multi-purpose agent is found by its example."""

from __future__ import annotations

from conformance.adp._service_fixtures import Probe, response_or_untestable
from conformance.outcomes import clause, untestable, violation

#: Two multi-purpose agents, each with examples of two unrelated capability modes. The query
#: restates each agent's SECOND example, so a service that matches only an agent's first example,
#: or its description and tags, cannot tell them apart.
AGENTS = {
    "multi-x": ["Convert a scanned restaurant menu into a vegan shopping list",
                "Reconcile quarterly payroll ledgers against bank statements"],
    "multi-y": ["Estimate rooftop solar panel output for a given postcode",
                "Translate a Japanese supplier contract into English"],
}
#: The same broad description for both: neither mode is named in it (AMB-49).
DESCRIPTION = "A multi-purpose probe agent the conformance kit registered; its examples show what it does."


@clause("ADP-7.3-01")
def test_7_3_example_level_matching(service: Probe) -> None:
    """For multi-purpose agents, example-level matching is RECOMMENDED: two agents registered with
    the same description and tags, each with examples of two unrelated capability modes; a query
    restating one agent's second example (limited by the shared tag to the two of them) favours
    that agent, for each agent in turn: by score when both carry one (each query's own agent on
    the same side, never a tie), else by rank, first (AMB-15, AMB-49)."""
    service.require_registration()
    shared = f"adck-{service.token}-modes"
    ids = {}
    for slug, texts in AGENTS.items():
        metadata = service.kit_metadata(slug, description=DESCRIPTION, tags=[shared, "adck-probe"],
                                        examples=[{"id": f"ex-{i + 1}", "text": t} for i, t in enumerate(texts)])
        service.register(metadata, what=f"registering the multi-purpose agent {slug}")
        ids[slug] = metadata["id"]
    problems, sides, found = [], [], 0
    for slug, texts in AGENTS.items():
        other = next(s for s in AGENTS if s != slug)
        answer = service.discover({"query": texts[1], "required_tags": [shared], "include_evidence": True,
                                   "limit": 10})
        response_or_untestable(answer, "a request restating one example of a registered agent")
        ranked = [i for i in answer.ids if i in ids.values()]
        found += bool(ranked)
        if not ranked:
            continue  # neither agent discoverable yet, which the draft leaves to the service (AMB-54)
        if ids[slug] not in ranked:
            problems.append(f"the query {texts[1]!r} (restating example 2 of {slug}) does not return {slug} "
                            f"(candidates {repr(answer.ids[:5])[:300]})")
            continue
        scores = {c.get("id"): c.get("score") for c in answer.candidates}
        mine, theirs = scores.get(ids[slug]), scores.get(ids[other])
        evidence = next((c.get("matched_examples") for c in answer.candidates if c.get("id") == ids[slug]), None)
        said = (f"the query {texts[1]!r}, restating example 2 of {slug}, gives it score {mine!r} and {other} "
                f"score {theirs!r} (matched_examples {repr(evidence)[:200]})")
        if ids[other] in ranked and all(_number(s) for s in (mine, theirs)):
            # scores decide, whichever way the service orders them (AMB-15): the two queries must
            # favour their own agent alike
            if mine == theirs:
                problems.append(f"{said}: alike, so the example made no difference")
            sides.append((mine > theirs, said))
        elif ranked[0] != ids[slug]:
            problems.append(f"{said}, and ranks {other} first")
    if not found:
        untestable("neither registered agent is returned by a request for its shared tag: registrations not "
                   "discoverable yet (AMB-54)")
    if len(sides) == 2 and sides[0][0] != sides[1][0] and not problems:
        problems.append(f"the two queries favour different agents by score: {sides[0][1]}; {sides[1][1]}")
    if problems:
        violation("; ".join(problems), readings=("AMB-49",))


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
