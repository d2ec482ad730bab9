"""URLs as the drafts name them, judged once for every suite.

The drafts say "an absolute URL" (WoA's ``base``, "An absolute HTTPS URL") without naming a
grammar; the kit reads RFC 3986, the URI grammar the web's URLs are written in: an
*absolute-URI* (4.3: ``scheme ":" hier-part [ "?" query ]``, a URI without a fragment) whose
authority names a host (an http(s) URL locates a server: RFC 9110 4.2). The grammar itself is
rfc3986-validator's (the checker jsonschema uses for ``format: uri``), never a hand-written
pattern: a space, a raw non-ASCII character (an IRI, not a URI) or a bad percent-escape is no
URI. What the kit does not judge here: whether the host resolves, the port's range, the scheme
(each sentence that names one has its own clause).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

__all__ = ["absolute_url_problem"]


def absolute_url_problem(value: Any) -> str | None:
    """Why ``value`` is not an absolute URL with a host (RFC 3986 absolute-URI), or None."""
    from rfc3986_validator import validate_rfc3986

    if not isinstance(value, str):
        return "is not a string"
    # first: the validator's pattern ends in $, which lets one final newline through
    if any(c.isspace() for c in value):
        return "is not a URI: it holds white space (RFC 3986 allows none; percent-encode it)"
    if not validate_rfc3986(value, rule="URI"):
        if any(ord(c) > 0x7E for c in value):
            return "is not a URI: it holds a character outside ASCII (an IRI: RFC 3986 asks for it percent-encoded)"
        return "is not a URI (RFC 3986: a scheme, ':', then the grammar's characters and percent-escapes)"
    parts = urlsplit(value)
    if "#" in value:
        return f"has a fragment (#{parts.fragment[:40]}): an absolute URL has none (RFC 3986 4.3, absolute-URI)"
    if not value[len(parts.scheme) + 1:].startswith("//") or not parts.hostname:
        return "names no host: an absolute URL of a server is scheme://host… (RFC 3986 3.2, RFC 9110 4.2)"
    return None
