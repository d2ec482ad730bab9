"""§5.1 Discovery Request, as a service honours it: limit and protocols."""

from __future__ import annotations

from conformance.adp._service_fixtures import Probe, names_filter, reached
from conformance.outcomes import clause, untestable, violation


@clause("ADP-5.1-21")
def test_5_1_limit_is_the_maximum_number_of_candidates(service: Probe) -> None:
    """| limit | integer | MAY | Maximum number of candidates |: a response to a request with limit
    n holds at most n candidates, for n = 0, 1, 2, 7 and 1000 (beyond any maximum), with and
    without filters, and for the seed's requests. limit 0 may also be refused with an error
    (AMB-43)."""
    bodies = [{"query": "find an agent", "limit": n} for n in (0, 1, 2, 7, 1000)]
    bodies += [{"query": "translate a document", "required_tags": ["translation"], "limit": 1},
               {"query": "agent", "protocols": ["https"], "limit": 0, "include_evidence": True}]
    bodies += [b for b in service.generated_requests() if "limit" in b]
    problems, judged = [], 0
    for body in bodies:
        answer = service.discover(body)
        reached(answer, f"a request with limit {body['limit']}")
        if not answer.is_response:
            continue
        judged += 1
        if len(answer.candidates) > body["limit"]:
            problems.append(f"limit {body['limit']} answered with {len(answer.candidates)} candidates")
    if not judged:
        untestable("no request with a limit was answered with a Discovery Response (see ADP-3.3-02)")
    if problems:
        violation("; ".join(problems[:5]))


@clause("ADP-5.1-22")
def test_5_1_protocols_are_the_acceptable_ones(service: Probe) -> None:
    """| protocols | array of string | MAY | Acceptable protocols |: with protocols in the request,
    every candidate that carries bindings has at least one binding whose protocol is in the list
    (compared case-insensitively, AMB-41): ["http"] alone (not "https"), ["grpc"], ["a2a", "mcp"],
    ["https"], and the seed's requests."""
    bodies = [{"query": "find an agent", "protocols": p, "limit": 50, "detail": "full"}
              for p in (["http"], ["grpc"], ["a2a", "mcp"], ["https"])]
    bodies += [b for b in service.generated_requests() if b.get("protocols")]
    problems, judged = [], 0
    for body in bodies:
        answer = service.discover(body)
        reached(answer, f"a request with protocols {body['protocols']}")
        if not answer.is_response:
            continue
        if names_filter(answer.list_member("unsupported_filters"), "protocols"):
            continue  # reported as not applied: ADP-5.2-02's case
        asked = {p.casefold() for p in body["protocols"]}
        for c in answer.candidates:
            bindings = c.get("bindings")
            if not isinstance(bindings, list) or not bindings:
                continue
            judged += 1
            have = [b.get("protocol") for b in bindings if isinstance(b, dict)]
            if not any(isinstance(p, str) and p.casefold() in asked for p in have):
                problems.append(f"protocols {body['protocols']}: candidate {c.get('id')!r} has bindings {have}")
    if not judged:
        untestable("no request with protocols returned a candidate with bindings")
    if problems:
        violation(f"{len(problems)} candidates: " + "; ".join(problems[:4]))
