"""What the AID v2.1 tests share: the aid2 records judged, per-record findings, and the record
checks :mod:`conformance.aid.versioned` does not make itself."""

from __future__ import annotations

import base64
import re
from datetime import datetime
from typing import Callable, Iterable

from conformance.aid import versioned
from conformance.aid.pka.keys import point_error  # noqa: F401 - the record rules' import
from conformance.aid.conftest import PublishedRecord, records_of
from conformance.outcomes import not_applicable, untestable, violation

RULES = versioned.CLAUSES["v2.1"]


def aid2(published: list[PublishedRecord]) -> list[PublishedRecord]:
    """The v=aid2 records; untestable when there is none, naming the clause that fails for
    it: a record that lost its v (AID-2.1-54), one with another v (AID-2.1-55), or no aid2 TXT
    record at all (AID-2.1-46 when another record type stands in, else AID-2-02)."""
    __tracebackhide__ = True
    if not any(r.reading.version == "aid2" for r in published):
        if any(r.reading.version is None for r in published):
            see = "AID-2.1-54"
        elif any(r.reading.version not in ("aid1", "aid2") for r in published):
            see = "AID-2.1-55"
        else:
            see = "AID-2.1-46, AID-2-02"
        seen = ", ".join(repr(r.text[:60]) for r in published) or "none"
        untestable(f"no v=aid2 record is published (AID records seen: {seen}) (see {see})")
    return records_of(published, "aid2")


def label(record: PublishedRecord, records: list[PublishedRecord]) -> str:
    """How a finding names its record: the text, and its place when there are several."""
    shown = record.text if len(record.text) <= 90 else record.text[:87] + "..."
    if len(records) > 1:
        return f"record {records.index(record) + 1} of {len(records)} ({shown!r})"
    return f"the record {shown!r}"


def judge(records: list[PublishedRecord], check: Callable[[PublishedRecord], Iterable[str]], *,
          readings: tuple[str, ...] = ()) -> None:
    """Fail with every finding ``check`` makes of each record, each record named."""
    __tracebackhide__ = True
    found = [f"{label(r, records)}: {msg}" for r in records for msg in check(r)]
    if found:
        violation("; ".join(found), readings=readings)


def problems(record: PublishedRecord, clause: str) -> list[str]:
    """The messages of the problems :func:`versioned.read` finds for ``clause``."""
    return [p.message for p in record.reading.problems if p.clause == clause]


def value(record: PublishedRecord, key: str) -> str | None:
    """The value of a long key (its alias folded, trimmed), or None when absent."""
    return record.reading.fields.get(key)


def written(record: PublishedRecord, key: str) -> str:
    """The key as the record writes it (``k`` or ``pka``), for messages."""
    for w, k in zip(record.reading.written, record.reading.order):
        if k == key:
            return w
    return versioned.ALIASES.get(key, key)


def only_where(records: list[PublishedRecord], key: str) -> list[PublishedRecord]:
    """The records holding ``key``; *not applicable* when none does."""
    __tracebackhide__ = True
    chosen = [r for r in records if key in r.reading.fields]
    if not chosen:
        alias = versioned.ALIASES.get(key)
        not_applicable(f"no aid2 record holds {key}" + (f" ({alias})" if alias else ""))
    return chosen


# ---------------------------------------------------------------- dep: a real UTC instant

_PARTS = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})T(\d{2})(?::?(\d{2})(?::?(\d{2})(?:\.\d+)?)?)?")


def calendar_error(text: str) -> str | None:
    """Why an ISO 8601 timestamp whose form :mod:`versioned` accepts names no instant (month 13,
    hour 25, February 30), or None. A leap second (:60) is allowed, as ISO 8601 allows it."""
    m = _PARTS.match(text)
    if m is None:
        return None
    year, month, day, hour, minute, second = (int(g) if g else 0 for g in m.groups())
    try:
        datetime(year, month, day, hour if hour != 24 or minute or second else 0, minute, min(second, 59))
    except ValueError as exc:
        return str(exc)
    if hour == 24 and (minute or second):
        return "hour 24 is only 24:00:00"
    return None


# ---------------------------------------------------------------- k: the RFC 8037 JWK x member



def unpadded_b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def decoded_key(k: str) -> bytes | None:
    """The octets of a k that B.1's checks accept (unpadded base64url of 32 octets), else None."""
    if not re.fullmatch(r"[A-Za-z0-9_-]+", k) or len(k) % 4 == 1:
        return None
    raw = base64.urlsafe_b64decode(k + "=" * (-len(k) % 4))
    return raw if len(raw) == 32 else None
