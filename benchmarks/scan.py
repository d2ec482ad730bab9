"""Benchmark of ``adck scan`` on the simulated internet (conformance/world/internet.py).

    python benchmarks/scan.py [--domains 5000] [--publishing 0.05] [--dask] [--concurrency 32]

Scans N simulated domains (most publish nothing) in one process and, with ``--dask``, on a
two-worker LocalCluster, and prints one Markdown row each: domains a second, CPU seconds per
domain (this process and its children: the cluster's workers, the servers' threads are this
process's too), peak RSS, HTTP requests per domain, and the share of the time spent judging the
documents found (a pytest session each). The simulated servers run in this process: their CPU
counts against the scan, as on a loaded machine. Speed is measured here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conformance.scan import domain as scan_domain_module  # noqa: E402
from conformance.scan.domain import ScanOptions  # noqa: E402
from conformance.scan.run import Outputs, scan  # noqa: E402
from conformance.world.internet import simulated_internet  # noqa: E402


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _rss_mib() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return max(own.ru_maxrss, children.ru_maxrss) / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", type=int, default=5000)
    parser.add_argument("--publishing", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--rate", type=float, default=50.0, help="requests a second to one IP (8 hosts share one)")
    parser.add_argument("--dask", action="store_true", help="also on a two-worker LocalCluster")
    args = parser.parse_args(argv)
    judged = {"seconds": 0.0, "runs": 0}
    original = scan_domain_module._judge

    def timed(*a, **k):  # noqa: ANN002, ANN003
        started = time.monotonic()
        try:
            return original(*a, **k)
        finally:
            judged["seconds"] += time.monotonic() - started
            judged["runs"] += 1

    scan_domain_module._judge = timed
    print("| run | domains | publishing | seconds | domains/s | CPU per domain | peak RSS MiB | requests/domain | "
          "judging runs | judging share |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with simulated_internet(args.domains, seed=1, publishing=args.publishing, slow_delay=3.0) as net, \
            tempfile.TemporaryDirectory() as folder:
        options = ScanOptions(drafts=("aiendpoint", "woa", "aidre", "aid"), ca_bundle=str(net.ca_bundle),
                              connect_to=tuple(net.connect_to), nameservers=(net.nameserver,), timeout=2.0, seed=1)
        runs = [("single process", None)] + ([("LocalCluster, 2 workers", "local")] if args.dask else [])
        for name, address in runs:
            out = Outputs(Path(folder) / name.split()[0].lower().strip(","))
            cpu, started = _cpu(), time.monotonic()
            judged.update(seconds=0.0, runs=0)
            if address is None:
                stats = scan(net.domains(), options, out, concurrency=args.concurrency, rate=args.rate)
            else:
                from conformance.scan import cluster

                stats = cluster.scan(net.domains(), options, out, address=address, concurrency=args.concurrency,
                                     rate=args.rate, deadline=None)
            seconds = time.monotonic() - started
            used = _cpu() - cpu
            lines = [json.loads(x) for x in out.results.read_text().splitlines()]
            from conformance.scan import warc

            requests = sum(sum(1 for kind, _ in rec.items() if kind == "http") for rec in warc.read_all(out.warc).values())
            share = f"{judged['seconds'] / seconds:.0%}" if address is None else "n/a (in the workers)"
            runs_count = judged["runs"] if address is None else sum(1 for x in lines if x["status"] == "found")
            print(f"| {name} | {args.domains} | {args.publishing:.0%} | {seconds:.1f} | {args.domains / seconds:.1f} | "
                  f"{used / args.domains * 1000:.1f} ms | {_rss_mib():.0f} | {requests / args.domains:.2f} | "
                  f"{runs_count} | {share} |")
            assert stats.left == 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
