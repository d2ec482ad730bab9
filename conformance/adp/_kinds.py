"""Which of the draft's four objects a document on its own is (AMB-26).

The draft defines an Agent Metadata object (4), a Discovery Request (5), a Discovery Response
(6) and an error object (8) and gives none of them a marker. A document target is classified
by the member names it holds (its top-level object's; for a document that is not one JSON
object, those of the first object it holds: the first element of an array, the first of
several JSON texts; for text that does not parse or is not UTF-8, the member names written
in it):

1. ``candidates`` (the Discovery Response's MUST member) makes a Discovery Response;
2. else ``query`` (the Discovery Request's MUST member) a Discovery Request;
3. else ``code`` (the error object's MUST member) an error object;
4. else the kind that defines the most of its top-level members (ties: Agent Metadata, then
   Discovery Request, Discovery Response, error object); ``constraints``, which both metadata
   and requests define, counts for neither;
5. nothing recognisable: an Agent Metadata object (the D0 object, which fails its MUSTs).

Each document clause is judged on its own kind only: the others are *not applicable*.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any, Literal

from conformance.document import Document
from conformance.outcomes import not_applicable

Kind = Literal["metadata", "request", "response", "error"]

NAMES: dict[Kind, str] = {"metadata": "an Agent Metadata object", "request": "a Discovery Request",
                          "response": "a Discovery Response", "error": "an error object"}

#: Top-level members each object's table defines (4.1, 5.1, 6.1, 8).
METADATA_FIELDS = ("id", "name", "description", "tags", "examples", "bindings", "auth", "constraints", "status",
                   "expires_at", "version", "updated_at", "signature")
REQUEST_FIELDS = ("query", "required_tags", "preferred_tags", "excluded_tags", "protocols", "constraints", "limit",
                  "include_evidence", "detail", "client_context")
RESPONSE_FIELDS = ("request_id", "candidates", "applied_filters", "unsupported_filters", "warnings", "generated_at")
ERROR_FIELDS = ("code", "message", "correlation_id", "retry_after")
#: Members of the nested objects (4.4, 4.5, 6.2).
EXAMPLE_FIELDS = ("id", "text", "tags", "input_schema", "output_schema", "language")
BINDING_FIELDS = ("protocol", "endpoint", "media_types", "interaction_model", "priority")
CANDIDATE_FIELDS = ("id", "name", "description", "bindings", "score", "score_components", "matched_tags",
                    "matched_examples", "credential_refs", "redacted", "status", "freshness")

_SHARED = {"constraints"}
_OWN: dict[Kind, frozenset[str]] = {
    "metadata": frozenset(METADATA_FIELDS) - _SHARED,
    "request": frozenset(REQUEST_FIELDS) - _SHARED,
    "response": frozenset(RESPONSE_FIELDS),
    "error": frozenset(ERROR_FIELDS),
}
_ORDER: tuple[Kind, ...] = ("metadata", "request", "response", "error")
_MARKERS: tuple[tuple[str, Kind], ...] = (("candidates", "response"), ("query", "request"), ("code", "error"))

_KEY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:|\'((?:[^\'\\]|\\.)*)\'\s*:')


def classify(names: set[str]) -> Kind:
    """The kind of an object holding members ``names`` (the rule above)."""
    for marker, kind in _MARKERS:
        if marker in names:
            return kind
    counts = {kind: len(names & _OWN[kind]) for kind in _ORDER}
    best = max(counts.values())
    return next(kind for kind in _ORDER if counts[kind] == best) if best else "metadata"


def _text_of(raw: bytes) -> str:
    """The document's characters as well as can be told, for classification only (a clause
    is never judged on a guess)."""
    for bom, encoding in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                          (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                          (codecs.BOM_UTF16_BE, "utf-16")):
        if raw.startswith(bom):
            return raw.decode(encoding, errors="replace")
    if b"\x00" in raw[:64]:
        head = raw[:64]
        encoding = "utf-16-le" if head[1:2] == b"\x00" else "utf-16-be"
        if head[1:4] == b"\x00\x00\x00":
            encoding = "utf-32-le"
        elif head[:3] == b"\x00\x00\x00":
            encoding = "utf-32-be"
        return raw.decode(encoding, errors="replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _first_object(value: Any) -> dict | None:
    if isinstance(value, dict):
        return value
    if isinstance(value, list):
        return next((e for e in value if isinstance(e, dict)), None)
    return None


def _names(document: Document) -> set[str]:
    if not document.unreadable and not document.parse_error:
        found = _first_object(document.value())
        return set(found) if found is not None else set()
    text = _text_of(document.raw).lstrip("\ufeff \t\r\n")
    try:
        value, _ = json.JSONDecoder().raw_decode(text)  # the first of several JSON texts
    except (ValueError, RecursionError):
        value = None
    found = _first_object(value)
    if found is not None:
        return set(found)
    names = set()
    for match in _KEY.finditer(text):  # text that does not parse: the member names written in it
        try:
            names.add(json.loads(f'"{match.group(1) or match.group(2) or ""}"'))
        except ValueError:
            continue
    return names


def kind_of(document: Document) -> Kind:
    """The kind of ``document`` by its members (computed once per document)."""
    cached = document.__dict__.get("_adp_kind")
    if cached is None:
        cached = document.__dict__["_adp_kind"] = classify(_names(document))
    return cached


def only(document: Document, kind: Kind) -> None:
    """*not-applicable* unless ``document`` is of ``kind`` (AMB-26)."""
    __tracebackhide__ = True
    found = kind_of(document)
    if found != kind:
        not_applicable(f"the document is {NAMES[found]}, not {NAMES[kind]} (classified by its members, AMB-26)")
