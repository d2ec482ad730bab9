"""Renderings of a :class:`~conformance.reports.model.Report`: the data first, pictures second.

``report.json`` (validated against ``report.schema.json`` before it is written),
``junit.xml`` (one test case per clause, for CI), ``report.md`` (a summary a person reads in
one screen, then the failures), ``report.html`` and ``badge.svg``.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import jsonschema

from conformance.reports import badge, html, junit, markdown, sarif
from conformance.reports.model import Report
from conformance.reports.verdict import cut, draft_level_line, headline  # noqa: F401 - the renderings' shared words

SCHEMA_PATH = Path(__file__).with_name("report.schema.json")
FORMATS = ("json", "junit", "md", "html", "badge", "sarif", "shields")


@cache
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text("utf-8"))


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


_WRITERS: dict[str, tuple[str, Callable[[Report], str]]] = {
    "json": ("report.json", to_json),
    "junit": ("junit.xml", junit.to_junit),
    "md": ("report.md", markdown.to_markdown),
    "html": ("report.html", html.to_html),
    "badge": ("badge.svg", badge.to_badge),
    "shields": ("badge.json", badge.to_endpoint),  # the badge as a shields.io endpoint
    "sarif": ("report.sarif", sarif.to_sarif),
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
        written.append(write_file(folder / name, render(report)))
    return written


def write_file(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, renamed over the name,
    which replaces a symlink planted there instead of writing through it. Every file the kit
    writes (reports, SARIF, comparisons, baselines) goes through here."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(text.encode("utf-8"))
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
