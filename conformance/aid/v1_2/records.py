"""Hypothesis strategies of AID v1.2 aid1 TXT records, and named breaks of one clause each.

``records()`` draws valid v1.2 records: every protocol of Appendix B with a uri of its form, an
auth token of Appendix A, the optional keys in their valid forms (desc up to 60 UTF-8 bytes with
multi-byte text, docs, dep in the ISO 8601 UTC forms, pka as base58btc of a real Ed25519 key with
its kid, kid alone), extension keys, any order, under 255 bytes; ``long_keys=True`` writes some
keys in full (compatibility-only input, a SHOULD finding of AID-2.1-32). ``split()`` of
conformance/aid/records.py cuts one into character-strings.

``WAYS`` holds, for each v1.2 document clause, distinct named ways of breaking a valid record:
each way is (the keys the record must hold, the break, the other clauses it always fails with:
those its clause implies or restates, profiles/aid/mutant-floor.toml). :func:`judge` runs a
record through the suite's own v1.2 document tests (no DNS, no pytest run).
"""

from __future__ import annotations

import base64
import importlib
import inspect
from functools import cache
from typing import Callable

from hypothesis import assume
from hypothesis import strategies as st

from conformance import revisions
from conformance.aid.conftest import PublishedRecord
from conformance.aid.v1_2.judge import AUTH_TOKENS, PROTOCOLS, base58_encode
from conformance.outcomes import ClauseViolation, NotApplicable, Untestable

Pairs = list[tuple[str, str]]
#: long key -> alias, in the table's order
SHORT = {"version": "v", "uri": "u", "proto": "p", "auth": "a", "desc": "s", "docs": "d", "dep": "e",
         "pka": "k", "kid": "i"}

host = st.from_regex(r"\A[a-z][a-z0-9-]{0,10}(\.[a-z][a-z0-9]{0,7}){1,2}\Z")
path = st.from_regex(r"\A(/[a-z0-9_-]{1,8}){0,2}\Z")
kid = st.from_regex(r"\A[a-z0-9]{1,6}\Z")
desc = st.text(st.sampled_from("abcdefghij ABC-0123éü€漢"), min_size=1, max_size=30).map(str.strip).filter(
    lambda s: s and len(s.encode("utf-8")) <= 60)
dep = st.sampled_from(["2026-01-01T00:00:00Z", "2027-06-30T23:59:59Z", "2026-01-01T00:00Z",
                       "2026-01-01T00:00:00.5Z", "20260101T000000Z", "2026-01-01T00:00:00+00:00"])


@st.composite
def ed25519_key(draw) -> str:
    """base58btc multibase of a real Ed25519 public key (from a drawn seed)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    seed = draw(st.binary(min_size=32, max_size=32))
    raw = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return "z" + base58_encode(raw)


@st.composite
def uri_for(draw, proto: str) -> str:
    h = draw(host)
    if proto == "websocket":
        return f"wss://{h}{draw(path)}"
    if proto == "local":
        return draw(st.sampled_from([f"docker:{h.split('.')[0]}/mcp:latest", f"npx:@{h.split('.')[0]}/mcp",
                                     f"pip:{h.split('.')[0]}-mcp"]))
    if proto == "zeroconf":
        return draw(st.sampled_from(["zeroconf:_mcp._tcp", "zeroconf:_a2a._tcp", "zeroconf:_agent._udp"]))
    return f"https://{draw(st.sampled_from(['', 'api.']))}{h}{draw(path)}"


@st.composite
def records(draw, long_keys: bool = False) -> Pairs:
    """Valid v1.2 aid1 records as (written key, value) pairs, short keys unless ``long_keys``."""
    proto = draw(st.sampled_from(sorted(PROTOCOLS)))
    pairs = [("version", "aid1"), ("uri", draw(uri_for(proto))), ("proto", proto),
             ("auth", draw(st.sampled_from(AUTH_TOKENS)))]
    if draw(st.booleans()):
        pairs.append(("desc", draw(desc)))
    if draw(st.booleans()):
        pairs.append(("docs", f"https://docs.{draw(host)}{draw(path)}"))
    if draw(st.booleans()):
        pairs.append(("dep", draw(dep)))
    key = draw(st.sampled_from(["none", "pka", "kid"]))
    if key == "pka":
        pairs += [("pka", draw(ed25519_key())), ("kid", draw(kid))]
    elif key == "kid":
        pairs.append(("kid", draw(kid)))
    if draw(st.booleans()):
        pairs.append((draw(st.sampled_from(["x-env", "env", "tier"])), draw(st.sampled_from(["prod", "dev", "2"]))))
    pairs = draw(st.permutations(pairs))
    written = []
    for k, v in pairs:
        if k in SHORT:
            k = k if long_keys and draw(st.booleans()) else SHORT[k]
        written.append((k, v))
    if long_keys:
        assume(any(k in SHORT for k, _ in written))
    assume(len(text_of(written).encode("utf-8")) < 255)
    return written


def text_of(pairs: Pairs, trailing: bool = False) -> str:
    return ";".join(f"{k}={v}" for k, v in pairs) + (";" if trailing else "")


def _find(pairs: Pairs, key: str) -> int | None:
    """The index of ``key`` (a long key: its alias matches too)."""
    names = {key, SHORT.get(key, key)}
    return next((i for i, (k, _v) in enumerate(pairs) if k.lower() in names), None)


def _value(key: str, value: Callable[[str], str] | str) -> Callable[[Pairs, st.DataObject], str]:
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        i = _find(pairs, key)
        out = list(pairs)
        k, v = out[i]
        out[i] = (k, value(v) if callable(value) else value)
        return text_of(out)
    return brk


def _rename(key: str, new: str) -> Callable[[Pairs, st.DataObject], str]:
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        i = _find(pairs, key)
        out = list(pairs)
        out[i] = (new, out[i][1])
        return text_of(out)
    return brk


def _drop(key: str) -> Callable[[Pairs, st.DataObject], str]:
    return lambda pairs, data: text_of([kv for i, kv in enumerate(pairs) if i != _find(pairs, key)])


def _add(key: str, value: str) -> Callable[[Pairs, st.DataObject], str]:
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        where = data.draw(st.integers(0, len(pairs)))
        return text_of(pairs[:where] + [(key, value)] + pairs[where:])
    return brk


def _set(key: str, value: str) -> Callable[[Pairs, st.DataObject], str]:
    """``key`` (short) set to ``value``: replaced where the record holds it, else added anywhere."""
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        long = next(k for k, a in SHORT.items() if a == key)
        if _find(pairs, long) is not None:
            return _value(long, value)(pairs, data)
        return _add(key, value)(pairs, data)
    return brk


def _raw(change: Callable[[str], str]) -> Callable[[Pairs, st.DataObject], str]:
    return lambda pairs, data: change(text_of(pairs))


def _protocol(proto: str, uri: str) -> Callable[[Pairs, st.DataObject], str]:
    """p=``proto`` with ``uri`` (``{h}`` a host)."""
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        out = list(pairs)
        out[_find(out, "proto")] = (out[_find(out, "proto")][0], proto)
        out[_find(out, "uri")] = (out[_find(out, "uri")][0], uri.format(h=data.draw(host)))
        return text_of(out)
    return brk


def _grow_to(size: int) -> Callable[[Pairs, st.DataObject], str]:
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        base = text_of(pairs) + ";x="
        room = size - len(base.encode("utf-8"))
        assume(room >= 1)
        return base + "n" * room
    return brk


def _pka(value: str, with_kid: str | None = "g1") -> Callable[[Pairs, st.DataObject], str]:
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        out = [kv for kv in pairs if kv[0].lower() not in ("k", "pka", "i", "kid")]
        out.append(("k", value))
        if with_kid is not None:
            out.append(("i", with_kid))
        return text_of(out)
    return brk


#: the reference provider's key (fixtures/aid/provider.toml, its aid2 record's k)
_KEY = base64.urlsafe_b64decode("oLS6HFtrVDfi2XCnW4-lq1baMT-TDNIDA0VooYR-WyU=")
_Z = "z" + base58_encode(_KEY)
_NONPOINT = "z8RBsoeyoRwajj86MZfZE6gMDJQVYGYcdSfx1zxqxNHbr"
_KID = ("AID-2.1-44", "AID-3-07", "AID-D-07")
_HTTPS_ROW = ("AID-3-03",)

#: A way: (the keys the record must hold, the break, the other clauses it always fails with).
Way = tuple[tuple[str, ...], Callable[[Pairs, st.DataObject], str], tuple[str, ...]]
WAYS: dict[str, dict[str, Way]] = {
    "AID-2.1-25": {"empty-pair": ((), _raw(lambda t: t.replace(";", ";;", 1)), ()),
                   "leading-semicolon": ((), _raw(lambda t: ";" + t), ()),
                   "bare-word": ((), _raw(lambda t: t + ";beta"), ()),
                   "empty-key": ((), _raw(lambda t: t + ";=1"), ()),
                   "blank-piece": ((), _raw(lambda t: t.replace(";", "; ;", 1)), ())},
    "AID-2.1-29": {"255-bytes": ((), _grow_to(255), ()), "400-bytes": ((), _grow_to(400), ())},
    "AID-2.1-31": {"uri-and-u": (("uri",), lambda p, d: _add("uri", p[_find(p, "uri")][1])(p, d), ("AID-2.1-32",)),
                   "capital-alias-and-long": (("proto",), lambda p, d: text_of(p + [("PROTO", dict((k.lower(), v) for k, v in p).get("p", "mcp"))]), ("AID-2.1-32",))},
    "AID-2.1-32": {"long-uri": (("uri",), _rename("uri", "uri"), ()),
                   "capital-alias": (("version",), _rename("version", "V"), ()),
                   "long-in-capitals": (("proto",), _rename("proto", "PROTO"), ())},
    "AID-2.1-33": {"absent": (("version",), _drop("version"), ()),
                   "misspelt": (("version",), _rename("version", "ver"), ())},
    "AID-2.1-34": {"capitals": (("version",), _value("version", "AID1"), ()),
                   "minor": (("version",), _value("version", "aid1.2"), ()),
                   "empty": (("version",), _value("version", ""), ()),
                   "other": (("version",), _value("version", "aid3"), ())},
    "AID-2.1-35": {"absent": (("uri",), _drop("uri"), ()), "empty": (("uri",), _value("uri", ""), ())},
    "AID-2.1-36": {"absent": (("proto",), _drop("proto"), ()), "empty": (("proto",), _value("proto", ""), ())},
    # with an https uri: a token outside the registry names a remote agent (AMB-55, AID-3-03)
    "AID-2.1-37": {"capitals": ((), _protocol("MCP", "https://{h}/mcp"), ()),
                   "list": ((), _protocol("mcp,a2a", "https://{h}/mcp"), ()),
                   "unknown": ((), _protocol("openai", "https://{h}/v1"), ()),
                   "v1-none": ((), _protocol("none", "https://{h}/v1"), ())},
    "AID-2.1-38": {"absent": (("auth",), _drop("auth"), ()), "misnamed": (("auth",), _rename("auth", "authentication"), ())},
    "AID-2.1-39": {"v1-token": (("auth",), _value("auth", "oauth2_service"), ()),
                   "capitals": (("auth",), _value("auth", lambda v: v.upper()), ()),
                   "list": (("auth",), _value("auth", "pat,mtls"), ()),
                   "empty": (("auth",), _value("auth", ""), ())},
    "AID-2.1-40": {"61-bytes": ((), _set("s", "R" * 61), ()), "multibyte": ((), _set("s", "€" * 21), ())},
    "AID-2.1-41": {"http": ((), _set("d", "http://docs.example.test/agent"), ()),
                   "relative": ((), _set("d", "/docs/agent"), ()),
                   "no-scheme": ((), _set("d", "docs.example.test/agent"), ())},
    "AID-2.1-42": {"offset": ((), _set("e", "2027-01-01T00:00:00+02:00"), ()),
                   "date-only": ((), _set("e", "2027-01-01"), ()),
                   "local-time": ((), _set("e", "2027-01-01T00:00:00"), ()),
                   "impossible-date": ((), _set("e", "2027-02-30T00:00:00Z"), ()),
                   "epoch": ((), _set("e", "1798761600"), ())},
    "AID-2.1-43": {"base64url-multibase": ((), _pka("u" + "oLS6HFtrVDfi2XCnW4-lq1baMT-TDNIDA0VooYR-WyU"), ()),
                   "not-a-point": ((), _pka(_NONPOINT), ()),
                   "no-prefix": ((), _pka("oLS6HFtrVDfi2XCnW4-lq1baMT-TDNIDA0VooYR-WyU"), ())},
    "AID-2.1-44": {"no-kid": ((), _pka(_Z, None), _KID[1:]), "empty-kid": ((), _pka(_Z, ""), _KID[1:])},
    "AID-2.1-45": {"capitals": ((), _pka(_Z, "G1"), ()), "seven": ((), _pka(_Z, "rotate7"), ()),
                   "underscore": ((), _pka(_Z, "g_1"), ())},
    "AID-D.1-01": {"31-bytes": ((), _pka("z" + base58_encode(_KEY[:31])), ("AID-2.1-43",)),
                   "33-bytes": ((), _pka("z" + base58_encode(_KEY + b"\x01")), ("AID-2.1-43",))},
    "AID-3-03": {"no-slashes": ((), _protocol("mcp", "https:{h}/mcp"), ()),
                 "no-host": ((), _protocol("a2a", "https:///a2a"), ())},
    "AID-3-05": {"query-credential": ((), _protocol("mcp", "https://{h}/mcp?api_key=adck-fake-0000"), ()),
                 "userinfo-password": ((), _protocol("mcp", "https://agent:hunter2@{h}/mcp"), ()),
                 "token-shaped": ((), _add("x-id", "ghp_" + "a1B2" * 9), ())},
    "AID-B-06": {"http": ((), _protocol("mcp", "http://{h}/mcp"), _HTTPS_ROW),
                 "wss": ((), _protocol("mcp", "wss://{h}/mcp"), _HTTPS_ROW)},
    "AID-B-07": {"http": ((), _protocol("a2a", "http://{h}/a2a"), _HTTPS_ROW),
                 "no-scheme": ((), _protocol("a2a", "{h}/a2a"), _HTTPS_ROW)},
    "AID-B-08": {"http": ((), _protocol("openapi", "http://{h}/openapi.json"), _HTTPS_ROW),
                 "file": ((), _protocol("openapi", "file:///srv/openapi.json"), _HTTPS_ROW)},
    "AID-B-09": {"http": ((), _protocol("grpc", "http://{h}:50051"), _HTTPS_ROW),
                 "grpc-scheme": ((), _protocol("grpc", "grpc://{h}:443"), _HTTPS_ROW)},
    "AID-B-10": {"http": ((), _protocol("graphql", "http://{h}/graphql"), _HTTPS_ROW),
                 "ws": ((), _protocol("graphql", "ws://{h}/graphql"), _HTTPS_ROW)},
    "AID-B-11": {"https": ((), _protocol("websocket", "https://{h}/ws"), ()),
                 "ws": ((), _protocol("websocket", "ws://{h}/ws"), ()),
                 "no-host": ((), _protocol("websocket", "wss:///ws"), ())},
    "AID-B-12": {"https": ((), _protocol("local", "https://{h}/mcp"), ()),
                 "brew": ((), _protocol("local", "brew:notes-mcp"), ()),
                 "empty-locator": ((), _protocol("local", "docker:"), ())},
    "AID-B-13": {"https": ((), _protocol("zeroconf", "https://{h}/mcp"), ()),
                 "empty": ((), _protocol("zeroconf", "zeroconf:"), ()),
                 "bare-name": ((), _protocol("zeroconf", "zeroconf:mcp"), ())},
    "AID-B-14": {"http": ((), _protocol("ucp", "http://{h}/ucp"), _HTTPS_ROW),
                 "ftp": ((), _protocol("ucp", "ftp://{h}/ucp"), _HTTPS_ROW)},
}


def applies(pairs: Pairs, clause: str, way: str) -> bool:
    return all(_find(pairs, k) is not None for k in WAYS[clause][way][0])


def break_record(pairs: Pairs, clause: str, way: str, data: st.DataObject) -> str:
    return WAYS[clause][way][1](pairs, data)


def expected(clause: str, way: str) -> set[str]:
    return {clause, *WAYS[clause][way][2]}


def named_breaks() -> dict[str, tuple[str, ...]]:
    """Clause -> the names of its ways (``CLAUSE:way``)."""
    return {clause: tuple(f"{clause}:{name}" for name in ways) for clause, ways in WAYS.items()}


@cache
def record_tests() -> tuple[tuple[str, Callable], ...]:
    """(clause id, test) of every v1.2 document test of this folder that takes only ``aid_records``."""
    from conformance import catalog

    profile = revisions.profile_of("aid", "v1.2")
    found = []
    for cid, names in catalog.suite_bindings("conformance.aid").items():
        if cid not in profile.clauses or profile.clauses[cid].role != "document":
            continue
        for name in names:
            module, fn_name = name.split("::")
            if not module.startswith("v1_2."):
                continue
            fn = getattr(importlib.import_module(f"conformance.aid.{module}"), fn_name)
            if list(inspect.signature(fn).parameters) == ["aid_records"]:
                found.append((cid, fn))
    return tuple(found)


_RANK = ("fail", "untestable", "pass", "not-applicable")


def judge(*records: list[bytes]) -> dict[str, str]:
    """Clause id -> outcome of the v1.2 document tests on these records (each its strings)."""
    published = [PublishedRecord(strings=list(s), ttl=None, source="<generated>") for s in records]
    results: dict[str, str] = {}
    for cid, fn in record_tests():
        try:
            fn(published)
            outcome = "pass"
        except ClauseViolation:
            outcome = "fail"
        except Untestable:
            outcome = "untestable"
        except NotApplicable:
            outcome = "not-applicable"
        previous = results.get(cid)
        results[cid] = outcome if previous is None else min(previous, outcome, key=_RANK.index)
    return results


def failing(*records: list[bytes]) -> set[str]:
    return {cid for cid, outcome in judge(*records).items() if outcome == "fail"}
