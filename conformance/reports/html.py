"""``report.html``: one self-contained page."""

from __future__ import annotations

import html

from conformance.reports.model import Report
from conformance.reports.verdict import headline
from conformance.reports.verdict import readings as readings_of


def to_html(report: Report) -> str:
    def readings(r) -> str:
        return "".join(f"<br><small class='reading'>the kit's reading ({html.escape(a['id'])}, "
                       f"{html.escape(a['title'])}): {html.escape(a['interpretation'])}</small>"
                       for a in readings_of(report, r)) if r.outcome in ("fail", "error") else ""

    rows = "\n".join(
        f"<tr class='{r.outcome}'><td>{html.escape(r.clause)}</td><td>{html.escape(r.section)}</td>"
        f"<td>{html.escape(r.keyword)}</td><td>{html.escape(r.outcome)}</td>"
        f"<td><q>{html.escape(r.text)}</q><br><small>{html.escape(r.message)}</small>{readings(r)}</td></tr>"
        for r in report.results)
    return f"""<!doctype html><html lang="en"><meta charset="utf-8">
<title>adck {html.escape(report.draft['short'])}: {report.summary.level}</title>
<style>body{{font-family:sans-serif;margin:2em}} td{{vertical-align:top;padding:.3em}}
.fail td,.error td{{background:#fdd}} .untestable td{{background:#ffd}} .pass td{{background:#efe}}</style>
<h1>{html.escape(headline(report))}</h1>
<p><strong>{html.escape(headline(report))}</strong></p>
<p>{html.escape(report.target['description'])} — {report.requests_sent} requests, seed {report.seed}</p>
<table><tr><th>clause</th><th>§</th><th>level</th><th>outcome</th><th>requirement / observation</th></tr>
{rows}</table></html>
"""


