"""The AID client role: the reference client passes every client clause, each broken client
fails exactly its clause, and the cmd: and python: paths give the same verdicts."""

from __future__ import annotations

import sys

import pytest

from conformance import catalog
from conformance.agent.aid_mutants import VARIANTS
from conformance.world.site import load_mutants
from tests.conftest import assert_broken_client_fails_exactly_its_clause, outcomes, quiet_run

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
    assert_broken_client_fails_exactly_its_clause(DRAFT, name, "client")


def test_cmd_and_python_paths_give_the_same_verdicts() -> None:
    in_process = quiet_run(DRAFT, IN_PROCESS, roles=["client"]).report
    as_process = quiet_run(DRAFT, AS_PROCESS, roles=["client"]).report
    assert outcomes(in_process) == outcomes(as_process)
