"""§5.2 Hard filters: required_tags and excluded_tags applied as hard filters; a hard filter the
service cannot apply reported in the response."""

from __future__ import annotations

from typing import Any

from conformance.adp._service_fixtures import Probe, names_filter, reached, tag_set
from conformance.outcomes import clause, untestable, violation


def candidate_tags(service: Probe, candidate: dict) -> set[str] | None:
    """The candidate's tags: its own tags member (detail=full), else its metadata (GET)."""
    if isinstance(candidate.get("tags"), list):
        return tag_set(candidate["tags"])
    if not isinstance(candidate.get("id"), str):
        return None
    answer = service.get_agent(candidate["id"])
    value = answer.value
    return tag_set(value.get("tags", [])) if answer.ok and isinstance(value, dict) else None


def kit_tag(tag: str) -> bool:
    """A tag the kit made up (adck-...): in no service's taxonomy, so only an agent that holds
    it matches it, never one matched by expansion (AMB-58)."""
    return tag.startswith("adck-")


@clause("ADP-5.2-01")
def test_5_2_required_and_excluded_tags_are_hard_filters(service: Probe) -> None:
    """A discovery service MUST apply required_tags and excluded_tags as hard filters when it
    supports the corresponding taxonomy: over the seed's requests (filter combinations, empty
    and huge tag lists) and a few fixed ones, no candidate lacks a required tag (its tags hold
    it, or its matched_tags names it: matched by the service's taxonomy, AMB-58, never so for a
    tag the kit made up) and none holds
    an excluded one, unless unsupported_filters names that filter (AMB-12)."""
    bodies = [b for b in service.generated_requests() if b.get("required_tags") or b.get("excluded_tags")]
    bodies += [{"query": "hr onboarding", "required_tags": ["hr"], "limit": 50, "detail": "full",
                "include_evidence": True},
               {"query": "translate", "required_tags": ["translation", "english"], "limit": 50, "detail": "full",
                "include_evidence": True},
               {"query": "answer a question", "excluded_tags": ["qa"], "limit": 50, "detail": "full"},
               {"query": "analytics", "required_tags": ["analytics"], "excluded_tags": ["sql"], "limit": 50,
                "detail": "full", "include_evidence": True}]
    problems, judged = [], 0
    for body in bodies:
        answer = service.discover(body)
        reached(answer, "a request with tag filters")
        if not answer.is_response:
            continue
        unsupported = answer.list_member("unsupported_filters")
        required = set() if names_filter(unsupported, "required_tags") else tag_set(body.get("required_tags"))
        excluded = set() if names_filter(unsupported, "excluded_tags") else tag_set(body.get("excluded_tags"))
        for c in answer.candidates:
            tags = candidate_tags(service, c)
            if tags is None:
                continue
            judged += 1
            # a required tag the candidate's matched_tags names was matched by the service's
            # taxonomy ("Tags matched directly or by expansion", AMB-58)
            lacking = required - tags - {t for t in tag_set(c.get("matched_tags")) if not kit_tag(t)}
            if lacking:
                problems.append(f"candidate {c.get('id')!r} lacks required {sorted(lacking)[:3]} "
                                f"(its tags: {sorted(tags)[:6]}; matched_tags: {repr(c.get('matched_tags', '(absent)'))[:120]})")
            if excluded & tags:
                problems.append(f"candidate {c.get('id')!r} holds excluded {sorted(excluded & tags)[:3]}")
    if not judged:
        untestable("no request with tag filters returned a candidate whose tags could be read")
    if problems:
        violation(f"{len(problems)} breaches over {len(bodies)} requests: " + "; ".join(problems[:4]),
                  readings=("AMB-12", "AMB-41", "AMB-58"))


#: Constraints no service is known to apply: each is a hard filter the kit asks for.
ODD_CONSTRAINTS = ("unsupported_private_filter", "net.adck.max_cost_usd", "latency_budget_ms")


#: The declaration (profile.toml [declarations]) that the service treats the constraints it does
#: not know as hard filters (9.3 leaves that to it, AMB-12).
HARD = "unknown-constraints-hard"


def unknown_to_any(name: str) -> bool:
    """A constraint no service can apply: the kit's own namespace, or the draft's example of an
    unsupported one (9.3)."""
    return name.startswith("net.adck.") or name == "unsupported_private_filter"


def unreported(answer, body: dict, hard: bool = False) -> list[str]:
    """The filters of ``body`` the response shows it did not apply (a warning names them) that
    unsupported_filters does not name (AMB-12). ``hard``: the service is declared to treat
    unknown constraints as hard filters, so those no service can apply count as unapplied
    whatever the response says."""
    reported = answer.list_member("unsupported_filters")
    warnings = " ".join(w for w in answer.list_member("warnings") if isinstance(w, str))
    sent = [f"constraints.{k}" for k in body.get("constraints", {})] + \
           [k for k in ("required_tags", "excluded_tags", "protocols") if k in body]
    return [name for name in sent if (name.removeprefix("constraints.") in warnings
                                      or hard and name.startswith("constraints.")
                                      and unknown_to_any(name.removeprefix("constraints.")))
            and not names_filter(reported, name)]


def judge_reporting(service: Probe, bodies: list[dict], declarations: dict[str, Any] | None = None) -> None:
    """Each request's unapplied hard filters are in unsupported_filters, or it failed (AMB-12);
    with ``unknown-constraints-hard`` declared, every constraint no service can apply is one."""
    __tracebackhide__ = True
    hard = HARD in (declarations or {})
    problems, judged = [], 0
    for body in bodies:
        answer = service.discover(body)
        reached(answer, "a request with a hard filter the service may not support")
        if answer.refused:
            judged += 1  # failing the request is the other way to report it
            continue
        if not answer.is_response:
            continue
        judged += 1
        missed = unreported(answer, body, hard)
        if missed:
            problems.append(f"{missed} not applied (warnings: {answer.list_member('warnings')[:2]}"
                            f"{'; unknown constraints are declared hard' if hard else ''}) but "
                            f"unsupported_filters is {answer.member('unsupported_filters')!r}")
    if not judged:
        untestable("no request with an unsupported filter was answered")
    if problems:
        violation("; ".join(problems[:4]) + " (a filter is named bare or by a path to it in any notation, never by its "
                  "value: AMB-12)", readings=("AMB-12", "AMB-46"))


@clause("ADP-5.2-02")
def test_5_2_unapplied_hard_filter_is_reported(service: Probe, adck_declarations: dict[str, Any]) -> None:
    """If it cannot apply a hard filter, it MUST report that limitation in the response: a
    request with constraints the service says it did not apply (a warning naming them) lists
    them in unsupported_filters (bare or as constraints.NAME), or the request fails; a warning
    alone does not suffice (AMB-12). With ``--declare unknown-constraints-hard``, the constraints
    no service can apply are judged unapplied whatever the response says."""
    judge_reporting(service, [{"query": "find an agent", "constraints": {k: "adck"}, "limit": 5}
                              for k in ODD_CONSTRAINTS], adck_declarations)
