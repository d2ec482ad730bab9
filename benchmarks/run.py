"""Benchmark: how long a run takes and how many requests it sends (measured, never asserted).

    python benchmarks/run.py [--runs N]

Prints, for the built-in reference publisher, a document target and a broken variant: the
mean and best wall time of a whole in-process run, and the requests sent per run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import time
from pathlib import Path

from conformance import api

REFERENCE_DOCUMENT = Path(__file__).parents[1] / "fixtures" / "aiendpoint" / "document.json"


def measure(target: str, runs: int, **kwargs) -> tuple[float, float, int, int]:
    """Mean and best seconds of a whole run; requests sent (by the kit, or for the agent
    role by the client under test); clauses reported."""
    times, requests, clauses = [], 0, 0
    for _ in range(runs):
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            result = api.run("aiendpoint", target, report_dir=None, **kwargs)
        times.append(time.perf_counter() - started)
        adapter = result.report.target.get("adapter")
        requests = adapter["client_requests"] if adapter else result.report.requests_sent
        clauses = len(result.report.results)
    return statistics.mean(times), min(times), requests, clauses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    print(f"{'target':45} {'mean s':>8} {'best s':>8} {'requests':>9} {'clauses':>8}")
    cases = [("builtin", {}), (str(REFERENCE_DOCUMENT), {}), ("builtin:redirect-chain-of-6", {}),
             ("builtin", {"roles": ["agent"]}), ("builtin", {"roles": ["agent"], "world": "respx"})]
    for target, kwargs in cases:
        mean, best, requests, clauses = measure(target, args.runs, **kwargs)
        name = (Path(target).name if "/" in target else target) + "".join(
            f" {k}={v if isinstance(v, str) else ','.join(v)}" for k, v in kwargs.items())
        print(f"{name:45} {mean:8.3f} {best:8.3f} {requests:9d} {clauses:8d}")


if __name__ == "__main__":
    main()
