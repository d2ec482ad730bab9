"""AID v2.1's own document and provider sentences (conformance/aid/v2_1/): the reference provider
passes them under aid@v2.1 (and stays full under aid@v1), and the variants of
fixtures/aid/mutants-v2.1.toml are pinned and name v2.1's clauses, two ways each (each one failing
exactly its clause, or a conforming one nothing: tests/test_aid_suite.py walks every aid variant)."""

from __future__ import annotations

import tomllib

from conformance import catalog, revisions
from conformance.resources import fixtures_dir
from conformance.world.site import load_mutants
from tests.conftest import failing, quiet_run

DRAFT = "aid"
FILE = "mutants-v2.1.toml"
OURS = tomllib.loads((fixtures_dir(DRAFT) / FILE).read_text("utf-8"))
MUTANTS = {n: m for n, m in load_mutants(DRAFT).items() if n in OURS.get("mutants", {})}
CONFORMING = {n: m for n, m in load_mutants(DRAFT, "conforming").items() if n in OURS.get("conforming", {})}
V21 = revisions.profile_of(DRAFT, "v2.1")
#: The modules of conformance/aid/v2_1/ these variants prove (the folder holds others' too).
MODULES = {"test_2_provider_record", "test_2_1_provider_format", "test_2_1_record_format", "test_3_provider_dnssec",
           "test_3_record_security", "test_4_provider_ttl", "test_7_2_record_protocols", "test_B_1_record_key",
           "test_C_wellknown_document"}
#: The clauses their tests are bound to.
TESTED = {cid for cid, names in catalog.suite_bindings(catalog.load(DRAFT).suite).items()
          if any(n.split("::")[0] in {f"v2_1.{m}" for m in MODULES} for n in names)}


def test_reference_passes_under_v2_1() -> None:
    result = quiet_run(f"{DRAFT}@v2.1", "builtin")
    report = result.report
    assert failing(report) == set(), [(r.clause, r.message) for r in report.failing()]
    outcomes = {r.clause: r.outcome for r in report.results}
    assert {cid: outcomes.get(cid) for cid in TESTED if outcomes.get(cid) not in ("pass", "not-applicable")} == {}
    assert result.exit_code == 0  # partial while v2.1 has untested sentences (PKA), never failing a MUST


def test_reference_stays_full_under_v1() -> None:
    result = quiet_run(f"{DRAFT}@v1", "builtin")
    assert result.exit_code == 0 and result.report.summary.level == "full"


def test_variants_are_pinned_and_name_v2_1_clauses() -> None:
    for name, m in {**MUTANTS, **CONFORMING}.items():
        assert m.revision == "v2.1", f"{name} should be pinned to v2.1"
        if m.clause:
            assert m.clause in TESTED and m.clause in V21.clauses, f"{name} names {m.clause}, no v2.1 test of this folder"


def test_each_tested_clause_has_two_variants() -> None:
    """Two ways each (a SHOULD and a MUST alike); the folder's clauses all have a variant."""
    tested_must_should = {cid for cid in TESTED if V21.clause(cid).level in ("MUST", "SHOULD")}
    count = {cid: sum(m.clause == cid for m in MUTANTS.values()) for cid in tested_must_should}
    assert {cid: n for cid, n in count.items() if n < 2} == {}
