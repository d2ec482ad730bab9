"""Exit statuses that mean what the README says (issue 18): 0 only when every MUST the target
offers passed; a clause the run's own choices left unchecked narrows the run, never fails it."""

from __future__ import annotations

from tests.conftest import quiet_run


def test_a_perfect_client_in_the_respx_world_exits_0_and_says_what_that_world_cannot_show() -> None:
    """The respx world has no TLS, so the certificate clauses cannot be shown there: they are
    untestable as *narrowed* (the user's choice of world), the run is partial and names them,
    and a client that passed everything else exits 0 (it exited 1: "1 MUST unverified")."""
    result = quiet_run("aiendpoint", "builtin", roles=["agent"], world="respx")
    report = result.report
    narrowed = [r for r in report.results if r.untestable_reason == "narrowed"]
    assert narrowed and all(r.outcome == "untestable" and "real TLS" in r.message for r in narrowed)
    assert any(r.level == "MUST" for r in narrowed)
    assert result.exit_code == 0 and report.summary.level == "partial", report.summary
    assert report.summary.must_unverified == [] and report.summary.blocking == []
    assert any(r.clause in reason for r in narrowed for reason in report.summary.partial_reasons)


def test_a_failed_prerequisite_still_leaves_a_must_unverified_and_exits_1() -> None:
    """Narrowing is only for what the run's world cannot show: a MUST the target's own failure
    left unchecked still exits 1 (the budget case: every search spent)."""
    result = quiet_run("adp", "builtin", invoke_budget=10)
    assert result.exit_code == 1 and result.report.summary.must_unverified
