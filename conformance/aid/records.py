"""Hypothesis strategies of AID v1 TXT records (draft §2.1), and named breaks of one clause each.

``records()`` draws valid records (Simple or Extended Profile, v first or not, optional keys);
``split()`` cuts a record into 1-4 character-strings anywhere (2.1: clients concatenate them).
``WAYS`` holds, for each record clause, the distinct named ways of breaking a valid record for
that clause alone: a key absent or under another name, a value of another form, a boundary, a
position. ``named_breaks()`` of conformance/aid/strategies.py lists them as proofs of the record
tests; tests/test_aid_record_properties.py runs every one through the suite's own tests.
"""

from __future__ import annotations

from typing import Callable

from hypothesis import assume
from hypothesis import strategies as st

AUTH = ["none", "pat", "apikey", "basic", "oauth2_device", "oauth2_code", "oauth2_service", "mtls", "custom"]
host = st.from_regex(r"\A[a-z][a-z0-9-]{0,12}(\.[a-z][a-z0-9-]{0,8}){1,2}\Z")
path = st.from_regex(r"\A(/[a-z0-9_-]{1,8}){0,3}\Z")
token = st.from_regex(r"\A[a-z][a-z0-9]{0,7}\Z")

Pairs = list[tuple[str, str]]


@st.composite
def records(draw) -> Pairs:
    """Valid v1 records: v first or not, Simple or Extended Profile, optional keys."""
    h = draw(host)
    pairs = [("v", "aid1")]
    extended = draw(st.booleans())
    if not extended or draw(st.booleans()):  # uri and proto: required without config
        pairs += [("uri", f"https://api.{h}{draw(path)}"),
                  ("proto", ",".join(draw(st.lists(token, min_size=1, max_size=3, unique=True))))]
        pairs.append(("auth", ",".join(draw(st.lists(st.sampled_from(AUTH), min_size=1, max_size=2, unique=True)))))
    if extended:
        pairs.append(("config", f"https://{h}/.well-known/{draw(st.sampled_from(['aid.json', 'agent.json']))}"))
    if draw(st.booleans()):
        pairs.append(("env", draw(st.sampled_from(["prod", "staging", "dev"]))))
    first, rest = pairs[0], draw(st.permutations(pairs[1:]))
    return [first, *rest] if draw(st.booleans()) else [*rest[:1], first, *rest[1:]]


def text_of(pairs: Pairs, trailing: bool = False) -> str:
    return ";".join(f"{k}={v}" for k, v in pairs) + (";" if trailing else "")


@st.composite
def split(draw, text: str) -> list[bytes]:
    """The record as 1..4 character-strings cut at arbitrary byte positions."""
    raw = text.encode("utf-8")
    cuts = sorted(draw(st.lists(st.integers(1, max(1, len(raw) - 1)), max_size=3, unique=True)))
    bounds = [0, *cuts, len(raw)]
    return [raw[a:b] for a, b in zip(bounds, bounds[1:]) if raw[a:b]]


#: A way: (the keys the record must hold, the profile it needs or None, the break).
Break = Callable[[Pairs, st.DataObject], str]
Way = tuple[tuple[str, ...], str | None, Break]


def _value(key: str, value: Callable[[str], str] | str) -> Break:
    """Replace the value of ``key``."""
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        return text_of([(k, (value(v) if callable(value) else value) if k == key else v) for k, v in pairs])
    return brk


def _rename(key: str, new: str) -> Break:
    return lambda pairs, data: text_of([(new if k == key else k, v) for k, v in pairs])


def _drop(key: str) -> Break:
    return lambda pairs, data: text_of([kv for kv in pairs if kv[0] != key])


def _add(key: str, value: str, at: str = "end") -> Break:
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        where = {"end": len(pairs), "start": 0}.get(at)
        if where is None:
            where = data.draw(st.integers(0, len(pairs)))
        return text_of(pairs[:where] + [(key, value)] + pairs[where:])
    return brk


def _raw(change: Callable[[str], str]) -> Break:
    return lambda pairs, data: change(text_of(pairs))


def _grow_to(size: int, multibyte: bool = False) -> Break:
    """Add a desc key so the record is exactly ``size`` bytes (with é: fewer characters)."""
    def brk(pairs: Pairs, data: st.DataObject) -> str:
        base = text_of(pairs) + ";desc="
        room = size - len(base.encode("utf-8"))
        assume(room >= 2)
        fill = ("é" * (room // 2) + "d" * (room % 2)) if multibyte else "d" * room
        out = base + fill
        assert len(out.encode("utf-8")) == size
        if multibyte:
            assume(len(out) <= 255)
        return out
    return brk


def _https_to(key: str, scheme: str) -> Break:
    return _value(key, lambda v: scheme + v[v.index(":"):])


def _no_scheme(key: str) -> Break:
    return _value(key, lambda v: v.split("://", 1)[1])


def _path_to(key: str, new_path: Callable[[str], str]) -> Break:
    def change(v: str) -> str:
        scheme, rest = v.split("://", 1)
        hostpart, _, p = rest.partition("/")
        return f"{scheme}://{hostpart}{new_path('/' + p)}"
    return _value(key, change)


_S, _E = "simple", "extended"
WAYS: dict[str, dict[str, Way]] = {
    "AID-2.1-02": {"empty-pair": ((), None, _raw(lambda t: t.replace(";", ";;", 1) if ";" in t else t + ";;x=1")),
                   "bare-word": ((), None, _raw(lambda t: t + ";x-flag")),
                   "empty-key": ((), None, _raw(lambda t: t + ";=1"))},
    "AID-2.1-03": {"ten-characters": ((), None, _add("extensions", "1", at="any")),
                   "long": ((), None, _add("environment-name", "prod"))},
    "AID-2.1-04": {"latin": ((), None, _add("clé", "1", at="any")),
                   "cjk": ((), None, _add("鍵", "1"))},
    "AID-2.1-06": {"256-bytes": ((), None, _grow_to(256)),
                   "long": ((), None, _grow_to(400)),
                   "multibyte": ((), None, _grow_to(300, multibyte=True))},
    "AID-2.1-08": {"absent": ((), None, _drop("v")),
                   "capitalised-key": ((), None, _rename("v", "V")),
                   "other-key": ((), None, _rename("v", "version"))},
    "AID-2.1-09": {"other-version": ((), None, _value("v", "aid2")),
                   "capitalised": ((), None, _value("v", "AID1")),
                   "space": ((), None, _value("v", " aid1")),
                   "empty": ((), None, _value("v", "")),
                   "minor": ((), None, _value("v", "aid1.0"))},
    "AID-2.1-10": {"absent": (("uri",), _S, _drop("uri")),
                   "other-key": (("uri",), _S, _rename("uri", "url"))},
    "AID-2.1-13": {"absent": (("proto",), _S, _drop("proto")),
                   "other-key": (("proto",), _S, _rename("proto", "protocol"))},
    "AID-2.1-16": {"empty-item": (("proto",), None, _value("proto", lambda v: v + ",,a2a")),
                   "trailing-comma": (("proto",), None, _value("proto", lambda v: v + ",")),
                   "leading-comma": (("proto",), None, _value("proto", lambda v: "," + v)),
                   "space-after-comma": (("proto",), None, _value("proto", lambda v: v + ", a2a")),
                   "empty": (("proto",), None, _value("proto", ""))},
    "AID-2.1-19": {"simple-profile": (("uri", "auth"), _S, _drop("auth")),
                   "extended-profile": (("uri", "auth"), _E, _drop("auth"))},
    "AID-2.1-20": {"other-word": (("auth",), None, _value("auth", "token")),
                   "capitalised": (("auth",), None, _value("auth", lambda v: v.upper())),
                   "one-of-a-list": (("auth",), None, _value("auth", lambda v: v + ",bearer")),
                   "space-separated": (("auth",), None, _value("auth", "pat oauth2_code")),
                   "empty": (("auth",), None, _value("auth", ""))},
    "AID-2.1-21": {"relative": (("config",), None, _value("config", "aid.json")),
                   "root-relative": (("config",), None, _value("config", "/.well-known/aid.json")),
                   "no-scheme": (("config",), None, _no_scheme("config"))},
    "AID-2.1-22": {"root": (("config",), None, _path_to("config", lambda p: p.replace("/.well-known/", "/"))),
                   "near-miss": (("config",), None, _path_to("config", lambda p: p.replace("/.well-known/", "/.wellknown/"))),
                   "not-at-root": (("config",), None, _path_to("config", lambda p: "/api" + p))},
    "AID-4-03": {"http": (("uri",), None, _https_to("uri", "http")),
                 "capital-http": (("uri",), None, _https_to("uri", "HTTP")),
                 "wss": (("uri",), None, _https_to("uri", "wss")),
                 "no-scheme": (("uri",), None, _no_scheme("uri"))},
    "AID-4-04": {"http": (("config",), None, _https_to("config", "http")),
                 "ftp": (("config",), None, _https_to("config", "ftp"))},
    "AID-4-07": {"query-credential": (("uri",), None, _value("uri", lambda v: v + "?api_key=adck-fake-0000")),
                 "userinfo-password": (("uri",), None, _value("uri", lambda v: v.replace("://", "://agent:hunter2@", 1))),
                 "secret-named-key": ((), None, _add("token", "adckfake0000", at="any")),
                 "token-shaped-value": ((), None, _add("x-id", "ghp_" + "a1B2" * 9))},
}


def applies(pairs: Pairs, clause: str, way: str) -> bool:
    keys, profile, _brk = WAYS[clause][way]
    has = dict(pairs)
    if any(k not in has for k in keys):
        return False
    if profile == _S and "config" in has or profile == _E and "config" not in has:
        return False
    return True


def break_record(pairs: Pairs, clause: str, way: str, data: st.DataObject) -> str:
    return WAYS[clause][way][2](pairs, data)


def named_breaks() -> dict[str, tuple[str, ...]]:
    """Clause -> the names of its ways (``CLAUSE:way``)."""
    return {clause: tuple(f"{clause}:{name}" for name in ways) for clause, ways in WAYS.items()}
