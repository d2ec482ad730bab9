"""Which of the draft's three JSON documents a document on its own is (AMB-30).

The draft defines a discovery document (3, 23.1), a search response (7, 16) and an error
object (10, 17) and gives none of them a marker. A document target is classified by its
members: a ``version`` member makes a discovery document (the only member the draft requires
of one); otherwise a ``results`` member makes a search response and an ``error`` member an
error object; anything else is read as a discovery document (and fails AIDRE-23.1-01 for
lacking a version). Each document clause is judged on its own kind only: the others are
*not applicable*.
"""

from __future__ import annotations

from typing import Literal

from conformance.document import Document
from conformance.outcomes import not_applicable

Kind = Literal["discovery", "search-response", "error"]

_NAMES = {"discovery": "a discovery document", "search-response": "a search response", "error": "an error object"}


def kind_of(document: Document) -> Kind:
    """The kind of ``document`` by its members (unreadable or non-object: a discovery document)."""
    if document.unreadable or document.parse_error:
        return "discovery"
    value = document.value()
    if not isinstance(value, dict) or "version" in value:
        return "discovery"
    if "results" in value:
        return "search-response"
    if "error" in value:
        return "error"
    return "discovery"


def only(document: Document, kind: Kind) -> None:
    """*not-applicable* unless ``document`` is of ``kind`` (AMB-30)."""
    __tracebackhide__ = True
    found = kind_of(document)
    if found != kind:
        not_applicable(f"the document is {_NAMES[found]}, not {_NAMES[kind]} (classified by its members, AMB-30)")
