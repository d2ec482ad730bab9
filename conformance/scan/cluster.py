"""``adck scan --dask local|tcp://SCHEDULER:8786``: the same scan, as Dask tasks.

The domain list is cut into partitions; each is one Dask task, which runs ``adck scan`` on its
partition in a child process of the worker (a judging run is a pytest session: it wants a main
thread of its own, which a worker's task thread is not) and writes its own files,
``OUT.part-NNNNN.*``. When every task is done, the parts are merged into ``OUT.*``: the WARC
files' gzip members back to back (the index's offsets moved), the result lines one after the
other. Nothing home-made schedules work: Dask places the tasks, retries a lost worker's task on
another (a part resumes from its own files), and ``--dask local`` starts a LocalCluster of two
workers on this machine, as threads of this process: each task's work runs in a child process
anyway, so worker processes would only add their own start (about 0.7 s of CPU). Those child
processes are forked warm (:mod:`conformance.scan.warm`): the suites are loaded once, not once a
partition. On a cluster, ``--out`` must be on storage every worker sees.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conformance.scan import warc, warm
from conformance.scan.domain import ScanOptions
from conformance.scan.run import Outputs, ScanStats


def part_outputs(out: Outputs, index: int) -> Outputs:
    return Outputs(out.prefix.with_name(f"{out.prefix.name}.part-{index:05d}"))


def scan_part(domains: list[str], prefix: str, arguments: list[str]) -> dict:
    """One partition, scanned by ``adck scan`` in a child process (a Dask task): forked warm
    (:mod:`conformance.scan.warm`: the suites loaded once for every partition this process
    starts) where it can be, else a new interpreter."""
    listing = Path(prefix + ".domains")
    listing.write_text("\n".join(domains) + "\n", "utf-8")
    argv = ["scan", str(listing), "--out", prefix, "--no-progress", *arguments]
    if _forks_warm():
        code, said = _scan_forked(argv, Path(prefix + ".stderr"))
    else:
        done = subprocess.run([sys.executable, "-m", "conformance.cli", *argv], capture_output=True, text=True)
        code, said = done.returncode, done.stderr
    if code not in (0, 1):
        raise RuntimeError(f"adck scan of {listing} exited {code}: {said.strip()[-2000:]}")
    return {"prefix": prefix, "exit": code}


def _forks_warm() -> bool:
    """Whether this process may fork partitions from the warm forkserver: it has one, and is not
    a daemonic process (a Dask worker process under a nanny is: it may not have children of its
    own through multiprocessing, so a new interpreter scans its partitions)."""
    import multiprocessing

    return warm.context().get_start_method() == "forkserver" and not multiprocessing.current_process().daemon


def _scan_forked(argv: list[str], said: Path) -> tuple[int, str]:
    """``adck scan ARGV`` in a process forked from the warm forkserver; its exit status and what it
    wrote on stderr (kept in ``said``)."""
    process = warm.context().Process(target=_partition, args=(argv, str(said)), name="adck-scan-partition")
    process.start()
    process.join()
    text = said.read_text("utf-8", "replace") if said.exists() else ""
    return (process.exitcode if process.exitcode is not None else 2), text


def _partition(argv: list[str], said: str) -> None:
    """In the forked process: ``adck scan``, its output to the file ``said``."""
    import os

    from conformance import cli

    out = os.open(said, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(out, 1)
    os.dup2(out, 2)
    code = cli.main(argv)
    sys.stdout.flush()
    sys.stderr.flush()
    sys.exit(code)


def scan(domains: list[str], options: ScanOptions, out: Outputs, *, address: str, partitions: int | None = None,
         concurrency: int, rate: float, deadline: float | None) -> ScanStats:
    """Scan on a Dask cluster (``address``: ``local`` or the scheduler's), then merge the parts."""
    from distributed import Client, LocalCluster

    out.prefix.parent.mkdir(parents=True, exist_ok=True)
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) \
        if address == "local" else None
    try:
        with Client(cluster if cluster is not None else address) as client:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            count = max(1, min(len(domains), partitions or 2 * workers))
            parts = [domains[i::count] for i in range(count)]
            # each partition judges in its own process: the cluster's workers are the cores
            arguments = options.cli_args() + ["--concurrency", str(concurrency), "--rate", str(rate), "--judges", "0"]
            if deadline is not None:
                arguments += ["--deadline", str(deadline)]
            futures = [client.submit(scan_part, part, str(part_outputs(out, i).prefix), arguments, pure=False)
                       for i, part in enumerate(parts)]
            exits = [f["exit"] for f in client.gather(futures)]
    finally:
        if cluster is not None:
            cluster.close()
    merge([part_outputs(out, i) for i in range(count)], out)
    from conformance.scan import summary

    data = summary.write(out)
    return ScanStats(scanned=data["domains"], left=sum(1 for e in exits if e == 1))


def merge(parts: list[Outputs], out: Outputs) -> None:
    """The parts' WARC files, indexes and result lines, merged into ``out`` (written anew)."""
    with open(out.warc, "wb") as target, open(warc.index_path(out.warc), "w", encoding="utf-8") as index, \
            open(out.results, "w", encoding="utf-8") as results:
        for number, part in enumerate(parts):
            if not part.warc.exists():
                continue
            spans = sorted(warc.spans(part.warc), key=lambda s: s.offset)
            start = spans[0].offset if spans else part.warc.stat().st_size
            if number == 0:  # the first part's warcinfo record opens the merged file
                with open(part.warc, "rb") as source:
                    target.write(source.read(start))
            base = target.tell()
            end = spans[-1].offset + spans[-1].length if spans else start
            with open(part.warc, "rb") as source:  # the finished domains' records only
                source.seek(start)
                target.write(source.read(end - start))
            for span in spans:
                index.write(json.dumps({"domain": span.domain, "offset": base + span.offset - start,
                                        "length": span.length}) + "\n")
            if part.results.exists():  # each line's replay names the merged WARC file
                own, merged = f"warc:{part.warc.name}#", f"warc:{out.warc.name}#"
                for line in part.results.read_text("utf-8").splitlines():
                    item = json.loads(line)
                    item["replay"] = item.get("replay", "").replace(own, merged)
                    results.write(json.dumps(item, sort_keys=True) + "\n")
