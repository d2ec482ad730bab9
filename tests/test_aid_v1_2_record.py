"""AID v1.2's document and provider tests (conformance/aid/v1_2/): the reference provider under
aid@v1.2, the v1.2 broken variants (fixtures/aid/mutants-v1.2.toml) sound and pinned (each failing
exactly its clause: tests/test_aid_suite.py walks every aid variant), and records on their own
(txt:) built and broken by conformance/aid/v1_2/records.py."""

from __future__ import annotations

import pytest

from conformance import revisions
from conformance.world.site import load_mutants
from tests.conftest import failing, quiet_run

DRAFT = "aid"
V12 = revisions.profile_of(DRAFT, "v1.2")
MUTANTS = load_mutants(DRAFT, file="mutants-v1.2.toml")
#: The reference's aid1 record keeps v1's long keys, for v1 clients: a SHOULD finding of v1.2.
REFERENCE_FINDINGS = {"AID-2.1-32"}


def test_reference_provider_under_v1_2() -> None:
    """Every MUST of v1.2 the kit tests passes on the reference; its only finding is the SHOULD
    of the short keys, which its v1-compatible long keys cannot meet."""
    result = quiet_run(f"{DRAFT}@v1.2", "builtin")
    report = result.report
    assert result.exit_code == 0, [(r.clause, r.message) for r in report.failing()]
    assert failing(report) == REFERENCE_FINDINGS
    # partial while AID-D-06 (the PKA handshake a provider answers) has no test yet
    assert report.summary.level in ("conformant", "partial") and not report.summary.must_unverified


def test_v1_2_variants_are_sound() -> None:
    for m in MUTANTS.values():
        assert m.clause in V12.clauses, f"{m.name} names {m.clause}, no clause of v1.2"
        for cid, why in m.also_fails.items():
            assert cid in V12.clauses and len(why) > 15, f"{m.name}: also_fails {cid} needs a reason"


# ---------------------------------------------------------------- records on their own

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from conformance.aid.records import split  # noqa: E402
from conformance.aid.v1_2 import records as v12  # noqa: E402

AID2 = b"v=aid2;u=https://provider.adck.test/mcp;p=mcp;a=pat;k=oLS6HFtrVDfi2XCnW4-lq1baMT-TDNIDA0VooYR-WyU"


def test_the_oracle_sees_the_v1_2_document_tests() -> None:
    document = {cid for cid, c in V12.clauses.items() if c.role == "document" and c.keyword != "MAY"
                and not c.untestable}
    seen = {cid for cid, _fn in v12.record_tests()}
    # E-02 judges the fallback's JSON, not a record; D-06 is a provider's handshake
    assert seen >= set(v12.WAYS) and "AID-E-02" not in seen
    assert seen <= document


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_valid_v1_2_records_fail_nothing_however_split(data) -> None:
    pairs = data.draw(v12.records())
    text = v12.text_of(pairs, trailing=data.draw(st.booleans()))
    strings = data.draw(split(text))
    outcomes = v12.judge(strings)
    assert {c: o for c, o in outcomes.items() if o in ("fail", "untestable")} == {}, (text, strings)
    assert outcomes == v12.judge([text.encode()]), "splitting must not change any verdict"
    assert v12.failing(strings, [AID2]) == set(), "a valid aid2 record beside it changes nothing"


@settings(max_examples=60, deadline=None)
@given(pairs=v12.records(long_keys=True))
def test_long_keys_are_only_a_should_finding(pairs) -> None:
    """Full keys are 'compatibility-only input': the short-key SHOULD and nothing else."""
    assert v12.failing([v12.text_of(pairs).encode()]) == {"AID-2.1-32"}


PAIRS = [(clause, way) for clause, ways in sorted(v12.WAYS.items()) for way in ways]


def test_every_tested_v1_2_record_clause_has_two_ways() -> None:
    assert all(len(ways) >= 2 for ways in v12.WAYS.values())
    assert {f"{c}:{w}" for c, w in PAIRS} == {n for names in v12.named_breaks().values() for n in names}


@pytest.mark.mutants
@pytest.mark.parametrize(("clause", "way"), PAIRS, ids=[f"{c}:{w}" for c, w in PAIRS])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_each_v1_2_named_break_fails_exactly_its_clause(clause: str, way: str, data) -> None:
    pairs = data.draw(v12.records())
    assume(v12.applies(pairs, clause, way))
    broken = v12.break_record(pairs, clause, way, data)
    assume(clause == "AID-2.1-29" or len(broken.encode("utf-8")) < 255)
    strings = data.draw(split(broken))
    assert v12.failing(strings) == v12.expected(clause, way), (clause, way, broken, v12.judge(strings))
    # the sentences v1.2 shares with v2.1 judge the aid2 record too: a valid one changes nothing
    assert v12.failing(strings, [AID2]) == v12.expected(clause, way)


BASE = "v=aid1;u=https://api.example.test/mcp;p=mcp;a=pat"


@pytest.mark.mutants
@pytest.mark.parametrize("clause", sorted(v12.WAYS))
def test_a_break_as_a_txt_target_fails_its_clause(clause: str) -> None:
    """The document route end to end: `adck run aid@v1.2 --target "txt:..."` with the first
    way of each clause applied to one short-key record."""
    way = next(iter(v12.WAYS[clause]))
    broken = v12.break_record([tuple(kv.split("=", 1)) for kv in BASE.split(";")], clause, way, _Fixed())
    result = quiet_run(f"{DRAFT}@v1.2", "txt:" + broken)
    report = result.report
    assert report.roles == ["document"]
    assert failing(report) == v12.expected(clause, way), (broken, [(r.clause, r.message) for r in report.failing()])
    must = any(V12.clauses[c].keyword in ("MUST", "MUST NOT", "REQUIRED") for c in v12.expected(clause, way))
    assert result.exit_code == (1 if must else 0)


class _Fixed:
    """A stand-in for hypothesis' data object: the first choice of every draw."""

    def draw(self, strategy):
        return 0 if "integers" in repr(strategy) else "api.example.test"


def test_a_valid_record_as_a_txt_target_is_full() -> None:
    report = quiet_run(f"{DRAFT}@v1.2", "txt:" + BASE).report
    assert failing(report) == set()


def test_the_fallback_json_rules() -> None:
    from conformance.aid.v1_2.test_E_well_known import fallback_problems

    good = b'{"v": "aid1", "u": "https://api.example.test/mcp", "p": "mcp", "a": "pat", "s": "Notes"}'
    assert fallback_problems(good) == []
    assert fallback_problems(b'{"version": "aid1", "uri": "https://a.test/mcp", "proto": "mcp"}') == []
    assert any("not JSON" in p for p in fallback_problems(b"<html>"))
    assert any("list" in p for p in fallback_problems(b'[{"v": "aid1"}]'))
    assert any("int" in p for p in fallback_problems(b'{"v": "aid1", "u": "https://a.test/", "p": "mcp", "s": 1}'))
    assert any("AID-2.1-35" in p for p in fallback_problems(b'{"v": "aid1", "p": "mcp"}'))
    assert any("AID-2.1-31" in p for p in fallback_problems(b'{"v": "aid1", "u": "https://a.test/", "uri": "https://a.test/", "p": "mcp"}'))


def test_the_record_length_variants_are_exact() -> None:
    sizes = {n: len("".join(m.dns["txt"]).encode("utf-8")) for n, m in MUTANTS.items() if "bytes" in n and m.dns.get("txt")}
    assert sizes["v12-record-255-bytes"] == 255 and sizes["v12-record-400-bytes"] == 400
    desc = {n: m.dns["txt"][0].split(";s=")[1] for n, m in MUTANTS.items() if n.startswith("v12-desc-")}
    assert len(desc["v12-desc-61-bytes"].encode()) == 61 and len(desc["v12-desc-multibyte"].encode()) == 63
