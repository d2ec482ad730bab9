"""The aid suite's §2.2.3, §2.2.4, §4 (manifest), provider-profile and Appendix C clauses:
each mutant of fixtures/aid/mutants-auth.toml fails exactly its clause, the reference passes
them, and no report of a secret mutant shows the fake secret."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from conformance.resources import fixtures_dir
from conformance.world.site import load_mutants
from tests.conftest import failing, quiet_run

MUTANTS = load_mutants("aid")
OURS = sorted(tomllib.loads((fixtures_dir("aid") / "mutants-auth.toml").read_text("utf-8"))["mutants"])
CLAUSES = {MUTANTS[name].clause for name in OURS}
#: The fake secret each secret mutant plants (the part no redaction may let through), and a
#: neighbouring text of the manifest that the report's evidence does show.
SECRETS = {
    "secret-default-in-manifest": ("adckFAKEcredential0000", "Notes API key"),
    "secret-in-documentation-url": ("adck-fake-credential-0000", "Reference Notes Agent"),
    "credential-format-in-manifest": ("IOSFODNN7EXAMPLE", "Reference Notes Agent"),
}



def test_reference_passes_these_clauses() -> None:
    report = quiet_run("aid", "builtin").report
    outcomes = {r.clause: r.outcome for r in report.results if r.clause in CLAUSES}
    assert set(outcomes) == CLAUSES
    assert {c: o for c, o in outcomes.items() if o not in ("pass", "not-applicable")} == {}


@pytest.mark.parametrize("name", OURS)
def test_mutant_fails_exactly_its_clause(name: str) -> None:
    mutant = MUTANTS[name]
    report = quiet_run("aid", f"builtin:{name}").report
    assert failing(report) == {mutant.clause} | set(mutant.also_fails), [
        (r.clause, r.message) for r in report.results if r.outcome in ("fail", "error")]


def test_every_clause_has_a_clean_mutant() -> None:
    assert {MUTANTS[n].clause for n in OURS if not MUTANTS[n].also_fails} == CLAUSES


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_secret_mutant_reports_hold_no_secret(name: str, tmp_path: Path) -> None:
    secret, shown = SECRETS[name]
    assert secret in (fixtures_dir("aid") / "mutants-auth.toml").read_text("utf-8")
    result = quiet_run("aid", f"builtin:{name}", report_dir=tmp_path)
    assert failing(result.report) == {"AID-4-08"}
    texts = {p.name: p.read_text("utf-8", errors="replace") for p in tmp_path.rglob("*") if p.is_file()}
    assert "report.json" in texts and shown in texts["report.json"], "the manifest is in the evidence"
    assert [n for n, t in texts.items() if secret in t] == []
