"""AID v2.1 records on their own (conformance/aid/v2_1/): every valid aid2 record the strategies
draw passes this folder's record tests, and every named break of conformance/aid/v2_1/records.py
fails exactly its clause; a few go through ``adck run aid@v2.1 --target txt:...`` end to end."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conformance.aid.v2_1 import records as R
from tests.conftest import failing, quiet_run

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.filter_too_much])
WAYS = [(cid, name) for cid, ways in R.WAYS.items() for name in ways]


@SETTINGS
@given(data=st.data())
def test_valid_records_pass(data: st.DataObject) -> None:
    text = data.draw(R.texts(data.draw(R.records())))
    assert R.failing(text) == set(), (text, R.judge(text))


@pytest.mark.parametrize(("clause", "way"), WAYS, ids=[f"{c}-{w}" for c, w in WAYS])
@SETTINGS
@given(data=st.data())
def test_named_break_fails_exactly_its_clause(clause: str, way: str, data: st.DataObject) -> None:
    pairs = data.draw(R.records())
    entry = R.WAYS[clause][way]
    if entry[1] is not None:  # a break of one protocol's record: make the drawn record that protocol's
        proto = entry[1]
        scheme = R.versioned.PROTOCOLS[proto][0]
        pairs = [(k, proto if R._is(k, "proto") else f"{scheme}://api.example.test/agent" if R._is(k, "uri") else v)
                 for k, v in pairs if not (proto in ("local", "zeroconf") and R._is(k, "pka"))]
    assume(R.applies(entry, pairs))
    text = entry[2](pairs, data)
    assert R.failing(text) == {clause} | R.ALSO.get((clause, way), set()), (text, R.judge(text))


def test_every_document_clause_of_the_folder_has_two_ways() -> None:
    tested = {cid for cid, _fn in R.record_tests()}
    assert {cid: len(R.WAYS.get(cid, {})) for cid in tested if len(R.WAYS.get(cid, {})) < 2} == {}


#: End to end through txt: (document role): the reference's aid2 record, and one break per clause.
REFERENCE = "v=aid2;u=https://provider.adck.test/mcp;p=mcp;a=pat;k=oLS6HFtrVDfi2XCnW4-lq1baMT-TDNIDA0VooYR-WyU"
TXT_BREAKS = {
    "AID-2.1-47": REFERENCE + ";;s=Notes",
    "AID-2.1-55": REFERENCE.replace("v=aid2", "v=AID2"),
    "AID-2.1-60": REFERENCE.replace("a=pat", "a=oauth2_service"),
    "AID-2.1-62": REFERENCE + ";e=2027-01-01",
    "AID-2.1-64": REFERENCE + ";i=g1",
    "AID-3-23": REFERENCE + ";apikey=adck-fake-credential-0000",
    "AID-B.1-02": REFERENCE.replace("k=", "k=u"),
}


#: This folder's record clauses (the txt: runs judge others' clauses too, asserted elsewhere).
OURS = {cid for cid, _fn in R.record_tests()}


def test_reference_record_passes_as_txt_target() -> None:
    result = quiet_run("aid@v2.1", "txt:" + REFERENCE)
    assert result.report.roles == ["document"] and failing(result.report) & OURS == set()


@pytest.mark.mutants
@pytest.mark.parametrize("clause", sorted(TXT_BREAKS))
def test_record_break_as_txt_target_fails_its_clause(clause: str) -> None:
    report = quiet_run("aid@v2.1", "txt:" + TXT_BREAKS[clause]).report
    assert failing(report) & OURS == {clause}, [(r.clause, r.message) for r in report.failing()]
