"""``adck check FILE...``: the document role on files kept in a repository (the pre-commit hook).

Each file's draft comes from its name, the name a publisher gives it:

    .well-known/ai                      aiendpoint (the AI Discovery Document)
    .well-known/ai-discovery            aidre (the discovery document)
    aid.json                            aid@v1 (the manifest, which only AID v1 has)
    woa.json                            woa
    agent-metadata.json, *.adp.json     adp (Agent Metadata, or any ADP object on its own)

``--draft`` names it for a file whose name does not tell. Every draft reads a path target as a
document on its own (its document role only), so a run is ``api.run(draft, path)``. One line
per failed clause (``FILE:LINE: error CLAUSE (MUST): what was observed``), the line found as
SARIF finds it; exit 1 when a MUST failed or could not be checked, 2 when a file's draft
cannot be told or the kit could not run.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from conformance import api
from conformance.reports import inputs, render, sarif
from conformance.reports.safe import line
from conformance.reports.verdict import cut

#: The file names ``adck check`` (and the pre-commit hook's ``files`` pattern) recognise.
#: aid.json is the manifest of AID v1 (v1.2 and v2.1 have none): checked as aid@v1
NAMES = {"aid.json": "aid@v1", "woa.json": "woa", "agent-metadata.json": "adp"}
WELL_KNOWN = {"ai": "aiendpoint", "ai-discovery": "aidre"}


def infer_draft(path: Path) -> str | None:
    """The draft a file's name says it belongs to, or None."""
    if path.parent.name == ".well-known" and path.name in WELL_KNOWN:
        return WELL_KNOWN[path.name]
    if path.name in NAMES:
        return NAMES[path.name]
    if path.name.endswith(".adp.json"):
        return "adp"
    return None


def _err(message: str) -> None:
    """One error line; the file names in it have their control characters escaped."""
    print(f"adck check: {line(message)}", file=sys.stderr)


def recognised() -> str:
    """The file names ``adck check`` tells a draft from, as a user writes them."""
    return ", ".join([f".well-known/{n}" for n in WELL_KNOWN] + list(NAMES) + ["*.adp.json"])


def file_problem(name: str, draft: str | None) -> str | None:
    """Why ``name`` cannot be checked (it is missing, not a file, or of no draft it can tell),
    naming the fix; None when it can."""
    from conformance import catalog
    from conformance.targets.document import _what_it_is

    path = Path(name)
    if not path.is_file():
        return f"{name}: {_what_it_is(path)}; name a document file"
    big = inputs.too_big(path)  # checked before the file is read whole
    if big:
        return f"{name}: {big}; check a document of a size a publisher serves"
    if draft is None and infer_draft(path) is None:
        return (f"{name}: cannot tell the draft from the file name (recognised: {recognised()}); "
                f"pass --draft DRAFT ({', '.join(catalog.available())})")
    return None


def check(files: Sequence[str], draft: str | None = None, sarif_path: str | None = None,
          timeout: float | None = None) -> int:
    """Check each file; print one line per failure; write SARIF if asked; the exit status."""
    status = 0
    reports = []
    for name in files:  # an operator mistake is one line, before any file is checked
        problem = file_problem(name, draft)
        if problem:
            _err(problem)
            return api.EXIT_USAGE
    for name in files:
        path = Path(name)
        which = draft or infer_draft(path)
        assert which is not None
        result = api.run(which, str(path), report_dir=None, quiet=True, timeout=timeout)
        if result.report is None or result.exit_code == api.EXIT_USAGE:
            _err(f"{name}: {result.error or 'the run did not produce a report'}")
            status = max(status, api.EXIT_USAGE)
            if result.report is None:
                continue
        report = result.report
        reports.append(report)
        for r in report.results:
            if r.outcome not in ("fail", "error"):
                continue
            kind = "error" if r.level == "MUST" or r.outcome == "error" else "warning"
            print(line(f"{name}:{sarif.locate(report, r)}: {kind} {r.clause} ({r.keyword}, {which} "
                       f"§{r.section}): {cut(' '.join(r.message.split()), 300)}"))
        if result.exit_code == api.EXIT_NONCONFORMANT:
            unverified = report.summary.must_unverified
            if unverified:
                print(line(f"{name}:1: error {len(unverified)} MUST clause(s) could not be checked: "
                           f"{', '.join(unverified[:5])}"))
        status = max(status, result.exit_code)
    if sarif_path:
        try:
            render.write_file(Path(sarif_path), sarif.to_sarif_many(reports))
        except OSError as exc:
            _err(f"--sarif {sarif_path}: cannot write it ({exc.strerror})")
            return api.EXIT_USAGE
    return status


