"""Which published records a v1.2 sentence judges, and the value checks they share.

* :func:`aid1`: the v=aid1 records (a sentence only v1.2 holds). An aid2 record beside them is a
  v2.1 record (v2.1 2.2, migration window), not judged by v1.2's own sentences.
* :func:`v1x`: every AID record that is not v=aid2 (aid1, another or no version): the records a
  v1.2 provider publishes as its v1.x record, for the version clauses (AID-2.1-33, AID-2.1-34) and
  the provider's "single DNS TXT record" (AID-2-01).
* :func:`shared`: every aid1 and aid2 record, for the sentences v1.2 and v2.1 both hold: each is
  read by its own version's table (v2.1 has no kid/i: its aliases are the other eight).
"""

from __future__ import annotations

import base64
import re
from typing import Callable
from urllib.parse import parse_qsl, urlsplit

from conformance import redact
from conformance.aid import versioned
from conformance.aid.conftest import VERSION_CLAUSES, PublishedRecord, records_of
from conformance.outcomes import NotApplicable, Untestable, each_case, not_applicable, untestable

#: The keys and aliases of each version's table (v1.2 2.1; v2.1 2.1 has no kid).
ALIASES = {"aid1": dict(versioned.ALIASES),
           "aid2": {k: a for k, a in versioned.ALIASES.items() if k != "kid"}}
#: Appendix B: token -> allowed schemes.
PROTOCOLS = versioned.PROTOCOLS
#: Appendix A.
AUTH_TOKENS = versioned.AUTH_TOKENS
#: Tokens whose agent is not remote (AMB-55: Appendix B's rows govern websocket, local, zeroconf).
NOT_REMOTE = ("local", "zeroconf", "websocket")


def label(record: PublishedRecord) -> str:
    version = record.reading.version
    text = record.text if len(record.text) <= 90 else record.text[:87] + "..."
    return f"the {'v=' + version if version else 'version-less'} record {text!r}"


def aid1(published: list[PublishedRecord]) -> list[PublishedRecord]:
    """The v=aid1 records; *not applicable* when every record is v=aid2 (v2.1's), *untestable*
    when none is published otherwise (AID-2.1-33/34, AID-2-01 say why)."""
    __tracebackhide__ = True
    if published and all(r.reading.version == "aid2" for r in published):
        not_applicable("every AID record given is v=aid2, judged by v2.1's sentences: no v1.x record to judge "
                       "(a domain publishing none fails AID-2-01)")
    try:
        return records_of(published, "aid1")
    except Untestable as exc:
        untestable(f"{str(exc.msg).removeprefix('untestable: ')} (see AID-2.1-33, AID-2.1-34, AID-2-01)")


def v1x(published: list[PublishedRecord]) -> list[PublishedRecord]:
    """Every AID record but the v=aid2 ones (v2.1's)."""
    return [r for r in published if r.reading.version != "aid2"]


def shared(published: list[PublishedRecord]) -> list[PublishedRecord]:
    """Every aid1 and aid2 record; *untestable* when there is none."""
    __tracebackhide__ = True
    chosen = [r for r in published if r.reading.version in ("aid1", "aid2")]
    if not chosen:
        seen = ", ".join(repr(r.text[:60]) for r in published) or "none"
        untestable(f"no v=aid1 or v=aid2 record is published (AID records seen: {seen}; see "
                   f"{VERSION_CLAUSES['aid1']}, {VERSION_CLAUSES['aid2']})")
    return chosen


def judge(records: list[PublishedRecord], check: Callable[[PublishedRecord], None]) -> None:
    """``check`` each record (:func:`each_case`: every failing record is named). A record the
    clause does not apply to (``check`` said *not-applicable*) is left out, never ending the
    judgement of the others; the clause is not applicable when it applies to none, and
    *untestable* when no record it applies to could be judged."""
    __tracebackhide__ = True
    passed: list[PublishedRecord] = []
    skipped: list[str] = []
    blocked: list[str] = []

    def one(record: PublishedRecord) -> None:
        __tracebackhide__ = True
        try:
            check(record)
        except NotApplicable as exc:
            skipped.append(str(exc.msg).removeprefix("not applicable: "))
            return
        except Untestable as exc:
            blocked.append(str(exc.msg).removeprefix("untestable: "))
            raise
        passed.append(record)

    each_case(records, one)
    if not passed:
        if blocked:
            untestable(blocked[0])
        not_applicable("; ".join(skipped))


def value(record: PublishedRecord, key: str) -> str:
    """The (trimmed) value of ``key`` (long name; its alias read the same), or *not-applicable*."""
    __tracebackhide__ = True
    found = record.reading.fields.get(key)
    if found is None:
        not_applicable(f"{label(record)} has no {key} ({versioned.ALIASES.get(key, key)}) key")
    return found


def scheme(uri: str) -> str:
    """The scheme of ``uri``, lower case ('' when it has none: RFC 3986 3.1)."""
    m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", uri)
    return m.group(1).lower() if m else ""


def absolute_url_problem(uri: str, want: str) -> str | None:
    """Why ``uri`` is not an absolute ``want``:// URL with a host (None when it is)."""
    if scheme(uri) != want:
        return f"its scheme is {scheme(uri) + ':' if scheme(uri) else 'missing'}"
    rest = uri.split(":", 1)[1]
    if not rest.startswith("//"):
        return f"{want}: is not followed by //"
    try:
        host = urlsplit(uri).hostname
    except ValueError as exc:
        return f"it is no URL ({exc})"
    if not host:
        return "it names no host"
    if any(ch.isspace() for ch in uri):
        return "it holds white space"
    return None


# ---------------------------------------------------------------- secrets (AMB-22's list)

_PEM = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")
#: Query parameters whose non-empty value is a credential (AMB-22).
SECRET_PARAMS = ("token", "access_token", "api_key", "apikey", "key", "secret", "password")


def secrets(record: PublishedRecord) -> list[str]:
    """What in the record is a secret beyond doubt (AMB-22): a private-key block, a string in a
    well-known credential format, a password in a URL's userinfo, a credential query parameter."""
    found = []
    for written, (key, val) in zip(record.reading.written, _pairs(record)):
        if _PEM.search(val):
            found.append(f"{written} holds a private-key block")
        if redact.looks_like_token(val):
            found.append(f"{written} holds a string in a credential format (ghp_, sk_live_, a JWT, ...)")
        for url in re.findall(r"[A-Za-z][A-Za-z0-9+.-]*://\S+", val):
            try:
                parts = urlsplit(url)
                password = parts.password
            except ValueError:
                continue
            if password:
                found.append(f"{written}'s URL carries a password in its userinfo")
            for name, v in parse_qsl(parts.query, keep_blank_values=True):
                if name.lower() in SECRET_PARAMS and v:
                    found.append(f"{written}'s URL carries a credential in its query parameter {name!r}")
    return found


def _pairs(record: PublishedRecord) -> list[tuple[str, str]]:
    """Every (key, value) as written, values trimmed (a key twice appears twice)."""
    out = []
    for segment in record.text.split(";"):
        if "=" in segment:
            k, v = segment.split("=", 1)
            if k.strip():
                out.append((k.strip(), v.strip()))
    return out


# ---------------------------------------------------------------- pka (Ed25519, D.1)

_P = 2**255 - 19
_D = (-121665 * pow(121666, _P - 2, _P)) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58_decode(body: str) -> bytes | None:
    if not body or any(ch not in _B58 for ch in body):
        return None
    n = 0
    for ch in body:
        n = n * 58 + _B58.index(ch)
    zeros = len(body) - len(body.lstrip("1"))
    return b"\0" * zeros + (n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b"")


def base58_encode(raw: bytes) -> str:
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = _B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def multibase_decode(value: str) -> bytes | None:
    """The bytes of a multibase string in a base the kit reads (z, u, m, f/F, b/B), or None."""
    if versioned.multibase_size(value) is None:
        return None
    prefix, body = value[:1], value[1:]
    if prefix == "z":
        return base58_decode(body)
    if prefix == "u":
        return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    if prefix == "m":
        return base64.b64decode(body + "=" * (-len(body) % 4))
    if prefix in "fF":
        return bytes.fromhex(body)
    return base64.b32decode(body.upper() + "=" * (-len(body) % 8))


def ed25519_point(raw: bytes) -> bool:
    """Is ``raw`` (32 bytes) the encoding of a point of edwards25519 (RFC 8032 5.1.3)?"""
    if len(raw) != 32:
        return False
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    sign = raw[31] >> 7
    if y >= _P:
        return False
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x = (u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P)) % _P
    if (v * x * x - u) % _P != 0:
        if (v * x * x + u) % _P != 0:
            return False
        x = (x * _SQRT_M1) % _P
    return not (x == 0 and sign == 1)
