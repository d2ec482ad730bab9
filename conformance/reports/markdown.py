"""``report.md``: a summary a person reads in one screen, then the failures (a PR comment)."""

from __future__ import annotations

import re

from conformance.reports.model import Report, evidence_line
from conformance.reports import quotes
from conformance.reports.verdict import (cut, draft_level_line, headline, judged, readings, revision_verdict,
                                         unverified_because)

_ICON = {"pass": "✅", "fail": "❌", "error": "💥", "untestable": "⚠️", "not-applicable": "➖"}


def _code(value: str, limit: int | None = None, table: bool = False) -> str:
    """Target text as a Markdown code span: nothing in it renders (links, images, HTML,
    headings, @mentions), a backtick cannot close it, and in a table (``table``) a pipe
    cannot split the cell. Long text is cut at a word, with a marker."""
    value = " ".join(value.split())
    if limit is not None:
        value = cut(value, limit)
    if not value:
        return ""
    fence = "`" * (max((len(run) for run in re.findall("`+", value)), default=0) + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    if table:
        value = value.replace("|", "\\|")
    return f"{fence}{pad}{value}{pad}{fence}"


#: A plain identifier (a clause id, a section, a key word, a draft's short name, a role): letters,
#: digits and hyphens, a dot only before a digit (no domain to autolink), single spaces between words.
_PLAIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]|\.(?=[0-9]))*(?: [A-Za-z0-9](?:[A-Za-z0-9-]|\.(?=[0-9]))*)*")


def _token(value: str, table: bool = False) -> str:
    """A value read from a report where an identifier belongs: as it is when it is a plain
    identifier (nothing of Markdown renders from one), else a code span (:func:`_code`)."""
    value = str(value)
    return value if _PLAIN.fullmatch(value) else _code(value, table=table)


def _block(value: str) -> list[str]:
    """Target text as a fenced Markdown block whose fence is longer than any backtick run in it."""
    fence = "`" * max(3, max((len(run) for run in re.findall("`+", value)), default=0) + 1)
    return [fence + "text", *value.splitlines(), fence]


def _revisions(report: Report) -> list[str]:
    """A run of several revisions: each one's verdict and the clauses where they differ (the
    tables below are the newest one's)."""
    if not report.revisions:
        return []
    out = ["", "## Revisions judged", "",
           f"One set of requests ({report.requests_sent}), judged under each revision; the tables below are "
           f"{judged(report)}'s.", "", "| revision | draft | verdict | clauses only some revisions hold |", "|---|---|---|---|"]
    for e in reversed(report.revisions):
        differs = ", ".join(f"{d['clause']} ({d['keyword']}) {d['outcome']}" for d in e["differs"]) or "none"
        out.append(f"| {e['label']} | {e['draft']} | {revision_verdict(e)} | {differs} |")
    return out


def to_markdown(report: Report, every_clause: bool = True) -> str:
    """report.md; ``every_clause=False`` leaves out the table of every clause (a job summary)."""
    s = report.summary
    lines = [
        f"# adck: {judged(report)} — **{draft_level_line(report) if s.draft_levels and not s.partial else s.level}**",
        "",
        f"**{headline(report)}**",
        "",
        f"- draft: {report.draft['id']} ({report.draft['title']})",
        f"- target: {_code(report.target['description'])} ({_code(report.target['spec'])}), roles: {', '.join(report.roles)}",
        f"- {report.requests_sent} requests sent, seed {report.seed}, {report.duration_s:.1f} s, adck {report.kit['version']}",
        f"- replay the whole run: {_code(report.command)}",
    ]
    for d in report.target.get("declarations") or ():  # the choices the verdict was reached under
        quote = f'"{d.get("quote", "")}"'
        lines.append(f"- declared: {_code(d.get('shown') or d.get('name', ''))} (by {_code(d.get('by', '--declare'))}; "
                     f"§{d.get('section', '')}: {_code(quote)}; changes {', '.join(d.get('clauses', ()))})")
    if s.partial:
        lines.append("- **partial run**: the verdict speaks only of the clauses checked, never of the whole draft "
                     f"({'; '.join(s.partial_reasons)})")
    lines += _baseline(report)
    lines += _revisions(report)
    lines += ["", "| level | pass | fail | error | untestable | not applicable |", "|---|---|---|---|---|---|"]
    for lvl in ("MUST", "SHOULD"):
        c = s.counts[lvl]
        lines.append(f"| {lvl} | {c['pass']} | {c['fail']} | {c['error']} | {c['untestable']} | {c['not-applicable']} |")
    if s.must_unverified:
        lines += ["", f"**Not verified:** {len(s.must_unverified)} MUST clause(s) could not be checked because "
                  f"{unverified_because(report)}: {', '.join(s.must_unverified)}. They do not count as passed."]
    failing = [r for r in report.results if r.outcome in ("fail", "error")]
    if failing:
        lines += ["", "## Failures", ""]
        for r in failing:
            lines += [f"### {_ICON[r.outcome]} {r.clause} — §{r.section} {r.keyword} ({r.role})", "",
                      f"> {quotes.shown(report, r)}", ""]
            if "\n" in r.message or len(r.message) > 400:
                lines += ["Observed:", "", *_block(r.message), ""]
            else:
                lines += [f"Observed: {_code(r.message)}", ""]
            for amb in readings(report, r):
                lines += [f"The kit's reading ({amb['id']}, {amb['title']}): {amb['interpretation']}", ""]
            if r.baseline:
                lines += [(f"Expected by the baseline (not failing the run): {_code(r.baseline['reason'])}"
                           if r.baseline["status"] == "expected" else
                           f"**The baseline entry expired on {r.baseline['expires']}**: this fails the run again "
                           f"(its reason was {_code(r.baseline['reason'])})"), ""]
            lines += [f"Replay: {_code(r.replay or '')}", ""]
            shown = r.evidence
            if len(shown) > 8:  # the first items set the scene; the last ones are where it failed
                shown = [*shown[:2], None, *shown[-5:]]
            for ev in shown:
                lines.append(f"- … {len(r.evidence) - 7} more in report.json" if ev is None
                             else f"- {_code(evidence_line(ev))}")
            lines.append("")
    if not every_clause:
        return "\n".join([*lines, "", "Every clause's outcome: report.md and report.json in the run's reports."]) + "\n"
    lines += ["", "## All clauses", "", "| clause | § | level | outcome | note |", "|---|---|---|---|---|"]
    for r in report.results:
        note = _code(r.message, limit=120, table=True)
        lines.append(f"| {r.clause} | {r.section} | {r.keyword} | {_ICON[r.outcome]} {r.outcome} | {note} |")
    lines += ["", f"Ambiguities of the draft the kit had to interpret: {len(report.ambiguities)} "
              f"(`adck ambiguities {report.draft['short']}`)."]
    return "\n".join(lines) + "\n"


def _baseline(report: Report) -> list[str]:
    """The baseline's account: what it waived (the verdict above does not change), what expired,
    which entries are stale. The reasons are the user's text: shown in code spans."""
    b = report.baseline
    if not b:
        return []
    s = report.summary
    out = [f"- baseline {_code(b['path'])}: {len(b['entries'])} entr{'y' if len(b['entries']) == 1 else 'ies'}, "
           f"exit policy `--fail-on {s.fail_on}`, exit status {s.exit_status}"]
    say = {"expected": "failed, as expected (not failing the run)", "expired": "**entry expired: fails the run again**",
           "stale": "**stale: now passes, remove the entry**", "not-checked": "not checked in this run"}
    for a in b["entries"]:
        until = f", expires {a['expires']}" if a["expires"] else ""
        out.append(f"  - {a['clause']}: {say[a['status']]} — {_code(a['reason'])}{until}")
    return out


