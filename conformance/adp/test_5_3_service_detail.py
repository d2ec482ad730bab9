"""§5.3 detail, as a service honours it: minimal asks for identifiers, status and endpoints."""

from __future__ import annotations

from conformance.adp._service_fixtures import PROVENANCE, Probe, reached
from conformance.outcomes import clause, untestable, violation

#: What a minimal candidate may hold (AMB-16), and the provenance a federated one must keep (AMB-44).
MINIMAL = {"id", "status", "bindings", "redacted", *PROVENANCE}


@clause("ADP-5.3-01")
def test_5_3_minimal_detail(service: Probe) -> None:
    """A value of minimal requests only identifiers, status, and enough endpoint data to continue
    resolution: candidates of detail=minimal responses (with and without include_evidence) hold
    no member beyond id, status, bindings and redacted, and the provenance of a federated
    candidate (AMB-16, AMB-44)."""
    bodies = [{"query": "find an agent", "detail": "minimal", "limit": 50},
              {"query": "review a contract", "detail": "minimal", "include_evidence": True, "limit": 10}]
    problems, judged = [], 0
    for body in bodies:
        answer = service.discover(body)
        reached(answer, "a request with detail minimal")
        for c in answer.candidates:
            judged += 1
            extra = sorted(set(c) - MINIMAL)
            if extra:
                problems.append(f"candidate {c.get('id')!r} holds {extra}")
    if not judged:
        untestable("no request with detail minimal returned a candidate")
    if problems:
        violation(f"{len(problems)} of {judged} minimal candidates: " + "; ".join(problems[:4]))
