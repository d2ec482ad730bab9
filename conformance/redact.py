"""Keep secrets out of reports: headers, URLs, JSON members and token-shaped strings.

A target may answer with credentials (that is what clause checks like "auth MUST NOT contain
credentials" look for), and the user may give the run some (``-H``, ``--header-env``:
:mod:`conformance.credentials`), so evidence is redacted before it is written anywhere. The
values the user gave are the run's secrets (:func:`add_secrets`): every text is masked of them,
whatever shape they have, also where a target echoes one back.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from conformance.document import loads

REDACTED = "[redacted]"

#: The run's own secrets (the values of the user's -H and --header-env), longest first: masked in
#: every text, whatever their shape. Set for the length of a run (:func:`add_secrets`,
#: :func:`clear_secrets`).
_RUN_SECRETS: list[str] = []


def add_secrets(values: list[str]) -> None:
    """Mask these strings in every text from now on (the forms of the values given to a run)."""
    merged = set(_RUN_SECRETS) | {v for v in values if v}
    _RUN_SECRETS[:] = sorted(merged, key=len, reverse=True)


def clear_secrets() -> None:
    _RUN_SECRETS.clear()


def run_secrets(value: str) -> str:
    """``value`` with every run secret replaced by :data:`REDACTED`."""
    for secret in _RUN_SECRETS:
        if secret in value:
            value = value.replace(secret, REDACTED)
    return value


SECRET_HEADERS = frozenset({
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
    "x-auth-token", "x-access-token",
})

#: Last words of member and parameter names that hold secrets ("api_key", "clientSecret").
SECRET_WORDS = frozenset({
    "key", "apikey", "secret", "password", "passwd", "pwd", "token", "credential", "credentials",
    "passphrase", "cookie", "signature", "sig",
})
#: Shapes of well-known credentials.
TOKEN_SHAPES = re.compile(
    r"(eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}"  # JWT
    # no word boundary before these prefixes: a target may glue a credential to other text
    r"|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{8,}"                  # Stripe-style
    r"|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"     # GitHub
    r"|xox[abposr]-[A-Za-z0-9-]{10,}"                               # Slack
    r"|AKIA[0-9A-Z]{16}(?![0-9A-Z])"                                # AWS access key id
    r"|AIza[0-9A-Za-z_-]{30,}"                                      # Google API key
    r"|(?i:\bbearer\s+)[A-Za-z0-9._~+/-]{8,}=*)"                    # Bearer credentials
)


def _words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def is_secret_name(name: str) -> bool:
    """Does a member or parameter of this name hold a secret? Its last word decides:
    ``api_key``, ``clientSecret``, ``token`` do; ``token_url``, ``token_hints``, ``key_name`` do not."""
    words = _words(name)
    return bool(words) and words[-1] in SECRET_WORDS


def looks_like_token(text: str) -> bool:
    return bool(TOKEN_SHAPES.search(text))


#: ``scheme://user:password@`` anywhere in a text (also a URL inside another URL's path, or glued
#: to the text before it, as in ``…token0123https://u:p@host``: no word boundary is asked for).
#: The scheme is at most 32 characters: tried at every position of a long word, an unbounded
#: ``[a-z0-9+.-]*`` would take time quadratic in the word's length (a target's 50,000-letter
#: value held a run past its deadline).
USERINFO = re.compile(r"(?i)([a-z][a-z0-9+.\-]{0,31}://)[^/\s@?#]*@")


#: ``password=hunter2``, ``API_KEY="x"``: an assignment to a name that holds a secret, in free text
#: (an adapter's stderr, an error message), whatever the value looks like.
ASSIGNED_SECRET = re.compile(
    r"(?i)\b([A-Za-z0-9_.\-]*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|credentials?|passphrase))"
    r"(\s*=\s*)(\"[^\"]*\"|'[^']*'|[^\s&,;\"']+)")


def _names_a_variable(m: "re.Match[str]") -> bool:
    """``--header-env X-Api-Key=API_KEY`` (a replay command): the variable's name, not a secret."""
    before = m.string[max(0, m.start() - 20):m.start()]
    return before.endswith("header-env ") and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", m.group(3)) is not None


def text(value: str) -> str:
    """Drop userinfo from URLs anywhere in the text; mask values assigned to secret names
    (``password=…``); replace token-shaped substrings, keeping their first 4 characters as a hint;
    mask the run's own secrets (:func:`add_secrets`)."""
    value = run_secrets(value)
    value = USERINFO.sub(r"\1", value)
    # a placeholder (``--token=${auth.token}``) or a value already masked is no secret
    value = ASSIGNED_SECRET.sub(lambda m: m.group(0) if m.group(3).strip("\"'").startswith(("${", REDACTED))
                                or _names_a_variable(m) else m.group(1) + m.group(2) + REDACTED, value)
    return TOKEN_SHAPES.sub(lambda m: m.group(0)[:4] + "…" + REDACTED, value)


def url(value: str) -> str:
    """Drop userinfo; redact query parameters named like secrets, and the run's own secrets."""
    value = run_secrets(value)
    try:
        parts = urlsplit(value)
    except ValueError:
        return text(value)
    netloc = parts.netloc.rpartition("@")[2]
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, REDACTED if is_secret_name(k) or looks_like_token(v) else v) for k, v in pairs],
                          safe="[]")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


#: Headers whose values a report shows (URLs in them redacted, token shapes masked); every
#: other header's value is masked, since a target may put a credential in any header it likes.
SHOWN_HEADERS = frozenset({
    "accept", "accept-encoding", "accept-language", "accept-ranges", "access-control-allow-headers",
    "access-control-allow-methods", "access-control-allow-origin", "access-control-expose-headers",
    "access-control-max-age", "age", "allow", "cache-control", "connection", "content-encoding",
    "content-language", "content-length", "content-location", "content-range", "content-type", "date",
    "etag", "expires", "host", "if-modified-since", "if-none-match", "keep-alive", "last-modified",
    "link", "location", "pragma", "ratelimit", "ratelimit-limit", "ratelimit-policy", "ratelimit-remaining",
    "ratelimit-reset", "referrer-policy", "retry-after", "server", "strict-transport-security",
    "transfer-encoding", "user-agent", "vary", "via", "warning", "www-authenticate",
    "x-content-type-options", "x-frame-options", "x-ratelimit-limit", "x-ratelimit-remaining",
    "x-ratelimit-reset", "x-request-id",
})


def header_value(name: str, value: str) -> str:
    """A header's value as a report may show it."""
    low = name.lower()
    if low in SECRET_HEADERS or low not in SHOWN_HEADERS or is_secret_name(name):
        return REDACTED
    if low in ("location", "content-location", "link"):
        return re.sub(r"[a-z][a-z0-9+.\-]*://[^\s<>,;\"]+", lambda m: url(m.group(0)), value, flags=re.IGNORECASE)
    return text(value)


def headers(items: list[tuple[str, str]] | dict[str, str]) -> list[tuple[str, str]]:
    pairs = items.items() if isinstance(items, dict) else items
    return [(k, header_value(k, v)) for k, v in pairs]


def json_value(value: Any) -> Any:
    if isinstance(value, dict):
        # an item that declares itself secret (AID configuration: "secret": true) holds its value
        # in defaultValue/value: mask those too
        declared_secret = value.get("secret") is True
        return {k: (REDACTED if (is_secret_name(k) or (declared_secret and k in ("defaultValue", "value")))
                    and isinstance(v, (str, int, float)) and not isinstance(v, bool) else json_value(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [json_value(v) for v in value]
    if isinstance(value, str):
        if re.match(r"^[a-z][a-z0-9+.\-]*://", value, re.IGNORECASE):
            return url(value)
        return text(value)
    return value


def body_excerpt(body: bytes, limit: int = 2048) -> str:
    """A redacted excerpt of a body for evidence: JSON is redacted member by member."""
    decoded = body.decode("utf-8", errors="replace")
    try:
        value = loads(decoded)
        excerpt = json.dumps(json_value(value), ensure_ascii=False, indent=1)[:limit]
    except ValueError:  # not JSON, or nested deeper than the kit parses
        # redacted before it is cut: a secret across the cut must not leave its first half
        excerpt = text(decoded[:limit + 4096])[:limit]
    if len(decoded) > limit:
        excerpt += f"… [{len(body)} bytes in all]"
    return excerpt
