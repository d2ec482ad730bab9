"""Hypothesis on AID records: valid records fail nothing however they are split into
character-strings (2.3: clients concatenate them), and each named break fails exactly its clause.

The strategies and the named breaks are in conformance/aid/records.py; every (clause, way)
pair runs on its own, through the suite's own record tests (conformance.aid.oracle)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conformance.aid import strategies
from conformance.aid.oracle import failing, judge, record_tests
from conformance.aid.records import WAYS, applies, break_record, records, split, text_of


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


PAIRS = [(clause, way) for clause, ways in sorted(WAYS.items()) for way in ways]


def test_named_breaks_are_the_ways() -> None:
    named = strategies.named_breaks()
    for clause, ways in WAYS.items():
        assert set(f"{clause}:{w}" for w in ways) <= set(named[clause])
    assert all(len(ways) >= 2 for ways in WAYS.values())


@pytest.mark.mutants
@pytest.mark.parametrize(("clause", "way"), PAIRS, ids=[f"{c}:{w}" for c, w in PAIRS])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_each_named_break_fails_exactly_its_clause(clause: str, way: str, data) -> None:
    pairs = data.draw(records())
    assume(applies(pairs, clause, way))
    broken = break_record(pairs, clause, way, data)
    strings = data.draw(split(broken))
    assert failing(strings) == {clause}, (clause, way, broken, judge(strings))
