"""§3.3 Conformance Levels, client role: lower levels are tolerated; a D0 publisher is not
assumed to process queries."""

from __future__ import annotations

from conformance.adp._client_fixtures import candidate, chosen, metadata, query_requests, said, shown
from conformance.outcomes import clause, each_case, violation

NAMES = ("payroll-helper", "onboarding-guide")
#: The need sent to D0 publishers: words and a tag found in no agent id or path of the
#: publisher, so that a query sent through any path shows (AMB-67).
D0_REQUEST = {"query": "reconcile quarterly expense ledgers", "required_tags": ["finance"], "limit": 3}


@clause("ADP-3.3-06")
def test_3_3_client_tolerates_lower_levels(adp_client, adp_services) -> None:
    """"Clients SHOULD tolerate lower levels". Three services below D2: a D1 service whose
    candidates carry no score components, matched evidence or freshness; a service of unknown
    level whose /discover answers 404 and one whose /discover answers 501 (D0 publishers), with
    the agents' metadata at /agents/{id} and their ids given. Each time the client must still
    choose one of the agents offered, never an error or nothing (AMB-62)."""
    agents = [metadata(n) for n in NAMES]
    ids = [a["id"] for a in agents]
    cases = [
        ("a D1 Discovery Response (no score_components, evidence or freshness)",
         adp_services.new("level-d1", [candidate(n, 0.9 - i / 10, level="D1") for i, n in enumerate(NAMES)]), None),
        ("a service of unknown level whose /discover answers 404, with the agents' metadata",
         adp_services.new("level-d0-404", status=404, agents=agents), ids),
        ("a service of unknown level whose /discover answers 501, with the agents' metadata",
         adp_services.new("level-d0-501", status=501, agents=agents), ids),
    ]
    for what, service, known in cases:
        reply = adp_client.discover(service, agents=known)
        agent, _ = chosen(reply)
        if agent not in ids:
            violation(f"offered {what}, {said(reply)}; expected one of {ids} to be chosen from what the "
                      f"lower level offers")


@clause("ADP-3.3-07")
def test_3_3_client_does_not_query_d0_publisher(adp_client, adp_services) -> None:
    """"[Clients] MUST NOT assume that a D0 publisher supports query processing." Told that
    the publishers of a step are at level D0 (params.level), and given the ids of their agents,
    the client sends none of them a query of any form, through any path (AMB-62, AMB-67): no
    request to its Discovery path (POST, or GET with a query), no request but GET or HEAD, no
    body, and no path or query string carrying the request's words or tags (a GET
    /search?query=..., /agents?tags=..., /search/<words>). Reading metadata at /agents/{id},
    and a bare GET of another path, are not queries. Two steps: one D0 publisher; two D0
    publishers, the first holding none of the agents named, so that the client reads the
    second (every service of the step, not only the first)."""
    agents = [metadata(n) for n in NAMES]
    ids = [a["id"] for a in agents]

    def one(_):
        service = adp_services.new("publisher-d0", status=404, agents=agents)
        return [service], adp_client.discover(service, agents=ids, level="D0", request=D0_REQUEST)

    def two(_):
        first = adp_services.new("publisher-d0-empty", status=404, agents=[metadata("someone-else")])
        second = adp_services.new("publisher-d0-second", status=404, agents=agents)
        return [first, second], adp_client.discover(first, also=[second], agents=ids, level="D0", request=D0_REQUEST)

    def check(case) -> None:
        what, step = case
        services, reply = step(None)
        for n, service in enumerate(services, 1):
            queried = query_requests(service, D0_REQUEST)
            if queried:
                sent = "; ".join(f"{shown(r)} ({why})" for r, why in queried[:4])
                violation(f"{what}: publisher {n} of {len(services)} was declared D0, and the client sent it "
                          f"{len(queried)} query request(s): {sent}; {said(reply)} (reading AMB-67: a query "
                          f"through any path, not only /discover)", readings=["AMB-62", "AMB-67"])

    each_case([("one D0 publisher", one), ("two D0 publishers, the agents at the second", two)], check)
