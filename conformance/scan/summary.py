"""A scan's summary, from its results file: per draft, how many domains had each status, the
levels of the documents judged, and the clauses failed most often (JSON and Markdown)."""

from __future__ import annotations

import html as _html
import json
import math
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


def wilson(found: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion found/total (the domains a sample of many)."""
    if total == 0:
        return 0.0, 0.0
    p = found / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - spread), min(1.0, centre + spread)


_COLOURS = {"full": "#2e7d32", "conformant": "#7cb342", "partial": "#9e9e9e", "non-conformant": "#c62828"}


def html(data: dict[str, Any]) -> str:
    """A page of three plots (inline SVG, no script): adoption per draft with its 95% interval,
    the levels of the documents judged, and the clauses failed most often."""
    e = _html.escape
    rows, width = [], 420
    total = data["domains"]
    for name, d in data["drafts"].items():
        found = d["statuses"].get("found", 0)
        low, high = wilson(found, total)
        share = found / total if total else 0.0
        bar = f'<rect x="0" y="4" width="{share * width:.1f}" height="14" fill="#1565c0"/>'
        whisker = (f'<line x1="{low * width:.1f}" x2="{high * width:.1f}" y1="11" y2="11" stroke="#000"/>'
                   f'<line x1="{low * width:.1f}" x2="{low * width:.1f}" y1="7" y2="15" stroke="#000"/>'
                   f'<line x1="{high * width:.1f}" x2="{high * width:.1f}" y1="7" y2="15" stroke="#000"/>')
        rows.append(f"<tr><th>{e(name)}</th><td><svg width='{width}' height='22' role='img' aria-label='{found} of "
                    f"{total}'>{bar}{whisker}</svg></td><td>{found} of {total} ({share:.1%}; 95% interval "
                    f"{low:.1%}–{high:.1%})</td></tr>")
    adoption = "<table>" + "".join(rows) + "</table>"
    rows = []
    for name, d in data["drafts"].items():
        judged = sum(d["levels"].values())
        x, parts = 0.0, []
        for level in LEVELS:
            n = d["levels"].get(level, 0)
            w = (n / judged * width) if judged else 0.0
            if n:
                parts.append(f'<rect x="{x:.1f}" y="4" width="{w:.1f}" height="14" fill="{_COLOURS[level]}">'
                             f"<title>{e(level)}: {n}</title></rect>")
            x += w
        legend = ", ".join(f"{e(level)} {d['levels'].get(level, 0)}" for level in LEVELS)
        rows.append(f"<tr><th>{e(name)}</th><td><svg width='{width}' height='22' role='img' aria-label='{e(legend)}'>"
                    f"{''.join(parts)}</svg></td><td>{legend}</td></tr>")
    levels = "<table>" + "".join(rows) + "</table>"
    rows = []
    for name, d in data["drafts"].items():
        most = max(d["failed"].values(), default=0)
        for cid, n in list(d["failed"].items())[:10]:
            rows.append(f"<tr><th>{e(name)}</th><td>{e(cid)}</td><td><svg width='{width // 2}' height='16'><rect x='0' "
                        f"y='2' width='{n / most * width / 2:.1f}' height='12' fill='#c62828'/></svg></td><td>{n}</td></tr>")
    failed = "<table>" + "".join(rows) + "</table>" if rows else "<p>No clause failed.</p>"
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>adck scan</title>"
            "<style>body{font-family:sans-serif;margin:2em}th{text-align:left;padding-right:1em}td{padding:2px 8px}</style>"
            f"</head><body><h1>adck scan: {total} domains</h1>"
            "<h2>Adoption: domains publishing each draft</h2>"
            "<p>The bar is the share found; the whisker its 95% Wilson interval, for a scan of a sample of domains.</p>"
            f"{adoption}<h2>Conformance levels of the documents found</h2>{levels}"
            f"<h2>Clauses failed most often</h2>{failed}</body></html>\n")


def write(out: "Outputs", stats: "ScanStats | None" = None) -> dict[str, Any]:
    data = build(results(out.results))
    out.summary_json.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", "utf-8")
    out.summary_md.write_text(markdown(data, stats), "utf-8")
    out.summary_html.write_text(html(data), "utf-8")
    return data
