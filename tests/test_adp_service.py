"""The ADP discovery service role: the reference service passes every tested service clause;
each broken variant fails exactly its clause; conforming variants are not failed; a run stays
within the default request budget."""

from __future__ import annotations

import shlex

import pytest

from conformance import catalog, cli
from conformance.reports import badge, html, render
from conformance.invoke import DEFAULT_BUDGET
from conformance.world.site import load_mutants
from tests.conftest import failing, quiet_run

DRAFT = "adp"
PROFILE = catalog.load(DRAFT)
MUTANTS = {n: m for n, m in load_mutants(DRAFT).items() if m.clause and PROFILE.clause(m.clause).role == "service"}
CONFORMING = {n: m for n, m in load_mutants(DRAFT, "conforming").items() if n in ("no-registration", "d0", "d1")}


def _levels() -> dict[str, str]:
    """Clause id -> the ADP level (D0, D1, D2) it belongs to (profile.toml)."""
    return PROFILE.draft_level_of()


def _tested_service_clauses() -> set[str]:
    return {cid for cid, c in PROFILE.coverage().items() if c.status == "tested" and c.clause.role == "service"}


def test_reference_service_passes_every_service_clause() -> None:
    result = quiet_run(DRAFT, "builtin")
    report = result.report
    assert result.exit_code == 0 and report.summary.level == "full", report.summary
    assert failing(report) == set()
    outcomes = {r.clause: r.outcome for r in report.results}
    not_passed = {cid: outcomes.get(cid) for cid in _tested_service_clauses() if outcomes.get(cid) != "pass"}
    assert not_passed == {}, f"the reference should pass every tested service clause: {not_passed}"
    # each distinct request once, shared by the clauses that judge them; well within the budget
    assert 40 <= report.requests_sent <= DEFAULT_BUDGET, report.requests_sent


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_service_mutant_fails_exactly_its_clause(name: str) -> None:
    mutant = MUTANTS[name]
    result = quiet_run(DRAFT, f"builtin:{name}")
    report = result.report
    assert report is not None
    expected = {mutant.clause} | set(mutant.also_fails)
    assert failing(report) == expected, (
        f"{name} should fail {sorted(expected)}; failed {sorted(failing(report))}: "
        + "; ".join(f"{r.clause}: {r.message}" for r in report.results if r.outcome in ("fail", "error")))
    # the exit status follows the verdict (which the report model derives, naming the highest
    # ADP level met): 1 exactly when the run is non-conformant or partial
    assert result.exit_code == (1 if report.summary.level in ("non-conformant", "partial") else 0), report.summary
    result_of = {r.clause: r for r in report.results}[mutant.clause]
    assert result_of.replay and f"--clause {mutant.clause}" in result_of.replay
    assert result_of.evidence, "a failing clause shows the exchanges it judged"


#: Conforming services that settle a reading (fixtures/adp/mutants-readings.toml): each is an
#: implementation its sentence allows that an earlier reading failed; the clauses it must pass.
READINGS = load_mutants(DRAFT, "conforming", file="mutants-readings.toml")
READING_PASSES = {
    "timestamps-only": ["ADP-7.7-02"],
    "sequence-numbers": ["ADP-7.7-02"],
    "normalized-records": ["ADP-7.7-03", "ADP-4.9-01", "ADP-7.7-05", "ADP-9.1-01", "ADP-7.7-02"],
    "conditional-updates": ["ADP-7.7-04", "ADP-7.7-05", "ADP-7.7-02", "ADP-4.2-01"],
    "search-lag": ["ADP-4.2-01", "ADP-4.2-03", "ADP-7.7-04"],
    "minimal-without-provenance": ["ADP-7.8-02", "ADP-7.8-03", "ADP-10-07"],
    "unsupported-filters-as-pointers": ["ADP-5.2-02", "ADP-9.3-01", "ADP-10-09"],
    "evidence-as-snippets": ["ADP-3.3-03", "ADP-7.6-01"],
    "freshness-age-by-warning": ["ADP-4.9-02"],
    "minimal-with-requested-evidence": ["ADP-5.3-01"],
    "redaction-reason-member": ["ADP-7.5-04"],
    "lenient-requests": ["ADP-8-06", "ADP-8-07", "ADP-8-01"],
    "ties-shuffled": ["ADP-4.7-01", "ADP-4.7-02"],
    "tag-lists-capped": ["ADP-3.3-02", "ADP-5.2-01"],
    "broader-tags": ["ADP-5.2-01"],
    "limit-bounded": ["ADP-3.3-02", "ADP-5.1-21", "ADP-5.2-01", "ADP-5.1-22"],
}


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(READINGS))
def test_a_conforming_reading_variant_fails_nothing(name: str) -> None:
    """A service the draft allows is failed by no clause, reaches its `expect`, and passes the
    clauses whose reading it settles (an earlier reading failed it there)."""
    variant = READINGS[name]
    result = quiet_run(DRAFT, f"builtin:{name}")
    report = result.report
    assert failing(report) == set(), [f"{r.clause}: {r.message}" for r in report.failing()]
    assert report.summary.level == variant.expect, (report.summary.level, report.summary.partial_reasons)
    outcomes = {r.clause: r for r in report.results}
    assert name in READING_PASSES, f"say which clauses {name} settles"
    for cid in READING_PASSES[name]:
        assert outcomes[cid].outcome == "pass", (cid, outcomes[cid].outcome, outcomes[cid].message)


def test_service_without_registration_is_full_with_registration_clauses_not_applicable() -> None:
    report = quiet_run(DRAFT, "builtin:no-registration").report
    assert failing(report) == set(), [f"{r.clause}: {r.message}" for r in report.failing()]
    assert report.summary.level == CONFORMING["no-registration"].expect
    outcomes = {r.clause: r for r in report.results}
    for cid in ("ADP-4.1-26", "ADP-4.2-03", "ADP-7.7-03", "ADP-7.7-04", "ADP-7.7-05", "ADP-9.1-01", "ADP-7.5-03",
                "ADP-7.3-01"):
        assert outcomes[cid].outcome == "not-applicable", (cid, outcomes[cid].outcome)
        assert "registration" in outcomes[cid].message


@pytest.mark.parametrize("name", ["d0", "d1"])
def test_lower_level_service_meets_its_level_and_higher_ones_are_not_offered(name: str) -> None:
    """builtin:d1 answers with filters and ranking but no evidence, freshness or score
    components; builtin:d0 serves and takes metadata but answers no Discovery Request. Every
    clause of its own level (and below) it is judged on passes; the level above is not offered
    (its row does not apply), so none of that level's clauses counts: no failure in any format,
    exit 0, and the verdict names its level."""
    expect = CONFORMING[name].expect
    result = quiet_run(DRAFT, f"builtin:{name}")
    report = result.report
    levels = _levels()
    assert failing(report) == set(), [f"{r.clause}: {r.message}" for r in report.failing()]
    row = next(r for r in report.results if r.clause == ("ADP-3.3-03" if name == "d1" else "ADP-3.3-02"))
    words = "not shown" if name == "d1" else "not found at POST https://adp.adck.test/discover (404)"
    assert row.outcome == "not-applicable" and row.message.startswith(words), row
    above = [r for r in report.results if levels.get(r.clause, "D0") > expect]
    assert above and all(r.outcome == "not-applicable" or r.untestable_reason == "not-observable" for r in above), \
        [(r.clause, r.outcome) for r in above if r.outcome != "not-applicable"]
    assert report.summary.draft_level == expect, report.summary
    assert report.summary.level == "full" and result.exit_code == 0, report.summary
    assert render.headline(report).startswith(f"adp-00: {expect} full (D{int(expect[1]) + 1} {words}")


@pytest.mark.parametrize("name", ["rank-shuffled", "filters-refused", "no-score-components"])
def test_a_level_the_service_offers_and_breaks_fails_the_run_and_its_replay(name: str) -> None:
    """Issue 18: a service that answers Discovery Requests offers D1 (one that returns evidence
    offers D2): a MUST of that level it breaks fails the run (exit 1, non-conformant, in every
    format), and the replay printed for it says the same."""
    result = quiet_run(DRAFT, f"builtin:{name}")
    report = result.report
    clause = MUTANTS[name].clause
    assert result.exit_code == 1 and report.summary.level == "non-conformant", report.summary
    assert clause in report.summary.blocking
    assert not report.summary.draft_level or report.summary.draft_level < _levels()[clause]
    # every rendering says what the exit status says: no green level over a red MUST failure
    assert render.headline(report).startswith("adp-00: non-conformant (D"), render.headline(report)
    assert 'class="verdict tone-non-conformant"' in html.to_html(report)
    assert "non-conformant" in badge.to_badge(report)
    replay = next(r.replay for r in report.results if r.clause == clause)
    argv = shlex.split(replay)
    assert argv[:2] == ["adck", "run"] and "--clause" in argv
    code = cli.main(argv[1:] + ["--format", ""])
    assert code == 1, f"the replay {replay!r} exits {code}"
    again = quiet_run(DRAFT, f"builtin:{name}", clauses=[clause]).report
    assert [(r.clause, r.outcome) for r in again.results] == [(clause, "fail")]
    assert again.summary.level == "non-conformant", again.summary.partial_reasons
    assert not any("no clause" in why for why in again.summary.partial_reasons), again.summary.partial_reasons


def test_mutant_declarations_are_sound() -> None:
    for m in MUTANTS.values():
        assert m.clause in PROFILE.clauses, f"{m.name} names unknown clause {m.clause}"
        for cid, why in m.also_fails.items():
            assert cid in PROFILE.clauses and len(why) > 15, f"{m.name}: also_fails {cid} needs a reason"
    tested = _tested_service_clauses()
    for m in MUTANTS.values():
        assert m.clause in tested, f"{m.name} breaks {m.clause}, which no service test checks"


def test_request_budget_leaves_the_rest_untestable() -> None:
    """--request-budget bounds the Discovery Requests of a run; what it no longer covers is
    untestable, never passed, and the run is partial."""
    result = quiet_run(DRAFT, "builtin", invoke_budget=10)
    report = result.report
    spent = [r for r in report.results if r.outcome == "untestable" and "budget" in r.message]
    assert spent and report.summary.level == "partial" and result.exit_code == 1


def test_binding_override_moves_the_requests() -> None:
    """--binding discover=PATH sends Discovery Requests there: the reference serves none at
    /v1/discover, so the run sees a service that answers no Discovery Request (at most D0), and
    the report names the binding it assumed."""
    result = quiet_run(DRAFT, "builtin", binding=["discover=/v1/discover"])
    report = result.report
    assert report.summary.draft_level == "D0"
    assert any("discover /v1/discover" in note for note in report.target.get("notes", [])), report.target
    row = next(r for r in report.results if r.clause == "ADP-3.3-02")
    assert row.outcome == "not-applicable" and "/v1/discover" in row.message, row


@pytest.mark.parametrize(("binding", "words"), [
    ("nope=/x", "NAME one of discover, agent"),
    ("agent=/agents", "must hold {id}"),
    ("discover=v1/discover", "absolute path"),
])
def test_a_wrong_binding_is_a_usage_error(binding: str, words: str) -> None:
    result = quiet_run(DRAFT, "builtin", binding=[binding])
    assert result.exit_code == 2 and words in (result.error or ""), result.error
