"""How a clause's quote is shown: the draft's own words, with the context a fragment needs.

A clause's ``text`` is the draft's sentence exactly as received, and it stays so (ids and texts
are published data). But many normative statements are not sentences of their own: a row of a
table (``| D1 | Structured Discovery | Support Discovery Requests … |``), an item of a list
(``* dimensions``), the second half of a sentence (``but MUST preserve unknown fields …``).
Shown bare they cannot be read. The catalog gives such entries a ``lead`` (display only): the
table's header row, the sentence that introduces the list, or the first half of the sentence,
all in the draft's own words. Every rendering (terminal, report.md, junit.xml, report.html)
shows the quote through :func:`display` (or :func:`parts`, for markup):

* a table row: ``The D1 row of §3.3's table: Name: Structured Discovery — Requirements: Support …``
  (header cells paired with the row's cells; without a header, the cells joined by ``—``;
  `` …`` when the quote stops inside the row);
* a list item: ``Each embedding space advertised by the server MUST include: … dimensions``;
* a half sentence: ``Implementations SHOULD ignore unknown fields for forward compatibility, but
  MUST preserve unknown fields when acting as a transparent metadata relay.``
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

_PIPE = re.compile(r"(?<!\\)\|")
_BULLET = re.compile(r"^[*+-]\s+")


def cells(row: str) -> list[str]:
    """The cells of a Markdown/ASCII table row (``| a | b |``, or a row quoted up to a cell)."""
    row = " ".join(row.split())
    pieces = _PIPE.split(row)
    inner = pieces[1:-1] if row.endswith("|") else pieces[1:]
    return [c.strip().replace("\\|", "|") for c in inner]


@dataclass(frozen=True)
class Quote:
    """A quote ready to show: a table row (``name``, ``pairs`` of header and cell, or ``values``
    without a header), or a sentence with the ``lead`` before it (``joiner`` between them)."""

    text: str
    section: str
    row: bool = False
    name: str = ""
    header: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    complete: bool = True
    lead: str | None = None
    joiner: str = " "

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return [(h, v) for h, v in zip(self.header[1:], self.values) if v]


def parts(text: str, section: str, lead: str | None = None) -> Quote:
    """The quote taken apart for showing (see the module's docstring)."""
    text = " ".join(text.split())
    lead = " ".join(lead.split()) if lead else None
    row = None
    header: list[str] = []
    if text.startswith("|") and len(_PIPE.split(text)) > 2:
        row = text
        header = cells(lead) if lead and lead.startswith("|") else []
    elif lead and lead.startswith("|"):  # a cell of a row whose start is the lead
        row = f"{lead.rstrip()} {text}"
        if not text.endswith("|"):
            row += " |"
    if row is not None:
        cs = cells(row)
        if cs:
            return Quote(text=text, section=section, row=True, name=cs[0],
                         header=tuple(header) if len(header) >= len(cs) else (), values=tuple(cs[1:]),
                         complete=row.rstrip().endswith("|"))
    if lead:
        # a list item after the sentence that introduces the list (other items elided), or the
        # second half of a sentence after its first half
        item = lead.endswith(":")
        return Quote(text=_BULLET.sub("", text) if item else text, section=section, lead=lead,
                     joiner=" … " if item else " ")
    return Quote(text=text, section=section)


def display(text: str, section: str, lead: str | None = None) -> str:
    """The quote as one line of plain text (terminal, junit.xml, report.md)."""
    q = parts(text, section, lead)
    if q.row:
        body = " — ".join(f"{h}: {v}" for h, v in q.pairs) if q.header else " — ".join(v for v in q.values if v)
        return f"The {q.name} row of §{section}'s table" + (f": {body}" if body else "") + ("" if q.complete else " …")
    if q.lead:
        return f"{q.lead}{q.joiner}{q.text}"
    return q.text


@cache
def _leads(short: str) -> dict[str, str]:
    from conformance import catalog

    try:
        return {c.id: c.lead for c in catalog.load(short).clauses.values() if c.lead}
    except (KeyError, OSError, catalog.CatalogError):  # a draft this kit does not carry
        return {}


def lead_of(draft_short: str, clause_id: str) -> str | None:
    """The catalog's ``lead`` of a clause (None for a draft this kit does not carry)."""
    return _leads(draft_short).get(clause_id)


def shown(report, result) -> str:
    """A result's quote as plain text, with its catalog's context."""
    return display(result.text, result.section, lead_of(report.draft["short"], result.clause))
