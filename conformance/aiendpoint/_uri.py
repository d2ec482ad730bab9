"""What the suite counts as an absolute URI (RFC 3986 section 4.3: a scheme, then ':')."""

from __future__ import annotations

import re

_ABSOLUTE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:[^\s]+\Z")  # \Z: $ also matches before a final newline


def absolute_uri_problem(value: str) -> str | None:
    if not _ABSOLUTE.match(value):
        return f"{value[:80]!r} is not an absolute URI"
    if re.match(r"^https?:", value, re.IGNORECASE) and not re.match(r"^https?://[^/?#\s]+", value, re.IGNORECASE):
        return f"{value[:80]!r} is an http(s) URI without a host"
    return None
