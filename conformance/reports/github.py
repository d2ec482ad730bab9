"""The GitHub Actions job summary: report.md's short form appended to ``$GITHUB_STEP_SUMMARY``.

The short form is report.md without its table of every clause: the verdict, the counts, and
each failure with the draft's sentence, what was observed and the replay command (the full
report is in the uploaded artifact). GitHub refuses a step summary over 1 MiB, so what is
appended is cut (at a line, with a note) to fit beside what the step already wrote. It is
built from the report model, whose target text is already redacted and escaped for Markdown.
"""

from __future__ import annotations

import os
from pathlib import Path

from conformance.reports import markdown
from conformance.reports.model import Report

#: GitHub's limit on one step's summary.
LIMIT = 1024 * 1024


def summary(report: Report) -> str:
    """report.md up to its table of every clause."""
    return markdown.to_markdown(report, every_clause=False)


def capped(text: str, room: int) -> str:
    """``text`` cut at a line so that its UTF-8 bytes fit in ``room``, with a note saying so."""
    data = text.encode("utf-8")
    if len(data) <= room:
        return text
    note = "\n\n… cut here: GitHub caps a job summary at 1 MiB; the whole report is in report.md.\n"
    keep = data[: max(0, room - len(note.encode("utf-8")))].decode("utf-8", "ignore")
    keep = keep[: keep.rfind("\n") + 1] if "\n" in keep else ""
    return keep + note if len(note.encode("utf-8")) <= room else ""


def append_step_summary(report: Report, env: dict[str, str] | None = None) -> Path | None:
    """Append the summary to ``$GITHUB_STEP_SUMMARY`` when it is set; the file, or None."""
    name = (env if env is not None else os.environ).get("GITHUB_STEP_SUMMARY")
    if not name:
        return None
    path = Path(name)
    used = path.stat().st_size if path.is_file() else 0
    text = capped(summary(report), LIMIT - used - 1)
    if text:
        with path.open("a", encoding="utf-8") as out:
            out.write(("\n" if used else "") + text)
    return path
