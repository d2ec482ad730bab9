"""Files the kit reads back (report.json for ``adck compare`` and ``adck baseline --from``,
baseline files, ``adck check``'s documents): checked before use.

* size: a file above :data:`MAX_BYTES` is refused before it is read whole (nor is more than
  that read from a pipe or a device),
* values: a file of more than :data:`MAX_VALUES` JSON values is refused before it is decoded
  (a decoder spends up to 20 bytes of memory per byte of ``[{},{},…]``: the count, not the size,
  bounds what decoding costs),
* totals: a command that reads several files (``adck compare``) is held to :class:`Totals`
  across them, not only per file,
* nesting: a value nested deeper than :data:`MAX_DEPTH` is refused (no ``RecursionError``
  from the decoder or the schema validator), and
* schema: a report.json is validated against ``report.schema.json`` (the members the reader
  uses required, every member present checked against its definition).

Every refusal is :class:`InputError`, whose message is one line naming the file (its control
characters escaped) and what to fix; the commands turn it into exit status 2.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.reports.safe import line

#: The largest file the kit reads back (report.json, a checked document; baselines have their
#: own, smaller limit). A report the kit writes is 0.1-0.2 MB (evidence bodies are 2 KiB
#: excerpts): 16 MiB is far above any, and keeps decoding one under the memory bar even when
#: one of its strings holds a character outside the BMP (four bytes of memory a character).
MAX_BYTES = 16 * 1024 * 1024
#: The most JSON values (objects, arrays, strings, numbers, literals) in one file the kit reads
#: back; a report the kit writes holds about 45 per clause (7,000 for ADP's 151 clauses).
MAX_VALUES = 500_000
#: The deepest nesting of arrays and objects the kit accepts in a file it reads back.
MAX_DEPTH = 200


class InputError(ValueError):
    """A file the kit will not read; the message is one line."""

    def __init__(self, message: str) -> None:
        super().__init__(line(message))


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB"


#: What one command may read across all the files it is given (``adck compare`` reads several).
MAX_TOTAL_BYTES = 2 * MAX_BYTES
MAX_TOTAL_VALUES = 2 * MAX_VALUES


@dataclass
class Totals:
    """What one command may still read across all the files it is given: their bytes and their
    JSON values in all (:data:`MAX_TOTAL_BYTES`, :data:`MAX_TOTAL_VALUES`). Each file spends
    from it."""

    bytes: int = field(default_factory=lambda: MAX_TOTAL_BYTES)
    values: int = field(default_factory=lambda: MAX_TOTAL_VALUES)

    def spend(self, label: str, size: int = 0, values: int = 0) -> None:
        self.bytes -= size
        self.values -= values
        if self.bytes < 0:
            raise InputError(f"{label}: the files given hold more than {_mib(MAX_TOTAL_BYTES)} in all, the most the "
                             "kit reads in one command; give fewer files")
        if self.values < 0:
            raise InputError(f"{label}: the files given hold more than {MAX_TOTAL_VALUES} JSON values in all, the "
                             "most the kit reads in one command; give fewer files")


#: A JSON string (its escapes included): what :func:`count_values` skips. Possessive, so a
#: string of millions of characters is one step of the matcher, not millions of saved states.
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.S)
_STRUCTURE = (b",", b":", b"[", b"{")


def count_values(raw: bytes, stop: int | None = None) -> int:
    """How many JSON values ``raw`` holds (keys included), at most, counted without decoding it
    (nor copying it): outside strings, every value but the first follows a ``,``, ``:`` or
    ``[``, and an object's first key a ``{`` (an empty array or object counts one more than it
    holds). Counting ends once it passes ``stop``."""
    count, pos = 1, 0
    for match in _STRING.finditer(raw):
        count += sum(raw.count(c, pos, match.start()) for c in _STRUCTURE)
        pos = match.end()
        if stop is not None and count > stop:
            return count
    return count + sum(raw.count(c, pos) for c in _STRUCTURE)


def too_big(path: Path, limit: int | None = None) -> str | None:
    """Why ``path`` is too big to read (its size above ``limit``, :data:`MAX_BYTES`), or None."""
    limit = MAX_BYTES if limit is None else limit
    try:
        size = path.stat().st_size
    except OSError:
        return None
    if size > limit:
        return f"is {_mib(size)}, above the limit of {_mib(limit)} the kit reads"
    return None


def read(path: str | Path, label: str, limit: int | None = None, totals: Totals | None = None) -> bytes:
    """The bytes of ``path``, at most ``limit`` (:data:`MAX_BYTES`); :class:`InputError` (one
    line) otherwise. ``label`` names the file in the message (``--from report.json``)."""
    p = Path(path)
    limit = MAX_BYTES if limit is None else limit
    big = too_big(p, limit)
    if big:
        raise InputError(f"{label}: {big}")
    try:
        with open(p, "rb") as fh:
            data = fh.read(limit + 1)
    except IsADirectoryError:
        raise InputError(f"{label}: is a directory, not a file") from None
    except FileNotFoundError:
        raise InputError(f"{label}: no such file") from None
    except OSError as exc:
        raise InputError(f"{label}: cannot read it ({exc.strerror})") from None
    if len(data) > limit:
        raise InputError(f"{label}: is above the limit of {_mib(limit)} the kit reads")
    if totals is not None:
        totals.spend(label, size=len(data))
    return data


def check_depth(value: Any, label: str) -> None:
    """Refuse a value nested deeper than :data:`MAX_DEPTH` (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, dict):
            children = v.values()
        elif isinstance(v, list):
            children = v
        else:
            continue
        if depth > MAX_DEPTH:
            raise InputError(f"{label}: nested deeper than {MAX_DEPTH} levels; not a file the kit wrote")
        stack.extend((c, depth + 1) for c in children)


def parse_json(raw: bytes, label: str, totals: Totals | None = None) -> Any:
    """Decoded JSON, its values counted first and its nesting checked; :class:`InputError` (one
    line) for anything else."""
    values = count_values(raw, stop=MAX_VALUES)
    if values > MAX_VALUES:
        raise InputError(f"{label}: holds more than {MAX_VALUES} JSON values, the most the kit reads in one file; "
                         "not a file the kit wrote")
    if totals is not None:
        totals.spend(label, values=values)
    try:
        data = json.loads(raw)
    except RecursionError:
        raise InputError(f"{label}: nested deeper than {MAX_DEPTH} levels; not a file the kit wrote") from None
    except UnicodeDecodeError:
        raise InputError(f"{label}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{label}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except ValueError as exc:
        raise InputError(f"{label}: not valid JSON ({exc})") from None
    check_depth(data, label)
    return data


@functools.cache
def _validator(needs: tuple[str, ...]) -> Any:
    """A validator of report.schema.json requiring only what a reader uses (``needs``: top-level
    members, and per result the members ``adck compare`` reads); every member present is
    checked against its definition."""
    import jsonschema

    from conformance.reports.render import schema

    s = copy.deepcopy(schema())

    def relax(node: Any) -> None:
        if isinstance(node, dict):
            node.pop("required", None)
            for v in node.values():
                relax(v)
        elif isinstance(node, list):
            for v in node:
                relax(v)

    relax(s)
    s["required"] = list(needs)
    s["properties"]["draft"]["required"] = ["short"]
    s["$defs"]["result"]["required"] = ["clause", "outcome"]
    if "target" in needs:
        s["$defs"]["result"]["required"] = ["clause", "section", "level", "keyword", "role", "text", "outcome"]
    return jsonschema.Draft202012Validator(s)


def check_report(data: Any, label: str, needs: tuple[str, ...] = ("draft", "results")) -> dict[str, Any]:
    """``data`` is an adck report.json as far as the reader uses it; :class:`InputError` naming the
    first problem (and where) otherwise."""
    if not isinstance(data, dict) or not set(needs) <= data.keys():
        raise InputError(f"{label}: not an adck report.json (it has no {', '.join(needs)}); "
                         "pass the report.json that adck run wrote (--format json)")
    try:
        error = next(iter(_validator(needs).iter_errors(data)), None)
    except RecursionError:
        raise InputError(f"{label}: nested deeper than the kit reads; not a file the kit wrote") from None
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        raise InputError(f"{label}: not an adck report.json: at {where}: {error.message[:200]}; "
                         "pass the report.json that adck run wrote (--format json)")
    return data


def load_report(path: str | Path, label: str, needs: tuple[str, ...] = ("draft", "results"),
                totals: Totals | None = None) -> dict[str, Any]:
    """Read, decode and check a report.json (size, values, nesting, schema); :class:`InputError`
    otherwise. ``totals``: what a command reading several files may still read in all."""
    return check_report(parse_json(read(path, label, totals=totals), label, totals), label, needs)
