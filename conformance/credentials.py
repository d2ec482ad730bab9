"""Credentials the user gives a run (``-H``, ``--header-env``, ``--header-origin``), and the
rule that tells *could not judge* from *failed* when a service wants them.

A service may protect what the drafts let it protect (searches, invocations, Discovery
Requests: WoA Appendix A, AIDRE 11.1 and 15.4, ADP 7.2). The user gives the kit a header to
send (``-H 'Authorization: Bearer …'`` as curl does, or ``--header-env Authorization=VAR``,
read from the environment at run time so that the value never sits in argv or shell history).

Where they go: only to the origin the user named (the target's scheme, host and port), and to
the origins named with ``--header-origin ORIGIN``. The fetcher decides it for every request
and every redirect hop on its own (:meth:`Credentials.for_url`): never to another origin a
redirect leads to, never to a URL a document names on another origin. A test that judges what
a service answers *without* credentials sends without them (``credentials=False``): given
credentials never make a service that must refuse the unauthenticated look as if it did.

The rule (:func:`refused_for_want`): a 401 or 403 answered to a request the kit sent without
credentials, while it would have sent some had the user given them for that origin, means the
kit could not judge what is behind it: the clause is *untestable*, reason ``credentials``
(never failed, never passed). A 401 or 403 answered *with* the user's credentials stays what it
is: the service's own answer, judged as today. The plugin applies the rule to every clause
test's evidence, in one place (``conformance.plugin``).

The values are secrets: no report, terminal line, replay command or error message holds one
(they are added to the run's redaction, :func:`conformance.redact.add_secrets`, so that even a
target echoing one back is masked), and every refusal names the header or the variable, never
the value.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, quote_plus

#: What an untestable clause's message starts with when a service wanted credentials the run
#: did not have (``untestable_reason = credentials`` in a report).
NEEDS = "needs credentials (--header)"
#: The statuses that say "credentials, please" (RFC 9110 15.5.2, 15.5.4).
STATUSES = (401, 403)
#: The value the replay commands show in place of a value given with ``-H``.
PLACEHOLDER = "<the value given to -H>"

#: RFC 9110 5.6.2: a field name is a token.
_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: Fields the kit sets itself, or that frame the message: a user's value would break the exchange.
_KIT_FIELDS = frozenset({"host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade",
                         "te", "trailer", "proxy-connection", "content-encoding"})


class CredentialError(ValueError):
    """A malformed ``-H``, ``--header-env`` or ``--header-origin``: the one line the user reads
    (naming the header or variable, never a value)."""


@dataclass(frozen=True)
class Header:
    """One header to send: its name and value, and how the user gave it (``-H`` or an
    environment variable, whose name the replay commands repeat)."""

    name: str
    value: str
    #: The environment variable it was read from (``--header-env``), None for ``-H``.
    env: str | None = None

    def __repr__(self) -> str:  # never the value, whoever prints it
        return f"Header({self.name!r}, <redacted>, env={self.env!r})"


def _check_name(name: str, flag: str, fix: str) -> None:
    if not name:
        raise CredentialError(f"{flag}: the header name is empty; {fix}")
    if not _TOKEN.match(name):
        raise CredentialError(f"{flag}: {name[:40]!r} is not an HTTP header name (letters, digits and "
                              f"!#$%&'*+-.^_`|~ only, RFC 9110 5.6.2); {fix}")
    if name.lower() in _KIT_FIELDS:
        raise CredentialError(f"{flag} {name}: the kit sets {name} itself (it frames the exchange); drop it")


def _check_value(value: str, what: str, fix: str) -> None:
    if "\r" in value or "\n" in value:
        raise CredentialError(f"{what}: the value holds a line break (CR or LF), which would end the header; {fix}")
    if any(ord(c) < 0x20 and c != "\t" or ord(c) == 0x7F for c in value):
        raise CredentialError(f"{what}: the value holds a control character; {fix}")
    if any(ord(c) > 0x7E for c in value):
        raise CredentialError(f"{what}: the value holds a character outside printable ASCII; {fix}")
    if not value.strip():
        raise CredentialError(f"{what}: the value is empty; give one, or drop the option")


def parse_header(text: str) -> Header:
    """``-H 'Name: value'`` (curl's form)."""
    fix = "write -H 'Name: value', e.g. -H 'Authorization: Bearer TOKEN' (or --header-env Name=VAR)"
    name, sep, value = text.partition(":")
    if not sep:
        raise CredentialError(f"-H: expected 'Name: value' (no colon in what was given); {fix}")
    name = name.strip()
    _check_name(name, "-H", fix)
    _check_value(value.strip(" \t"), f"-H {name}", fix)
    return Header(name, value.strip(" \t"))


def parse_header_env(text: str, environ: Mapping[str, str] | None = None) -> Header:
    """``--header-env Name=ENVVAR``: the value is read from ``ENVVAR`` now."""
    environ = os.environ if environ is None else environ
    fix = "write --header-env Name=ENVVAR, e.g. --header-env Authorization=API_TOKEN"
    name, sep, var = text.partition("=")
    if not sep:
        raise CredentialError(f"--header-env {text[:60]}: expected Name=ENVVAR (no '='); {fix}")
    name, var = name.strip(), var.strip()
    _check_name(name, "--header-env", fix)
    if not _ENV_NAME.match(var):
        raise CredentialError(f"--header-env {name}=…: {var[:40]!r} is not an environment variable name "
                              f"(letters, digits, _; not starting with a digit); {fix}")
    if var not in environ:
        raise CredentialError(f"--header-env {name}={var}: the environment variable {var} is not set; "
                              f"export {var} (its value is the header's, e.g. 'Bearer TOKEN') and run again")
    _check_value(environ[var].strip(" \t"), f"--header-env {name}={var}",
                 f"set {var} to the header's value alone")
    return Header(name, environ[var].strip(" \t"), env=var)


def origin_of(url: Any) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL (an ``httpx.URL`` or a string), the port
    explicit; None for anything else."""
    import httpx

    try:
        u = url if isinstance(url, httpx.URL) else httpx.URL(str(url))
    except Exception:  # noqa: BLE001 - a document's URL may be anything
        return None
    if u.scheme not in ("http", "https") or not u.host:
        return None
    return (u.scheme, u.host.lower().rstrip("."), u.port or (443 if u.scheme == "https" else 80))


def parse_origin(text: str) -> tuple[str, str, int]:
    """``--header-origin ORIGIN``: ``https://HOST[:PORT]``, nothing after the authority."""
    import httpx

    fix = "give scheme://host[:port], e.g. --header-origin https://api.example.com"
    try:
        u = httpx.URL(text.strip())
    except Exception:  # noqa: BLE001
        raise CredentialError(f"--header-origin {text[:80]!r}: not a URL; {fix}") from None
    if u.scheme not in ("http", "https") or not u.host:
        raise CredentialError(f"--header-origin {text[:80]!r}: not an http(s) origin; {fix}")
    if u.userinfo or u.path not in ("", "/") or u.query or u.fragment:
        raise CredentialError(f"--header-origin {text[:80]!r}: an origin has no user, path, query or fragment "
                              f"(credentials go to a whole origin); {fix}")
    found = origin_of(u)
    assert found is not None
    return found


def show_origin(origin: tuple[str, str, int]) -> str:
    scheme, host, port = origin
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}" + ("" if port == (443 if scheme == "https" else 80) else f":{port}")


@dataclass(frozen=True)
class Credentials:
    """The headers a run sends, and the origins they go to."""

    headers: tuple[Header, ...]
    #: Origins named with --header-origin (the target's own is added by :meth:`bound`).
    origins: tuple[tuple[str, str, int], ...] = ()

    def __repr__(self) -> str:
        return f"Credentials({[h.name for h in self.headers]}, origins={[show_origin(o) for o in self.origins]})"

    def bound(self, target_origin: str | None) -> "Credentials":
        """These credentials, going also to the target's origin (the one the user named)."""
        own = origin_of(target_origin) if target_origin else None
        if own is None or own in self.origins:
            return self
        return Credentials(self.headers, (own, *self.origins))

    def for_url(self, url: Any) -> dict[str, str]:
        """The headers to send with a request to ``url``: all of them when its origin is named,
        none otherwise (also for a redirect hop: each hop is decided on its own)."""
        origin = origin_of(url)
        if origin is None or origin not in self.origins:
            return {}
        return {h.name: h.value for h in self.headers}

    def names(self) -> list[str]:
        return [h.name for h in self.headers]

    def secrets(self) -> list[str]:
        return secret_forms(h.value for h in self.headers)


def from_options(headers: Iterable[str] = (), header_env: Iterable[str] = (), origins: Iterable[str] = (),
                 environ: Mapping[str, str] | None = None) -> Credentials | None:
    """The run's credentials from its options, or None when none are given; a
    :class:`CredentialError` names the first mistake."""
    given = [parse_header(h) for h in headers] + [parse_header_env(h, environ) for h in header_env]
    parsed_origins = tuple(dict.fromkeys(parse_origin(o) for o in origins))
    if parsed_origins and not given:
        raise CredentialError("--header-origin names where the headers of -H or --header-env also go, and none "
                              "was given: add -H 'Name: value' or --header-env Name=VAR, or drop --header-origin")
    seen: set[str] = set()
    for h in given:
        if h.name.lower() in seen:
            raise CredentialError(f"-H/--header-env {h.name}: given twice; give each header once")
        seen.add(h.name.lower())
    return Credentials(tuple(given), parsed_origins) if given else None


def secret_forms(values: Iterable[str]) -> list[str]:
    """The strings a report must never hold: each value, the credential after its scheme
    (``Bearer TOKEN``: TOKEN, which a target may echo alone), and their percent-encoded and
    JSON-escaped forms (a URL's query or a JSON text may carry them so)."""
    out: list[str] = []
    for value in values:
        parts = [value]
        scheme, _, rest = value.partition(" ")
        if rest.strip() and len(rest.strip()) >= 4 and scheme:
            parts.append(rest.strip())
        # and each long run of characters no encoding changes: however a target encodes the
        # separators (a '+' kept, a '/' as %2F), the bulk of the value is masked
        parts += [p for p in re.split(r"[^A-Za-z0-9._~-]+", value) if len(p) >= 8]
        for part in parts:
            out += [part, quote(part, safe=""), quote_plus(part), json.dumps(part)[1:-1]]
    return sorted({s for s in out if s}, key=len, reverse=True)


def _redacted_flags(headers: Iterable[Header], pytest_route: bool) -> list[str]:
    """The options that give these headers again, without a value: ``--header-env NAME=VAR``
    as given, ``-H 'NAME: <the value given to -H>'`` for a value given on the command line."""
    out: list[str] = []
    for h in headers:
        if h.env:
            out += ["--adck-header-env" if pytest_route else "--header-env", f"{h.name}={h.env}"]
        else:
            out += ["--adck-header" if pytest_route else "-H", f"{h.name}: {PLACEHOLDER}"]
    return out


def replay_flags(headers: Iterable[str], header_env: Iterable[str], origins: Iterable[str],
                 pytest_route: bool = False) -> list[str]:
    """The replay command's options for the credentials (no value: see :func:`_redacted_flags`);
    the raw option values are read without the environment (a variable is named, never read)."""
    given: list[Header] = []
    for h in headers:
        name = h.partition(":")[0].strip()
        given.append(Header(name or "?", ""))
    for h in header_env:
        name, _, var = h.partition("=")
        given.append(Header(name.strip() or "?", "", env=var.strip() or "?"))
    out = _redacted_flags(given, pytest_route)
    for o in origins:
        out += ["--adck-header-origin" if pytest_route else "--header-origin", o]
    return out


def replay_note(headers: Iterable[str]) -> str | None:
    """What a report says when a replay cannot carry a value given with -H."""
    names = [h.partition(":")[0].strip() for h in headers]
    if not names:
        return None
    return (f"the replay commands name -H '{names[0]}: {PLACEHOLDER}' without its value: pass the value again "
            "(or give it with --header-env NAME=VAR, which a replay repeats as it is)")


# -- the rule ------------------------------------------------------------------------------------

def _evidence_refusal(item: Mapping[str, Any]) -> bool:
    request, response = item.get("request"), item.get("response")
    if not isinstance(request, Mapping) or not isinstance(response, Mapping):
        return False
    return response.get("status") in STATUSES and not request.get("credentials")


def refused_for_want(evidence: Iterable[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The first exchange of a clause's evidence (report evidence: dicts) that a service refused
    (401, 403) while the kit sent it without credentials it would have sent had the user given
    them for that origin (``request.credentials`` absent: neither ``sent`` nor ``withheld``)."""
    for item in evidence:
        if _evidence_refusal(item):
            return item
    return None


def reason(item: Mapping[str, Any], given: "Credentials | None") -> str:
    """The message of a clause the rule made untestable."""
    request, response = item["request"], item["response"]
    origin = origin_of(request.get("url", ""))
    seen = f"{request.get('method', '?')} {request.get('url', '?')} was answered {response.get('status')}"
    if given is not None and origin is not None:
        return (f"{NEEDS}: {seen} without credentials: the run's credentials go to "
                f"{', '.join(show_origin(o) for o in given.origins)} only; add --header-origin {show_origin(origin)} "
                "to send them there too")
    return f"{NEEDS}: {seen} without credentials; give them with -H 'Name: value' or --header-env Name=VAR"
