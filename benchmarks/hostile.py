"""Measure the kit against every hostile target and file, at full size: verdict, peak RSS, wall time.

Each attack of ``tests/hostile/attacks.py`` runs in a fresh process (``python -m
tests.hostile.attacks NAME DIR full``), which records its own peak resident set size (the
kit's, plus the small loopback server or file writer that plays the attacker); the adapter
processes an attack starts are not counted, only the kit that reads them. Then the attacks
whose memory follows ``--max-body`` run again with it raised, to state how peak RSS grows with
it. Writes ``docs/hostile.md``.

    python benchmarks/hostile.py [--only NAME ...] [--no-series] [--out docs/hostile.md]

This is a measurement, not a test: nothing here fails a build. The bar the issue sets is a
peak RSS under 300 MB for every attack at the default limits, growing at most linearly with
``--max-body``; the tables say whether each one holds.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hostile.attacks import ATTACKS  # noqa: E402

RSS_BAR_MB = 300
#: Attacks whose memory follows --max-body (a body, a listing of pages), run again with it raised.
SERIES = ("endless-body", "gzip-gzip-bomb", "mcp-tools-list-of-full-pages")
SERIES_MIB = (1, 4, 16)


def _said(stderr: str) -> str:
    """The kit's last line (stdout, then stderr), for an attack that wrote no report: a file
    refused, or ``adck check``'s finding."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    if not lines:
        return "no report"
    last = re.sub(r"\S*/adck-hostile-[^/\s]+/", "", lines[-1].removeprefix("adck: "))  # the temporary folder says nothing
    return last[:110] + ("…" if len(last) > 110 else "")


def measure(name: str, extra: tuple[str, ...] = ()) -> dict:
    with tempfile.TemporaryDirectory(prefix="adck-bench-") as folder:
        started = time.monotonic()
        rss_file = Path(folder) / "rss-kb"
        err_file = Path(folder) / "stderr"
        out_file = Path(folder) / "stdout"
        with open(err_file, "wb") as err, open(out_file, "wb") as out:
            proc = subprocess.Popen([sys.executable, "-m", "tests.hostile.attacks", name, str(Path(folder) / "r"), "full"],
                                    cwd=ROOT, stdout=out, stderr=err,
                                    env={**os.environ, "PYTHONPATH": str(ROOT), "ADCK_BENCH_RSS_FILE": str(rss_file),
                                         "ADCK_BENCH_EXTRA": json.dumps(list(extra))})
            _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - started
        code = os.waitstatus_to_exitcode(status)
        report = Path(folder) / "r" / "report.json"
        if report.exists():
            data = json.loads(report.read_text("utf-8"))
            failed = [r["clause"] for r in data["results"] if r["outcome"] in ("fail", "error")]
            verdict = data["summary"]["level"] + (f" ({', '.join(failed[:3])}{'…' if len(failed) > 3 else ''})"
                                                  if failed else "")
        else:
            verdict = _said(out_file.read_text("utf-8", "replace") + err_file.read_text("utf-8", "replace"))
        # the kit's own peak (written by the run itself); the adapter processes it waited for are not the kit
        rss_kb = int(rss_file.read_text()) if rss_file.exists() else usage.ru_maxrss
        return {"attack": name, "exit": code, "verdict": verdict, "rss_mb": rss_kb / 1024, "wall_s": wall}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", nargs="*", default=None, help="attacks to run (default: all)")
    p.add_argument("--no-series", action="store_true", help="skip the runs with --max-body raised")
    p.add_argument("--out", default=str(ROOT / "docs" / "hostile.md"))
    args = p.parse_args()
    rows = []
    for name in args.only or sorted(ATTACKS):
        row = measure(name)
        rows.append(row)
        print(f"{row['attack']:48} exit {row['exit']}  {row['rss_mb']:7.1f} MB  {row['wall_s']:6.1f} s  {row['verdict']}",
              flush=True)
    series = []
    if not args.no_series:
        for name in (n for n in SERIES if not args.only or n in args.only):
            cells = []
            for mib in SERIES_MIB:
                row = measure(name, ("--max-body", str(mib << 20)))
                cells.append(row["rss_mb"])
                print(f"{name:48} --max-body {mib:2} MiB  {row['rss_mb']:7.1f} MB", flush=True)
            slope = (cells[-1] - cells[0]) / (SERIES_MIB[-1] - SERIES_MIB[0])
            series.append((name, cells, slope))
    worst = max(rows, key=lambda r: r["rss_mb"])
    lines = [
        "# The kit against hostile targets and files",
        "",
        f"`python benchmarks/hostile.py` on {dt.date.today().isoformat()}, {platform.python_version()}, "
        f"{os.cpu_count()} cores. Each attack runs at full size in a fresh process on loopback "
        "(`tests/hostile/attacks.py` says what each one does; the self-tests run the same attacks at a smaller "
        "size and check reports, secrets, escape sequences, processes and connections: "
        "`tests/hostile/test_attacks.py`). Peak RSS is the kit's process (with the loopback server or file "
        f"writer that plays the attacker); the bar is {RSS_BAR_MB} MB at the default limits. "
        f"Worst: **{worst['rss_mb']:.0f} MB** ({worst['attack']})"
        f"{', under the bar' if worst['rss_mb'] < RSS_BAR_MB else ', OVER THE BAR'}.",
        "",
        "| attack | exit | verdict, or the kit's one line | peak RSS MB | wall s |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['attack']} | {r['exit']} | {_cell(r['verdict'])} | {r['rss_mb']:.0f} | {r['wall_s']:.1f} |")
    lines += ["", "Exit 0 or 1: a clean verdict on the target; 2: the kit could not judge (an adapter broke the "
              "protocol, a run's deadline passed) or refused a file, and said so in one line. The deadlines at work: "
              "`--timeout 2` per request in the publisher attacks, `--run-timeout 3` for the silent adapter and the "
              "daemon. The limits on files read back (`conformance/reports/inputs.py`): 16 MiB and 500,000 JSON "
              "values a report, 4 MiB a baseline, twice that across the files of one `adck compare`; on MCP: "
              "tools/list read to 4 MiB across its pages, or one `--max-body` when that is larger."]
    if series:
        lines += ["", "## Peak RSS as `--max-body` grows", "",
                  "The attacks whose memory follows `--max-body`, run again with it raised (the MCP server sizes "
                  "its pages just under it). The factor is the slope between the smallest and the largest setting.", "",
                  "| attack | " + " | ".join(f"{m} MiB" for m in SERIES_MIB) + " | MB per MiB of --max-body |",
                  "|---|" + "---|" * (len(SERIES_MIB) + 1)]
        for name, cells, slope in series:
            lines.append(f"| {name} | " + " | ".join(f"{c:.0f}" for c in cells) + f" | {slope:.1f} |")
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
