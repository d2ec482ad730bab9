"""The WoA client role: the reference client passes every client clause at level full, each
broken client fails exactly its clause, the conforming edge cases pass, and the cmd: and
python: paths give the same verdicts."""

from __future__ import annotations

import sys

import pytest

from conformance import catalog
from conformance.woa.variants import CONFORMING, VARIANTS
from conformance.world.site import load_mutants
from tests.conftest import assert_broken_client_fails_exactly_its_clause, failing, outcomes, quiet_run

DRAFT = "woa"
PROFILE = catalog.load(DRAFT)
CLIENT_MUTANTS = load_mutants(DRAFT, file="client-mutants.toml")
CLIENT_CONFORMING = load_mutants(DRAFT, "conforming", file="client-mutants.toml")
IN_PROCESS = "python:conformance.woa.adapter:handle"
AS_PROCESS = f"cmd:{sys.executable} -m conformance.woa.adapter"


def _tested_client_clauses() -> set[str]:
    return {cid for cid, c in PROFILE.coverage().items() if c.status == "tested" and c.clause.role == "client"}


@pytest.fixture(scope="module")
def reference_run():
    return quiet_run(DRAFT, "builtin", roles=["client"])


def test_reference_client_passes_every_client_clause(reference_run) -> None:
    report = reference_run.report
    assert report.roles == ["client"]
    tested = _tested_client_clauses()
    assert {cid: o for cid, o in outcomes(report).items() if cid in tested and o != "pass"} == {}
    assert reference_run.exit_code == 0 and report.summary.level == "full"
    adapter = report.target["adapter"]
    assert adapter["protocol"] == "adck-harness/1" and adapter["operations"] == ["woa.discover", "woa.invoke"]
    assert adapter["steps"] >= len(tested) and adapter["client_requests"] > 0


def test_every_client_variant_is_declared() -> None:
    assert set(CLIENT_MUTANTS) == set(VARIANTS)
    assert set(CLIENT_CONFORMING) == set(CONFORMING)
    assert any(m.via == "cmd" for m in CLIENT_MUTANTS.values()), "one variant runs through the cmd: path"


def test_every_tested_client_clause_has_two_mutants() -> None:
    proven: dict[str, int] = {}
    for m in CLIENT_MUTANTS.values():
        proven[m.clause] = proven.get(m.clause, 0) + 1
    assert {cid for cid in _tested_client_clauses() if proven.get(cid, 0) < 2} == set()


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CLIENT_MUTANTS))
def test_client_mutant_fails_exactly_its_clause(name: str) -> None:
    assert_broken_client_fails_exactly_its_clause(DRAFT, name, "client")


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CLIENT_CONFORMING))
def test_conforming_client_variant_passes(name: str) -> None:
    target = f"python:conformance.woa.variants.conforming:{name.replace('-', '_')}"
    result = quiet_run(DRAFT, target, roles=["client"])
    assert failing(result.report) == set(), {r.clause: r.message for r in result.report.failing()}
    assert result.report.summary.level == CLIENT_CONFORMING[name].expect


def test_cmd_and_python_paths_give_the_same_verdicts(reference_run) -> None:
    in_process = quiet_run(DRAFT, IN_PROCESS, roles=["client"]).report
    as_process = quiet_run(DRAFT, AS_PROCESS, roles=["client"]).report
    assert outcomes(in_process) == outcomes(as_process) == outcomes(reference_run.report)


def _adapter(tmp_path, reply: str, features: str = "[]") -> str:
    """A stdlib adapter that answers every step with ``reply`` (a Python expression using ``m``)."""
    import textwrap

    script = tmp_path / "adapter.py"
    script.write_text(textwrap.dedent(f'''
        import json, sys
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "stop":
                break
            if m["type"] == "hello":
                print(json.dumps({{"type": "hello", "protocol": "adck-harness/1", "client": {{"name": "toy"}},
                                  "operations": ["woa.discover", "woa.invoke"], "features": {features}}}), flush=True)
                continue
            print(json.dumps({reply}), flush=True)
    '''), encoding="utf-8")
    return f"cmd:{sys.executable} {script}"


def test_a_client_that_sends_nothing_passes_nothing(tmp_path) -> None:
    """A client that refuses every invocation and claims no features: the clauses judged on
    built inputs are not applicable; the others fail or are untestable (a control invocation
    comes first), never pass by silence."""
    target = _adapter(tmp_path, '{"type": "result", "id": m["id"], "outcome": "refused", "messages": []}')
    report = quiet_run(DRAFT, target, roles=["client"]).report
    got = {cid: o for cid, o in outcomes(report).items() if cid in _tested_client_clauses()}
    assert got["WOA-4.2-02"] == got["WOA-4.2-04"] == got["WOA-5.1-07"] == "not-applicable"
    assert got["WOA-3-02"] == "fail"
    assert {cid for cid, o in got.items() if o == "pass"} == set()
    assert not report.summary.conformant


#: The messages the kit sent through :func:`recording_handle`.
SENT: list[dict] = []


def recording_handle(message: dict):
    """The reference client in-process, keeping every message the kit sent."""
    from conformance.woa.adapter import handle

    SENT.append(message)
    return handle(message)


def test_the_harness_requests_follow_the_schema() -> None:
    """Every step the kit sends a WoA client validates against request.json (woa.discover,
    woa.invoke with and without input, network.resolve)."""
    from conformance.harness.adapters import schema

    SENT.clear()
    result = quiet_run(DRAFT, "python:tests.test_woa_client_role:recording_handle", roles=["client"])
    assert result.report.summary.level == "full"
    runs = [m for m in SENT if m.get("type") == "run"]
    assert {m["operation"] for m in runs} == {"woa.discover", "woa.invoke"}
    assert any("input" not in m["params"] for m in runs if m["operation"] == "woa.invoke")
    assert any("resolve" in m["params"]["network"] for m in runs)
    validator = schema("request")
    for message in SENT:
        assert not list(validator.iter_errors(message)), message
