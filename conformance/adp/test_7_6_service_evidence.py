"""§7.6 Matching evidence: never another client's query."""

from __future__ import annotations

from conformance.adp._service_fixtures import Probe, matching_evidence, reached, response_or_untestable
from conformance.outcomes import clause, untestable, violation

#: Evidence members a candidate may carry (7.6's list, as far as the draft gives them fields, AMB-08).
EVIDENCE = ("matched_tags", "matched_examples", "score_components", "freshness")


@clause("ADP-7.6-01")
def test_7_6_evidence_when_requested(service: Probe) -> None:
    """When include_evidence is true, a discovery response SHOULD include at least one of: matched
    tags; matched examples; matched description snippets; score components; applied filters;
    rejected hard constraints; or freshness indicators: each response to the seed's requests with
    include_evidence (detail full), to the draft's 5.4 request (detail summary) and to one with no
    filter has a non-empty applied_filters or a candidate carrying matched_tags, matched_examples,
    score_components, freshness or matched description snippets (a member so named, AMB-08)."""
    bodies = service.evidence_requests()
    problems, judged = [], 0
    for body in bodies:
        answer = service.discover(body)
        reached(answer, "a request with include_evidence")
        if not answer.is_response or not answer.candidates:
            continue
        judged += 1
        applied = answer.member("applied_filters")
        if not any(k in c for c in answer.candidates for k in EVIDENCE) and \
                not any(matching_evidence(c, answer.value) for c in answer.candidates):
            problems.append(f"a request with include_evidence (detail {body.get('detail')}) got {len(answer.candidates)} "
                            f"candidates with none of {list(EVIDENCE)} or matched description snippets, and "
                            f"applied_filters {applied!r}")
    if not judged:
        untestable("no request with include_evidence returned a candidate (see ADP-3.3-02)")
    if problems:
        violation(f"{len(problems)} of {judged} responses: " + "; ".join(problems[:3]), readings=("AMB-08",))



@clause("ADP-7.6-02")
def test_7_6_evidence_never_discloses_other_clients_queries(service: Probe) -> None:
    """Evidence MUST NOT disclose private metadata or private user queries from other clients: a
    request holding a unique marker in query and client_context, sent as one client, then
    requests with include_evidence at every detail as another client (a different client_context,
    AMB-23): the marker appears nowhere in their bodies."""
    marker = f"adckmarker{service.token}"
    first = service.discover({"query": f"confidential acquisition plan {marker} translate board minutes",
                              "client_context": {"client_id": f"adck-a-{service.token}", "domain": marker},
                              "limit": 5})
    reached(first, "the first client's request")
    seen = []
    for detail in ("summary", "full", "minimal"):
        answer = service.discover({"query": "translate board minutes", "include_evidence": True, "detail": detail,
                                   "client_context": {"client_id": f"adck-b-{service.token}"}, "limit": 10})
        response_or_untestable(answer, "the second client's request")
        if marker in answer.text:
            at = answer.text.index(marker)
            seen.append(f"detail {detail}: ...{answer.text[max(0, at - 80):at + len(marker) + 20]}...")
    if seen:
        violation(f"another client's query marker {marker} appears in the answer: " + "; ".join(seen[:2]))
