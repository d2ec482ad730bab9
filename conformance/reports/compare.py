"""``adck compare``: several reports side by side, for a spec author.

Implementations in the columns (each report's target), clauses in the rows (grouped by draft,
in catalog order), outcomes in the cells. A row is marked where the kit judged the clause by its
reading of an ambiguity of the draft (the result's ``ambiguities``), and highlighted where the
implementations disagree: at least one passed and at least one failed (``error``, ``untestable``
and ``not-applicable`` are no verdict, so they never make a disagreement). Clauses that no
implementation passed and at least one failed are listed apart: the sentences the drafts may
need to look at first. A clause a report did not check (another role, another draft) is an
empty cell, never a pass. Written as ``matrix.html`` (self-contained, every string escaped)
and ``index.md`` (target text in code spans).

Every mark the matrix adds is a word or a Latin-1 character (``pass``, ``FAIL``, ``n/a``, ``·``,
``disagree``, ``reading AMB-01``): no emoji or symbol that a browser without an emoji font (Debian's
Chromium) draws as an empty box. Only the drafts' own sentences and the targets' strings may
hold other characters.

Works on report.json files (dicts), so reports of any kit run, committed or fresh, compare.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.reports.markdown import _code, _token

#: A cell's word for each outcome (FAIL and ERROR in capitals: what a reader looks for first).
_WORD = {"pass": "pass", "fail": "FAIL", "error": "ERROR", "untestable": "untestable", "not-applicable": "n/a"}
#: A cell for a clause the report did not check (Latin-1 middle dot).
_NOT_CHECKED = "·"
_JUDGED = ("pass", "fail")


@dataclass
class Column:
    label: str
    spec: str
    draft: str
    roles: list[str]
    level: str
    partial: bool
    source: str
    #: The choices the verdict was reached under (``--declare``: ``strict-validation``, ``max-top-k=50``).
    declared: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        """The verdict as the matrix shows it: level, partial-ness, and what was declared."""
        out = self.level + (" (partial)" if self.partial and self.level != "partial" else "")
        return out + (f"; declared: {', '.join(self.declared)}" if self.declared else "")


@dataclass
class Row:
    draft: str
    clause: str
    section: str
    keyword: str
    level: str
    role: str
    text: str
    cells: list[str | None] = field(default_factory=list)
    ambiguities: list[str] = field(default_factory=list)

    @property
    def disagree(self) -> bool:
        return all(o in self.cells for o in _JUDGED)

    @property
    def nobody_passes(self) -> bool:
        return "pass" not in self.cells and ("fail" in self.cells or "error" in self.cells)


@dataclass
class Matrix:
    columns: list[Column]
    rows: list[Row]
    ambiguities: dict[str, dict[str, str]]  # "draft:AMB-01" -> {id, title, interpretation}


class CompareError(ValueError):
    """A file that is not an adck report.json (the message says which and why)."""


#: The members of a report.json the matrix uses (the rest, evidence above all, is let go as each
#: file is read: the memory a comparison holds is that of the matrix, not of every report).
_KEPT = {"draft": ("short",), "target": ("description", "spec", "declarations"), "roles": None,
         "summary": ("level", "partial"), "ambiguities": None}
_KEPT_RESULT = ("clause", "section", "keyword", "level", "role", "text", "outcome", "ambiguities")


def _slim(report: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, members in _KEPT.items():
        if key in report:
            value = report[key]
            out[key] = {m: value[m] for m in members if m in value} if members and isinstance(value, dict) else value
    out["results"] = [{k: r[k] for k in _KEPT_RESULT if k in r} for r in report["results"]]
    return out


def load(path: Path, totals: Any = None) -> dict[str, Any]:
    """A report.json, checked before use (size, values, nesting, report.schema.json:
    ``inputs``; ``totals`` across the files of one comparison), cut to what the matrix uses,
    every string then made safe by the kit's sanitiser (``safe.value``: it may be a crafted file)."""
    from conformance.reports import inputs, safe

    try:
        return safe.value(_slim(inputs.load_report(path, str(path), needs=("draft", "target", "results", "summary"),
                                                   totals=totals)))
    except inputs.InputError as exc:
        raise CompareError(str(exc)) from None


def build(reports: list[dict[str, Any]], sources: list[str] | None = None) -> Matrix:
    """The matrix of ``reports`` (report.json dicts), columns in the order given."""
    sources = sources or [f"report {i + 1}" for i in range(len(reports))]
    columns: list[Column] = []
    seen: dict[str, int] = {}
    for rep, src in zip(reports, sources):
        label = f"{rep['target'].get('description') or rep['target'].get('spec', '?')}"
        roles = list(rep.get("roles", []))
        if roles:
            label += f" ({', '.join(roles)})"
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label += f" #{seen[label]}"
        s = rep["summary"]
        columns.append(Column(label=label, spec=str(rep["target"].get("spec", "")), draft=rep["draft"]["short"],
                              roles=roles, level=str(s.get("level", "")), partial=bool(s.get("partial")), source=src,
                              declared=[str(d.get("shown") or d.get("name", "")) for d in rep["target"].get("declarations") or ()
                                        if isinstance(d, dict)]))
    rows: dict[tuple[str, str], Row] = {}
    ambiguities: dict[str, dict[str, str]] = {}
    for i, rep in enumerate(reports):
        draft = rep["draft"]["short"]
        for a in rep.get("ambiguities", []):
            ambiguities.setdefault(f"{draft}:{a['id']}", a)
        for r in rep["results"]:
            key = (draft, r["clause"])
            row = rows.get(key)
            if row is None:
                row = rows[key] = Row(draft=draft, clause=r["clause"], section=r["section"], keyword=r["keyword"],
                                      level=r["level"], role=r["role"], text=r["text"],
                                      cells=[None] * len(reports))
            row.cells[i] = r["outcome"]
            for amb in r.get("ambiguities", []):
                if amb not in row.ambiguities:
                    row.ambiguities.append(amb)
    drafts = list(dict.fromkeys(c.draft for c in columns))
    ordered = sorted(rows.values(), key=lambda r: drafts.index(r.draft))  # stable: catalog order within a draft
    return Matrix(columns=columns, rows=ordered, ambiguities=ambiguities)


# -- Markdown ---------------------------------------------------------------------------------


def _cell(outcome: str | None) -> str:
    return _WORD.get(outcome or "", _NOT_CHECKED)


def _reading(ids: list[str]) -> str:
    return "reading " + ", ".join(ids)


def _md_reading(ids: list[str], table: bool = False) -> str:
    """:func:`_reading` for Markdown: each id read from a report is a token (:func:`_token`)."""
    return "reading " + ", ".join(_token(i, table=table) for i in ids)


def to_markdown(m: Matrix) -> str:
    lines = ["# adck: implementations compared", "",
             (f"{len(m.columns)} reports, {len(m.rows)} clauses. Cells: the clause's outcome in that report "
              "(pass, FAIL, ERROR, untestable, n/a; · the report did not check it: another role or draft, "
              "never a pass). **disagree**: implementations disagree (one passed, one failed); reading AMB-NN: "
              "the kit judged the clause by its reading of an ambiguity of the draft (`adck ambiguities DRAFT`)."), "",
             "| # | implementation | target | draft | roles | verdict | report |", "|---|---|---|---|---|---|---|"]
    for n, c in enumerate(m.columns, 1):
        lines.append(f"| {n} | {_code(c.label, table=True)} | {_code(c.spec, table=True)} | {_token(c.draft, table=True)} | "
                     f"{', '.join(_token(r, table=True) for r in c.roles)} | {_code(c.verdict, table=True)} | {_code(c.source, table=True)} |")
    disagree = [r for r in m.rows if r.disagree]
    nobody = [r for r in m.rows if r.nobody_passes]
    lines += ["", f"## Where implementations disagree ({len(disagree)})", ""]
    lines += [f"- **{_token(r.clause)}** (§{_token(r.section)}, {_token(r.keyword)}): "
              + ", ".join(f"{n}: {_cell(o)}" for n, o in enumerate(r.cells, 1) if o) for r in disagree] or ["None."]
    lines += ["", f"## Clauses nobody passes ({len(nobody)})", ""]
    lines += [f"- **{_token(r.clause)}** (§{_token(r.section)}, {_token(r.keyword)}): {_code(r.text, limit=160)}"
              + (f" ({_md_reading(r.ambiguities)})" if r.ambiguities else "") for r in nobody] or ["None."]
    for draft in dict.fromkeys(r.draft for r in m.rows):
        head = " | ".join(str(n) for n in range(1, len(m.columns) + 1))
        lines += ["", f"## {_token(draft)}", "", f"| clause | § | key word | {head} | |",
                  "|---|---|---|" + "---|" * len(m.columns) + "---|"]
        for r in (r for r in m.rows if r.draft == draft):
            flags = "; ".join(x for x in ("**disagree**" if r.disagree else "",
                                          _md_reading(r.ambiguities, table=True) if r.ambiguities else "") if x)
            cells = " | ".join(_cell(o) for o in r.cells)
            lines.append(f"| {_token(r.clause, table=True)} | {_token(r.section, table=True)} | "
                         f"{_token(r.keyword, table=True)} | {cells} | {flags} |")
    used = sorted({(r.draft, a) for r in m.rows for a in r.ambiguities}, key=lambda k: f"{k[0]}:{k[1]}")
    if used:
        lines += ["", "## Ambiguities the rows rest on", ""]
        for draft, aid in used:
            a = m.ambiguities.get(f"{draft}:{aid}", {})
            lines.append(f"- **{_token(draft)}:{_token(aid)}** {_code(str(a.get('title', '')))}: {_code(str(a.get('interpretation', '')), limit=300)}")
    return "\n".join(lines) + "\n"


# -- HTML -------------------------------------------------------------------------------------

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0}
th,td{border:1px solid #ccc;padding:.2rem .4rem;vertical-align:top}
thead th{position:sticky;top:0;background:#f4f4f4}
td.c{text-align:center;white-space:nowrap}
tr.disagree{background:#fff3cd}
tr.disagree td:first-child{border-left:4px solid #e0a800}
.pass{color:#17702a}.fail{color:#b00020;font-weight:bold}.error{color:#8a2be2}
.untestable{color:#a06000}.not-applicable,.none{color:#999}
.tag{font-size:11px;font-weight:bold;border:1px solid currentColor;border-radius:3px;padding:0 .2rem;color:#8a6100}
.clause{white-space:nowrap;font-family:monospace}
.quote{color:#555;font-size:12px;max-width:40rem}
.amb{font-size:12px;color:#6a4c00}
.wrap{overflow-x:auto}
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def to_html(m: Matrix) -> str:
    h = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
         '<meta name="viewport" content="width=device-width, initial-scale=1">',
         '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">',
         f"<title>adck: {len(m.columns)} implementations compared</title><style>{_CSS}</style></head><body>",
         "<h1>adck: implementations compared</h1>",
         (f"<p>{len(m.columns)} reports, {len(m.rows)} clauses. A cell is the clause's outcome in that report "
          "(pass, FAIL, ERROR, untestable, n/a); · means the report did not check it (another role or draft), "
          "never a pass. Highlighted rows, marked disagree: the implementations disagree (one passed, one failed). "
          "reading AMB-NN: the kit judged the clause by its reading of an ambiguity of the draft.</p>"),
         ('<table><thead><tr><th>#</th><th>implementation</th><th>target</th><th>draft</th><th>verdict</th>'
          "<th>report</th></tr></thead><tbody>")]
    for n, c in enumerate(m.columns, 1):
        h.append(f"<tr><td>{n}</td><td>{_e(c.label)}</td><td><code>{_e(c.spec)}</code></td><td>{_e(c.draft)}</td>"
                 f"<td>{_e(c.verdict)}</td><td><code>{_e(c.source)}</code></td></tr>")
    h.append("</tbody></table>")
    nobody = [r for r in m.rows if r.nobody_passes]
    h.append(f'<h2 id="nobody">Clauses nobody passes ({len(nobody)})</h2><ul>')
    h += [f'<li><a href="#{_e(r.draft)}-{_e(r.clause)}" class="clause">{_e(r.clause)}</a> '
          f"§{_e(r.section)} {_e(r.keyword)}: <span class=\"quote\">{_e(r.text)}</span></li>" for r in nobody]
    h.append("</ul>" if nobody else "<li>None.</li></ul>")
    disagree = [r for r in m.rows if r.disagree]
    h.append(f'<h2 id="disagree">Where implementations disagree ({len(disagree)}, highlighted below)</h2><ul>')
    h += [f'<li><a href="#{_e(r.draft)}-{_e(r.clause)}" class="clause">{_e(r.clause)}</a> §{_e(r.section)} '
          f"{_e(r.keyword)}: " + ", ".join(f"{n}: {_e(_cell(o))}" for n, o in enumerate(r.cells, 1) if o) + "</li>"
          for r in disagree]
    h.append("</ul>" if disagree else "<li>None.</li></ul>")
    for draft in dict.fromkeys(r.draft for r in m.rows):
        h.append(f'<h2>{_e(draft)}</h2><div class="wrap"><table><thead><tr><th>clause</th><th>§</th><th>key word</th>')
        h += [f'<th title="{_e(c.label)}">{n}</th>' for n, c in enumerate(m.columns, 1)]
        h.append("<th>the draft</th></tr></thead><tbody>")
        for r in (r for r in m.rows if r.draft == draft):
            cls = ' class="disagree"' if r.disagree else ""
            cells = "".join(f'<td class="c {_e(o or "none")}" title="{_e(m.columns[i].label)}">{_e(_cell(o))}</td>'
                            for i, o in enumerate(r.cells))
            amb = (f'<div class="amb">{_e(_reading(r.ambiguities))}</div>' if r.ambiguities else "")
            mark = ' <span class="tag">disagree</span>' if r.disagree else ""
            h.append(f'<tr id="{_e(r.draft)}-{_e(r.clause)}"{cls}><td class="clause">{_e(r.clause)}{mark}</td>'
                     f"<td>{_e(r.section)}</td><td>{_e(r.keyword)}</td>{cells}"
                     f'<td class="quote">{_e(r.text)}{amb}</td></tr>')
        h.append("</tbody></table></div>")
    used = sorted({f"{r.draft}:{a}" for r in m.rows for a in r.ambiguities})
    if used:
        h.append("<h2>Ambiguities the rows rest on</h2><dl>")
        for key in used:
            a = m.ambiguities.get(key, {})
            h.append(f"<dt>{_e(key)} {_e(a.get('title', ''))}</dt><dd>{_e(a.get('interpretation', ''))}</dd>")
        h.append("</dl>")
    h.append("</body></html>")
    return "\n".join(h) + "\n"


def write(m: Matrix, folder: Path) -> list[Path]:
    """``index.md`` and ``matrix.html`` in ``folder``."""
    from conformance.reports.render import write_file

    return [write_file(folder / name, text) for name, text in (("index.md", to_markdown(m)), ("matrix.html", to_html(m)))]


def compare(paths: list[str], folder: str) -> list[Path]:
    """Load the report.json files, build the matrix, write it; CompareError for a bad file."""
    if not paths:
        raise CompareError("name at least one report.json (adck compare reports/*/report.json)")
    from conformance.reports import inputs

    totals = inputs.Totals()
    reports = [load(Path(p), totals) for p in paths]
    return write(build(reports, sources=list(paths)), Path(folder))
