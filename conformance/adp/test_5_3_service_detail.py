"""§5.3 detail, as a service honours it: minimal asks for identifiers, status and endpoints."""

from __future__ import annotations

from conformance.adp._service_fixtures import PROVENANCE, Probe, reached, snippet_members
from conformance.outcomes import clause, untestable, violation

#: What a minimal candidate may hold (AMB-16), and the provenance a federated one may keep (AMB-44).
MINIMAL = {"id", "status", "bindings", "redacted", *PROVENANCE}
#: What a minimal candidate may hold besides when include_evidence is true: 7.6's evidence (AMB-16).
EVIDENCE = {"matched_tags", "matched_examples", "score_components", "freshness"}


@clause("ADP-5.3-01")
def test_5_3_minimal_detail(service: Probe) -> None:
    """A value of minimal requests only identifiers, status, and enough endpoint data to continue
    resolution: candidates of detail=minimal responses hold no member beyond id, status, bindings
    and redacted, and the provenance of a federated candidate (AMB-16, AMB-44); with
    include_evidence true, which asks for evidence (7.6), also the evidence members (matched tags
    and examples, score components, freshness, snippets so named): where both sentences apply,
    the answer either allows is accepted."""
    bodies = [{"query": "find an agent", "detail": "minimal", "limit": 50},
              {"query": "review a contract", "detail": "minimal", "include_evidence": True, "limit": 10}]
    problems, judged = [], 0
    for body in bodies:
        answer = service.discover(body)
        reached(answer, "a request with detail minimal")
        for c in answer.candidates:
            judged += 1
            # include_evidence true asks for evidence too (7.6): where both apply, either is right
            allowed = MINIMAL | (EVIDENCE | set(snippet_members(c)) if body.get("include_evidence") is True else set())
            extra = sorted(set(c) - allowed)
            if extra:
                problems.append(f"candidate {c.get('id')!r} (include_evidence {body.get('include_evidence', 'absent')}) "
                                f"holds {extra}")
    if not judged:
        untestable("no request with detail minimal returned a candidate")
    if problems:
        violation(f"{len(problems)} of {judged} minimal candidates: " + "; ".join(problems[:4]), readings=("AMB-16",))
