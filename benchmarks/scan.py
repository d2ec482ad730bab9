"""Benchmark of ``adck scan`` on the simulated internet (conformance/world/internet.py).

    python benchmarks/scan.py [--domains 5000] [--publishing 0.05] [--dask] [--concurrency 32]

Scans N simulated domains (most publish nothing) in one process judging on its own thread, in
one process with ``--judges`` worker processes judging, and with ``--dask`` on a two-worker
LocalCluster, and prints one Markdown row each: domains a second; CPU per domain of the scanner
(this process and its children: judging workers, the cluster's workers) and of the simulated
internet apart (its HTTPS and DNS servers run in a child process of their own, on the same two
cores: they are the other side of every request, not the scanner's work); peak RSS; HTTP requests
per domain; and the share of the time spent judging the documents found (a pytest session each).
Speed is measured here, never asserted in a test.
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
from conformance.scan import warm  # noqa: E402
from conformance.scan.run import Outputs, scan  # noqa: E402
from conformance.world.internet import simulated_internet  # noqa: E402


class _Internet:
    """The simulated internet in a child process: its hosts and addresses here, its CPU asked for."""

    def __init__(self, n: int, publishing: float) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self._pipe, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, n, publishing), daemon=True)
        self._process.start()
        info = self._pipe.recv()
        self.hosts, self.nameserver = info["hosts"], info["nameserver"]
        self.connect_to, self.ca_bundle = info["connect_to"], info["ca_bundle"]

    def domains(self) -> list[str]:
        return [h.domain for h in self.hosts]

    def cpu(self) -> float:
        self._pipe.send("cpu")
        return self._pipe.recv()

    def stop(self) -> None:
        self._pipe.send("stop")
        self._process.join(30)


def _serve(pipe, n: int, publishing: float) -> None:  # noqa: ANN001 - a multiprocessing Connection
    with simulated_internet(n, seed=1, publishing=publishing, slow_delay=3.0) as net:
        pipe.send({"hosts": net.hosts, "nameserver": net.nameserver, "connect_to": net.connect_to,
                   "ca_bundle": str(net.ca_bundle)})
        while pipe.recv() == "cpu":
            own = resource.getrusage(resource.RUSAGE_SELF)
            pipe.send(own.ru_utime + own.ru_stime)


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
    parser.add_argument("--judges", type=int, default=2,
                        help="also with N worker processes judging the documents found (0: not)")
    parser.add_argument("--dask", action="store_true", help="also on a two-worker LocalCluster")
    parser.add_argument("--check", type=int, default=0, metavar="N",
                        help="after the single-process scan: judge its WARC offline and compare every line, and "
                             "scan N sampled domains (half of them publishers) alone and compare their lines")
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
    print("| run | domains | publishing | seconds | domains/s | scanner CPU per domain | internet CPU per domain | "
          "peak RSS MiB | requests/domain | documents judged | judging share |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    net = _Internet(args.domains, args.publishing)
    with tempfile.TemporaryDirectory() as folder:
        options = ScanOptions(drafts=("aiendpoint", "woa", "aidre", "aid"), ca_bundle=str(net.ca_bundle),
                              connect_to=tuple(net.connect_to), nameservers=(net.nameserver,), timeout=2.0, seed=1)
        runs = [("single process", None, 0)]
        runs += [(f"one process, {args.judges} judging workers", None, args.judges)] if args.judges else []
        runs += [("LocalCluster, 2 workers", "local", 0)] if args.dask else []
        for name, address, judges in runs:
            out = Outputs(Path(folder) / f"{name.split()[0].lower().strip(',')}-{judges}")
            cpu, served, started = _cpu(), net.cpu(), time.monotonic()
            judged.update(seconds=0.0, runs=0)
            if address is None:
                stats = scan(net.domains(), options, out, concurrency=args.concurrency, rate=args.rate, judges=judges)
            else:
                from conformance.scan import cluster

                stats = cluster.scan(net.domains(), options, out, address=address, concurrency=args.concurrency,
                                     rate=args.rate, deadline=None)
            seconds = time.monotonic() - started
            # the run's forkserver ended: its warm-up and the processes forked from it are this
            # run's CPU, and the next run starts its own (conformance/scan/warm.py)
            warm.stop()
            used, serving = _cpu() - cpu, net.cpu() - served
            lines = [json.loads(x) for x in out.results.read_text().splitlines()]
            from conformance.scan import warc

            requests = sum(sum(1 for kind, _ in rec.items() if kind == "http") for rec in warc.read_all(out.warc).values())
            alone = address is None and not judges
            share = f"{judged['seconds'] / seconds:.0%}" if alone else "n/a (in the workers)"
            runs_count = judged["runs"] if alone else sum(1 for x in lines if x["status"] == "found")
            print(f"| {name} | {args.domains} | {args.publishing:.1%} | {seconds:.1f} | {args.domains / seconds:.1f} | "
                  f"{used / args.domains * 1000:.1f} ms | {serving / args.domains * 1000:.1f} ms | {_rss_mib():.0f} | "
                  f"{requests / args.domains:.2f} | {runs_count} | {share} |")
            assert stats.left == 0
            if alone and args.check:
                print(check(net, options, out, args.check))
    net.stop()
    return 0


def check(net: _Internet, options: ScanOptions, out: Outputs, sample: int) -> str:
    """The scan's lines against ``adck judge`` on its WARC (every line) and against scanning a
    sample of domains alone; what differs, or that nothing did."""
    import random

    from conformance import catalog
    from conformance.scan.domain import live_recording, scan_domain
    from conformance.scan.judge import judge

    keyed = {(x["domain"], x["draft"]): x for x in map(json.loads, out.results.read_text().splitlines())}
    again = Outputs(out.prefix.with_name(out.prefix.name + "-judged"))
    judge(out.warc, options, again)
    offline = {(x["domain"], x["draft"]): x for x in map(json.loads, again.results.read_text().splitlines())}
    differ = [k for k in keyed if keyed[k] != offline.get(k)]
    rng = random.Random(0)
    publishers = [h.domain for h in net.hosts if h.publishes]
    quiet = [h.domain for h in net.hosts if not h.publishes]
    chosen = rng.sample(publishers, min(len(publishers), sample // 2)) + rng.sample(quiet, min(len(quiet), sample - sample // 2))
    profiles = [catalog.load(s.partition("@")[0]) for s in options.draft_specs()]
    alone = [k for d in chosen for r in scan_domain(d, options, live_recording(d, options, profiles), warc_name=out.warc.name)
             for k in [(d, r.draft)] if json.loads(r.to_json()) != keyed[k]]
    return (f"\ncheck: adck judge on the WARC gave {len(keyed) - len(differ)} of {len(keyed)} lines the same"
            f"{' (differing: ' + ', '.join(map(str, differ[:5])) + ')' if differ else ''}; {len(chosen)} domains "
            f"scanned alone ({min(len(publishers), sample // 2)} publishers) gave the same lines"
            f"{'' if not alone else ' except ' + ', '.join(map(str, alone[:5]))}")


if __name__ == "__main__":
    sys.exit(main())
