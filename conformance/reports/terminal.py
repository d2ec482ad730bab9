"""The run's summary in a terminal (``adck run``) or a CI log: the verdict in words a person reads
once, grouped by the draft's sections, with each failure's quote, observation and replay command.

Why a module of its own: the CLI and the pytest plugin (``pytest --pyargs conformance.DRAFT``)
end a run with the same words, and both write to places that are often not a terminal (a pipe,
a CI log). There a line must stay one line: a URL or the verdict split over two lines cannot be
copied or grepped, so nothing here wraps (rich's ``soft_wrap``) and long target text is cut at a
word with a marker (:func:`conformance.reports.verdict.cut`), never mid-word at a column.

Everything printed comes from a sanitized report, and goes through :func:`line` again: rich
``Text`` (no markup, no emoji codes are read in it) of one line with no control character, so
no escape sequence a target sent reaches the terminal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from rich.console import Console
from rich.text import Text

from conformance.reports.model import Report, evidence_line
from conformance.reports import quotes
from conformance.reports.safe import text as safe
from conformance.reports.verdict import (cut, declared, draft_level_line, headline, judged, plural, readings, traffic,
                                         unverified_because)

_OUTCOME_STYLE = {"pass": "green", "fail": "bold red", "error": "bold magenta",
                  "untestable": "yellow", "not-applicable": "dim"}
_LEVEL_STYLE = {"full": "bold green", "conformant": "green", "non-conformant": "bold red",
                "partial": "yellow", "not-judged": "bold magenta"}
#: How much of a target's text a failure shows; the report has all of it.
OBSERVED, READING, EVIDENCE = 600, 300, 300
_SPACE = re.compile(r"\s+")




def line(value: object, limit: int | None = None) -> str:
    """``value`` as one terminal line: no control character (escaped as text, as in the
    reports), no line break, cut at a word with a marker past ``limit``."""
    flat = _SPACE.sub(" ", safe(str(value))).strip()
    return cut(flat, limit) if limit else flat


def verdict_line(report: Report) -> str:
    """``aiendpoint-01: non-conformant — MUST 2 passed, 1 failed, 55 unverified; SHOULD ...``"""
    s = report.summary
    c = s.counts
    verdict = draft_level_line(report) if s.draft_levels and not s.partial else s.level
    return (f"{judged(report)}: {verdict} — MUST {c['MUST']['pass']} passed, {c['MUST']['fail']} failed, "
            f"{len(s.must_unverified)} unverified; SHOULD {c['SHOULD']['pass']} passed, "
            f"{c['SHOULD']['fail']} failed; {traffic(report)}; seed {report.seed}")


def notes(report: Report) -> list[str]:
    """What the verdict line does not say and a reader must not miss (partial, nothing judged,
    MUST clauses left unchecked)."""
    s = report.summary
    out = []
    if s.partial and s.level != "non-conformant":
        out.append("partial run: this speaks of the clauses checked only, not of the whole draft")
    if not any(r.outcome in ("pass", "fail") for r in report.results):
        out.append("no clause of the checked roles applies to this target, so nothing was judged: "
                   "not a verdict of conformance")
    if s.must_unverified:
        n = len(s.must_unverified)
        out.append(f"{plural(n, 'MUST clause')} could not be checked because {unverified_because(report)}; "
                   f"{'it does' if n == 1 else 'they do'} not count as passed (the report names each one's prerequisite)")
    return out


def _section_key(section: str) -> tuple:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.\-]", section))


def sections(report: Report) -> list[tuple[str, list]]:
    """The results grouped by the draft's section, in the draft's order."""
    groups: dict[str, list] = {}
    for r in report.results:
        groups.setdefault(r.section, []).append(r)
    return sorted(groups.items(), key=lambda kv: _section_key(kv[0]))


def section_counts(results: Iterable) -> str:
    """``1 failed, 2 passed, 3 not checked`` (only the outcomes there are)."""
    words = (("fail", "failed"), ("error", "could not be evaluated"), ("pass", "passed"),
             ("untestable", "not checked"), ("not-applicable", "not applicable"))
    results = list(results)
    parts = [f"{sum(r.outcome == o for r in results)} {w}" for o, w in words
             if any(r.outcome == o for r in results)]
    return ", ".join(parts)


def failure(report: Report, r) -> Iterator[Text]:
    """One failing (or unevaluable) clause: the quote, what was observed, the evidence, the
    kit's reading of the draft where it applied one, and the command that replays it."""
    head = Text("  ")
    head.append(r.outcome.upper(), _OUTCOME_STYLE[r.outcome])
    head.append(f" {line(r.clause)} (§{line(r.section)}, {line(r.keyword)}, {line(r.role)})")
    yield head
    yield Text(f'    the draft: "{line(quotes.shown(report, r))}"')  # a table row or list item with its context
    yield Text(f"    observed:  {line(r.message, OBSERVED)}")
    for ev in r.evidence[-3:]:
        yield Text(f"    evidence:  {line(evidence_line(ev), EVIDENCE)}")
    for amb in readings(report, r):  # only the readings this failure rests on
        yield Text(f"    the kit's reading ({line(amb['id'])}): {line(amb['interpretation'], READING)}")
    if r.replay:
        yield Text(f"    replay:    {line(r.replay)}")


def summary(report: Report) -> Iterator[Text]:
    """The whole summary, line by line: each section with its counts (a failing section with
    its failures), then the verdict and what it does not say."""
    s = report.summary
    roles = ", ".join(line(x) for x in report.roles)
    what = "role" if len(report.roles) == 1 else "roles"
    said = f"; {line(declared(report))}" if declared(report) else ""
    yield Text(f"{line(judged(report))} ({line(report.draft.get('id', ''))}) on "
               f"{line(report.target.get('spec', ''))}; {what}: {roles}{said}", "bold")
    for section, results in sections(report):
        bad = [r for r in results if r.outcome in ("fail", "error")]
        head = Text(f"§{line(section)}  ")
        head.append(section_counts(results), "bold red" if bad else "")
        yield head
        for r in bad:
            yield from failure(report, r)
    # a run of several revisions: the failures of sentences only an older revision holds (the
    # sections above are the newest one's)
    for e in report.revisions[:-1]:
        for d in e["differs"]:
            if d["outcome"] in ("fail", "error"):
                yield Text(f"{line(e['label'])}: FAIL {line(d['clause'])} (§{line(d['section'])}, {line(d['keyword'])})",
                           "bold red")
                yield Text(f"    observed:  {line(d.get('message', ''), OBSERVED)}")
                if d.get("replay"):
                    yield Text(f"    replay:    {line(d['replay'])}")
    style = _LEVEL_STYLE.get(s.level, "")
    if s.partial or report.revisions:  # what was checked; each revision's verdict
        yield Text(line(headline(report)), style)
    yield Text(line(verdict_line(report)), style)
    for note in notes(report):
        yield Text(note, "yellow")


def print_summary(report: Report, out: Console) -> None:
    for text in summary(report):
        out.print(text)
