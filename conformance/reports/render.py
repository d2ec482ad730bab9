"""Renderings of a :class:`~conformance.reports.model.Report`: the data first, pictures second.

``report.json`` (validated against ``report.schema.json`` before it is written),
``junit.xml`` (one test case per clause, for CI), ``report.md`` (a summary a person reads in
one screen, then the failures), ``report.html`` and ``badge.svg``.
"""

from __future__ import annotations

import html
import json
import os
import re
import tempfile
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Callable

import jsonschema

from conformance.reports.model import Report, evidence_line

SCHEMA_PATH = Path(__file__).with_name("report.schema.json")
FORMATS = ("json", "junit", "md", "html", "badge")


@cache
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text("utf-8"))


_PAST = {"pass": "passed", "fail": "failed", "error": "could not be evaluated",
         "untestable": "could not be checked", "not-applicable": "does not apply"}


def headline(report: Report) -> str:
    """The verdict in one line, never claiming more than was checked.

    A whole run: ``aiendpoint: full``. A partial run names what it checked
    (``AIE-3.1-01 passed``) and says it is partial, never ``conformant``.
    """
    s = report.summary
    draft = report.draft["short"]
    if s.level == "not-judged":
        return f"{draft}: not judged: {s.not_judged}"
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
    """For a draft with levels of its own: ``D1 full (D2: 3 MUST failed)``, or
    ``non-conformant (D0: 2 MUST failed)`` when not even the lowest level is met."""
    s = report.summary
    head = f"{s.draft_level} {s.level}" if s.draft_level and s.level != "non-conformant" else s.level
    missed = next((a for a in s.draft_levels if not a["met"]), None)
    if missed is None:
        return head
    parts = []
    if missed["must_failed"]:
        parts.append(f"{len(missed['must_failed'])} MUST failed")
    if missed["must_unverified"]:
        parts.append(f"{len(missed['must_unverified'])} MUST unverified")
    if not missed["checked"]:
        parts = ["not checked"]
    return f"{head} ({missed['level']}: {', '.join(parts) or 'not met'})"


def check_folder(folder: Path) -> None:
    """The report folder can be written: it is a directory (or can be made one) we may write in."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--report-dir {folder}: is a file, not a directory")
    probe = folder
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise ValueError(f"--report-dir {folder}: {probe} is a file, not a directory")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ValueError(f"--report-dir {folder}: {probe} cannot be written")


def to_json(report: Report) -> str:
    data = report.to_dict()
    jsonschema.Draft202012Validator(schema()).validate(data)
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def to_junit(report: Report) -> str:
    results = report.results
    suite = ET.Element("testsuite", {
        "name": f"adck.{report.draft['short']}",
        "tests": str(len(results)),
        "failures": str(sum(r.outcome == "fail" for r in results)),
        "errors": str(sum(r.outcome == "error" for r in results)),
        "skipped": str(sum(r.outcome in ("not-applicable", "untestable") for r in results)),
        "time": f"{report.duration_s:.3f}",
    })
    props = ET.SubElement(suite, "properties")
    for k, v in (("target", report.target["spec"]), ("seed", str(report.seed)),
                 ("requests_sent", str(report.requests_sent)), ("level", report.summary.level),
                 ("partial", "true" if report.summary.partial else "false"), ("verdict", headline(report))):
        ET.SubElement(props, "property", {"name": k, "value": v})
    for r in results:
        case = ET.SubElement(suite, "testcase", {
            "classname": f"{report.draft['short']}.{r.role}.s{r.section}",
            "name": f"{r.clause} [{r.keyword}] {r.text[:80]}",
        })
        detail = f'{r.clause} (§{r.section}, {r.keyword}): "{r.text}"\nobserved: {r.message}'
        for amb in _readings(report, r):
            detail += f"\nthe kit's reading ({amb['id']}, {amb['title']}): {amb['interpretation']}"
        if r.replay:
            detail += f"\nreplay: {r.replay}"
        if r.outcome == "fail":
            el = ET.SubElement(case, "failure" if r.level == "MUST" else "failure",
                               {"message": f"{r.keyword}: {r.message}"[:500], "type": r.level})
            el.text = detail
        elif r.outcome == "error":
            ET.SubElement(case, "error", {"message": r.message[:500]}).text = detail
        elif r.outcome in ("not-applicable", "untestable"):
            ET.SubElement(case, "skipped", {"message": f"{r.outcome}: {r.message}"[:500]})
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


_ICON = {"pass": "✅", "fail": "❌", "error": "💥", "untestable": "⚠️", "not-applicable": "➖"}


def cut(value: str, limit: int) -> str:
    """``value`` cut to about ``limit`` characters at a word, with a marker when it was cut."""
    if len(value) <= limit:
        return value
    at = value.rfind(" ", 0, limit)
    return value[: at if at > limit // 2 else limit] + " …"


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


def _block(value: str) -> list[str]:
    """Target text as a fenced Markdown block whose fence is longer than any backtick run in it."""
    fence = "`" * max(3, max((len(run) for run in re.findall("`+", value)), default=0) + 1)
    return [fence + "text", *value.splitlines(), fence]


def _readings(report: Report, result) -> list[dict]:
    """The ambiguities (id, title, the kit's reading) a result's test applies."""
    by_id = {a["id"]: a for a in report.ambiguities}
    return [by_id[a] for a in result.ambiguities if a in by_id]


def to_markdown(report: Report) -> str:
    s = report.summary
    lines = [
        f"# adck: {report.draft['short']} — **{draft_level_line(report) if s.draft_levels and not s.partial else s.level}**",
        "",
        f"**{headline(report)}**",
        "",
        f"- draft: {report.draft['id']} ({report.draft['title']})",
        f"- target: {_code(report.target['description'])} ({_code(report.target['spec'])}), roles: {', '.join(report.roles)}",
        f"- {report.requests_sent} requests sent, seed {report.seed}, {report.duration_s:.1f} s, adck {report.kit['version']}",
        f"- replay the whole run: {_code(report.command)}",
    ]
    if s.partial:
        lines.append("- **partial run**: the verdict speaks only of the clauses checked, never of the whole draft "
                     f"({'; '.join(s.partial_reasons)})")
    lines += ["", "| level | pass | fail | error | untestable | not applicable |", "|---|---|---|---|---|---|"]
    for lvl in ("MUST", "SHOULD"):
        c = s.counts[lvl]
        lines.append(f"| {lvl} | {c['pass']} | {c['fail']} | {c['error']} | {c['untestable']} | {c['not-applicable']} |")
    if s.must_unverified:
        lines += ["", f"**Not verified:** {len(s.must_unverified)} MUST clause(s) could not be checked because a "
                  f"prerequisite failed: {', '.join(s.must_unverified)}. They do not count as passed."]
    failing = [r for r in report.results if r.outcome in ("fail", "error")]
    if failing:
        lines += ["", "## Failures", ""]
        for r in failing:
            lines += [f"### {_ICON[r.outcome]} {r.clause} — §{r.section} {r.keyword} ({r.role})", "",
                      f"> {r.text}", ""]
            if "\n" in r.message or len(r.message) > 400:
                lines += ["Observed:", "", *_block(r.message), ""]
            else:
                lines += [f"Observed: {_code(r.message)}", ""]
            for amb in _readings(report, r):
                lines += [f"The kit's reading ({amb['id']}, {amb['title']}): {amb['interpretation']}", ""]
            lines += [f"Replay: {_code(r.replay or '')}", ""]
            shown = r.evidence
            if len(shown) > 8:  # the first items set the scene; the last ones are where it failed
                shown = [*shown[:2], None, *shown[-5:]]
            for ev in shown:
                lines.append(f"- … {len(r.evidence) - 7} more in report.json" if ev is None
                             else f"- {_code(evidence_line(ev))}")
            lines.append("")
    lines += ["", "## All clauses", "", "| clause | § | level | outcome | note |", "|---|---|---|---|---|"]
    for r in report.results:
        note = _code(r.message, limit=120, table=True)
        lines.append(f"| {r.clause} | {r.section} | {r.keyword} | {_ICON[r.outcome]} {r.outcome} | {note} |")
    lines += ["", f"Ambiguities of the draft the kit had to interpret: {len(report.ambiguities)} "
              f"(`adck ambiguities {report.draft['short']}`)."]
    return "\n".join(lines) + "\n"


def to_html(report: Report) -> str:
    def readings(r) -> str:
        return "".join(f"<br><small class='reading'>the kit's reading ({html.escape(a['id'])}, "
                       f"{html.escape(a['title'])}): {html.escape(a['interpretation'])}</small>"
                       for a in _readings(report, r)) if r.outcome in ("fail", "error") else ""

    rows = "\n".join(
        f"<tr class='{r.outcome}'><td>{html.escape(r.clause)}</td><td>{html.escape(r.section)}</td>"
        f"<td>{html.escape(r.keyword)}</td><td>{html.escape(r.outcome)}</td>"
        f"<td><q>{html.escape(r.text)}</q><br><small>{html.escape(r.message)}</small>{readings(r)}</td></tr>"
        for r in report.results)
    return f"""<!doctype html><html lang="en"><meta charset="utf-8">
<title>adck {html.escape(report.draft['short'])}: {report.summary.level}</title>
<style>body{{font-family:sans-serif;margin:2em}} td{{vertical-align:top;padding:.3em}}
.fail td,.error td{{background:#fdd}} .untestable td{{background:#ffd}} .pass td{{background:#efe}}</style>
<h1>{html.escape(headline(report))}</h1>
<p><strong>{html.escape(headline(report))}</strong></p>
<p>{html.escape(report.target['description'])} — {report.requests_sent} requests, seed {report.seed}</p>
<table><tr><th>clause</th><th>§</th><th>level</th><th>outcome</th><th>requirement / observation</th></tr>
{rows}</table></html>
"""


def to_badge(report: Report) -> str:
    import anybadge

    s = report.summary
    level = s.level
    if s.partial and level not in ("non-conformant", "not-judged"):
        level = "partial"
    label = level.replace("-", " ") if level in ("partial", "not-judged") else level
    color = {"full": "green", "conformant": "yellowgreen", "non-conformant": "red",
             "partial": "lightgrey", "not-judged": "lightgrey"}[level]
    if s.partial and level == "non-conformant":
        label = "non-conformant (partial run)"
    if s.draft_level and not s.partial:
        label = f"{s.draft_level} {label}"  # "adck adp | D1 full"
    return anybadge.Badge(f"adck {report.draft['short']}", label, default_color=color).badge_svg_text


_WRITERS: dict[str, tuple[str, Callable[[Report], str]]] = {
    "json": ("report.json", to_json),
    "junit": ("junit.xml", to_junit),
    "md": ("report.md", to_markdown),
    "html": ("report.html", to_html),
    "badge": ("badge.svg", to_badge),
}


def clear(folder: Path) -> None:
    """Remove the report files an earlier run left in ``folder`` (links themselves, never what
    they point to), so that a run that ends badly leaves nothing of an earlier verdict beside it."""
    for name, _ in _WRITERS.values():
        path = folder / name
        if path.is_symlink() or path.is_file():
            path.unlink()


def write(report: Report, folder: Path, formats: list[str]) -> list[Path]:
    """Write the formats into ``folder``, each atomically (a temporary file renamed over the
    name, which replaces a planted symlink instead of writing through it). Report files of
    formats not written this time are removed, so none is left from an earlier run."""
    unknown = set(formats) - _WRITERS.keys()
    if unknown:
        raise ValueError(f"unknown report format(s) {', '.join(sorted(unknown))}; choose from {', '.join(FORMATS)}")
    folder.mkdir(parents=True, exist_ok=True)
    clear(folder)
    written = []
    for fmt in formats:
        name, render = _WRITERS[fmt]
        path = folder / name
        data = render(report).encode("utf-8")
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=folder)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        written.append(path)
    return written
