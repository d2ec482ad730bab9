"""Small value checks the aid suite's modules share (one place for one idea)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from conformance.document import kind_name


def absolute_url_problem(value: Any, https: bool = False) -> str | None:
    """Why ``value`` is not a JSON string holding an absolute URL with a host (with
    ``https``: whose scheme is https), or None. AID's URLs are locators: a host is required."""
    if not isinstance(value, str):
        return f"is a JSON {kind_name(value)}, not a string"
    parts = urlsplit(value)
    if not parts.scheme or not parts.netloc or any(c.isspace() for c in value):
        return f"= {value[:80]!r} is not an absolute URL with a host"
    if https and parts.scheme.lower() != "https":
        return f"= {value[:80]!r} is not an https:// URL"
    return None


def array_problem(path: str, value: Any, item: type, item_name: str) -> str | None:
    """Why ``value`` is not a JSON array whose items are all of type ``item``, or None."""
    if not isinstance(value, list):
        return f"{path} is a JSON {kind_name(value)}, not an array"
    bad = [f"[{i}] is a JSON {kind_name(v)}" for i, v in enumerate(value) if not isinstance(v, item)]
    return f"{path}: items are not {item_name}: {', '.join(bad)}" if bad else None
