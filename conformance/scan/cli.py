"""The ``adck scan`` and ``adck judge`` commands (wired into :mod:`conformance.cli`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_OK, EXIT_INCOMPLETE, EXIT_USAGE = 0, 1, 2


def add_parsers(sub, positive) -> None:  # noqa: ANN001 - argparse's subparsers action, cli._positive
    s = sub.add_parser(
        "scan", help="scan many domains for every draft, record the exchanges as WARC, judge what is found",
        description="For each domain of DOMAINS (one a line; - for standard input): ask every draft's entry point "
        "(the _agent TXT record, /.well-known/ai, /.well-known/woa.json, /.well-known/ai-discovery), class what "
        "came back (found, not-found, soft-404, unreachable, error), and judge each document found in the draft's "
        "document and publisher roles. Read-only: GET and HEAD only, the drafts' own paths only, no invocation, "
        "search or registration. Writes OUT.warc.gz (every exchange), OUT.jsonl (one line per domain and draft), "
        "OUT.summary.json, OUT.summary.md and OUT.summary.html (plots). Started again on the same --out, it resumes: no domain is lost or "
        "judged twice. Exit 0: every domain scanned; 1: the deadline left some unscanned; 2: the scan could not "
        "run or was interrupted (run the same command again to go on). docs/scan.md")
    s.add_argument("domains", metavar="DOMAINS", help="a file of domains, one a line (# comments), or - for stdin")
    _common(s, positive)
    s.add_argument("--concurrency", type=positive(int), default=None, metavar="N",
                   help="domains scanned at once (default 32)")
    s.add_argument("--rate", type=positive(float), default=None, metavar="R",
                   help="requests a second to one IP address at most (default 2)")
    s.add_argument("--judges", type=_count, default=None, metavar="N",
                   help="worker processes judging the documents found (default: one per core, at most 8; 0: judge in "
                        "the scan's own process, one at a time)")
    s.add_argument("--deadline", type=positive(float), default=None, metavar="S",
                   help="stop starting new domains after S seconds (the rest, a random sample of the list: domains are "
                        "asked in a shuffled order, is left for a resumed run)")
    s.add_argument("--contact", default="", metavar="TEXT",
                   help="how a site owner reaches you (a URL or an e-mail address), sent in the User-Agent")
    s.add_argument("--ca-bundle", help="PEM file of CA certificates to trust besides the system's (TLS checks stay on)")
    s.add_argument("--connect-to", action="append", default=[], metavar="HOST1:PORT1:HOST2:PORT2",
                   help="reach HOST1:PORT1 at HOST2:PORT2, keeping the name for SNI and the certificate (as curl)")
    s.add_argument("--nameserver", action="append", default=[], metavar="HOST[:PORT]",
                   help="ask this DNS server (repeatable; default: the system's resolver)")
    s.add_argument("--timeout", type=positive(float), default=None, help="seconds allowed per request (default 10)")
    s.add_argument("--max-body", type=positive(int), default=None, help="body bytes read at most (default 1 MiB)")
    s.add_argument("--allow-private", action="store_true",
                   help="follow redirects to loopback or private addresses (by default reported, not fetched)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar on the terminal")
    s.add_argument("--dask", default=None, metavar="local|tcp://HOST:8786",
                   help="run the scan as Dask tasks: on a LocalCluster of two worker processes (local), or on a "
                        "cluster's scheduler; each partition writes OUT.part-N.*, merged into OUT.* at the end "
                        "(pip install 'adck[cluster]')")
    s.add_argument("--partitions", type=positive(int), default=None, metavar="N",
                   help="with --dask: how many parts the domain list is cut into (default: two per worker)")

    j = sub.add_parser(
        "judge", help="judge a scan's WARC again, offline, under any revision the kit knows",
        description="Judge every domain of SCAN.warc.gz from its recorded exchanges, sending nothing: the same "
        "classes and verdicts as the scan, or, with --draft DRAFT@REV, under another revision; a clause that needs "
        "a probe the scan did not send is not checked, never passed. Writes OUT.jsonl, OUT.summary.json and "
        "OUT.summary.md. docs/scan.md")
    j.add_argument("warc", metavar="SCAN.warc.gz", help="a WARC file written by adck scan")
    _common(j, positive)


def _count(text: str) -> int:
    """A whole number, 0 or more (``--judges``)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number, 0 or more, not {text!r}")
    return value


def _common(p: argparse.ArgumentParser, positive) -> None:  # noqa: ANN001
    p.add_argument("--out", default=None, metavar="OUT",
                   help="the output files' prefix (default: reports/scan for a scan, reports/judge for a judge)")
    p.add_argument("--draft", action="append", default=[], metavar="DRAFT[@REV]",
                   help="scan or judge this draft (repeatable; default: every draft with an entry point, its newest "
                        "revision; for a judge, the scan's own)")
    p.add_argument("--seed", type=int, default=0,
                   help="hypothesis seed of every judging run, and of the order a scan asks its domains in (default 0)")


def _options(args: argparse.Namespace, drafts: tuple[str, ...]):
    from conformance.scan.domain import ScanOptions

    return ScanOptions(drafts=drafts, ca_bundle=getattr(args, "ca_bundle", None),
                       connect_to=tuple(getattr(args, "connect_to", ())), nameservers=tuple(getattr(args, "nameserver", ())),
                       timeout=getattr(args, "timeout", None) or 10.0, max_body=getattr(args, "max_body", None),
                       allow_private=bool(getattr(args, "allow_private", False)), seed=args.seed,
                       contact=getattr(args, "contact", ""))


def _drafts(given: list[str]) -> tuple[str, ...]:
    """The drafts named, each checked: one revision the suite judges, a draft with an entry point."""
    from conformance import catalog, revisions

    out = []
    for spec in given:
        short, _, rev = spec.partition("@")
        profile = catalog.load(short)
        if profile.scan is None:
            raise ValueError(f"--draft {spec}: {short} has no entry point a scan can ask ([scan] of its profile)")
        if rev:
            if "," in rev or rev == "all":
                raise ValueError(f"--draft {spec}: one revision per draft in a scan")
            revisions.judgeable(spec)
        out.append(spec)
    return tuple(out)


def cmd_scan(args: argparse.Namespace, console) -> int:  # noqa: ANN001 - a rich Console
    from conformance import catalog
    from conformance.scan import run

    try:
        drafts = _drafts(args.draft)
        text = sys.stdin.read() if args.domains == "-" else Path(args.domains).read_text("utf-8")
    except (ValueError, catalog.CatalogError, OSError) as exc:
        print(f"adck scan: {exc}", file=sys.stderr)
        return EXIT_USAGE
    domains = run.read_domains(text.splitlines())
    if not domains:
        print(f"adck scan: no domain in {args.domains!r} (one a line)", file=sys.stderr)
        return EXIT_USAGE
    out = run.Outputs(Path(args.out or "reports/scan"))
    options = _options(args, drafts)
    out.prefix.parent.mkdir(parents=True, exist_ok=True)
    done = run.resume(out, len(options.draft_specs()))
    progress, on_domain = _progress(len(domains), len(done & set(domains)), args.no_progress)
    if args.dask:
        try:
            import distributed  # noqa: F401 - the extra the option needs

            from conformance.scan import cluster
        except ImportError as exc:
            print(f"adck scan: --dask needs Dask: pip install 'adck[cluster]' ({exc})", file=sys.stderr)
            return EXIT_USAGE
        stats = cluster.scan(domains, options, out, address=args.dask, partitions=args.partitions,
                             concurrency=args.concurrency or run.CONCURRENCY, rate=args.rate or run.RATE,
                             deadline=args.deadline)
    else:
        with progress:
            stats = run.scan(domains, options, out, concurrency=args.concurrency or run.CONCURRENCY,
                             rate=args.rate or run.RATE, deadline=args.deadline, on_domain=on_domain,
                             judges=run.JUDGES if args.judges is None else args.judges)
    for path in (out.results, out.warc, out.summary_md, out.summary_html):
        console.print(f"written: {path}")
    if stats.interrupted:
        print("adck scan: interrupted; run the same command again to go on (finished domains are kept)", file=sys.stderr)
        return EXIT_USAGE
    console.print(f"{stats.scanned} domains scanned, {stats.skipped} already done, {stats.left} left; "
                  f"{stats.requests} requests in {stats.seconds:.1f} s")
    return EXIT_INCOMPLETE if stats.left else EXIT_OK


def cmd_judge(args: argparse.Namespace, console) -> int:  # noqa: ANN001
    from conformance import catalog
    from conformance.scan import judge, run, warc

    path = Path(args.warc)
    if not path.is_file():
        print(f"adck judge: no such file {args.warc!r} (adck scan writes OUT.warc.gz)", file=sys.stderr)
        return EXIT_USAGE
    try:
        drafts = _drafts(args.draft) or warc.scanned_drafts(path)
    except (ValueError, catalog.CatalogError, OSError) as exc:
        print(f"adck judge: {exc}", file=sys.stderr)
        return EXIT_USAGE
    out = run.Outputs(Path(args.out or "reports/judge"))
    count = judge.judge(path, _options(args, drafts), out)
    console.print(f"{count} domains judged from {path}")
    for written in (out.results, out.summary_md, out.summary_html):
        console.print(f"written: {written}")
    return EXIT_OK


def _progress(total: int, done: int, off: bool):
    """A rich progress bar on a terminal (and a callback advancing it), else nothing."""
    import contextlib

    if off or not sys.stderr.isatty():
        return contextlib.nullcontext(), None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True))
    task = bar.add_task("scanning", total=total, completed=done)
    return bar, lambda domain, results: bar.advance(task)
