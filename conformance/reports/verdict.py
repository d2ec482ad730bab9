"""The verdict in words, shared by every rendering: the headline, the draft's own level, and
target text cut to a length at a word."""

from __future__ import annotations

from conformance.reports.model import Report

_PAST = {"pass": "passed", "fail": "failed", "error": "could not be evaluated",
         "untestable": "could not be checked", "not-applicable": "does not apply"}


def headline(report: Report) -> str:
    """The verdict in one line, never claiming more than was checked.

    A whole run: ``aiendpoint-01: full`` (the revision judged); of several revisions, each one's
    verdict, newest first (:func:`revisions_line`). A partial run names what it checked
    (``AIE-3.1-01 passed``) and says it is partial, never ``conformant``. A baseline never
    changes the verdict; it adds what it did: ``aiendpoint: non-conformant; 2 failures
    expected by the baseline``.
    """
    from conformance.reports.baseline import note

    line = _verdict(report)
    return f"{line}; {note(report)}" if note(report) else line


def revision_name(short: str, revision: str) -> str:
    """A draft and its revision as its texts name them: ``aiendpoint-01`` (an Internet-Draft's
    number), ``aid v1.2``; the draft alone when no revision is recorded."""
    if not revision:
        return short
    return f"{short}-{revision}" if revision.isdigit() else f"{short} {revision}"


def judged(report: Report) -> str:
    """What the verdict speaks of: the draft and the revision judged (``aiendpoint-01``)."""
    return revision_name(report.draft["short"], report.draft.get("revision", ""))


def revision_verdict(entry: dict) -> str:
    """One revision's verdict from ``Report.revisions``: ``-00 conformant (2 SHOULD failed)``."""
    c, name = entry["counts"], entry["name"]
    parts = [f"{n} {what}" for n, what in ((c["MUST"]["fail"] + c["MUST"]["error"], "MUST failed"),
                                            (len(entry["must_unverified"]), "MUST unverified"),
                                            (c["SHOULD"]["fail"] + c["SHOULD"]["error"], "SHOULD failed")) if n]
    level = f"{entry['draft_level']} {entry['level']}" if entry.get("draft_level") and entry["level"] in (
        "full", "conformant") else entry["level"]
    return f"{'-' if name.isdigit() else ''}{name} {level}" + (f" ({', '.join(parts)})" if parts else "")


def revisions_line(report: Report) -> str | None:
    """A run of several revisions, newest first: ``aiendpoint: -01 full; -00 conformant (2 SHOULD
    failed)``; None for a run of one."""
    if not report.revisions:
        return None
    return f"{report.draft['short']}: " + "; ".join(revision_verdict(e) for e in reversed(report.revisions))


def _verdict(report: Report) -> str:
    s = report.summary
    draft = judged(report)
    if s.level == "not-judged":
        return f"{draft}: not judged: {s.not_judged}"
    if not s.partial and revisions_line(report):
        return str(revisions_line(report))
    if s.draft_levels and not s.partial:
        return f"{draft}: {draft_level_line(report)}"
    if not s.partial:
        return f"{draft}: {s.level}"
    checked = [r for r in report.results if r.outcome != "untestable" or r.untestable_reason != "not-observable"]
    if 0 < len(checked) <= 5:
        what = "; ".join(f"{r.clause} {_PAST[r.outcome]}" for r in checked)
    else:
        passed = sum(r.outcome == "pass" for r in checked)
        what = f"{len(checked)} clauses checked, {passed} passed"
    verdict = "non-conformant" if s.level == "non-conformant" else "partial run, no verdict on the whole draft"
    return f"{draft}: {what} ({verdict}: {'; '.join(s.partial_reasons)})"


def draft_level_line(report: Report) -> str:
    """For a draft with levels of its own, the level met beside what the target offers:
    ``D1 full (D2 not offered)``; ``non-conformant (D0 met; D1: 1 MUST failed)`` when a level it
    offers failed; ``non-conformant (D0: 2 MUST failed)`` when not even the lowest is met."""
    s = report.summary
    if s.level == "not-judged":
        return s.level  # no level either: the reason (s.not_judged) is the news
    missed = next((a for a in s.draft_levels if not a["met"]), None)
    what = None  # the first level not met, and why
    if missed is not None:
        if not missed.get("offered", True):
            what = f"{missed['level']} {missed.get('absent') or 'not offered'}"
        elif not missed["checked"]:
            what = f"{missed['level']}: not checked"
        else:
            parts = [f"{len(missed[key])} MUST {word}" for key, word in
                     (("must_failed", "failed"), ("must_unverified", "unverified")) if missed[key]]
            what = f"{missed['level']}: {', '.join(parts) or 'not met'}"
    if s.level in ("full", "conformant") and s.draft_level:
        return f"{s.draft_level} {s.level}" + (f" ({what})" if what else "")
    notes = ([f"{s.draft_level} met"] if s.draft_level else []) + ([what] if what else [])
    return f"{s.level} ({'; '.join(notes)})" if notes else s.level


def cut(value: str, limit: int) -> str:
    """``value`` cut to about ``limit`` characters at a word, with a marker when it was cut."""
    if len(value) <= limit:
        return value
    at = value.rfind(" ", 0, limit)
    return value[: at if at > limit // 2 else limit] + " …"


def readings(report: Report, result) -> list[dict]:
    """The ambiguities (id, title, the kit's reading) this result's outcome rests on
    (``applied_ambiguities``), never every one linked to its clause."""
    by_id = {a["id"]: a for a in report.ambiguities}
    return [by_id[a] for a in getattr(result, "applied_ambiguities", ()) if a in by_id]


def declared(report: Report) -> str:
    """The run's declarations in a few words (``declared: strict-validation, max-top-k=50``), or
    "" without any: every rendering says what the verdict was reached under."""
    found = [d.get("shown") or d.get("name", "") for d in report.target.get("declarations") or ()]
    return f"declared: {', '.join(found)}" if found else ""


def unverified_because(report: Report) -> str:
    """Why the run's unverified MUST clauses were not checked, as every rendering says it: a
    prerequisite failed, or also the run's request budget ran out before some of them."""
    spent = any(r.untestable_reason == "budget" for r in report.results if r.clause in report.summary.must_unverified)
    return "a prerequisite failed" + (" or the run's request budget ran out" if spent else "")


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 request``, ``2 requests``; ``many`` for irregular plurals (``0 DNS queries``)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def traffic(report: Report) -> str:
    """What the run sent or saw, in the words of its target's kind: a client run counts harness
    steps and the client's own requests (the kit itself sent none, so never "0 requests")."""
    adapter = report.target.get("adapter")
    if "dns_queries" in report.target:
        return f"{plural(report.target['dns_queries'], 'DNS query', 'DNS queries')}, {plural(report.requests_sent, 'HTTP request')}"
    if adapter:
        dns = (f", {plural(adapter['client_dns_queries'], 'DNS query', 'DNS queries')}"
               if "client_dns_queries" in adapter else "")
        return f"{plural(adapter['steps'], 'harness step')}, {plural(adapter['client_requests'], 'request')} from the client{dns}"
    return plural(report.requests_sent, "request")
