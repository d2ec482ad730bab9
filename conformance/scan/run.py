"""``adck scan``: many domains, each scanned once, recorded and judged; resumable.

One process, one asyncio loop: each domain's entry points are asked in a worker thread (at most
``concurrency`` domains at a time, at most ``rate`` requests a second to one IP address), and a
domain where something was found is judged in one of ``judges`` worker processes
(:mod:`conformance.scan.pool`), or with ``judges=0`` on the loop's own thread, one at a time (a
judging run is a pytest session, which wants the main thread). Each domain's exchanges go to the WARC
file, then its result lines to the JSON Lines file, each domain whole and flushed: the results
file is the checkpoint. Started again on the same output, a scan skips every domain the results
hold, drops the records of a domain it wrote but did not finish, and goes on: killed halfway
and resumed, no domain is lost and none is judged twice.

Domains are asked in a shuffled order, the same for the same ``--seed``: neighbours in a list are
often one operator's hosts on one server (a sorted zone file, a hoster's customers), and asked
together they would wait on that server's per-address budget while the others idle; shuffled, the
load spreads over servers, as Internet-wide scanners such as ZMap spread theirs. A deadline then
leaves a random sample unscanned, not the list's tail.

Files, for ``--out OUT``: ``OUT.warc.gz`` (and its index ``OUT.warc.gz.idx``), ``OUT.jsonl``
(one line per domain and draft), ``OUT.summary.json``, ``OUT.summary.md`` and
``OUT.summary.html`` (plots).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.scan import warc
from conformance.scan.domain import DraftResult, Pacer, ScanOptions, live_recording, scan_domain
from conformance.scan.pool import JudgingPool, judge

if TYPE_CHECKING:
    from conformance.recording import Recording

#: Default concurrency (domains in flight) and politeness (requests a second to one IP).
CONCURRENCY, RATE = 32, 2.0
#: Default worker processes judging the documents found: one per core this process may use, at
#: most 8 (each holds the suites, about 150 MiB).
JUDGES = min(8, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def _file(suffix: str) -> property:
    return property(lambda self: self.prefix.with_name(self.prefix.name + suffix))


@dataclass(frozen=True)
class Outputs:
    """The files of one scan, named from ``--out``: ``OUT.warc.gz``, ``OUT.jsonl``, ``OUT.summary.*``."""

    prefix: Path
    warc = _file(".warc.gz")
    results = _file(".jsonl")
    summary_json = _file(".summary.json")
    summary_md = _file(".summary.md")
    summary_html = _file(".summary.html")


@dataclass
class ScanStats:
    """What one run of a scan did: domains scanned now, found finished by an earlier run (a
    resume), left unscanned (the deadline, an interruption); HTTP requests; seconds."""

    scanned: int = 0
    skipped: int = 0
    left: int = 0
    requests: int = 0
    seconds: float = 0.0
    interrupted: bool = False


def read_domains(lines: Iterable[str]) -> list[str]:
    """The domains of a list, one a line: blank lines and ``#`` comments skipped, case folded,
    a trailing dot and a URL's scheme, user information, path and query dropped, repeats dropped
    (first kept). A credential in a pasted URL (``https://user:token@host/``) never becomes part of
    the domain, so never reaches a result line, the WARC or a summary."""
    seen: dict[str, None] = {}
    for raw in lines:
        text = raw.split("#", 1)[0].strip().lower()
        if not text:
            continue
        authority = re.split(r"[/?]", text.split("://", 1)[-1], maxsplit=1)[0]
        text = authority.rpartition("@")[2].rstrip(".")
        if text:
            seen.setdefault(text, None)
    return list(seen)


def resume(out: Outputs, drafts: int) -> set[str]:
    """The domains a previous run of this scan finished (every draft's line written), the files
    cut back to them: result lines of an unfinished domain dropped, WARC records written after
    the last finished domain's cut off (a crash between the two writes)."""
    done: dict[str, list[str]] = {}
    if out.results.exists():
        for line in out.results.read_text("utf-8").splitlines():
            try:
                item = json.loads(line)
            except ValueError:
                continue  # a line cut by the crash
            done.setdefault(item["domain"], []).append(line)
    finished = {d for d, lines in done.items() if len(lines) == drafts}
    if out.results.exists():
        kept = [line for d, lines in done.items() if d in finished for line in lines]
        _rewrite(out.results, "".join(line + "\n" for line in kept))
    spans = [s for s in warc.spans(out.warc) if s.domain in finished] if out.warc.exists() else []
    if out.warc.exists():
        end = max((s.offset + s.length for s in spans), default=None)
        if end is None:  # nothing finished: start the file again
            out.warc.unlink()
            warc.index_path(out.warc).unlink(missing_ok=True)
        else:
            with open(out.warc, "r+b") as handle:
                handle.truncate(end)
            _rewrite(warc.index_path(out.warc), "".join(
                json.dumps({"domain": s.domain, "offset": s.offset, "length": s.length}) + "\n" for s in spans))
    return finished


def _rewrite(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, "utf-8")
    os.replace(temporary, path)


async def _scan(domains: list[str], options: ScanOptions, out: Outputs, *, concurrency: int, rate: float,
                deadline: float | None, on_domain: Callable[[str, list[DraftResult]], None] | None,
                judges: int) -> ScanStats:
    from conformance import catalog
    from conformance.dns import Resolver

    specs = options.draft_specs()
    profiles = [catalog.load(s.partition("@")[0]) for s in specs]
    stats = ScanStats()
    finished = resume(out, len(specs))
    todo = [d for d in domains if d not in finished]
    random.Random(f"adck-scan-order:{options.seed}").shuffle(todo)
    stats.skipped = len(domains) - len(todo)
    pool = None
    if judges > 0 and todo:
        pool = JudgingPool(judges, rate, options)
    pacer = pool.pace if pool is not None else Pacer(rate, Resolver(options.dns()))
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(max(1, concurrency), thread_name_prefix="adck-scan"))
    started = time.monotonic()
    slots = asyncio.Semaphore(max(1, concurrency))
    writer = warc.DomainWriter(out.warc, {"adck-scan-drafts": ", ".join(specs), "adck-scan-seed": str(options.seed)})
    results_file = open(out.results, "a", encoding="utf-8")

    def probe(domain: str) -> tuple["Recording", list[DraftResult]]:
        recording = live_recording(domain, options, profiles, pacer)
        return recording, scan_domain(domain, options, recording, warc_name=out.warc.name, judge=False)

    async def one(domain: str) -> None:
        async with slots:
            if deadline is not None and time.monotonic() - started > deadline:
                stats.left += 1
                return
            try:
                recording, results = await loop.run_in_executor(None, probe, domain)
                if any(r.status == "found" for r in results) and pool is not None:
                    # the found drafts again, now judged, in a worker process (conformance.scan.pool),
                    # paced by the scan's budget, with the addresses the scan found for the domain
                    recording.pace = pool.pace.knowing(domain)
                    recording, results = await loop.run_in_executor(pool.executor(), judge, domain, options,
                                                                    recording, out.warc.name)
                elif any(r.status == "found" for r in results):
                    # judging runs pytest, on this (the main) thread: the found drafts again, now judged
                    results = scan_domain(domain, options, recording, warc_name=out.warc.name)
            except Exception as exc:  # noqa: BLE001 - a fault of the kit on one domain never ends the scan
                recording = live_recording(domain, options, profiles)
                results = [DraftResult(domain, spec.partition("@")[0], spec.partition("@")[2], "error",
                                       f"the kit failed on this domain ({type(exc).__name__}: {exc}); "
                                       "please report it") for spec in specs]
            writer.write(domain, recording)
            results_file.write("".join(r.to_json() + "\n" for r in results))
            results_file.flush()
            stats.scanned += 1
            stats.requests += sum(1 for kind, _ in recording.items() if kind == "http")
            if on_domain is not None:
                on_domain(domain, results)

    tasks = [asyncio.ensure_future(one(d)) for d in todo]
    try:
        await asyncio.gather(*tasks)
    except asyncio.CancelledError:
        stats.interrupted = True
        for task in tasks:
            task.cancel()
    finally:
        if pool is not None:
            pool.close()
        writer.close()
        results_file.close()
        stats.seconds = time.monotonic() - started
        stats.left += sum(1 for t in tasks if t.cancelled())
    return stats


def _run_to_the_end(coroutine):  # noqa: ANN001, ANN202 - a coroutine and its value
    """The scan's own event loop, run to the end on this thread, whatever another library left
    here: Playwright's synchronous API leaves its loop marked running on the thread it used. A
    scan is a synchronous call, so that loop is set aside while it runs, and given back; the
    thread's current loop is left alone (a loop factory: asyncio.Runner does not set it)."""
    from asyncio import events

    other = events._get_running_loop()
    events._set_running_loop(None)
    try:
        with asyncio.Runner(loop_factory=asyncio.new_event_loop) as runner:
            return runner.run(coroutine)
    finally:
        events._set_running_loop(other)


def scan(domains: list[str], options: ScanOptions, out: Outputs, *, concurrency: int = CONCURRENCY,
         rate: float = RATE, deadline: float | None = None,
         on_domain: Callable[[str, list[DraftResult]], None] | None = None, judges: int = 0) -> ScanStats:
    """Scan ``domains`` into ``out`` (resuming what it holds); the summary files are written at the end.
    ``judges``: worker processes judging the documents found (:mod:`conformance.scan.pool`); 0:
    judged on this thread."""
    out.prefix.parent.mkdir(parents=True, exist_ok=True)
    try:
        stats = _run_to_the_end(_scan(domains, options, out, concurrency=concurrency, rate=rate, deadline=deadline,
                                      on_domain=on_domain, judges=judges))
    except KeyboardInterrupt:
        stats = ScanStats(interrupted=True)
    from conformance.scan import summary

    summary.write(out, stats)
    return stats
