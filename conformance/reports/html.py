"""``report.html``: one self-contained page a vendor can publish.

Built from the report's data (``Report.to_dict()``, the same data as ``report.json``) with the
jinja2 templates beside this module, autoescape on: every string from a target is escaped where
it lands. The only markup not written by the templates is the draft's own quotes (AID's hold
Markdown such as ``**MUST**`` and table rows), rendered by markdown-it with raw HTML, links,
images and autolinks turned off, so a ``javascript:`` link in a quote stays text.

The page loads nothing: its style and script are inline, and a Content-Security-Policy allows
only those two (by hash), so even a mistake in escaping could not fetch or run anything else.
The page reads in order of what a reader needs: the verdict, the counts, the failures with
their evidence and replay commands, then every clause grouped by the draft's sections.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import Counter
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from conformance import catalog
from conformance.reports import quotes
from conformance.reports.model import Report, evidence_line
from conformance.reports.verdict import declared, draft_level_line, headline, judged, readings, revision_verdict, traffic

TEMPLATES = Path(__file__).with_name("templates")
OUTCOMES = ("fail", "error", "untestable", "pass", "not-applicable")
#: Evidence lists longer than this show their first and last items, the middle folded.
EVIDENCE_SHOWN = 8


@cache
def _markdown() -> MarkdownIt:
    """Inline Markdown only (a quote is one folded sentence or one table row): no raw HTML,
    no links or images of any kind (a quote must not link anywhere, least of all javascript:)."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.disable(["link", "image", "autolink", "html_inline"])
    return md


def quote(text: str, markdown: bool = True, lead: str | None = None, section: str = "") -> Markup:
    """The draft's sentence as HTML: its Markdown rendered (bold, italics, code), a table row
    (``| **v** | Required | ... |``, or a row quoted up to its cell that states the clause) as a
    one-row table of cells, nothing else. In a plain-text draft (``markdown`` False: the IETF
    texts, where ``*/*`` is no emphasis) the text is only escaped; its table rows are still cells.

    With the clause's ``section`` (and its catalog ``lead``), a fragment gets its context
    (:mod:`conformance.reports.quotes`) in a muted line before it: a row names itself and its
    table's columns, a list item follows the sentence that introduces the list, a half sentence
    its first half."""

    def inline(value: str) -> str:
        return _markdown().renderInline(value) if markdown else str(escape(value))

    text = " ".join(text.split())
    q = quotes.parts(text, section, lead)
    if q.row:  # a table row (ADP's tables too), or the start of one
        row = "".join(f"<td>{inline(c)}</td>" for c in (q.name, *q.values))
        table = f'<table class="row"><tr>{row}</tr></table>'
        if not section:
            return Markup(table)
        columns = f" ({' · '.join(inline(h) for h in q.header)})" if q.header else ""
        more = "" if q.complete else "; the quote stops inside the row"
        return Markup(f'<span class="lead">The {inline(q.name)} row of §{escape(section)}\'s table{columns}'
                      f'{more}:</span>{table}')
    if q.lead:
        return Markup(f'<span class="lead">{inline(q.lead)}{escape(q.joiner.rstrip())}</span> {inline(q.text)}')
    return Markup(inline(text))


def section_url(draft_id: str, section: str) -> str | None:
    """The section of an IETF draft on the datatracker (a link only: nothing is fetched).
    None for a text that is not an Internet-Draft (AID's specification), where a link would
    point nowhere."""
    if not draft_id.startswith("draft-"):
        return None
    base = f"https://datatracker.ietf.org/doc/html/{draft_id}"
    if re.fullmatch(r"[1-9]\d*(\.\d+)*", section):
        return f"{base}#section-{section}"
    if re.fullmatch(r"[A-Z](\.\d+)*", section):
        return f"{base}#appendix-{section}"
    return base


def revision(draft_id: str) -> str | None:
    """``00`` of ``draft-foo-00``; None when the id carries no Internet-Draft revision."""
    m = re.fullmatch(r"draft-.+-(\d{2})", draft_id)
    return m.group(1) if m else None


def _when(started_at: str) -> str:
    try:
        return datetime.fromisoformat(started_at).strftime("%Y-%m-%d %H:%M %Z").strip()
    except ValueError:
        return started_at


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _outcome_label(r: dict) -> str:
    if r["outcome"] == "untestable":
        return {"not-observable": "not observable", "credentials": "needs credentials",
                "undeclared": "undeclared choice", "rate-limited": "rate-limited",
                "budget": "budget spent"}.get(r["untestable_reason"], "unverified")
    return r["outcome"]


def _evidence(items: list[dict]) -> list[dict]:
    """Each item with its one-line summary; a long list keeps its first two items (they set
    the scene) and its last five (where it failed) in view, the middle folded."""
    shown = [{"line": evidence_line(ev), "ev": ev, "folded": False} for ev in items]
    if len(shown) > EVIDENCE_SHOWN:
        for item in shown[2:-5]:
            item["folded"] = True
    return shown


def _counts(results: list[dict], key: str) -> list[tuple[str, dict[str, int]]]:
    out: dict[str, Counter] = {}
    for r in results:
        out.setdefault(r[key], Counter())[r["outcome"]] += 1
    return [(k, {o: c[o] for o in OUTCOMES}) for k, c in out.items()]


def _sections(data: dict) -> list[dict]:
    """The results grouped by the draft's sections, in the catalog's order."""
    groups: dict[str, dict] = {}
    for r in data["results"]:
        g = groups.setdefault(r["section"], {"section": r["section"], "results": [], "counts": Counter(),
                                             "url": section_url(data["draft"]["id"], r["section"])})
        g["results"].append(r)
        g["counts"][r["outcome"]] += 1
    return list(groups.values())


def _draft_level_of(data: dict) -> dict[str, str]:
    """Clause id -> the draft level (ADP's D0..D2) whose account names it."""
    out = {}
    for account in data["summary"]["draft_levels"]:
        for key in ("must_failed", "must_unverified", "should_failed"):
            for cid in account[key]:
                out[cid] = account["level"]
    return out


def is_markdown(short: str) -> bool:
    """Whether the draft's text is Markdown (AID's is; the IETF drafts are plain text)."""
    try:
        return catalog.load(short).spec_file.endswith(".md")
    except (KeyError, OSError, catalog.CatalogError):  # a draft this kit does not carry: quotes as text
        return False


def _hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(quote=quote, pretty=_pretty, outcome_label=_outcome_label)
    env.globals["section_url"] = section_url
    return env


def context(report: Report) -> dict[str, Any]:
    """What the template shows, from the report's data and the verdict's shared words."""
    data = report.to_dict()
    s = data["summary"]
    level_word = draft_level_line(report) if s["draft_levels"] and not s["partial"] else s["level"]
    order = {"MUST": 0, "SHOULD": 1, "MAY": 2}
    failing = sorted((r for r in data["results"] if r["outcome"] in ("fail", "error")),
                     key=lambda r: order.get(r["level"], 3))
    by_obj = {r.clause: r for r in report.results}
    failures = [{**r, "evidence_items": _evidence(r["evidence"]),
                 "readings": readings(report, by_obj[r["clause"]])} for r in failing]
    unverified = [r for r in data["results"]
                  if r["level"] == "MUST" and r["outcome"] == "untestable" and r["untestable_reason"] == "prerequisite"]
    present = {o for o in OUTCOMES if any(r["outcome"] == o for r in data["results"])}
    env = _environment()
    style = env.loader.get_source(env, "style.css")[0]
    script = env.loader.get_source(env, "script.js")[0]
    return {
        "report": data,
        "s": s,
        # the catalog's context of each quote (display only): a table's header, a list's lead
        "lead_of": {r["clause"]: quotes.lead_of(data["draft"]["short"], r["clause"]) for r in data["results"]},
        "markdown": is_markdown(data["draft"]["short"]),
        "headline": headline(report),
        "judged": judged(report),
        "revision_verdicts": {e["name"]: revision_verdict(e) for e in report.revisions},
        "level_word": level_word,
        # the band's colour: a partial run's level is "partial" (model.summarize), never full
        "tone": s["level"],
        "traffic": traffic(report),
        "declared": declared(report),
        "revision": revision(data["draft"]["id"]),
        "draft_url": section_url(data["draft"]["id"], ""),
        "when": _when(data["started_at"]),
        "level_counts": [(lvl, s["counts"][lvl]) for lvl in ("MUST", "SHOULD", "MAY")
                         if lvl != "MAY" or any(s["counts"]["MAY"].values())],
        "role_counts": _counts(data["results"], "role"),
        "outcomes": OUTCOMES,
        "failures": failures,
        "unverified": unverified,
        "sections": _sections(data),
        "draft_level_of": _draft_level_of(data),
        "filter_outcomes": [o for o in OUTCOMES if o in present],
        "filter_levels": [lvl for lvl in ("MUST", "SHOULD", "MAY") if any(r["level"] == lvl for r in data["results"])],
        "filter_roles": list(dict.fromkeys(r["role"] for r in data["results"])),
        "style": Markup(style),
        "script": Markup(script),
        "csp": f"default-src 'none'; style-src '{_hash(style)}'; script-src '{_hash(script)}'; "
               "img-src data:; form-action 'none'; base-uri 'none'",
    }


def to_html(report: Report) -> str:
    return _environment().get_template("report.html.j2").render(context(report))

