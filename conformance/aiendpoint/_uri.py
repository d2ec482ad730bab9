"""What the suite counts as an absolute URI (RFC 3986 section 4.3: a scheme, then ':')."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.document import Document

_ABSOLUTE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:[^\s]+\Z")  # \Z: $ also matches before a final newline


def absolute_uri_problem(value: str) -> str | None:
    if not _ABSOLUTE.match(value):
        return f"{value[:80]!r} is not an absolute URI"
    if re.match(r"^https?:", value, re.IGNORECASE) and not re.match(r"^https?://[^/?#\s]+", value, re.IGNORECASE):
        return f"{value[:80]!r} is an http(s) URI without a host"
    return None


def check_uri_member(document: "Document", *path: str) -> None:
    """An optional member that must be a string holding an absolute URI (AMB-03)."""
    from conformance.document import kind_name
    from conformance.outcomes import violation

    value = document.member(*path, required=False)
    name = ".".join(path)
    if not isinstance(value, str):
        violation(f"{name} is a JSON {kind_name(value)}, not a string")
    if problem := absolute_uri_problem(value):
        violation(f"{name}: {problem}")
