"""§7.7 Incremental updates and registrations (PUT {base}/agents/{id}, AMB-01, AMB-20)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime, parsedate_to_datetime

from conformance.adp._service_fixtures import (
    Answer,
    Probe,
    reached,
    response_or_untestable,
    same_value,
    stale_values,
)
from conformance.outcomes import clause, untestable, violation


#: Words of a header's or member's name that say it holds a sequence number (AMB-51): the draft
#: names no field for one, so the kit reads the name (X-Sequence, revision, net.example.seq).
SEQUENCE_WORDS = frozenset({"seq", "seqno", "sequence", "revision", "rev", "generation", "serial"})
#: Members of Agent Metadata the draft defines: the publisher's, never the service's mechanism
#: (version is "Metadata version or capability version", with no order: AMB-13).
DEFINED = frozenset({"id", "name", "description", "tags", "examples", "bindings", "auth", "constraints", "status",
                     "expires_at", "version", "updated_at", "signature"})


def _name_words(name: str) -> set[str]:
    """The words of a header or member name: split at separators and case changes."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return {w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w}


def _whole(value: object) -> int | None:
    """A sequence number: a JSON integer (not a boolean) or a string of digits, optionally
    followed by "-" and a hash ("3-a1b2", as revision counters often are), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str):
        found = re.fullmatch(r"\s*(\d{1,18})(?:-[\w.]+)?\s*", value)
        return int(found.group(1)) if found else None
    return None


def markers(answer: Answer, registered: dict | None = None) -> dict[str, object]:
    """The freshness markers an agent's record is served with (AMB-51): an entity tag (ETag), a
    timestamp (a Last-Modified that is an HTTP-date) and sequence numbers: a response header, or
    a member of the record or of a freshness object in it, whose name says it is one and which
    holds a whole number; on a record the kit registered (``registered``), any member the
    service added that holds one. Values as served (at most 200 characters)."""
    final = answer.final
    found: dict[str, object] = {}
    if final is None:
        return found
    tag = final.header("ETag")
    if tag and tag.strip():
        found["ETag"] = tag.strip()[:200]
    modified = _modified(final.header("Last-Modified"))
    if modified is not None:
        found["Last-Modified"] = modified
    for name, value in final.response_headers:
        if name.lower() not in ("etag", "last-modified") and _name_words(name) & SEQUENCE_WORDS \
                and _whole(value) is not None:
            found[f"the {name} header"] = _whole(value)
    body = answer.value
    if isinstance(body, dict):
        fresh = body.get("freshness") if isinstance(body.get("freshness"), dict) else {}
        for where, members in (("", body), ("freshness.", fresh)):
            for name, value in members.items():
                if where == "" and name in DEFINED or _whole(value) is None:
                    continue
                added = registered is not None and where == "" and name not in registered
                if _name_words(str(name)) & SEQUENCE_WORDS or added:
                    found[f"member {where}{name}"] = _whole(value)
    return found


def _modified(value: str | None) -> datetime | None:
    """A Last-Modified date (UTC when it names no zone), or None."""
    try:
        moment = parsedate_to_datetime(value) if value else None
    except (TypeError, ValueError, IndexError):
        return None
    return moment.replace(tzinfo=timezone.utc) if moment is not None and moment.tzinfo is None else moment


def _tracks(name: str, old: object, new: object, changed: bool, written: datetime | None) -> bool:
    """Whether a marker followed its record from one GET to the next: the same while the record
    did not change; when it changed, another entity tag, a larger sequence number, or a later
    Last-Modified (one no earlier than a second before the change's Date: a clock of one-second
    resolution cannot show a change within the same second)."""
    if not changed:
        return old == new
    if name == "ETag":
        return old != new
    if name == "Last-Modified":
        return isinstance(old, datetime) and isinstance(new, datetime) and (
            new > old or written is not None and new >= written - timedelta(seconds=1))
    return isinstance(old, int) and isinstance(new, int) and new > old


def _shown(value: object) -> str:
    return format_datetime(value, usegmt=True) if isinstance(value, datetime) else repr(value)


@clause("ADP-7.7-02")
def test_7_7_freshness_mechanism(service: Probe) -> None:
    """Discovery services SHOULD support sequence numbers, timestamps, entity tags, or equivalent
    freshness mechanisms: an open list, so any mechanism of the kind counts (AMB-51).

    When registration is declared, the kit registers an agent, refreshes it (a later updated_at,
    other content) and sends a stale update (an earlier updated_at): the service supports
    timestamps when it applies the refresh and keeps the refreshed record against the stale
    update (the records' own updated_at, which 4.9 names for rejecting stale metadata); or a
    marker it serves the record with follows it through the three states: an ETag, a
    Last-Modified, or a sequence number (a header or member so named, or a whole number the
    service added to the registered record). Without registration, GET {base}/agents/{id} of an
    agent the catalogue names, twice, shows such a marker, the same both times (a marker that
    changes while the record does not marks no state)."""
    if service.registration_declared():
        _registered_case(service)
        return
    ids = [i for i in service.catalog().ids if isinstance(i, str)] if service.discovers() else []
    if not ids:
        untestable("the service named no agent to GET and declares no registration (AMB-40)")
    got = service.get_agent(ids[0])
    reached(got, f"GET of agent {ids[0]!r}")
    if not got.ok:
        untestable(f"GET of agent {ids[0]!r} was answered {got.describe()}")
    seen = markers(got)
    if not seen:
        violation(f"GET of {ids[0]!r} was answered {got.describe()} with no freshness mechanism: no ETag, no "
                  "Last-Modified, no sequence number (a header or member named as one)", readings=("AMB-51",))
    again = service.get_agent(ids[0], fresh="validators-again")
    if not again.ok or again.value != got.value:
        return  # the record itself changed between the two GETs: nothing to compare
    kept = {name: value for name, value in seen.items() if markers(again).get(name) == value}
    if not kept:
        moved = ", ".join(f"{name} {_shown(value)} then {_shown(markers(again).get(name))}" for name, value in seen.items())
        violation(f"GET of {ids[0]!r}, twice, serves the same record with {moved}: a marker that changes while the "
                  "record does not tells no state of it apart (AMB-51)", readings=("AMB-51",))


def _registered_case(service: Probe) -> None:
    """ADP-7.7-02 on a target that declares registration: timestamps honoured, or a marker that
    follows the record (AMB-51)."""
    __tracebackhide__ = True
    first = service.kit_metadata("validators", updated_at="2026-03-01T00:00:00Z")
    later = service.kit_metadata("validators", updated_at="2026-08-01T00:00:00Z", version="1.2.0",
                                 description="The refreshed record of a probe agent.")
    stale = service.kit_metadata("validators", updated_at="2026-01-01T00:00:00Z", version="0.9.0",
                                 description="A stale update of a probe agent.")
    service.register(first, what="registering an agent")
    before = service.get_agent(first["id"], fresh="validators-before")
    refresh = service.update(later, fresh="validators")
    reached(refresh, "refreshing the registered agent (later updated_at)")
    after = service.get_agent(first["id"], fresh="validators-after")
    update = service.put_agent(stale["id"], stale, fresh="validators-stale")
    reached(update, "a stale update of the registered agent (earlier updated_at)")
    last = service.get_agent(first["id"], fresh="validators-after-stale")
    states = (before, after, last)
    if not all(s.ok and isinstance(s.value, dict) for s in states):
        untestable("GET of the registered agent was answered " + ", then ".join(s.describe() for s in states))
    refreshed = all(same_value(after.value.get(k), later[k]) for k in ("updated_at", "description"))
    kept = not stale_values(last.value, stale, later) and all(same_value(last.value.get(k), after.value.get(k))
                                                              for k in ("updated_at", "description"))
    if refreshed and kept:
        return  # timestamps: the later updated_at applied, the earlier one kept out
    written = [_modified(a.final.header("Date")) if a.final is not None else None for a in (refresh, update)]
    found = [markers(s, first) for s in states]
    working, broken = [], []
    for name in found[0]:
        values = [f.get(name) for f in found]
        steps = [(values[i], values[i + 1], states[i].value != states[i + 1].value, written[i]) for i in range(2)]
        if all(v is not None for v in values) and all(_tracks(name, *step) for step in steps):
            working.append(name)
        else:
            broken.append(f"{name} {' then '.join(_shown(v) if v is not None else '(absent)' for v in values)}")
    if working:
        return
    what = ("the refresh was not applied" if not refreshed else "the stale update replaced the refreshed record")
    shown = "; ".join(broken) if broken else "no ETag, no Last-Modified, no sequence number"
    violation(f"no freshness mechanism of the kind: {what} (answered {refresh.describe()}, then "
              f"{update.describe()}), so updated_at does not order its updates, and across the registration, the "
              f"refresh and the stale update the record is served with {shown}, which do not follow it (AMB-51)",
              readings=("AMB-51",))


def stale_case(service: Probe) -> None:
    """Register an agent with updated_at 2026-06-01, then a stale update of it (2026-01-01, other
    content): GET must not serve any of the stale update's own values (AMB-13, AMB-48), each
    compared as data, so a record the service normalised (a timestamp written otherwise, a
    member added) still shows whose it is (AMB-52)."""
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
    replaced = stale_values(value, older, newer)
    if replaced:
        violation(f"after a stale update (updated_at 2026-01-01, answered {stale.describe()}) the record serves the "
                  f"stale update's {replaced} instead of the newer record's "
                  f"{ {k: newer.get(k, '(absent)') for k in replaced} }", readings=("AMB-48", "AMB-52"))


@clause("ADP-7.7-03")
def test_7_7_stale_update_never_replaces_newer(service: Probe) -> None:
    """A stale update MUST NOT replace a newer record: an agent registered with updated_at
    2026-06-01, then the same id with updated_at 2026-01-01 and other content (refusing it is
    allowed): GET serves none of the stale update's own values, compared as data (AMB-13, AMB-48,
    AMB-52)."""
    stale_case(service)


@clause("ADP-7.7-04")
def test_7_7_registration_idempotent(service: Probe) -> None:
    """Registrations SHOULD be idempotent on (id, binding endpoint): the same registration sent
    twice succeeds both times (sent again with If-Match where the service asks for one, AMB-53)
    and leaves one record (GET serves it; never two candidates: none is a registration not yet
    discoverable, AMB-54)."""
    service.require_registration()
    metadata = service.kit_metadata("idempotent")
    service.register(metadata, what="the first registration")
    again = service.update(metadata, fresh="again")  # with If-Match where the service asks for one (AMB-53)
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
        if count > 1:  # none: not yet discoverable, which the draft leaves to the service (AMB-54)
            violation(f"after the same registration twice, {count} candidates have its id: {answer.ids}")


@clause("ADP-7.7-05")
def test_7_7_newer_registration_is_a_refresh(service: Probe) -> None:
    """Re-sending the same key with newer freshness data SHOULD be treated as a refresh: the same
    id and endpoint re-registered with a later updated_at succeeds (sent again with If-Match where
    the service asks for one, AMB-53), and GET serves the new updated_at and version, compared as
    data (AMB-52)."""
    service.require_registration()
    first = service.kit_metadata("refresh", updated_at="2026-03-01T00:00:00Z")
    later = service.kit_metadata("refresh", updated_at="2026-07-01T00:00:00Z", version="1.1.0")
    service.register(first, what="the first registration")
    refresh = service.update(later)  # with If-Match where the service asks for one (AMB-53)
    reached(refresh, "the refresh")
    if not refresh.ok:
        violation(f"re-registering with updated_at 2026-07-01 was answered {refresh.describe()}",
                  readings=("AMB-53",) if refresh.status in (412, 428) else ())
    got = service.get_agent(later["id"], fresh="after-refresh")
    value = got.value
    if not got.ok or not isinstance(value, dict):
        untestable(f"GET of the refreshed agent was answered {got.describe()}")
    if not (same_value(value.get("updated_at"), later["updated_at"]) and same_value(value.get("version"), later["version"])):
        violation(f"after a refresh answered {refresh.status}, GET serves updated_at {value.get('updated_at')!r} "
                  f"and version {value.get('version')!r}, not the refresh's {later['updated_at']!r} and "
                  f"{later['version']!r} (compared as data, AMB-52)", readings=("AMB-52",))
