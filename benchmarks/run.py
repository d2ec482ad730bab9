"""Benchmark: how long a run takes and how many requests it sends (measured, never asserted).

    python benchmarks/run.py [--runs N]

Prints, for the built-in reference implementations (aiendpoint publisher and agent; AID
provider and client), document targets and a broken variant: the mean and best wall time of a
whole in-process run, and the HTTP requests and DNS queries sent per run (by the kit, or for
a client role by the client under test).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import time
from pathlib import Path

from conformance import api

FIXTURES = Path(__file__).parents[1] / "fixtures"
REFERENCE_DOCUMENT = FIXTURES / "aiendpoint" / "document.json"
REFERENCE_MANIFEST = FIXTURES / "aid" / "aid.json"
RECORD = "txt:v=aid1;uri=https://api.example.com/mcp;proto=mcp;auth=pat"


def measure(draft: str, target: str, runs: int, **kwargs) -> tuple[float, float, int, int, int]:
    """Mean and best seconds of a whole run; HTTP requests and DNS queries sent (by the kit,
    or for a client role by the client under test); clauses reported."""
    times, requests, queries, clauses = [], 0, 0, 0
    for _ in range(runs):
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            result = api.run(draft, target, report_dir=None, **kwargs)
        times.append(time.perf_counter() - started)
        info = result.report.target
        adapter = info.get("adapter")
        requests = adapter["client_requests"] if adapter else result.report.requests_sent
        queries = adapter.get("client_dns_queries", 0) if adapter else info.get("dns_queries", 0)
        clauses = len(result.report.results)
    return statistics.mean(times), min(times), requests, queries, clauses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    print(f"{'draft':11}{'target':45} {'mean s':>8} {'best s':>8} {'requests':>9} {'DNS':>5} {'clauses':>8}")
    cases = [("aiendpoint", "builtin", {}), ("aiendpoint", str(REFERENCE_DOCUMENT), {}),
             ("aiendpoint", "builtin:redirect-chain-of-6", {}),
             ("aiendpoint", "builtin", {"roles": ["agent"]}),
             ("aiendpoint", "builtin", {"roles": ["agent"], "world": "respx"}),
             ("aid", "builtin", {}), ("aid", RECORD, {}), ("aid", str(REFERENCE_MANIFEST), {}),
             ("aid", "builtin", {"roles": ["client"]}),
             ("woa", "builtin", {}), ("woa", "builtin", {"roles": ["client"]}),
             ("aidre", "builtin", {}), ("aidre", "builtin", {"roles": ["client"]})]
    for draft, target, kwargs in cases:
        mean, best, requests, queries, clauses = measure(draft, target, args.runs, **kwargs)
        name = (Path(target).name if "/" in target else target[:28]) + "".join(
            f" {k}={v if isinstance(v, str) else ','.join(v)}" for k, v in kwargs.items())
        print(f"{draft:11}{name:45} {mean:8.3f} {best:8.3f} {requests:9d} {queries:5d} {clauses:8d}")


if __name__ == "__main__":
    main()
