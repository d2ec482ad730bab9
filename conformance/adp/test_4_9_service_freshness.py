"""§4.9 updated_at, version and expires_at, as a service uses them: freshness exposed, expired
records no longer returned."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from conformance.adp._service_fixtures import CATALOG, Probe, parse_time, reached, response_or_untestable
from conformance.adp.test_7_7_service_updates import stale_case
from conformance.outcomes import clause, undeclared_choice, untestable, violation


def _words(name: object) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", str(name)).lower()) if w}


def indexed_time(fresh: dict) -> list[str]:
    """Members of a freshness object that say when the result was indexed: indexed_at (the
    draft's example), or a string member whose name holds the word indexed (AMB-45)."""
    return [str(k) for k, v in fresh.items() if isinstance(v, str) and v.strip() and "indexed" in _words(k)]


def age_shown(candidate: dict, fresh: dict) -> list[str]:
    """What shows whether a candidate's source metadata is older than a freshness constraint
    (AMB-45): a time of the metadata in its freshness object (metadata_updated_at, or a string
    member named updated or modified) or on the candidate (updated_at), an age (a number named
    age), or the answer itself (a boolean named stale, fresh, older or expired)."""
    found = [f"freshness.{k}" for k, v in fresh.items() if isinstance(v, str) and v.strip()
             and _words(k) & {"updated", "modified"}]
    found += [f"freshness.{k}" for k, v in fresh.items() if isinstance(v, (int, float)) and not isinstance(v, bool)
              and "age" in _words(k)]
    found += [f"freshness.{k}" for k, v in fresh.items() if isinstance(v, bool)
              and _words(k) & {"stale", "fresh", "older", "expired", "exceeds"}]
    if isinstance(candidate.get("updated_at"), str) and candidate["updated_at"].strip():
        found.append("updated_at")
    return found


@clause("ADP-4.9-02")
def test_4_9_indexed_time_and_age_exposed(service: Probe) -> None:
    """Discovery services SHOULD expose when a result was indexed and whether the source metadata
    is older than a client-supplied freshness constraint: each candidate's freshness tells when
    it was indexed (indexed_at, the draft's example, or a member so named); and where the request
    supplies a freshness constraint (max_results_age_seconds 1), each candidate shows whether its
    metadata is older: a warning naming it, or a time, age or flag of its metadata from which it
    can be told (AMB-13, AMB-45). The catalogue request supplies none, so only the indexing time
    is asked of it. A candidate without any freshness object is judged by ADP-10-05."""
    aged = service.discover({"query": "find an agent", "limit": 10,
                             "constraints": {"max_results_age_seconds": 1}, "include_evidence": True})
    answers = [service.catalog(), aged]
    problems, judged = [], 0
    for answer in answers:
        reached(answer, "a Discovery Request")
        warnings = " ".join(w for w in answer.list_member("warnings") if isinstance(w, str))
        for c in answer.candidates:
            fresh = c.get("freshness")
            if not isinstance(fresh, dict):
                continue  # no freshness object at all: ADP-10-05's observation
            judged += 1
            missing = [] if indexed_time(fresh) else ["when it was indexed (indexed_at)"]
            if answer is aged and not age_shown(c, fresh) and str(c.get("id")) not in warnings:
                missing.append("whether its metadata is older than max_results_age_seconds 1 (no metadata time, age "
                               "or flag, and no warning naming it)")
            if missing:
                problems.append(f"candidate {c.get('id')!r} freshness {fresh!r} shows not {' nor '.join(missing)}")
    if not judged:
        untestable("no candidate carried a freshness object (see ADP-10-05)")
    if problems:
        violation(f"{len(problems)} of {judged} candidates: " + "; ".join(problems[:4]), readings=("AMB-45",))


@clause("ADP-4.9-01")
def test_4_9_updated_at_rejects_stale_metadata(service: Probe) -> None:
    """The updated_at or version field SHOULD be used to reject stale metadata: registering an
    agent's metadata with an earlier updated_at than the record's is refused, or leaves the newer
    record in place (the same observation as ADP-7.7-03, AMB-13)."""
    stale_case(service)


#: The declaration (profile.toml [declarations]) of a local policy that allows stale results.
STALE_ALLOWED = "stale-results-allowed"


def _passed(value: Any, now: datetime) -> bool:
    """Is ``value`` an RFC 3339 time at or before ``now`` (AMB-13)?"""
    until = parse_time(value)
    return until is not None and until <= now


@clause("ADP-4.9-03")
def test_4_9_expired_records_not_returned(service: Probe, adck_declarations: dict[str, Any]) -> None:
    """If expires_at is present, discovery services SHOULD stop returning the record after that
    time unless local policy explicitly allows stale results. The expired records the kit knows
    (candidates of the full catalogue whose expires_at has passed; when the target declares
    registration, an agent it registered with an expires_at in the past, beside an unexpired
    twin) are looked for in the answers: the catalogue at detail full and at detail summary, and
    a request for the twins.

    A record returned *without* showing it expired (no expires_at, or one in the future, and no
    warning naming it) fails, whatever the policy: it is neither stopped nor shown stale (AMB-13,
    AMB-25). A record returned *shown* expired (its own expires_at, in the past, or a warning
    naming it) is what a local policy that allows stale results looks like: declared
    (``--declare stale-results-allowed``) it passes; undeclared the kit cannot see that policy,
    so it could not judge (untestable, naming the declaration), never failed."""
    allowed = STALE_ALLOWED in adck_declarations
    now = datetime.now(timezone.utc)
    catalog = service.catalog()
    response_or_untestable(catalog, "the catalogue request")
    expired = {str(c.get("id")): c.get("expires_at") for c in catalog.candidates if _passed(c.get("expires_at"), now)}
    unmarked: list[str] = []  # returned as if unexpired: a failure under any policy
    shown: list[str] = []  # returned, shown expired: what a policy allowing stale results does

    def look(answer: Any, known: dict[str, Any], where: str) -> None:
        said = " ".join(w for w in answer.list_member("warnings") if isinstance(w, str))
        for c in answer.candidates:
            cid = str(c.get("id"))
            if cid not in known:
                continue
            if cid in said or _passed(c.get("expires_at"), now):
                shown.append(f"{where} returns {cid!r} (expired at {known[cid]}), shown expired")
            else:
                seen = "no expires_at" if c.get("expires_at") is None else f"expires_at {c.get('expires_at')!r}"
                unmarked.append(f"{where} returns {cid!r}, which expired at {known[cid]}, with {seen} and no warning "
                                "naming it: a stale result presented as unexpired")

    look(catalog, expired, "the catalogue request (detail full)")
    if expired:  # the same records at a detail that need not carry expires_at
        summary = service.discover(CATALOG | {"detail": "summary"})
        if summary.is_response:
            look(summary, expired, "the catalogue request at detail summary")
    if service.registration_declared():
        tag = f"adck-{service.token}-expiry"
        dead = service.kit_metadata("expired", tags=[tag], expires_at="2020-01-01T00:00:00Z")
        live = service.kit_metadata("unexpired", tags=[tag])
        service.register(dead, what="registering an expired agent")
        service.register(live, what="registering its unexpired twin")
        answer = service.discover({"query": "adck probe", "required_tags": [tag], "limit": 10})
        response_or_untestable(answer, "a request for the twins")
        if live["id"] not in answer.ids:
            untestable(f"the unexpired twin {live['id']} is not returned either: {answer.ids}")
        look(answer, {dead["id"]: "2020-01-01T00:00:00Z"}, "a request for the twins")
    if unmarked:
        violation("; ".join(unmarked[:4]) + (" (stale results allowed by the declared local policy)" if allowed else ""),
                  readings=("AMB-25",) if allowed else ("AMB-13",))
    if shown and not allowed:
        # the sentence allows stale results where local policy explicitly allows them, and the
        # kit cannot see that policy: what it saw is a choice the target may state, never a failure
        undeclared_choice(f"{shown[0]}: the draft allows that only where local policy explicitly allows stale results, "
                   f"which the kit cannot see; --declare {STALE_ALLOWED} states it (then every stale "
                          "result must be shown expired), else the service should stop returning expired records")
