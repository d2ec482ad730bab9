"""§3.3 Conformance Levels, as a discovery service meets them: D1 (tag and protocol filters,
ranked candidates) and D2 (evidence, freshness and score components when requested)."""

from __future__ import annotations

import pytest

from conformance.adp._service_fixtures import (
    Answer,
    Probe,
    matching_evidence,
    reached,
    snippet_members,
    well_formed_refusal,
)
from conformance.outcomes import clause, not_applicable, not_judged, untestable, violation

#: The members of a Discovery Request (5.1): requests with others are ADP-4.7-01's.
KNOWN = {"query", "required_tags", "preferred_tags", "excluded_tags", "protocols", "constraints", "limit",
         "include_evidence", "detail", "client_context"}
#: What a service that answers no Discovery Request at all answers one (AMB-01): no such resource,
#: method or feature. Any other answer is an answer of a service that offers D1.
NOT_OFFERED = (404, 405, 501)
#: The members of a candidate that show D2's evidence, freshness or score components (7.6).
D2_MEMBERS = ("matched_tags", "matched_examples", "freshness", "score_components")
#: Those that show D2 itself: freshness alone does not, since 4.9 asks every discovery service
#: to expose it ("Discovery services SHOULD expose when a result was indexed"), D1 ones included.
D2_SHOWN = ("matched_tags", "matched_examples", "score_components")


def shows_d2(candidate: dict) -> list[str]:
    """D2's own members a candidate carries: matched tags or examples, score components, or
    matched description snippets under a name that says so (AMB-08)."""
    return [n for n in D2_SHOWN if candidate.get(n) is not None] + snippet_members(candidate)


def _claims(request: pytest.FixtureRequest, level: str) -> bool:
    """Whether the user declared (``--level``) this level or a higher one of the draft."""
    declared = request.config.getoption("adck_level", None)
    return declared is not None and declared >= level


def absent(request: pytest.FixtureRequest, level: str, where: str, operation: str) -> None:
    """The service answered at the assumed binding as a service without the operation does
    (404, 405, 501). The draft defines no binding (AMB-01), so the kit cannot tell a service
    without D1 from one that offers it elsewhere: the level is *not found*, never failed. When
    the user claims the level (``--level``), the kit cannot judge the claim: exit 2, one line.
    The not-applicable message completes "D1 …" up to its first ";" (the verdict line)."""
    __tracebackhide__ = True
    if _claims(request, level):
        not_judged(f"{request.config.getoption('adck_level')} is claimed (--level) but {level} was not found at "
                   f"{where}: name the path with --binding {operation}=PATH")
    not_applicable(f"not found at {where}: name the path with --binding; the draft defines no binding, so the "
                   "kit assumed this one (AMB-01), and a service that does not offer it answers so too")


#: The request of 9.2 (a D1 request with a protocol filter), as the draft gives it.
QUERY_9_2 = {"query": "answer a short factual question", "protocols": ["https"], "limit": 1}


def _direction_breaks(answer: Answer) -> str | None:
    """Where the scores of a ranked list go both up and down (AMB-15), or None."""
    scores = [c.get("score") for c in answer.candidates]
    if len(scores) < 3 or not all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores):
        return None
    down = all(a >= b for a, b in zip(scores, scores[1:]))
    up = all(a <= b for a, b in zip(scores, scores[1:]))
    return None if down or up else f"scores in list order {scores[:12]}"


@clause("ADP-3.3-02")
def test_3_3_d1_filters_and_ranked_candidates(service: Probe, request: pytest.FixtureRequest) -> None:
    """| D1 | Structured Discovery | Support Discovery Requests with tag and protocol filters and
    return ranked candidates. |: the seed's requests with required_tags, excluded_tags and
    protocols, the draft's 9.2 request, and the whole catalogue, are answered with Discovery Responses whose candidates
    are in rank order, best first: scores never go both up and down the list (AMB-15). A request
    of the kit's with over 100 tags in its lists may be refused with an error object (AMB-57).
    A service that answers no Discovery Request at all (404, 405, 501) does not offer D1: the
    row does not apply to it, unless it claims D1 (``--level``)."""
    catalog = service.catalog()
    reached(catalog, "the catalogue request")
    if catalog.status in NOT_OFFERED:
        absent(request, "D1", f"POST {service.discover_url} ({catalog.status})", "discover")
    if not catalog.is_response:
        violation(f"the catalogue request {service.discover_url} was answered {catalog.describe()}: the service "
                  "answers no Discovery Request (at most D0, AMB-01)")
    bodies = [b for b in service.generated_requests() if (b.get("required_tags") or b.get("excluded_tags")
                                                          or b.get("protocols")) and set(b) <= KNOWN]
    bodies.append({"query": "translate a document", "required_tags": ["translation"], "excluded_tags": ["french"],
                   "protocols": ["https", "a2a"]})
    bodies.append(QUERY_9_2)  # the draft's own D1 request (9.2)
    problems = []
    for body in [None, *bodies]:
        answer = catalog if body is None else service.discover(body)
        reached(answer, "a Discovery Request with filters")
        what = "the catalogue request" if body is None else f"a request with filters {_filters(body)}"
        if body is not None and _tags_in(body) > MANY_TAGS and answer.status in BOUND and well_formed_refusal(answer):
            continue  # a bound on the kit's lists of hundreds of tags, said with an error object (AMB-57)
        if not answer.is_response:
            problems.append(f"{what} was answered {answer.describe()}")
            continue
        broken = _direction_breaks(answer)
        if broken:
            problems.append(f"{what}: candidates not in rank order ({broken})")
    if problems:
        violation(f"{len(problems)} of {len(bodies) + 1} requests: " + "; ".join(problems[:4]), readings=("AMB-15", "AMB-57"))


#: More tags than this in a request's lists is the kit's stress case (AMB-41): a service may bound
#: them, refusing such a request with an error object, and still support tag filters (AMB-57).
MANY_TAGS = 100
#: The statuses of such a refusal: a request the service will not take as it stands (RFC 9110
#: 400, 413, 422); a 404 says nothing matched, which is no bound (ADP-9.2-01).
BOUND = (400, 413, 422)


def _tags_in(body: dict) -> int:
    return sum(len(body.get(n)) for n in ("required_tags", "preferred_tags", "excluded_tags") if isinstance(body.get(n), list))


def _filters(body: dict) -> str:
    return ", ".join(f"{k}={body[k]!r}"[:80] for k in ("required_tags", "excluded_tags", "protocols") if k in body)


@clause("ADP-3.3-03")
def test_3_3_d2_evidence_freshness_score_components(service: Probe, request: pytest.FixtureRequest) -> None:
    """| D2 | Evidence-Based Discovery | Return matching evidence, freshness data, and score
    components when requested. |: with include_evidence true (the only way to request them,
    AMB-08), every candidate carries matching evidence of 7.6's kinds other than the two the row
    names apart (matched tags or examples, matched description snippets, or the response's
    applied filters), a freshness object and a score_components object. A service that shows no matching evidence
    or score components in any answer (asked with include_evidence, or the catalogue request,
    not asked) does not offer D2: the row does not apply to it, unless it claims D2
    (``--level``). Freshness alone shows no D2: 4.9 asks every discovery service for it."""
    catalog = service.catalog()
    reached(catalog, "the catalogue request")
    if catalog.status in NOT_OFFERED:
        absent(request, "D2", f"POST {service.discover_url} ({catalog.status})", "discover")
    bodies = service.evidence_requests()
    problems, judged, shown = [], 0, False
    for body in bodies:
        answer = service.discover(body)
        reached(answer, "a request with include_evidence")
        if not answer.is_response:
            continue
        for c in answer.candidates:
            judged += 1
            shown = shown or bool(shows_d2(c))
            missing = [name for name, ok in (
                ("matching evidence (matched tags, examples or description snippets, or applied filters)",
                 bool(matching_evidence(c, answer.value))),
                ("freshness", isinstance(c.get("freshness"), dict)),
                ("score_components", isinstance(c.get("score_components"), dict))) if not ok]
            if missing:
                problems.append(f"candidate {c.get('id')!r} has no {', no '.join(missing)}")
    if not judged:
        untestable("no request with include_evidence returned a candidate (see ADP-3.3-02)")
    # shown where it was not asked for: the service has D2's members, and must give them when asked
    unasked = [c for c in catalog.candidates if shows_d2(c)] if catalog.is_response else []
    if not shown and not unasked and not _claims(request, "D2"):
        not_applicable(f"not shown: none of {judged} candidates asked with include_evidence, nor any of the catalogue "
                       "request's, carries matched_tags, matched_examples or score_components; the service does not "
                       "offer D2 (--level D2 claims it)")
    before = ""
    if not shown and unasked and problems:
        before = (f"the catalogue request, without include_evidence, returns D2's members (candidate "
                  f"{unasked[0].get('id')!r}: {', '.join(shows_d2(unasked[0]))}), "
                  "yet requests with include_evidence true do not: ")
    if problems:
        violation(f"{before}{len(problems)} of {judged} candidates asked with include_evidence: " + "; ".join(problems[:4]),
                  readings=("AMB-08",))
