"""§4.9 updated_at, version and expires_at, as a service uses them: freshness exposed, expired
records no longer returned."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from conformance.adp._service_fixtures import Probe, parse_time, reached, response_or_untestable
from conformance.adp.test_7_7_service_updates import stale_case
from conformance.outcomes import clause, untestable, violation


@clause("ADP-4.9-02")
def test_4_9_indexed_time_and_age_exposed(service: Probe) -> None:
    """Discovery services SHOULD expose when a result was indexed and whether the source metadata
    is older than a client-supplied freshness constraint: each candidate's freshness holds
    indexed_at and metadata_updated_at (the draft's example), and with max_results_age_seconds
    1 in the request each candidate is warned of or carries both (AMB-13). A candidate without
    any freshness object is judged by ADP-10-05."""
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
            missing = [k for k in ("indexed_at", "metadata_updated_at") if k not in fresh]
            if missing and not (answer is aged and str(c.get("id")) in warnings):
                problems.append(f"candidate {c.get('id')!r} freshness {fresh or c.get('freshness')!r} has no "
                                f"{' or '.join(missing)}")
    if not judged:
        untestable("no candidate carried a freshness object (see ADP-10-05)")
    if problems:
        violation(f"{len(problems)} of {judged} candidates: " + "; ".join(problems[:4]))


@clause("ADP-4.9-01")
def test_4_9_updated_at_rejects_stale_metadata(service: Probe) -> None:
    """The updated_at or version field SHOULD be used to reject stale metadata: registering an
    agent's metadata with an earlier updated_at than the record's is refused, or leaves the newer
    record in place (the same observation as ADP-7.7-03, AMB-13)."""
    stale_case(service)


#: The declaration (profile.toml [declarations]) of a local policy that allows stale results.
STALE_ALLOWED = "stale-results-allowed"


@clause("ADP-4.9-03")
def test_4_9_expired_records_not_returned(service: Probe, adck_declarations: dict[str, Any]) -> None:
    """If expires_at is present, discovery services SHOULD stop returning the record after that
    time unless local policy explicitly allows stale results: no candidate of the full catalogue
    has an expires_at in the past unless a warning names it; and when the target declares
    registration, an agent registered with an expires_at in the past is not returned by a request
    that returns its unexpired twin (AMB-13). Declared (``--declare stale-results-allowed``,
    AMB-25), an expired record may be returned when the response shows it: the candidate's own
    expires_at, in the past, or a warning naming it; one presented as unexpired fails."""
    allowed = STALE_ALLOWED in adck_declarations
    now = datetime.now(timezone.utc)
    catalog = service.catalog()
    response_or_untestable(catalog, "the catalogue request")
    problems = []
    warnings = " ".join(w for w in catalog.list_member("warnings") if isinstance(w, str))
    for c in catalog.candidates:
        until = parse_time(c.get("expires_at"))
        if until is not None and until <= now and str(c.get("id")) not in warnings and not allowed:
            problems.append(f"candidate {c.get('id')!r} expired at {c.get('expires_at')} and is still returned")
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
        said = " ".join(w for w in answer.list_member("warnings") if isinstance(w, str))
        if dead["id"] in answer.ids and dead["id"] not in said:
            if not allowed:
                problems.append(f"the agent registered with expires_at 2020-01-01 is returned: {answer.ids}")
            else:  # stale results allowed: returned, but shown as expired
                shown = next(c for c in answer.candidates if c.get("id") == dead["id"]).get("expires_at")
                until = parse_time(shown)
                if shown is None:
                    problems.append("the agent registered with expires_at 2020-01-01 is returned with no expires_at and "
                                    "no warning naming it: nothing shows the stale result as stale")
                elif until is None or until > now:
                    problems.append(f"the agent registered with expires_at 2020-01-01 is returned with expires_at "
                                    f"{shown!r}: a stale result presented as unexpired")
    if problems:
        violation("; ".join(problems[:4]) + (" (stale results allowed by the declared local policy)" if allowed else ""),
                  readings=("AMB-25",) if allowed else ())
