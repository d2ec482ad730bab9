"""A JSON document under test, and the accessors clause tests use to reach into it.

The accessors turn a missing or mistyped prerequisite into an *untestable* (or, for an
optional member, *not-applicable*) outcome, so each clause test checks one thing and a
broken document fails the clause that speaks of the break, not every clause downstream.
"""

from __future__ import annotations

import codecs
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Iterator

from conformance.fetch import Exchange, Fetch
from conformance.outcomes import not_applicable, untestable

_KIND_NAMES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number"}


def kind_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return _KIND_NAMES.get(type(value), type(value).__name__)


def is_kind(value: Any, kind: type | tuple[type, ...]) -> bool:
    """JSON type check: booleans are not integers; 60.0 is an integer (JSON Schema's rule)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool):
        return bool in kinds
    if int in kinds and isinstance(value, float) and value.is_integer():
        return True
    if float in kinds and isinstance(value, int):
        return True
    return isinstance(value, kinds)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON (RFC 8259)")


_TOO_DEEP = "the JSON is nested deeper than the kit parses (a denial-of-service shape, 6.5)"


class TooDeep(ValueError):
    """Valid JSON, perhaps, but nested deeper than the kit's parser goes."""


class LongInt(int):
    """An integer with more digits than Python converts from text (``sys.int_max_str_digits``,
    a guard against quadratic parsing): valid JSON all the same (RFC 8259 sets no limit).
    It keeps its sign and digit count (a number of the same magnitude) and its text, which
    ``str``, ``repr`` and equality use."""

    text: str

    def __new__(cls, digits: str) -> "LongInt":
        negative = digits.startswith("-")
        magnitude = 10 ** (len(digits.lstrip("-").lstrip("0") or "0") - 1)
        value = super().__new__(cls, -magnitude if negative else magnitude)
        value.text = digits
        return value

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LongInt):
            return self.text == other.text
        return False if isinstance(other, int) else NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash(self.text)


#: Digits Python converts without complaint (its default limit is 4300).
_SAFE_DIGITS = 4000


def _parse_int(digits: str) -> int:
    return int(digits) if len(digits) <= _SAFE_DIGITS else LongInt(digits)


def loads(data: bytes | str) -> Any:
    """The kit's one JSON parser for what targets send: strict RFC 8259 (no NaN, no
    Infinity, integers of any length), and a ValueError, never a crash, for nesting too deep
    to parse."""
    try:
        return json.loads(data, parse_constant=_reject_constant, parse_int=_parse_int)
    except RecursionError:
        raise TooDeep(_TOO_DEEP) from None


class _Invalid:
    def __init__(self, error: str) -> None:
        self.error = error


@dataclass
class Document:
    """The bytes of a document, where they came from, and their JSON value."""

    raw: bytes
    source: str
    fetch: Fetch | None = None
    #: True when the body was larger than the kit reads and was cut.
    truncated: bool = False

    @classmethod
    def from_file(cls, path: Path, max_bytes: int) -> "Document":
        with open(path, "rb") as f:
            raw = f.read(max_bytes + 1)
        return cls(raw=raw[:max_bytes], source=str(path), truncated=len(raw) > max_bytes)

    @classmethod
    def from_fetch(cls, fetch: Fetch) -> "Document":
        final = fetch.final
        assert final is not None
        return cls(raw=final.body, source=final.url, fetch=fetch, truncated=final.body_truncated)

    @classmethod
    def from_value(cls, value: Any, source: str = "<generated>") -> "Document":
        return cls(raw=json.dumps(value, ensure_ascii=False).encode("utf-8"), source=source)

    def evidence(self) -> list[Exchange]:
        return list(self.fetch.exchanges) if self.fetch else []

    @cached_property
    def utf8_error(self) -> str | None:
        """Why the bytes are not UTF-8, or None when they are. A document cut at the kit's
        read cap may end inside a character: that is the cut, not the document's encoding."""
        try:
            codecs.getincrementaldecoder("utf-8")("strict").decode(self.raw, final=not self.truncated)
        except UnicodeDecodeError as exc:
            return f"byte 0x{self.raw[exc.start]:02x} at offset {exc.start} is not valid UTF-8 ({exc.reason})"
        return None

    @cached_property
    def unreadable(self) -> str | None:
        """Why the document's characters cannot be known (a prerequisite of every content
        clause), or None. A guess at another encoding could fail a clause on a character
        the author never wrote, so the kit does not guess."""
        if self.truncated:
            return f"the document is larger than the {len(self.raw)} bytes the kit reads"
        if self.utf8_error:
            return f"the document is not UTF-8, so its characters are unknown ({self.utf8_error})"
        return None

    @cached_property
    def _parsed(self) -> Any:
        if self.unreadable:
            return _Invalid(self.unreadable)
        text = self.raw.decode("utf-8")
        text = text[1:] if text.startswith("\ufeff") else text
        try:
            return loads(text)
        except TooDeep:
            return _Invalid(_TOO_DEEP)
        except ValueError as exc:
            return _Invalid(f"not valid JSON: {exc}")

    @property
    def parse_error(self) -> str | None:
        """Why the readable document is not JSON, or None (also None when unreadable)."""
        if self.unreadable:
            return None
        return self._parsed.error if isinstance(self._parsed, _Invalid) else None

    @property
    def too_deep(self) -> bool:
        """JSON nested deeper than the kit's parser goes: it cannot be judged either way."""
        return isinstance(self._parsed, _Invalid) and self._parsed.error == _TOO_DEEP

    def value(self) -> Any:
        """The JSON value, or *untestable* when the document does not parse."""
        __tracebackhide__ = True
        if isinstance(self._parsed, _Invalid):
            untestable(f"the document could not be parsed ({self._parsed.error})")
        return self._parsed

    def top(self) -> dict:
        """The top-level object, or *untestable* when there is none."""
        __tracebackhide__ = True
        value = self.value()
        if not isinstance(value, dict):
            untestable(f"the document is a JSON {kind_name(value)}, not an object")
        return value

    def member(self, *path: str | int, kind: type | tuple[type, ...] | None = None, required: bool = True) -> Any:
        """The member at ``path`` (``"service", "name"``).

        Missing: *untestable* when ``required`` (a prerequisite failed), else
        *not-applicable* (an optional member, or a member of an optional object, is absent).
        Present with another JSON type than ``kind``: *untestable* (its type clause fails).
        """
        __tracebackhide__ = True
        node: Any = self.top()
        walked: list[str] = []
        for step in path:
            where = ".".join(walked) or "the top-level object"
            container = dict if isinstance(step, str) else list
            if not isinstance(node, container):
                untestable(f"{where} is a JSON {kind_name(node)}, not an {_KIND_NAMES[container]}")
            walked.append(str(step) if isinstance(step, str) else f"[{step}]")
            try:
                node = node[step]
            except (KeyError, IndexError):
                name = ".".join(walked).replace(".[", "[")
                if required:
                    untestable(f"{name} is absent")
                not_applicable(f"{name} is absent (optional)")
        if kind is not None and not is_kind(node, kind):
            name = ".".join(walked).replace(".[", "[")
            untestable(f"{name} is a JSON {kind_name(node)}, not the type this clause checks")
        return node

    def items(self, *path: str, required: bool = True) -> Iterator[tuple[int, Any]]:
        """(index, element) of the array at ``path``."""
        __tracebackhide__ = True
        array = self.member(*path, kind=list, required=required)
        yield from enumerate(array)

    def objects(self, *path: str, required: bool = True) -> list[tuple[int, dict]]:
        """(index, element) of the array at ``path`` for the elements that are objects."""
        __tracebackhide__ = True
        return [(i, e) for i, e in self.items(*path, required=required) if isinstance(e, dict)]
