"""Baselines: the failures an implementation is expected to have, for now.

A vendor adopting the kit gradually lists the clauses it knows it fails, each with a reason
and, optionally, a date after which the waiver ends (``docs/baselines.md``). A listed failure
no longer fails the run (the exit status), but the verdict stays truthful: the report still
says the clause failed and the run is non-conformant, and marks the failure *expected* with its
reason. A listed clause that now passes is *stale* (remove it); an entry past its expiry date
is *expired* and fails the run again.

The file is TOML (``.json`` files are read as JSON with the same shape)::

    version = 1
    draft = "aiendpoint"            # optional: a baseline for another draft is refused

    [[expected]]
    clause = "AIE-2.2-05"
    reason = "our CDN rewrites 200 to 203; fix tracked in OPS-123"
    expires = 2026-12-31            # optional; the entry holds through that day (UTC)

Every mistake in the file is a :class:`BaselineError` whose message is one line saying what
to fix (the CLI turns it into exit status 2): a reason left empty or still the placeholder
``adck baseline --from`` writes is refused, because a waiver nobody explained is how expected
failures become permanent.
"""

from __future__ import annotations

import datetime as _dt
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The reason ``adck baseline --from`` writes; a baseline still holding it is refused.
PLACEHOLDER = "TODO: why this is expected"

_KEYS = {"clause", "reason", "expires"}
_TOP = {"version", "draft", "expected"}


class BaselineError(ValueError):
    """A baseline file the kit cannot use; the message says what to fix, in one line."""


@dataclass(frozen=True)
class Entry:
    clause: str
    reason: str
    expires: _dt.date | None = None


@dataclass(frozen=True)
class Baseline:
    path: str
    draft: str | None
    entries: tuple[Entry, ...]


def _date(value: Any, where: str) -> _dt.date | None:
    if value is None:
        return None
    if isinstance(value, _dt.datetime):
        raise BaselineError(f"{where}: expires must be a date (YYYY-MM-DD), not a date and time")
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return _dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise BaselineError(f"{where}: expires must be a date written YYYY-MM-DD (got {value!r})")


def parse(data: Any, path: str) -> Baseline:
    """A baseline from its decoded file, every entry checked (ids are checked by :func:`check`)."""
    if not isinstance(data, dict):
        raise BaselineError(f"baseline {path}: expected a table with [[expected]] entries")
    unknown = set(data) - _TOP
    if unknown:
        raise BaselineError(f"baseline {path}: unknown key(s) {', '.join(sorted(unknown))} "
                            f"(a baseline has {', '.join(sorted(_TOP))})")
    if data.get("version", 1) != 1:
        raise BaselineError(f"baseline {path}: version {data['version']!r} is not one this kit reads (1)")
    draft = data.get("draft")
    if draft is not None and not isinstance(draft, str):
        raise BaselineError(f"baseline {path}: draft must be a string such as \"aiendpoint\"")
    items = data.get("expected", [])
    if not isinstance(items, list):
        raise BaselineError(f"baseline {path}: expected must be a list of entries ([[expected]] in TOML)")
    entries: list[Entry] = []
    seen: set[str] = set()
    for n, item in enumerate(items, 1):
        where = f"baseline {path}, entry {n}"
        if not isinstance(item, dict):
            raise BaselineError(f"{where}: an entry is a table with clause, reason and optional expires")
        extra = set(item) - _KEYS
        if extra:
            raise BaselineError(f"{where}: unknown key(s) {', '.join(sorted(extra))} "
                                "(an entry has clause, reason and optional expires)")
        clause = item.get("clause")
        if not isinstance(clause, str) or not clause.strip():
            raise BaselineError(f"{where}: clause is missing (a clause id such as AIE-2.2-05)")
        where = f"baseline {path}, entry {n} ({clause})"
        if clause in seen:
            raise BaselineError(f"{where}: the clause is listed twice; keep one entry")
        seen.add(clause)
        reason = item.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise BaselineError(f"{where}: reason is required: say why this failure is expected")
        if reason.strip().startswith(PLACEHOLDER):
            raise BaselineError(f"{where}: the reason is still the placeholder {PLACEHOLDER!r}; "
                                "replace it with why this failure is expected")
        entries.append(Entry(clause=clause, reason=reason.strip(), expires=_date(item.get("expires"), where)))
    return Baseline(path=path, draft=draft, entries=tuple(entries))


#: The largest baseline file the kit reads: a baseline names each clause of one catalog at most
#: once (300 clauses at most today, a few hundred bytes each), and TOML is decoded in Python at
#: about 40 bytes of memory per byte of entries.
MAX_BYTES = 4 * 1024 * 1024


def load(path: str | Path) -> Baseline:
    """Read and check a baseline file (TOML, or JSON when its name ends in ``.json``): its size
    and nesting first (:mod:`conformance.reports.inputs`), then every entry."""
    from conformance.reports import inputs

    p = Path(path)
    label = f"--baseline {path}"
    if p.is_dir():
        raise BaselineError(f"{label}: is a directory, not a baseline file") from None
    if not p.exists():
        raise BaselineError(f"{label}: no such file "
                            "(`adck baseline --from report.json -o FILE` writes one)") from None
    try:
        raw = inputs.read(p, label, limit=MAX_BYTES)
        if p.suffix.lower() == ".json":
            data = inputs.parse_json(raw, label)
        else:
            try:
                data = tomllib.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                raise BaselineError(f"{label}: not UTF-8 text") from None
            except tomllib.TOMLDecodeError as exc:
                raise BaselineError(f"{label}: not valid TOML ({' '.join(str(exc).split())})") from None
            except RecursionError:
                raise BaselineError(f"{label}: nested deeper than the kit reads; not a baseline") from None
            inputs.check_depth(data, label)
    except inputs.InputError as exc:
        raise BaselineError(str(exc)) from None
    return parse(data, str(path))


def check(baseline: Baseline, draft: str, clause_ids: Any) -> None:
    """The baseline is for this draft and names only clauses of its catalog."""
    if baseline.draft is not None and baseline.draft != draft:
        raise BaselineError(f"baseline {baseline.path} is for {baseline.draft}, not {draft}; "
                            "pass the baseline of the draft being run")
    unknown = [e.clause for e in baseline.entries if e.clause not in clause_ids]
    if unknown:
        raise BaselineError(f"baseline {baseline.path}: unknown clause id(s) {', '.join(unknown)} in the {draft} "
                            f"catalog; fix or remove the entr{'ies' if len(unknown) > 1 else 'y'} "
                            f"(`adck clauses {draft}` lists the ids)")


def _unmet(result: Any) -> bool:
    """The result counts against the run at its level: failed, errored, or a MUST/SHOULD that
    could not be checked because a prerequisite failed."""
    return result.outcome in ("fail", "error") or (
        result.outcome == "untestable" and result.untestable_reason == "prerequisite")


def apply(baseline: Baseline, results: list[Any], today: _dt.date) -> tuple[set[str], dict[str, Any]]:
    """Mark each listed result (``result.baseline``) and account for every entry.

    Returns the clauses the baseline waives (an unmet result under a live entry) and the
    report's ``baseline`` section. An entry's status is ``expected`` (the clause failed, as
    listed), ``expired`` (it failed, and the entry ended before ``today``: the failure counts
    again), ``stale`` (the clause passed: remove the entry) or ``not-checked`` (the run did
    not judge the clause: another role, a narrowed run, or it does not apply to this target).
    """
    by_clause = {r.clause: r for r in results}
    waived: set[str] = set()
    accounts = []
    for e in baseline.entries:
        r = by_clause.get(e.clause)
        expired = e.expires is not None and today > e.expires
        if r is None or not (r.outcome == "pass" or _unmet(r)):
            status = "not-checked"
        elif r.outcome == "pass":
            status = "stale"
        else:
            status = "expired" if expired else "expected"
        account = {"clause": e.clause, "reason": e.reason,
                   "expires": e.expires.isoformat() if e.expires else None, "status": status}
        accounts.append(account)
        if r is not None and status in ("expected", "expired", "stale"):
            r.baseline = {k: account[k] for k in ("reason", "expires", "status")}
        if status == "expected":
            waived.add(e.clause)
    section = {"path": baseline.path, "draft": baseline.draft, "checked_on": today.isoformat(), "entries": accounts}
    for status in ("expected", "expired", "stale", "not-checked"):
        section[status.replace("-", "_")] = [a["clause"] for a in accounts if a["status"] == status]
    return waived, section


def note(report: Any) -> str:
    """What the baseline changed, for the headline: ``2 failures expected by the baseline``, or ''."""
    from conformance.reports.verdict import (
        plural,  # verdict's headline asks this module
    )

    b = getattr(report, "baseline", None)
    if not b:
        return ""
    parts = []
    if b["expected"]:
        parts.append(f"{plural(len(b['expected']), 'failure')} expected by the baseline")
    if b["expired"]:
        parts.append(f"{plural(len(b['expired']), 'baseline entry', 'baseline entries')} expired")
    if b["stale"]:
        parts.append(f"{plural(len(b['stale']), 'baseline entry', 'baseline entries')} stale (now passing)")
    return ", ".join(parts)


def lines(report: Any) -> list[str]:
    """The baseline's account for a person (terminal, report.md): each expired, stale and
    expected entry, with what to do about it."""
    b = getattr(report, "baseline", None)
    if not b:
        return []
    status = report.summary.exit_status
    out = [f"baseline {b['path']}: {len(b['entries'])} entr{'y' if len(b['entries']) == 1 else 'ies'}"
           + (f"; {note(report)}" if note(report) else "")
           + (f" (exit status {status}; the verdict is unchanged: {report.summary.level})" if b["expected"] else "")]
    for a in b["entries"]:
        if a["status"] == "expired":
            out.append(f"expired: {a['clause']} fails again: its baseline entry expired on {a['expires']} "
                       f"(reason was: {a['reason']})")
    for a in b["entries"]:
        if a["status"] == "stale":
            out.append(f"stale: {a['clause']} now passes: remove it from the baseline")
    for a in b["entries"]:
        if a["status"] == "expected":
            until = f", until {a['expires']}" if a["expires"] else ""
            out.append(f"expected: {a['clause']} failed, as the baseline expects ({a['reason']}{until})")
    if b["not_checked"]:
        out.append(f"not checked in this run: {', '.join(b['not_checked'])}")
    return out


def from_report(data: dict[str, Any], reason: str | None = None) -> str:
    """A baseline (TOML) listing every MUST and SHOULD result of a report that counts against it
    (under either ``--fail-on``): failures, errors, and clauses a failed prerequisite left unchecked. Each entry's reason is ``reason``,
    or the placeholder, which the kit refuses until someone replaces it.

    Every value is written by the TOML serializer (tomli-w), never a template; the comments
    around them hold report text made one line (:func:`_comment`). What is written is read back
    and must list exactly the report's entries."""
    import tomli_w

    try:
        draft = data["draft"]["short"]
        results = data["results"]
    except (KeyError, TypeError):
        raise BaselineError("not an adck report.json (no draft or results)") from None
    if not isinstance(draft, str) or not isinstance(results, list):
        raise BaselineError("not an adck report.json (draft.short is not a string, or results not a list)")
    target = data.get("target") if isinstance(data.get("target"), dict) else {}
    out = ["# adck baseline: failures this implementation is expected to have, for now (docs/baselines.md).",
           f"# Written from a report of {_comment(target.get('spec', '?'))} ({_comment(data.get('started_at', '?'))}).",
           "# Give every entry a reason (the kit refuses the placeholder) and, best, an expiry date.",
           tomli_w.dumps({"version": 1, "draft": draft}).rstrip("\n"), ""]
    # a MAY never decides the exit status: nothing to expect of it
    kept = [r for r in results if isinstance(r, dict) and isinstance(r.get("clause"), str)
            and r.get("level") != "MAY" and (
        r.get("outcome") in ("fail", "error")
        or (r.get("outcome") == "untestable" and r.get("untestable_reason") == "prerequisite"))]
    for r in kept:
        what = {"fail": "failed", "error": "could not be evaluated",
                "untestable": "could not be checked: a prerequisite failed"}[r["outcome"]]
        # the header is the kit's own text; the entry's values are the serializer's
        entry = "[[expected]]\n" + tomli_w.dumps({"clause": r["clause"], "reason": reason or PLACEHOLDER}).rstrip("\n")
        out += [f"# {_comment(r.get('keyword', r.get('level', '')))} {what}: {_comment(r.get('message', ''))}",
                entry, "# expires = YYYY-MM-DD", ""]
    if not kept:
        out.append("# the report has no failures: nothing to expect")
    text = "\n".join(out) + "\n"
    back = tomllib.loads(text)  # what a reader of the file gets: exactly these entries, nothing more
    if set(back) - {"version", "draft", "expected"} or back.get("draft") != draft or [
            e["clause"] for e in back.get("expected", [])] != [r["clause"] for r in kept]:
        raise BaselineError("the baseline written does not read back as the report's entries")  # pragma: no cover
    return text


def _comment(value: Any) -> str:
    """Report text made fit for one TOML comment line: the kit's sanitiser (no control character),
    then one line (no newline, tab or other white space run), cut at 100 characters."""
    from conformance.reports.safe import text

    value = " ".join(text(str(value)).split())
    return value if len(value) <= 100 else value[:100].rsplit(" ", 1)[0] + " …"
