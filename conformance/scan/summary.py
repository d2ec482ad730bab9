"""A scan's summary, from its results file: per draft, how many domains had each status, the
levels of the documents judged, and the clauses failed most often (JSON and Markdown)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.scan.domain import STATUSES

if TYPE_CHECKING:
    from conformance.scan.run import Outputs, ScanStats

LEVELS = ("full", "conformant", "partial", "non-conformant")


def results(path: Path) -> list[dict[str, Any]]:
    """The result lines of a scan (a line cut by a crash is left out)."""
    out = []
    if path.exists():
        for line in path.read_text("utf-8").splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out


def build(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary of result lines: domains, and per draft the statuses, levels and failed clauses."""
    drafts: dict[str, Any] = {}
    for line in lines:
        d = drafts.setdefault(line["draft"], {"revision": line.get("revision", ""), "statuses": dict.fromkeys(STATUSES, 0),
                                              "levels": dict.fromkeys(LEVELS, 0), "failed": {}})
        d["statuses"][line["status"]] = d["statuses"].get(line["status"], 0) + 1
        if line.get("level"):
            d["levels"][line["level"]] = d["levels"].get(line["level"], 0) + 1
        for cid in line.get("failed_must", []) + line.get("failed_should", []):
            d["failed"][cid] = d["failed"].get(cid, 0) + 1
    for d in drafts.values():
        d["failed"] = dict(sorted(d["failed"].items(), key=lambda kv: (-kv[1], kv[0]))[:20])
    return {"domains": len({line["domain"] for line in lines}), "drafts": dict(sorted(drafts.items()))}


def markdown(data: dict[str, Any], stats: "ScanStats | None" = None) -> str:
    rows = [f"# adck scan: {data['domains']} domains", ""]
    if stats is not None and stats.seconds:
        rows += [f"This run: {stats.scanned} scanned, {stats.skipped} already in the results (resumed), "
                 f"{stats.left} left unscanned{' (interrupted: run the same command again to go on)' if stats.interrupted else ''}; "
                 f"{stats.requests} HTTP requests in {stats.seconds:.1f} s.", ""]
    rows += ["| draft | revision | " + " | ".join(STATUSES) + " |", "|---|---|" + "---|" * len(STATUSES)]
    for name, d in data["drafts"].items():
        rows.append(f"| {name} | {d['revision']} | " + " | ".join(str(d["statuses"].get(s, 0)) for s in STATUSES) + " |")
    rows += ["", "Levels of the documents found and judged:", "", "| draft | " + " | ".join(LEVELS) + " |",
             "|---|" + "---|" * len(LEVELS)]
    for name, d in data["drafts"].items():
        rows.append(f"| {name} | " + " | ".join(str(d["levels"].get(lv, 0)) for lv in LEVELS) + " |")
    rows += ["", "Clauses failed most often (MUST and SHOULD):", ""]
    for name, d in data["drafts"].items():
        if d["failed"]:
            rows.append(f"- {name}: " + ", ".join(f"{cid} ({n})" for cid, n in d["failed"].items()))
    return "\n".join(rows) + "\n"


def write(out: "Outputs", stats: "ScanStats | None" = None) -> dict[str, Any]:
    data = build(results(out.results))
    out.summary_json.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", "utf-8")
    out.summary_md.write_text(markdown(data, stats), "utf-8")
    return data
