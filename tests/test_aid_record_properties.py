"""Hypothesis on AID records: valid records fail nothing however they are split into
character-strings (2.3: clients concatenate them), and each break fails exactly its clause."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.aid.oracle import failing, judge, record_tests

AUTH = ["none", "pat", "apikey", "basic", "oauth2_device", "oauth2_code", "oauth2_service", "mtls", "custom"]
host = st.from_regex(r"\A[a-z][a-z0-9-]{0,12}(\.[a-z][a-z0-9-]{0,8}){1,2}\Z")
path = st.from_regex(r"\A(/[a-z0-9_-]{1,8}){0,3}\Z")
token = st.from_regex(r"\A[a-z][a-z0-9]{0,7}\Z")


@st.composite
def records(draw) -> list[tuple[str, str]]:
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


def text_of(pairs: list[tuple[str, str]], trailing: bool = False) -> str:
    return ";".join(f"{k}={v}" for k, v in pairs) + (";" if trailing else "")


@st.composite
def split(draw, text: str) -> list[bytes]:
    """The record as 1..4 character-strings cut at arbitrary byte positions."""
    raw = text.encode("utf-8")
    cuts = sorted(draw(st.lists(st.integers(1, max(1, len(raw) - 1)), max_size=3, unique=True)))
    bounds = [0, *cuts, len(raw)]
    return [raw[a:b] for a, b in zip(bounds, bounds[1:]) if raw[a:b]]


def test_the_oracle_sees_the_record_tests() -> None:
    assert len({cid for cid, _ in record_tests()}) >= 15


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_valid_records_fail_nothing_however_split(data) -> None:
    pairs = data.draw(records())
    text = text_of(pairs, trailing=data.draw(st.booleans()))
    strings = data.draw(split(text))
    outcomes = judge(strings)
    assert {c: o for c, o in outcomes.items() if o in ("fail", "untestable")} == {}, (text, strings)
    assert outcomes == judge([text.encode()]), "splitting must not change any verdict"


BREAKS = {
    "AID-2.1-02": lambda p: text_of(p) + ";;x=1",
    "AID-2.1-03": lambda p: text_of(p + [("extensionk", "1")]),
    "AID-2.1-04": lambda p: text_of(p + [("clé", "1")]),
    "AID-2.1-06": lambda p: text_of(p + [("desc", "d" * 260)]),
    "AID-2.1-09": lambda p: text_of([(k, "aid2" if k == "v" else v) for k, v in p]),
    "AID-2.1-16": lambda p: text_of([(k, v + ",," if k == "proto" else v) for k, v in p]),
    "AID-2.1-20": lambda p: text_of([(k, "token" if k == "auth" else v) for k, v in p]),
    "AID-4-03": lambda p: text_of([(k, v.replace("https://", "http://") if k == "uri" else v) for k, v in p]),
    "AID-4-04": lambda p: text_of([(k, v.replace("https://", "http://") if k == "config" else v) for k, v in p]),
    "AID-2.1-22": lambda p: text_of([(k, v.replace("/.well-known/", "/") if k == "config" else v) for k, v in p]),
}
NEEDS = {"AID-2.1-16": "proto", "AID-2.1-20": "auth", "AID-4-03": "uri", "AID-4-04": "config", "AID-2.1-22": "config"}


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_each_break_fails_exactly_its_clause(data) -> None:
    clause = data.draw(st.sampled_from(sorted(BREAKS)))
    pairs = data.draw(records().filter(lambda p: NEEDS.get(clause) in (None, *dict(p))))
    broken = BREAKS[clause](pairs)
    strings = data.draw(split(broken))
    assert failing(strings) == {clause}, (clause, broken)
