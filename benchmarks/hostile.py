"""Measure the kit against every hostile target, at full size: verdict, peak RSS, wall time.

Each attack of ``tests/hostile/attacks.py`` runs in a fresh process (``python -m
tests.hostile.attacks NAME DIR full``), which records its own peak resident set size (the
kit's, plus the small loopback server that plays the attacker); the adapter processes an
attack starts are not counted, only the kit that reads them. Writes ``docs/hostile.md``.

    python benchmarks/hostile.py [--only NAME ...] [--out docs/hostile.md]

This is a measurement, not a test: nothing here fails a build. The bar the issue sets is a
peak RSS under 300 MB for every attack; the table says whether each one stays under it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hostile.attacks import ATTACKS  # noqa: E402

RSS_BAR_MB = 300


def measure(name: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="adck-bench-") as folder:
        started = time.monotonic()
        rss_file = Path(folder) / "rss-kb"
        proc = subprocess.Popen([sys.executable, "-m", "tests.hostile.attacks", name, str(Path(folder) / "r"), "full"],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env={**os.environ, "PYTHONPATH": str(ROOT), "ADCK_BENCH_RSS_FILE": str(rss_file)})
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - started
        code = os.waitstatus_to_exitcode(status)
        verdict = "no report"
        report = Path(folder) / "r" / "report.json"
        if report.exists():
            data = json.loads(report.read_text("utf-8"))
            failed = [r["clause"] for r in data["results"] if r["outcome"] in ("fail", "error")]
            verdict = data["summary"]["level"] + (f" ({', '.join(failed[:3])}{'…' if len(failed) > 3 else ''})"
                                                  if failed else "")
        # the kit's own peak (written by the run itself); the adapter processes it waited for are not the kit
        rss_kb = int(rss_file.read_text()) if rss_file.exists() else usage.ru_maxrss
        return {"attack": name, "exit": code, "verdict": verdict, "rss_mb": rss_kb / 1024, "wall_s": wall}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", nargs="*", default=None, help="attacks to run (default: all)")
    p.add_argument("--out", default=str(ROOT / "docs" / "hostile.md"))
    args = p.parse_args()
    rows = []
    for name in args.only or sorted(ATTACKS):
        row = measure(name)
        rows.append(row)
        print(f"{row['attack']:45} exit {row['exit']}  {row['rss_mb']:7.1f} MB  {row['wall_s']:6.1f} s  {row['verdict']}",
              flush=True)
    worst = max(r["rss_mb"] for r in rows)
    lines = [
        "# The kit against hostile targets",
        "",
        f"`python benchmarks/hostile.py` on {dt.date.today().isoformat()}, {platform.python_version()}, "
        f"{os.cpu_count()} cores. Each attack runs at full size in a fresh process on loopback "
        "(`tests/hostile/attacks.py` says what each one does; the self-tests run the same attacks at a smaller "
        "size and check reports, secrets and processes: `tests/hostile/test_attacks.py`). Peak RSS is the kit's "
        f"process; the bar is {RSS_BAR_MB} MB. Worst: **{worst:.0f} MB**"
        f"{' (under the bar)' if worst < RSS_BAR_MB else ' (OVER THE BAR)'}.",
        "",
        "| attack | exit | verdict | peak RSS MB | wall s |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['attack']} | {r['exit']} | {r['verdict']} | {r['rss_mb']:.0f} | {r['wall_s']:.1f} |")
    lines += ["", "Exit 1: the target failed a MUST (a clean verdict); 2: the kit could not judge (an adapter "
              "broke the protocol) and said so. The deadlines at work: `--timeout 2` per request in the publisher "
              "attacks, `--run-timeout 3` for the silent adapter."]
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
