"""§7.7 Incremental updates and registrations (PUT {base}/agents/{id}, AMB-01, AMB-20)."""

from __future__ import annotations

from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

from conformance.adp._service_fixtures import (
    Answer,
    Probe,
    reached,
    response_or_untestable,
)
from conformance.outcomes import clause, untestable, violation


def validators(answer: Answer) -> dict[str, str]:
    """The freshness validators an agent resource was served with: ETag, Last-Modified (AMB-51)."""
    final = answer.final
    found = {name: final.header(name) for name in ("ETag", "Last-Modified")} if final is not None else {}
    return {k: v.strip()[:200] for k, v in found.items() if v and v.strip()}


def _modified(value: str | None) -> datetime | None:
    """A Last-Modified date (UTC when it names no zone), or None."""
    try:
        moment = parsedate_to_datetime(value) if value else None
    except (TypeError, ValueError, IndexError):
        return None
    return moment.replace(tzinfo=timezone.utc) if moment is not None and moment.tzinfo is None else moment


def _moved(before: object, after: object) -> object:
    """The members a refresh changed (at most 8), or "the body"."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return "the body"
    return sorted(str(k) for k in set(before) | set(after) if before.get(k) != after.get(k))[:8]


@clause("ADP-7.7-02")
def test_7_7_freshness_mechanism(service: Probe) -> None:
    """Discovery services SHOULD support sequence numbers, timestamps, entity tags, or equivalent
    freshness mechanisms: GET {base}/agents/{id} of an agent the service serves answers with an
    ETag or a Last-Modified header; when registration is declared, an agent registered and then
    refreshed (a later updated_at, another version) is served, when the record it serves changed,
    with a validator that moved: another ETag, or a Last-Modified no earlier (AMB-13, AMB-51)."""
    problems, judged = [], 0
    ids = [i for i in service.catalog().ids if isinstance(i, str)] if service.discovers() else []
    if ids:
        got = service.get_agent(ids[0])
        reached(got, f"GET of agent {ids[0]!r}")
        if got.ok:
            judged += 1
            if not validators(got):
                problems.append(f"GET of {ids[0]!r} was answered {got.describe()} with neither ETag nor Last-Modified")
    if service.registration_declared():
        first = service.kit_metadata("validators", updated_at="2026-03-01T00:00:00Z")
        later = service.kit_metadata("validators", updated_at="2026-08-01T00:00:00Z", version="1.2.0",
                                     description="The refreshed record of a probe agent.")
        service.register(first, what="registering an agent")
        before = service.get_agent(first["id"], fresh="validators-before")
        service.register(later, what="refreshing the registered agent (later updated_at)")
        after = service.get_agent(first["id"], fresh="validators-after")
        if not (before.ok and after.ok):
            untestable(f"GET of the registered agent was answered {before.describe()}, then {after.describe()}")
        judged += 1
        old, new = validators(before), validators(after)
        changed = before.value != after.value  # a refresh the service ignored is ADP-7.7-05's
        if not old or not new:
            problems.append(f"GET of the registered agent has validators {old or 'none'} before its refresh and "
                            f"{new or 'none'} after it")
        elif changed and "ETag" in old and "ETag" in new:
            if old["ETag"] == new["ETag"]:
                moved = _moved(before.value, after.value)
                problems.append(f"the registered agent keeps ETag {old['ETag'][:80]} after a refresh changed {moved} "
                                "of the record it serves")
        elif changed and "Last-Modified" in old and "Last-Modified" in new:
            a, b = _modified(old["Last-Modified"]), _modified(new["Last-Modified"])
            if a is not None and b is not None and b < a:
                problems.append(f"Last-Modified went back from {old['Last-Modified']} to {new['Last-Modified']} "
                                "after a refresh")
    if not judged:
        untestable("the service named no agent to GET and declares no registration (AMB-40)")
    if problems:
        violation("; ".join(problems))


def stale_case(service: Probe) -> None:
    """Register an agent with updated_at 2026-06-01, then a stale update of it (2026-01-01, other
    content): GET must still serve the newer record, member for member (AMB-13, AMB-48)."""
    __tracebackhide__ = True
    service.require_registration()
    newer = service.kit_metadata("stale", description="The newer record.", updated_at="2026-06-01T00:00:00Z",
                                 version="2.0.0")
    older = service.kit_metadata("stale", description="A stale update.", updated_at="2026-01-01T00:00:00Z",
                                 version="1.0.0", tags=["adck-stale-update"])
    service.register(newer, what="registering the newer record")
    stale = service.put_agent(older["id"], older)
    reached(stale, "the stale update")
    got = service.get_agent(newer["id"], fresh="after-stale")
    value = got.value
    if not got.ok or not isinstance(value, dict):
        untestable(f"GET of the registered agent was answered {got.describe()}")
    changed = {k: value.get(k) for k in newer if value.get(k) != newer[k]}
    if changed:
        violation(f"after a stale update (updated_at 2026-01-01, answered {stale.describe()}) the record serves "
                  f"{changed} instead of the newer record's values")


@clause("ADP-7.7-03")
def test_7_7_stale_update_never_replaces_newer(service: Probe) -> None:
    """A stale update MUST NOT replace a newer record: an agent registered with updated_at
    2026-06-01, then the same id with updated_at 2026-01-01 and other content (refusing it is
    allowed): GET still serves the 2026-06-01 record, member for member (AMB-13, AMB-48)."""
    stale_case(service)


@clause("ADP-7.7-04")
def test_7_7_registration_idempotent(service: Probe) -> None:
    """Registrations SHOULD be idempotent on (id, binding endpoint): the same registration sent
    twice succeeds both times and leaves one record (GET serves it; one candidate, not two)."""
    service.require_registration()
    metadata = service.kit_metadata("idempotent")
    service.register(metadata, what="the first registration")
    again = service.put_agent(metadata["id"], metadata, fresh="again")
    reached(again, "the same registration again")
    if not again.ok:
        violation(f"the same registration sent again was answered {again.describe()}")
    got = service.get_agent(metadata["id"], fresh="after-repeat")
    if not got.ok or not isinstance(got.value, dict) or got.value.get("id") != metadata["id"]:
        violation(f"after the same registration twice, GET of it was answered {got.describe()}")
    if service.discovers():  # a D0 service answers no Discovery Request (AMB-01)
        answer = service.discover({"query": "adck probe idempotent", "required_tags": [metadata["tags"][0]],
                                   "limit": 10})
        response_or_untestable(answer, "a request for the registered agent")
        count = answer.ids.count(metadata["id"])
        if count != 1:
            violation(f"after the same registration twice, {count} candidates have its id: {answer.ids}")


@clause("ADP-7.7-05")
def test_7_7_newer_registration_is_a_refresh(service: Probe) -> None:
    """Re-sending the same key with newer freshness data SHOULD be treated as a refresh: the same
    id and endpoint re-registered with a later updated_at succeeds, and GET serves the new one."""
    service.require_registration()
    first = service.kit_metadata("refresh", updated_at="2026-03-01T00:00:00Z")
    later = service.kit_metadata("refresh", updated_at="2026-07-01T00:00:00Z", version="1.1.0")
    service.register(first, what="the first registration")
    refresh = service.put_agent(later["id"], later)
    reached(refresh, "the refresh")
    if not refresh.ok:
        violation(f"re-registering with updated_at 2026-07-01 was answered {refresh.describe()}")
    got = service.get_agent(later["id"], fresh="after-refresh")
    value = got.value
    if not got.ok or not isinstance(value, dict):
        untestable(f"GET of the refreshed agent was answered {got.describe()}")
    if value.get("updated_at") != later["updated_at"] or value.get("version") != later["version"]:
        violation(f"after a refresh answered {refresh.status}, GET serves updated_at {value.get('updated_at')!r} "
                  f"and version {value.get('version')!r}")
