"""§3.3 Conformance Levels, client role: lower levels are tolerated; a D0 publisher is not
assumed to process queries."""

from __future__ import annotations

from conformance.adp._client_fixtures import candidate, chosen, metadata, said
from conformance.outcomes import clause, violation

NAMES = ("payroll-helper", "onboarding-guide")


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
    """"[Clients] MUST NOT assume that a D0 publisher supports query processing." Told that a
    publisher is at level D0 (params.level), and given the ids of its agents, the client sends
    it no Discovery Request of any form: no request at all to its /discover path (POST or a GET
    with a query), and no Discovery Request body to any other path of it (AMB-62)."""
    agents = [metadata(n) for n in NAMES]
    ids = [a["id"] for a in agents]
    service = adp_services.new("publisher-d0", status=404, agents=agents)
    reply = adp_client.discover(service, agents=ids, level="D0")
    queried = service.queries() + [r for r in service.requests() if r.method not in ("GET", "HEAD")]
    if queried:
        shown = "; ".join(f"{r.method} {r.path}{'?' + r.query if r.query else ''}" for r in queried[:4])
        violation(f"the publisher was declared D0, and the client sent it {len(queried)} query request(s): "
                  f"{shown}; {said(reply)}")
