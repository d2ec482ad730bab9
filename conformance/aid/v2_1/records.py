"""Hypothesis strategies of valid AID v2 records (v2.1 2.1), and named breaks of one clause each.

``records()`` draws valid ``v=aid2`` records: every protocol of 7.2 with a u of its scheme,
short or long keys in any case of their letters (2.1: "Key comparisons are case-insensitive"),
keys in any order with v anywhere, optional a, s (up to 60 UTF-8 bytes, multibyte too), d, e (the
ISO 8601 UTC forms) and k (a real Ed25519 key), an unknown extension key, white space around keys
and values (AMB-07), a trailing ';'. ``WAYS`` holds, for each document clause of this folder, the
distinct named ways of breaking a valid record for that clause alone, in the pattern of
conformance/aid/records.py. :func:`judge` runs this folder's document tests on one record text, in
process (tests/test_aid_v2_1_record.py runs every way through it, and some through ``txt:``).
"""

from __future__ import annotations

import base64
import importlib
import inspect
from functools import cache
from typing import Callable

from hypothesis import assume
from hypothesis import strategies as st

from conformance.aid import versioned
from conformance.aid.conftest import PublishedRecord
from conformance.outcomes import ClauseViolation, NotApplicable, Untestable

Pairs = list[tuple[str, str]]

host = st.from_regex(r"\A[a-z][a-z0-9-]{0,10}(\.[a-z][a-z0-9-]{0,8}){1,2}\Z")
path = st.from_regex(r"\A(/[a-z0-9_-]{1,8}){0,3}\Z")
LOCAL = ["docker:grafana/mcp:latest", "npx:@example/agent", "pip:example-agent"]
UTC = ["2027-01-01T00:00:00Z", "2027-01-01T00:00Z", "20270101T000000Z", "2027-06-30T23:59:59.5Z",
       "2027-01-01T00:00:00+00:00", "2030-12-31T12Z"]
#: 32-octet keys that are Ed25519 public keys (the reference's, and the base point's encoding).
KEYS = ["oLS6HFtrVDfi2XCnW4-lq1baMT-TDNIDA0VooYR-WyU", "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs",
        "WGZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmY"]


def _key(draw, long: str) -> str:
    """A key as written: the alias or the long key, in any case of its letters."""
    name = draw(st.sampled_from([versioned.ALIASES[long], long]))
    return "".join(c.upper() if draw(st.booleans()) else c for c in name) if draw(st.booleans()) else name


@st.composite
def records(draw) -> Pairs:
    """Valid aid2 records as (key as written, value) pairs (with a, which 2.1 RECOMMENDS)."""
    proto = draw(st.sampled_from(list(versioned.PROTOCOLS)))
    h = draw(host)
    if proto == "local":
        uri = draw(st.sampled_from(LOCAL))
    elif proto == "zeroconf":
        uri = "zeroconf:_mcp._tcp"
    else:
        uri = f"{versioned.PROTOCOLS[proto][0]}://{h}{draw(path)}"
    pairs = [(_key(draw, "version"), "aid2"), (_key(draw, "uri"), uri), (_key(draw, "proto"), proto)]
    pairs.append((_key(draw, "auth"), draw(st.sampled_from(versioned.AUTH_TOKENS))))  # RECOMMENDED (2.1-59)
    if draw(st.booleans()):
        pairs.append((_key(draw, "desc"), draw(st.sampled_from(["Primary AI Gateway", "é" * 30, "Notes " * 10,
                                                                  "Streaming Agent"])).strip()))
    if draw(st.booleans()):
        pairs.append((_key(draw, "docs"), f"https://docs.{h}/agent"))
    if draw(st.booleans()):
        pairs.append((_key(draw, "dep"), draw(st.sampled_from(UTC))))
    if draw(st.booleans()) and proto not in ("local", "zeroconf"):
        pairs.append((_key(draw, "pka"), draw(st.sampled_from(KEYS))))
    if draw(st.booleans()):
        pairs.append(("env", draw(st.sampled_from(["prod", "staging"]))))
    return draw(st.permutations(pairs))


@st.composite
def texts(draw, pairs: Pairs) -> str:
    """A record's text: white space around keys and values or not (AMB-07), a trailing ';'."""
    pad = draw(st.sampled_from(["", " "]))
    body = ";".join(f"{pad}{k}{pad}={pad}{v}{pad}" for k, v in pairs)
    return body + (";" if draw(st.booleans()) else "")


def text_of(pairs: Pairs) -> str:
    return ";".join(f"{k}={v}" for k, v in pairs)


def _is(key: str, long: str) -> bool:
    return key.strip().lower() in (long, versioned.ALIASES[long])


# ---------------------------------------------------------------- breaks
Break = Callable[[Pairs, st.DataObject], str]
#: A way: (the long keys the record must hold, a protocol it needs or None, the break).
Way = tuple[tuple[str, ...], str | None, Break]


def _value(long: str, value: Callable[[str], str] | str) -> Break:
    return lambda pairs, data: text_of([(k, (value(v) if callable(value) else value) if _is(k, long) else v)
                                        for k, v in pairs])


def _drop(long: str) -> Break:
    return lambda pairs, data: text_of([kv for kv in pairs if not _is(kv[0], long)])


def _rename(long: str, new: str) -> Break:
    return lambda pairs, data: text_of([(new if _is(k, long) else k, v) for k, v in pairs])


def _add(key: str, value: str) -> Break:
    """Add ``key=value`` anywhere, in place of the record's own pair of that key (or alias)."""
    long = {**{a: k for k, a in versioned.ALIASES.items()}, **{k: k for k in versioned.ALIASES}}.get(key.lower())

    def brk(pairs: Pairs, data: st.DataObject) -> str:
        if long is not None:
            pairs = [kv for kv in pairs if not _is(kv[0], long)]
        at = data.draw(st.integers(0, len(pairs)))
        return text_of(pairs[:at] + [(key, value)] + pairs[at:])
    return brk


def _raw(change: Callable[[str], str]) -> Break:
    return lambda pairs, data: change(text_of(pairs))


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _octets(k: str) -> bytes:
    return base64.urlsafe_b64decode(k + "=" * (-len(k) % 4))


def _proto(proto: str, uri: str) -> Break:
    """Make the record one of ``proto`` with ``uri`` (k dropped: a local agent has no endpoint)."""
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        out = [(k, proto if _is(k, "proto") else uri if _is(k, "uri") else v) for k, v in pairs if not _is(k, "pka")]
        return text_of(out)
    return brk


REMOTE = tuple(p for p, s in versioned.PROTOCOLS.items() if s == ("https",))

WAYS: dict[str, dict[str, Way]] = {
    "AID-2.1-47": {
        "empty-pair": ((), None, _raw(lambda t: t.replace(";", ";;", 1))),
        "piece-without-equals": ((), None, _raw(lambda t: t + ";justtext")),
        "empty-key": ((), None, _add("", "x")),
        "key-twice": (("proto",), None, lambda pairs, data: text_of(pairs + [kv for kv in pairs if _is(kv[0], "proto")])),
    },
    "AID-2.1-54": {
        "no-v": ((), None, _drop("version")),
        "v-misspelled": ((), None, _rename("version", "ver")),
    },
    "AID-2.1-55": {
        "upper-case": ((), None, _value("version", "AID2")),
        "aid3": ((), None, _value("version", "aid3")),
        "minor": ((), None, _value("version", "aid2.1")),
        "empty": ((), None, _value("version", "")),
    },
    "AID-2.1-56": {
        "no-u": ((), None, _drop("uri")),
        "empty-u": ((), None, _value("uri", "")),
        "u-misnamed": ((), None, _rename("uri", "url")),
        "no-host": ((), "mcp", _value("uri", lambda v: "https:///" + v.split("://", 1)[1].partition("/")[2])),
    },
    "AID-2.1-57": {
        "no-p": ((), None, _drop("proto")),
        "empty-p": ((), None, _value("proto", "")),
        "p-misnamed": ((), None, _rename("proto", "protocol")),
    },
    "AID-2.1-58": {
        "upper-case": ((), None, _value("proto", str.upper)),
        "list": ((), None, _value("proto", lambda v: v + ",a2a")),
        "unknown": ((), None, _value("proto", "openai")),
    },
    "AID-2.1-59": {
        "no-a": ((), None, _drop("auth")),
        "a-misnamed": (("auth",), None, _rename("auth", "authentication")),
    },
    "AID-2.1-60": {
        "unknown": (("auth",), None, _value("auth", "bearer")),
        "v1-token": (("auth",), None, _value("auth", "oauth2_service")),
        "list": (("auth",), None, _value("auth", "pat,apikey")),
        "empty": (("auth",), None, _value("auth", "")),
        "upper-case": (("auth",), None, _value("auth", "PAT")),
    },
    "AID-2.1-61": {
        "61-bytes": ((), None, _add("s", "d" * 61)),
        "multibyte": ((), None, _add("s", "é" * 31)),
        "emoji": ((), None, _add("desc", "\U0001F4DD" * 16)),
    },
    "AID-2.1-62": {
        "date-only": ((), None, _add("e", "2027-01-01")),
        "offset": ((), None, _add("e", "2027-01-01T00:00:00+02:00")),
        "no-zone": ((), None, _add("e", "2027-01-01T00:00:00")),
        "month-13": ((), None, _add("e", "2027-13-01T00:00:00Z")),
        "february-30": ((), None, _add("dep", "2027-02-30T00:00:00Z")),
        "epoch": ((), None, _add("e", "1798761600")),
    },
    "AID-2.1-63": {
        "stray-bits": (("pka",), None, _value("pka", lambda k: k[:-1] + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".index(k[-1]) | 1)])),
        "not-a-point": (("pka",), None, _value("pka", _b64(bytes([0xA0, 0xB5]) + _octets(KEYS[0])[2:]))),
        "y-above-p": (("pka",), None, _value("pka", _b64((2 ** 255 - 19).to_bytes(32, "little")))),
    },
    "AID-2.1-64": {
        "i": ((), None, _add("i", "g1")),
        "kid": ((), None, _add("kid", "g1")),
        "upper-case": ((), None, _add("KID", "g1")),
        "empty-i": ((), None, _add("i", "")),
    },
    "AID-B.1-01": {
        "padded": (("pka",), None, _value("pka", lambda k: k + "=")),
        "standard-alphabet": (("pka",), None, _value("pka", lambda k: "+" + k[1:])),
        "bad-length": (("pka",), None, _value("pka", lambda k: k[:41])),
        "other-character": (("pka",), None, _value("pka", lambda k: k[:20] + "." + k[21:])),
    },
    "AID-B.1-02": {
        "31-octets": (("pka",), None, _value("pka", lambda k: _b64(_octets(k)[:31]))),
        "64-octets": (("pka",), None, _value("pka", lambda k: _b64(_octets(k) * 2))),
        "multibase-u": (("pka",), None, _value("pka", lambda k: "u" + k)),
    },
    "AID-3-22": {
        "http": ((), "mcp", _value("uri", lambda v: "http" + v[v.index(":"):])),
        "wss-for-remote": ((), "a2a", _value("uri", lambda v: "wss" + v[v.index(":"):])),
        "https-for-websocket": ((), "websocket", _value("uri", lambda v: "https" + v[v.index(":"):])),
        "no-slashes": ((), "grpc", _value("uri", lambda v: v.replace("://", ":", 1))),
    },
    "AID-3-23": {
        "secret-key": ((), None, _add("apikey", "adck-fake-credential-0000")),
        "token-value": ((), None, _add("s", "ghp_adckFakeToken000000000000000000000000")),
        "userinfo": ((), "mcp", _value("uri", lambda v: v.replace("://", "://agent:adck-fake-pass@", 1))),
        "secret-query": ((), "mcp", _value("uri", lambda v: v + "?access_token=adck-fake-credential-0000")),
    },
    "AID-7.2-01": {
        "http": ((), None, _proto("openapi", "http://api.example.test/openapi.json")),
        "docker": ((), None, _proto("openapi", "docker:example/openapi")),
    },
    "AID-7.2-02": {
        "https": ((), None, _proto("local", "https://api.example.test/mcp")),
        "uvx": ((), None, _proto("local", "uvx:example-agent")),
        "bare-image": ((), None, _proto("local", "grafana/mcp:latest")),
        "scheme-only": ((), None, _proto("local", "docker:")),
    },
}

#: What a named break fails besides its clause, when the sentences overlap (mutant-floor.toml).
ALSO = {("AID-7.2-01", "http"): {"AID-3-22"}, ("AID-7.2-01", "docker"): {"AID-3-22"}}


def applies(way: Way, pairs: Pairs) -> bool:
    needs, proto, _ = way
    fields = versioned.read(text_of(pairs)).fields
    return all(k in fields for k in needs) and (proto is None or fields.get("proto") == proto)


# ---------------------------------------------------------------- judging one record in process

MODULES = ("test_2_1_record_format", "test_3_record_security", "test_7_2_record_protocols", "test_B_1_record_key")


@cache
def record_tests() -> tuple[tuple[str, Callable], ...]:
    """(clause, test) of this folder's document tests that take only the records."""
    found = []
    for name in MODULES:
        module = importlib.import_module(f"conformance.aid.v2_1.{name}")
        for fn_name, fn in vars(module).items():
            if fn_name.startswith("test_") and callable(fn) and list(inspect.signature(fn).parameters) == ["aid_records"]:
                mark = next(m for m in fn.pytestmark if m.name == "clause")
                found.append((mark.args[0], fn))
    return tuple(found)


def judge(text: str) -> dict[str, str]:
    """Clause id -> outcome of this folder's record tests on one record text."""
    record = PublishedRecord(strings=[text.encode("utf-8")], ttl=None, source="<generated>")
    out = {}
    for cid, fn in record_tests():
        try:
            fn([record])
            out[cid] = "pass"
        except ClauseViolation:
            out[cid] = "fail"
        except Untestable:
            out[cid] = "untestable"
        except NotApplicable:
            out[cid] = "not-applicable"
    return out


def failing(text: str) -> set[str]:
    return {cid for cid, outcome in judge(text).items() if outcome == "fail"}
