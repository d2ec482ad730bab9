"""The v2.1 client tests of topic "v2-pka" (PKA, domain binding, policy knobs, DNSSEC, local
execution, redirects: conformance/aid/v2_1/): the reference client passes them, and each broken
client of conformance/aid/versioned_variants/v2_pka.py fails exactly its clause."""

from __future__ import annotations

import tomllib

import pytest

from conformance.aid.versioned_variants import v2_pka
from conformance.world.site import fixtures_dir
from tests.conftest import assert_broken_client_fails_exactly_its_clause, outcomes, quiet_run

DECLARED = tomllib.loads((fixtures_dir("aid") / "client-mutants-versioned-v2-pka.toml").read_text("utf-8"))["mutants"]
CLAUSES = sorted({m["clause"] for m in DECLARED.values()})


def test_every_variant_is_declared_for_v2_1() -> None:
    assert set(DECLARED) == set(v2_pka.VARIANTS)
    assert {m["revision"] for m in DECLARED.values()} == {"v2.1"}


def test_the_reference_client_passes_the_topics_clauses() -> None:
    report = quiet_run("aid@v2.1", "builtin", roles=["client"], clauses=CLAUSES).report
    assert {cid: o for cid, o in outcomes(report).items() if o != "pass"} == {}
    assert set(outcomes(report)) == set(CLAUSES)


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(DECLARED))
def test_broken_client_fails_exactly_its_clause(name: str) -> None:
    assert_broken_client_fails_exactly_its_clause("aid", name, "client")
