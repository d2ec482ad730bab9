"""Make a report safe to publish: what a target said never breaks a format or leaks a secret.

Every string in a report may come from the target (a header, a body, an adapter's reply or
stderr). Before any rendering, :func:`sanitize` makes each one

* valid Unicode (a lone surrogate such as ``\\ud800`` is written as the text ``\\ud800``),
* free of control characters other than newline and tab (so no terminal escape sequence,
  OSC 52 clipboard write or CSI screen clear survives, and XML can carry it),
* redacted (:mod:`conformance.redact`: token shapes in text, userinfo and secret-looking
  query parameters in URLs), and
* at most :data:`MAX_STRING` characters long, cut with a marker saying how much was left out.

Numbers that JSON cannot carry (infinities, NaN) become strings. The renderings then escape
for their own syntax (Markdown, HTML, XML); see :mod:`conformance.reports.render`.
"""

from __future__ import annotations

import math
import re
from dataclasses import fields, is_dataclass, replace
from typing import Any

from conformance import redact

#: The longest string a report carries; longer ones are cut with a marker.
MAX_STRING = 4096

#: C0 controls but tab and newline, DEL, C1 controls, and the Unicode line/paragraph separators
#: and bidirectional overrides that reorder what a reader sees.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_URLISH = re.compile(r"[a-z][a-z0-9+.\-]*://[^\s\"'<>`]+", re.IGNORECASE)


def text(value: str, limit: int = MAX_STRING) -> str:
    """One string made safe: valid Unicode, no control characters, redacted, capped."""
    value = _SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", value)
    value = _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}" if ord(m.group(0)) < 0x100
                         else f"\\u{ord(m.group(0)):04x}", value)
    value = _URLISH.sub(lambda m: redact.url(m.group(0)), value)
    value = redact.text(value)
    if len(value) > limit:
        value = value[:limit] + f"… [cut: {len(value) - limit} more characters]"
    return value


def value(v: Any) -> Any:
    """A JSON-like value made safe, recursively (dict keys too)."""
    if isinstance(v, str):
        return text(v)
    if isinstance(v, bool) or v is None or isinstance(v, int):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else str(v)
    if isinstance(v, dict):
        return {text(str(k), 256): value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [value(x) for x in v]
    if is_dataclass(v) and not isinstance(v, type):
        return replace(v, **{f.name: value(getattr(v, f.name)) for f in fields(v)})
    return text(str(v))


def sanitize(report: Any) -> Any:
    """A copy of the report with every string made safe (see the module docstring)."""
    return value(report)


def line(value: str) -> str:
    """One line a person reads on a terminal (an error line, ``adck check``'s output): :func:`text`,
    and the newlines and tabs it keeps written as ``\\n`` and ``\\t``, so a file or folder name
    can neither move the cursor, ring the bell nor start a line of its own."""
    return text(value, limit=MAX_STRING).replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
