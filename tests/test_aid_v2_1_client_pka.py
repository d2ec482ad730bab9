"""The v2.1 client tests of topic "v2-pka" (PKA, domain binding, policy knobs, DNSSEC, local
execution, redirects: conformance/aid/v2_1/): the reference client passes them, and each broken
client of conformance/aid/versioned_variants/v2_pka.py is declared (each one fails exactly its
clause: tests/test_aid_client_role.py walks every broken client of every revision)."""

from __future__ import annotations

import tomllib


from conformance.aid.versioned_variants import v2_pka
from conformance.world.site import fixtures_dir
from tests.conftest import outcomes, quiet_run

DECLARED = tomllib.loads((fixtures_dir("aid") / "client-mutants-versioned-v2-pka.toml").read_text("utf-8"))["mutants"]
CLAUSES = sorted({m["clause"] for m in DECLARED.values()})


def test_every_variant_is_declared_for_v2_1() -> None:
    assert set(DECLARED) == set(v2_pka.VARIANTS)
    assert {m["revision"] for m in DECLARED.values()} == {"v2.1"}


def test_the_reference_client_passes_the_topics_clauses() -> None:
    report = quiet_run("aid@v2.1", "builtin", roles=["client"], clauses=CLAUSES).report
    assert {cid: o for cid, o in outcomes(report).items() if o != "pass"} == {}
    assert set(outcomes(report)) == set(CLAUSES)
