"""Measure how long the kit's limits take to stop hostile input: the timings the self-tests
used to assert and no longer do (they assert what the kit says and reads, with a hang detector).

    python benchmarks/limits.py [--runs N] [--only TEXT ...]

Four groups, each case repeated ``--runs`` times (best and worst wall time printed):

* heuristics: the ADP document oracle on a mebibyte of hostile text in a description and an
  example (``tests/test_adp_document.py``; the patterns read at most ``_checks.MAX_CHARS``);
* resolver: a DNS server that drops the query (per-try timeout 0.5 s, lifetime 1 s), and one
  that truncates even over TCP (``tests/test_dns.py``);
* fetcher: the raw-socket servers of ``tests/hostile`` under a 1 s total deadline and a 64 KiB
  body cap (``tests/test_fetch_limits.py``);
* runs: a whole in-process run against a hostile target: aiendpoint publishers at ``--timeout 1``
  (``tests/test_fetch_limits.py``), a silent client adapter at ``--run-timeout 1``
  (``tests/test_run_limits.py``), a WoA host whose invocation endpoint is silent at ``--timeout 1``
  (``tests/test_woa_host.py``).

Prints a Markdown table (the "old bound" column is the wall-clock limit the self-test asserted
before, for comparison). This is a measurement, not a test: nothing here fails a build.
``benchmarks/hostile.py`` measures whole CLI runs against every attack of ``tests/hostile/attacks.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conformance import api  # noqa: E402
from conformance.world import tls  # noqa: E402
from tests import hostile  # noqa: E402

FILLERS = ["a-", "a.", "1 ", "best ", "a://", "password-"]
CAP = 64 * 1024

#: (group, case, old bound in s, the limit at work, measure() -> what the kit said)
Case = tuple[str, str, float, str, Callable[[], str]]


# ------------------------------------------------------------------ heuristics
def _heuristics(filler: str) -> Callable[[], str]:
    def measure() -> str:
        from conformance.adp.oracle import judge

        text = filler * (2**20 // len(filler))
        verdict = judge({"id": "a", "name": "n", "description": text, "examples": [{"id": "e", "text": text}],
                         "bindings": [{"protocol": "https", "endpoint": "x"}]})
        return f"{sum(o == 'fail' for o in verdict.values())} clauses fail"
    return measure


# ------------------------------------------------------------------ resolver
def _resolver(fault: str) -> Callable[[], str]:
    def measure() -> str:
        from conformance.dns import DnsConfig, Resolver
        from conformance.world.dns import MockDNS

        with MockDNS() as server:
            server.add_zone("example.test", '_agent 300 IN TXT "v=aid1;uri=https://x.example.test/;proto=mcp"')
            server.fault("_agent.example.test", fault)  # type: ignore[arg-type]
            resolver = Resolver(DnsConfig(nameservers=(("127.0.0.1", server.port),), timeout=0.5, lifetime=1.0))
            answer = resolver.txt("_agent.example.test")
            tries = [q.transport for q in server.log]
        return f"{answer.status} after {len(tries)} quer{'y' if len(tries) == 1 else 'ies'} ({', '.join(tries)})"
    return measure


# ------------------------------------------------------------------ fetcher
def _fetch(make_server: Callable[[], object], url: Callable[[object], str],
           connect_to: Callable[[object], tuple] = lambda s: ()) -> Callable[[], str]:
    def measure() -> str:
        from conformance.fetch import ConnectTo, Fetcher, HttpConfig, Limits

        with make_server() as server:  # type: ignore[attr-defined]
            limits = Limits(total_timeout=1, connect_timeout=1, max_body_bytes=CAP)
            mappings = tuple(ConnectTo.parse(c) for c in connect_to(server))
            with Fetcher(HttpConfig(ca_bundle=tls.ca_bundle(), connect_to=mappings, limits=limits)) as fetcher:
                result = fetcher.fetch(url(server))
        return result.error_kind or "no error"
    return measure


def _canned(body: bytes, encoding: str) -> bytes:
    return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: " + encoding.encode()
            + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def _refused() -> Callable[[], str]:
    def measure() -> str:
        from conformance.fetch import Fetcher, HttpConfig, Limits

        sock, port = hostile.refused_port()
        try:
            with Fetcher(HttpConfig(limits=Limits(total_timeout=1, connect_timeout=1, max_body_bytes=CAP))) as f:
                return f.fetch(f"http://127.0.0.1:{port}/").error_kind or "no error"
        finally:
            sock.close()
    return measure


# ------------------------------------------------------------------ whole runs
def _quiet(*args, **kwargs) -> api.RunResult:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return api.run(*args, report_dir=None, **kwargs)


def _publisher_run(make_server: Callable[[object], object], clause: str = "AIE-2.1-01") -> Callable[[], str]:
    def measure() -> str:
        with make_server(tls.server_context("bad.adck.test")) as server:  # type: ignore[attr-defined]
            result = _quiet("aiendpoint", "https://bad.adck.test", timeout=1, ca_bundle=str(tls.ca_bundle()),
                            connect_to=[f"bad.adck.test:443:127.0.0.1:{server.port}"])
        outcome = next(r.outcome for r in result.report.results if r.clause == clause)
        return f"exit {result.exit_code}; {clause} {outcome}"
    return measure


def _silent_adapter() -> str:
    with tempfile.TemporaryDirectory(prefix="adck-bench-") as folder:
        result = _quiet("aiendpoint", hostile.adapter_command(folder, "\ntime.sleep(600)\n"), roles=["agent"],
                        run_timeout=1.0)
    return f"exit {result.exit_code}; partial: {'deadline' in ' '.join(result.report.summary.partial_reasons)}"


def _silent_woa_endpoint() -> str:
    from tests.test_woa_host import DRAFT, _hostile, live, requests_to

    route = {"delay": 3.0, "body": "text", "text": "{}", "headers": {"Content-Type": "application/json"}}
    with live(_hostile(route)) as reach, requests_to("host.adck.test") as sent:
        result = _quiet(DRAFT, "https://host.adck.test", seed=3, invoke=True, timeout=1.0, **reach)
    return f"exit {result.exit_code}; {[m for m, _ in sent].count('POST')} invocation sent"


def cases() -> list[Case]:
    tls_hang = lambda: hostile.Hang(ssl_context=tls.server_context("hang.adck.test"))  # noqa: E731
    plain = lambda s: s.url + "/"  # noqa: E731
    stacked = gzip.compress(gzip.compress(b"\0" * (256 * 1024 * 1024), compresslevel=9), compresslevel=9)
    bomb = gzip.compress(b"\0" * (16 * 1024 * 1024), compresslevel=9)
    nested = b'{"a":' * 50_000 + b"1" + b"}" * 50_000
    out: list[Case] = [("heuristics", f"a mebibyte of {f!r}", 5, "MAX_CHARS = 8192 per pattern", _heuristics(f))
                       for f in FILLERS]
    out += [
        ("resolver", "server drops the query", 3, "timeout 0.5 s, lifetime 1 s", _resolver("drop")),
        ("resolver", "TC even over TCP", 3, "one TCP retry", _resolver("truncate-always")),
        ("fetcher", "hang", 3, "1 s deadline", _fetch(hostile.Hang, plain)),
        ("fetcher", "hang behind TLS", 3, "1 s deadline",
         _fetch(tls_hang, lambda s: "https://hang.adck.test/", lambda s: (f"hang.adck.test:443:127.0.0.1:{s.port}",))),
        ("fetcher", "trickled body (a byte / 0.2 s)", 3, "1 s deadline",
         _fetch(lambda: hostile.Trickle(interval=0.2), plain)),
        ("fetcher", "trickled headers", 3, "1 s deadline",
         _fetch(lambda: hostile.Trickle(interval=0.2, in_head=True), plain)),
        ("fetcher", "endless body", 3, "64 KiB cap", _fetch(hostile.Flood, plain)),
        ("fetcher", "gzip bomb (16 MiB decoded)", 3, "64 KiB cap, decoded",
         _fetch(lambda: hostile.Canned(_canned(bomb, "gzip")), plain)),
        ("fetcher", "gzip, gzip bomb (256 MiB decoded)", 3, "64 KiB cap, decoded",
         _fetch(lambda: hostile.Canned(_canned(stacked, "gzip, gzip")), plain)),
        ("fetcher", "garbage bytes", 3, "-", _fetch(hostile.Garbage, plain)),
        ("fetcher", "refused port", 3, "-", _refused()),
        ("run", "aiendpoint vs hang", 15, "--timeout 1", _publisher_run(lambda ctx: hostile.Hang(ssl_context=ctx))),
        ("run", "aiendpoint vs trickle", 15, "--timeout 1",
         _publisher_run(lambda ctx: hostile.Trickle(ssl_context=ctx))),
        ("run", "aiendpoint vs endless body", 15, "1 MiB cap",
         _publisher_run(lambda ctx: hostile.Flood(ssl_context=ctx), "AIE-4.5-01")),
        ("run", "aiendpoint vs 50,000-deep object", 15, "JSON too deep to parse",
         _publisher_run(lambda ctx: hostile.Canned(hostile.OK_HEAD + f"Content-Length: {len(nested)}\r\n\r\n".encode()
                                                   + nested, ssl_context=ctx), "AIE-3.1-01")),
        ("run", "agent: adapter silent after hello", 20, "--run-timeout 1", _silent_adapter),
        ("run", "woa host: invocation endpoint silent", 30, "--timeout 1", _silent_woa_endpoint),
    ]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--only", nargs="*", default=None, help="cases whose group or name contains one of these")
    args = p.parse_args()
    print(f"`python benchmarks/limits.py --runs {args.runs}`, {platform.python_version()}, {os.cpu_count()} cores\n")
    print("| group | case | limit at work | the kit's account | best s | worst s | old bound s |")
    print("|---|---|---|---|---|---|---|")
    for group, name, bound, limit, measure in cases():
        if args.only and not any(o in f"{group} {name}" for o in args.only):
            continue
        times, said = [], ""
        for _ in range(args.runs):
            started = time.perf_counter()
            said = measure()
            times.append(time.perf_counter() - started)
        print(f"| {group} | {name} | {limit} | {said} | {min(times):.2f} | {max(times):.2f} | {bound:g} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
