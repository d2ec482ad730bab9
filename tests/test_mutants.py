"""The proof that every clause test can fail: the reference passes, each mutant fails exactly
its clause, and each conforming variant (an unusual but valid publisher) is not failed."""

from __future__ import annotations

import pytest

from conformance.world.site import load_mutants
from tests.conftest import every_revision, failing, quiet_run

DRAFT = "aiendpoint"
PROFILE = every_revision(DRAFT)
MUTANTS = load_mutants(DRAFT)
CONFORMING = load_mutants(DRAFT, "conforming")



#: Clauses a publisher without the /ai alias (the reference, since -01 calls it NOT RECOMMENDED)
#: leaves not applicable: the -00 identity of the alias, -01's alias and its identity (AMB-39).
ALIAS_CLAUSES = {"AIE-2.1-03", "AIE-2.1-06", "AIE-2.1-08"}


@pytest.mark.parametrize("judged", [f"{DRAFT}@00", f"{DRAFT}@01"])
def test_reference_passes_every_clause(judged: str) -> None:
    from conformance import revisions

    result = quiet_run(judged, "builtin")
    report = result.report
    assert result.exit_code == 0 and report.summary.level == "full"
    assert failing(report) == set()
    profile = revisions.profile_of(DRAFT, judged.split("@")[1])
    tested = {cid for cid, c in every_revision(DRAFT).coverage().items()
              if c.status == "tested" and c.clause.role in report.roles and cid in profile.clauses}
    outcomes = {r.clause: r.outcome for r in report.results}
    not_passed = {cid: outcomes.get(cid) for cid in tested if outcomes.get(cid) != "pass"}
    # the reference serves no /ai: the alias clauses of the revision are not applicable, no other
    assert not_passed == {cid: "not-applicable" for cid in tested & ALIAS_CLAUSES}, \
        f"the reference should pass every tested clause: {not_passed}"
    # one GET of /.well-known/ai and one of /ai (a 404) shared by all clauses, plus 6 varied
    # valid GETs (2.2-05: 4 generated, 2 explicit); no POST: /.well-known/ai answered GET (AMB-30)
    assert report.requests_sent == 8


def test_other_method_is_asked_only_when_get_fails() -> None:
    """When GET /.well-known/ai yields no document and its status names no clause, the kit
    asks once with POST (AMB-30): GET /.well-known/ai, GET /ai, POST /.well-known/ai."""
    report = quiet_run(DRAFT, "builtin:get-fails-post-serves").report
    assert report.requests_sent == 3
    get_405 = quiet_run(DRAFT, "builtin:get-not-allowed").report
    assert get_405.requests_sent == 2, "405 says why: no other method is tried"


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_fails_exactly_its_clause(name: str) -> None:
    mutant = MUTANTS[name]
    result = quiet_run(mutant.judged_as(DRAFT), f"builtin:{name}")
    report = result.report
    assert report is not None, "the kit must produce a report for a broken target"
    expected = {mutant.clause} | set(mutant.also_fails)
    assert failing(report) == expected, (
        f"{name} should fail {sorted(expected)}; failed {sorted(failing(report))}: "
        + "; ".join(f"{r.clause}: {r.message}" for r in report.results if r.outcome in ("fail", "error")))
    level = PROFILE.clause(mutant.clause).level
    must_failed = any(PROFILE.clause(c).level == "MUST" for c in expected)
    assert result.exit_code == (1 if must_failed else 0)
    assert report.summary.level == ("non-conformant" if must_failed else "conformant")
    if level == "SHOULD":
        assert report.summary.conformant
    result_of = {r.clause: r for r in report.results}[mutant.clause]
    assert result_of.replay and f"--clause {mutant.clause}" in result_of.replay


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CONFORMING))
def test_conforming_variant_is_not_failed(name: str) -> None:
    """Judged under every revision at once (``@all``): no MUST of any fails, and each reaches
    the level ``expect`` names (one level, or one per revision)."""
    variant = CONFORMING[name]
    report = quiet_run(f"{DRAFT}@all", f"builtin:{name}").report
    must_failed = [r.clause for r in report.results if r.level == "MUST" and r.outcome in ("fail", "error")]
    assert not must_failed, f"false fail on a conforming publisher: {must_failed}"
    expect = variant.expect if isinstance(variant.expect, dict) else {r["name"]: variant.expect for r in report.revisions}
    assert {r["name"]: r["level"] for r in report.revisions} == expect
    assert not any(r["must_unverified"] for r in report.revisions)


def test_every_tested_clause_has_a_clean_mutant() -> None:
    """No test is proven only by a variant that breaks several things at once."""
    from conformance import proofs

    agents = load_mutants(DRAFT, file="agent-mutants.toml")
    implied = proofs.implies(PROFILE)  # failing what the clause always implies is still failing it alone
    clean = {m.clause for m in [*MUTANTS.values(), *agents.values()]
             if set(m.also_fails) <= implied.get(m.clause, set())}
    tested = {cid for cid, c in PROFILE.coverage().items()
              if c.status == "tested" and c.clause.level in ("MUST", "SHOULD")}
    assert tested - clean == set(), f"tested clauses without a single-clause mutant: {sorted(tested - clean)}"


def test_mutant_declarations_are_sound() -> None:
    for m in MUTANTS.values():
        assert m.clause in PROFILE.clauses, f"{m.name} names unknown clause {m.clause}"
        for cid, why in m.also_fails.items():
            assert cid in PROFILE.clauses and len(why) > 15, f"{m.name}: also_fails {cid} needs a reason"
    for m in CONFORMING.values():
        levels = m.expect.values() if isinstance(m.expect, dict) else [m.expect]
        assert levels and set(levels) <= {"conformant", "full"}, f"{m.name}: expect must be conformant or full"
