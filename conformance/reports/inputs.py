"""Files the kit reads back (report.json for ``adck compare`` and ``adck baseline --from``,
baseline files, ``adck check``'s documents): checked before use.

* size: a file above :data:`MAX_BYTES` is refused before it is read whole (nor is more than
  that read from a pipe or a device),
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
from pathlib import Path
from typing import Any

from conformance.reports.safe import line

#: The largest file the kit reads back (report.json, a baseline, a checked document).
MAX_BYTES = 64 * 1024 * 1024
#: The deepest nesting of arrays and objects the kit accepts in a file it reads back.
MAX_DEPTH = 200


class InputError(ValueError):
    """A file the kit will not read; the message is one line."""

    def __init__(self, message: str) -> None:
        super().__init__(line(message))


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB"


def too_big(path: Path) -> str | None:
    """Why ``path`` is too big to read (its size above :data:`MAX_BYTES`), or None."""
    try:
        size = path.stat().st_size
    except OSError:
        return None
    if size > MAX_BYTES:
        return f"is {_mib(size)}, above the limit of {_mib(MAX_BYTES)} the kit reads"
    return None


def read(path: str | Path, label: str) -> bytes:
    """The bytes of ``path``, at most :data:`MAX_BYTES`; :class:`InputError` (one line) otherwise.
    ``label`` names the file in the message (``--from report.json``)."""
    p = Path(path)
    big = too_big(p)
    if big:
        raise InputError(f"{label}: {big}")
    try:
        with open(p, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except IsADirectoryError:
        raise InputError(f"{label}: is a directory, not a file") from None
    except FileNotFoundError:
        raise InputError(f"{label}: no such file") from None
    except OSError as exc:
        raise InputError(f"{label}: cannot read it ({exc.strerror})") from None
    if len(data) > MAX_BYTES:
        raise InputError(f"{label}: is above the limit of {_mib(MAX_BYTES)} the kit reads")
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


def parse_json(raw: bytes, label: str) -> Any:
    """Decoded JSON, its nesting checked; :class:`InputError` (one line) for anything else."""
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


def load_report(path: str | Path, label: str, needs: tuple[str, ...] = ("draft", "results")) -> dict[str, Any]:
    """Read, decode and check a report.json (size, nesting, schema); :class:`InputError` otherwise."""
    return check_report(parse_json(read(path, label), label), label, needs)
