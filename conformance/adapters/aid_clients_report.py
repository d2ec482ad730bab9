"""docs/aid-clients-report.md: the two real AID client libraries under AID v1, v1.2 and v2.1.

    python -m conformance.adapters.aid_clients_report            # run both, write the page
    python -m conformance.adapters.aid_clients_report --check    # run both, compare with the page (exit 1 on a difference)
    python -m conformance.adapters.aid_clients_report --library aid-py --stdout

It lives beside the adapters it drives (conformance/adapters/), not in the aid suite's package
(conformance/aid/ is what ``pytest --pyargs conformance.aid`` collects, and other revisions'
tests are written there): it is a user of the suite, like any client's maintainer would be.

Each library is run once per revision, client role, seed :data:`SEED`, in-process through
:func:`conformance.api.run` (aid-discovery through its ``python:`` handler; the npm library through
its ``cmd:`` node adapter, the kit in-process). The adapters are told the revision (the kit does
not tell them) and whether the ``.well-known`` fallback is on (:data:`FALLBACK`: off under v1,
which has none; on under v1.2 and v2.1, where it is a MAY, because both libraries ship with it on).

Every failing clause (outcome fail or error) is classed by ``profiles/aid/client-findings.toml``
(library, revision, clause -> class: ``library`` a bug of the library, ``revision`` a difference
of revision, ``adapter`` a limit of the adapter; and the reason, quoting the sentence); a failure
without an entry is written ``unclassified``, and an entry without a failure is stale
(:func:`problems`; tests/test_aid_clients_report.py fails on either).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "aid-clients-report.md"
FINDINGS = ROOT / "profiles" / "aid" / "client-findings.toml"
SEED = 20250619
REVISIONS = ("v1", "v1.2", "v2.1")
#: The .well-known fallback per revision: v1 has none; a MAY of v1.2 and v2.1, on as the libraries ship.
FALLBACK = {"v1": False, "v1.2": True, "v2.1": True}
CLASSES = {"library": "bug of the library", "revision": "difference of revision", "adapter": "limit of the adapter"}
UNCLASSIFIED = "unclassified"
REGENERATE = "python -m conformance.adapters.aid_clients_report"
SELF_TEST = "pytest tests/test_aid_clients_report.py"
#: Longest evidence line on the page.
EVIDENCE_CHARS = 300


class Unavailable(RuntimeError):
    """A library cannot be run here (not installed, no node); the message says why."""


@dataclass
class Library:
    key: str                                  # aid-py, aid-npm (the findings' ``library``)
    title: str
    targets: Callable[[str], str]             # revision -> adck target
    hello: Callable[[str], dict]              # revision -> the adapter's hello
    prepare: Callable[[], None]               # raises Unavailable


def _aid_py_handler_name(revision: str) -> str:
    if revision == "v1":
        return "discover"
    return "discover_" + revision.replace(".", "_") + ("_fallback" if FALLBACK[revision] else "")


def _aid_py_prepare() -> None:
    from conformance.adapters import aid_py
    try:
        aid_py.library()
    except aid_py.MissingLibrary as exc:
        raise Unavailable(str(exc)) from None


def _aid_py_hello(revision: str) -> dict:
    from conformance.adapters import aid_py
    return getattr(aid_py, _aid_py_handler_name(revision))({"type": "hello", "protocol": "adck-harness/1",
                                                            "kit": "aid_clients_report"})


#: The npm prefix holding @agentcommunity/aid (None: aid_npm.default_prefix(); a self-test sets its own).
NPM_PREFIX: list[Path | None] = [None]


def npm_prefix() -> Path:
    from conformance.adapters import aid_npm
    return Path(NPM_PREFIX[0] or aid_npm.default_prefix()).resolve()


def _npm_target(revision: str) -> str:
    from conformance.adapters import aid_npm
    return aid_npm.target(npm_prefix(), node_path=aid_npm.node(), revision=revision, fallback=FALLBACK[revision])


def _npm_prepare() -> None:
    """node there, and the pinned package installed under :func:`npm_prefix` (npm install when not)."""
    from conformance.adapters import aid_npm
    try:
        aid_npm.node()
        aid_npm.install(npm_prefix())
    except (aid_npm.NodeUnavailable, subprocess.TimeoutExpired) as exc:
        raise Unavailable(str(exc)) from None


def _npm_hello(revision: str) -> dict:
    import shlex
    argv = shlex.split(_npm_target(revision)[len("cmd:"):])
    done = subprocess.run(argv, input='{"type": "hello", "protocol": "adck-harness/1", "kit": "aid_clients_report"}\n'
                          '{"type": "stop"}\n', capture_output=True, text=True, timeout=60)
    return json.loads(done.stdout.splitlines()[0])


LIBRARIES = {
    "aid-py": Library("aid-py", "aid-discovery (PyPI, import aid_py)",
                      lambda rev: f"python:conformance.adapters.aid_py:{_aid_py_handler_name(rev)}",
                      _aid_py_hello, _aid_py_prepare),
    "aid-npm": Library("aid-npm", "@agentcommunity/aid (npm)", _npm_target, _npm_hello, _npm_prepare),
}


# ---------------------------------------------------------------------------- runs


@dataclass
class Failure:
    clause: str
    level: str
    outcome: str
    evidence: str


@dataclass
class Run:
    library: str
    revision: str
    target: str
    client: str
    level: str
    partial: bool
    counts: dict
    unverified: int
    steps: int
    requests: int
    dns_queries: int
    hello: dict
    failures: list[Failure] = field(default_factory=list)
    #: MUST clauses not verified (a prerequisite of their test did not hold): (clause, why)
    unverified_why: list[tuple[str, str]] = field(default_factory=list)


_VOLATILE = [(re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:PORT"),
             (re.compile(r"/tmp/[^\s'\",)]+"), "/tmp/…"),
             (re.compile(r"/root/[^\s'\",)]+|/home/[^\s'\",)]+"), "~/…"),
             (re.compile(r"\b1[789]\d{8}\b"), "<unix time>"),
             (re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d \w{3} 20\d\d \d\d:\d\d:\d\d GMT"), "<http date>"),
             (re.compile(r"node \d+\.\d+\.\d+"), "node"),
             (re.compile(r"\s+"), " ")]


def one_line(text: str, limit: int = EVIDENCE_CHARS) -> str:
    """A message as one line of the page: machine details (ports, paths, clocks) out, cut to ``limit``."""
    for pattern, repl in _VOLATILE:
        text = pattern.sub(repl, text)
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def shown_target(target: str) -> str:
    """A target as the page shows it: the checkout, node and the npm prefix named, not their paths."""
    import shutil
    from conformance.adapters import aid_npm
    text = target.replace(str(ROOT) + "/", "")
    node = shutil.which("node")
    if node:
        text = text.replace(f"cmd:{node} ", "cmd:node ")
    return text.replace(str(npm_prefix()), "PREFIX")


def run_one(library: Library, revision: str) -> Run:
    """One run of ``library`` judged as ``revision`` (client role, seed :data:`SEED`)."""
    from conformance import api

    target = library.targets(revision)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        result = api.run(f"aid@{revision}", target, roles=["client"], seed=SEED, report_dir=None)
    report = result.report
    if report is None:
        raise RuntimeError(f"{library.key} under aid@{revision}: no report ({result.error})")
    summary, adapter = report.summary, report.target.get("adapter") or {}
    failures = [Failure(r.clause, r.level, r.outcome, one_line(r.message or ""))
                for r in report.results if r.outcome in ("fail", "error")]
    client = adapter.get("client") or {}
    unverified = set(summary.must_unverified or [])
    why = sorted(((r.clause, one_line(r.message or r.untestable_reason or "", 200) + _client_said(r.evidence))
                  for r in report.results if r.clause in unverified), key=lambda c: _clause_key(c[0]))
    return Run(library.key, revision, shown_target(target), f"{client.get('name')} {client.get('version')}",
               summary.level, bool(summary.partial), summary.counts, len(summary.must_unverified or []),
               int(adapter.get("steps") or 0), int(adapter.get("client_requests") or 0),
               int(adapter.get("client_dns_queries") or 0), library.hello(revision),
               sorted(failures, key=lambda f: _clause_key(f.clause)), why)


def _client_said(evidence: list) -> str:
    """`` (the client said: …)``: the first message of the last harness reply among a result's
    evidence that reports an error (the library's own words), or ''."""
    for item in reversed(evidence or []):
        reply = (item.get("harness") or {}).get("reply") if isinstance(item, dict) else None
        if isinstance(reply, dict) and reply.get("error_kind") and reply.get("messages"):
            return f" (the client said: {one_line(str(reply['messages'][0]), 120)})"
    return ""


def _clause_key(clause: str) -> tuple:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"[-.]", clause))


def run_library(key: str) -> list[Run]:
    """Every revision of one library (:class:`Unavailable` when it cannot run here)."""
    library = LIBRARIES[key]
    library.prepare()
    return [run_one(library, revision) for revision in REVISIONS]


# ---------------------------------------------------------------------------- findings


@dataclass(frozen=True)
class Finding:
    library: str
    revision: str
    clause: str
    cls: str
    reason: str


def findings(path: Path = FINDINGS) -> dict[tuple[str, str, str], Finding]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out: dict[tuple[str, str, str], Finding] = {}
    for entry in data.get("finding", []):
        f = Finding(entry["library"], entry["revision"], entry["clause"], entry["class"], " ".join(entry["reason"].split()))
        if f.cls not in CLASSES:
            raise ValueError(f"{path}: {f.library} {f.revision} {f.clause}: class {f.cls!r} is not one of {sorted(CLASSES)}")
        key = (f.library, f.revision, f.clause)
        if key in out:
            raise ValueError(f"{path}: {key} is classed twice")
        out[key] = f
    return out


def problems(runs: list[Run], known: dict[tuple[str, str, str], Finding]) -> list[str]:
    """Failures without a class, and classes without a failure (for the libraries run)."""
    failing = {(r.library, r.revision, f.clause) for r in runs for f in r.failures}
    libraries = {r.library for r in runs}
    out = [f"unclassified: {lib} under {rev}: {clause}" for lib, rev, clause in sorted(failing - set(known))]
    out += [f"stale: {lib} under {rev}: {clause} is classed ({known[(lib, rev, clause)].cls}) but does not fail"
            for lib, rev, clause in sorted(set(known) - failing) if lib in libraries]
    return out


# ---------------------------------------------------------------------------- the page


def _esc(text: str) -> str:
    return text.replace("|", "\\|")


def _counts(run: Run) -> str:
    must, should = run.counts.get("MUST", {}), run.counts.get("SHOULD", {})
    return (f"MUST {must.get('pass', 0)} passed, {must.get('fail', 0) + must.get('error', 0)} failed, "
            f"{run.unverified} unverified; SHOULD {should.get('pass', 0)} passed, "
            f"{should.get('fail', 0) + should.get('error', 0)} failed")


def _level(run: Run) -> str:
    return f"{run.level} (partial)" if run.partial and "partial" not in run.level else run.level


def marker(key: str, end: bool = False) -> str:
    return f"<!-- {'end ' if end else ''}library: {key} -->"


def render_library(key: str, runs: list[Run] | None, known: dict, why_not: str | None = None) -> str:
    library = LIBRARIES[key]
    lines = [marker(key), f"## {library.title}", ""]
    if runs is None:
        lines += [f"Not run here: {why_not}", "", marker(key, end=True)]
        return "\n".join(lines)
    lines += ["| revision | client | verdict | counts | steps, requests, DNS queries |", "|---|---|---|---|---|"]
    for r in runs:
        lines.append(f"| {r.revision} | {r.client} | {_level(r)} | {_counts(r)} | {r.steps}, {r.requests}, {r.dns_queries} |")
    lines += ["", "What the adapter claims and changes, per revision (from its hello):", ""]
    for r in runs:
        h = r.hello
        lines.append(f"* **{r.revision}**: `{one_line(r.target, 400)}`; features "
                     f"{', '.join(h.get('features') or []) or 'none'}; protocols {', '.join(h.get('protocols') or [])}; "
                     f"{_esc(one_line(str(h.get('description') or ''), 1000))}")
    lines += ["", "| revision | clause | level | outcome | evidence | class | reason |", "|---|---|---|---|---|---|---|"]
    any_failure = False
    for r in runs:
        for f in r.failures:
            any_failure = True
            found = known.get((key, r.revision, f.clause))
            cls = CLASSES[found.cls] if found else UNCLASSIFIED
            reason = found.reason if found else ""
            lines.append(f"| {r.revision} | {f.clause} | {f.level} | {f.outcome} | {_esc(f.evidence)} | {cls} | {_esc(reason)} |")
    if not any_failure:
        lines.append("| | | | | no failing clause | | |")
    if any(r.unverified_why for r in runs):
        lines += ["", "MUST clauses not verified (a prerequisite of their test did not hold: never counted as met):", ""]
        for r in runs:
            for clause, why in r.unverified_why:
                lines.append(f"* {r.revision} {clause}: {why}")
    lines += ["", marker(key, end=True)]
    return "\n".join(lines)


HEADER = f"""# Two real AID clients under AID v1, v1.2 and v2.1

Generated by `{REGENERATE}` (seed {SEED}); `{SELF_TEST}` regenerates it and fails when this page,
a failure's class, or a class without its failure is out of date. Do not edit by hand: the
classes and their reasons are in `profiles/aid/client-findings.toml`.

Each library is run once per revision in the client role (`adck run aid@REV --role client
--seed {SEED} --target …`, the targets below). The kit does not tell an adapter which revision it
judges: each adapter is told (`--revision`, or the `python:` handler's name). The `.well-known`
fallback is off under v1, which has none, and on under v1.2 and v2.1, where it is a MAY and both
libraries ship with it on. A run of a revision whose client suite is not complete yet is
*partial* (clauses without a test yet are not judged); this page changes as tests land.

Classes: **bug of the library** (no revision asks for what it does), **difference of revision**
(the library follows another revision's text, quoted), **limit of the adapter** (what the adapter
or the kit's world cannot make the library show). A failure without a class reads `{UNCLASSIFIED}`.
Evidence is the kit's one-line observation, ports, paths and clocks blanked. The evidence and
the counts of steps, requests and DNS queries may differ a little from one run to the next (where
a library picks among equal DNS answers, which the nameserver orders freely); everything else on
the page is the same for every run of the same suite and libraries.
"""


def render(sections: dict[str, str]) -> str:
    return HEADER + "\n" + "\n\n".join(sections[key] for key in LIBRARIES if key in sections) + "\n"


def section(page: str, key: str) -> str | None:
    """The part of ``page`` between the library's markers, or None."""
    start, end = page.find(marker(key)), page.find(marker(key, end=True))
    return None if start < 0 or end < 0 else page[start:end + len(marker(key, end=True))]


def claims(text: str) -> list[str]:
    """The lines of a page (or section) that make claims: all but the evidence cell of a failure
    row, which is the kit's observation and may name what a library chose among equals (the
    first of two valid answers, in the order the nameserver gave them), and the counts of steps,
    requests and DNS queries of a run (a few more or fewer when a library's choice among equal
    answers changes how far a counter-example is reduced)."""
    out = []
    for line in text.splitlines():
        cells = line.split(" | ")
        if line.startswith("| v") and len(cells) == 7:  # revision | clause | level | outcome | evidence | class | reason
            cells[4] = "…"
        if line.startswith("| v") and len(cells) == 5:  # revision | client | verdict | counts | steps, requests, DNS
            cells[4] = "… |"
        out.append(" | ".join(cells))
    return out


def generate(keys: tuple[str, ...] = tuple(LIBRARIES)) -> tuple[dict[str, str], dict[str, list[Run]], dict[str, str]]:
    """(sections by library, runs by library, why a library was not run)."""
    known = findings()
    sections, runs, skipped = {}, {}, {}
    for key in keys:
        try:
            runs[key] = run_library(key)
        except Unavailable as exc:
            skipped[key] = str(exc)
            sections[key] = render_library(key, None, known, str(exc))
            continue
        sections[key] = render_library(key, runs[key], known)
    return sections, runs, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.adapters.aid_clients_report",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--library", action="append", choices=sorted(LIBRARIES),
                        help="only this library (its section of the page is replaced); default both")
    parser.add_argument("--check", action="store_true", help="compare with the page instead of writing it")
    parser.add_argument("--stdout", action="store_true", help="print the page instead of writing it")
    args = parser.parse_args(argv)
    keys = tuple(args.library or LIBRARIES)
    sections, runs, skipped = generate(keys)
    old = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    for key in LIBRARIES:  # a library not regenerated (or not runnable here) keeps its section
        if key not in sections or (key in skipped and section(old, key)):
            sections[key] = section(old, key) or render_library(key, None, {}, "not generated yet")
    page = render(sections)
    for line in problems([r for rs in runs.values() for r in rs], findings()):
        print(f"aid_clients_report: {line}", file=sys.stderr)
    for key, why in skipped.items():
        print(f"aid_clients_report: {key} not run: {why}", file=sys.stderr)
    if args.stdout:
        sys.stdout.write(page)
        return 0
    if args.check:
        if claims(page) != claims(old):
            print(f"aid_clients_report: {PAGE} is out of date; run: {REGENERATE}", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(page, encoding="utf-8")
    print(f"aid_clients_report: wrote {PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
