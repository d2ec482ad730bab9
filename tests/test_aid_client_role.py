"""The AID client role: the reference client passes every client clause, each broken client
fails exactly its clause, and the cmd: and python: paths give the same verdicts."""

from __future__ import annotations

import sys

import pytest

from conformance import catalog
from conformance.agent.aid_mutants import VARIANTS
from conformance.world.site import load_mutants
from tests.conftest import failing, outcomes, quiet_run

DRAFT = "aid"
PROFILE = catalog.load(DRAFT)
CLIENT_MUTANTS = load_mutants(DRAFT, file="client-mutants.toml")
IN_PROCESS = "python:conformance.agent.aid_adapter:handle"
AS_PROCESS = f"cmd:{sys.executable} -m conformance.agent.aid_adapter"


def _tested_client_clauses() -> set[str]:
    return {cid for cid, c in PROFILE.coverage().items() if c.status == "tested" and c.clause.role == "client"}


def test_reference_client_passes_every_client_clause() -> None:
    result = quiet_run(DRAFT, "builtin", roles=["client"])
    report = result.report
    assert report.roles == ["client"]
    tested = _tested_client_clauses()
    assert {cid: o for cid, o in outcomes(report).items() if cid in tested and o != "pass"} == {}
    assert result.exit_code == 0 and report.summary.level == "full"
    adapter = report.target["adapter"]
    assert adapter["protocol"] == "adck-harness/1" and adapter["steps"] >= len(tested)
    assert adapter["client_dns_queries"] > 0


def test_every_client_variant_is_declared() -> None:
    assert set(CLIENT_MUTANTS) == set(VARIANTS)
    assert any(m.via == "cmd" for m in CLIENT_MUTANTS.values()), "one variant runs through the cmd: path"


def test_every_tested_client_clause_has_a_mutant() -> None:
    proven = {m.clause for m in CLIENT_MUTANTS.values()}
    assert _tested_client_clauses() - proven == set()


@pytest.mark.parametrize("name", sorted(CLIENT_MUTANTS))
def test_client_mutant_fails_exactly_its_clause(name: str) -> None:
    mutant = CLIENT_MUTANTS[name]
    result = quiet_run(DRAFT, f"builtin:{name}", roles=["client"])
    report = result.report
    assert failing(report) == {mutant.clause} | set(mutant.also_fails), (
        f"{name}: " + "; ".join(f"{r.clause} {r.outcome}: {r.message}" for r in report.results
                                if r.outcome in ("fail", "error")))
    assert result.exit_code == (1 if PROFILE.clause(mutant.clause).level == "MUST" else 0)
    failed = next(r for r in report.results if r.clause == mutant.clause)
    kinds = {next(iter(ev)) for ev in failed.evidence}
    assert "harness" in kinds, "a failing client clause shows the step the kit sent and the reply"


def test_cmd_and_python_paths_give_the_same_verdicts() -> None:
    in_process = quiet_run(DRAFT, IN_PROCESS, roles=["client"]).report
    as_process = quiet_run(DRAFT, AS_PROCESS, roles=["client"]).report
    assert outcomes(in_process) == outcomes(as_process)
