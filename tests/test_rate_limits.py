"""A 429 a server answers to the kit's own requests is a refusal the kit caused by how much it
asked: the clauses that would have been judged on it are *untestable* ("rate-limited"), never
failed and never passed (``conformance.plugin._rate_limited``), the run is partial and says why,
and a clause left untestable behind one (``(see CLAUSE)``) says so too. The clauses about rate
limiting themselves (``@clause(..., judges_rate_limits=True)``) keep judging the 429s.

Nothing here leaves loopback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.reports import junit, model
from tests.conftest import failing, quiet_run

SCHEMA = Path(__file__).resolve().parents[1] / "conformance" / "reports" / "report.schema.json"
#: The built-in variant of each draft that rate-limits the kit after a few requests.
RATE_LIMITED = {"woa": "rate-limited-invocations", "aidre": "rate-limited-searches", "adp": "rate-limited-discovery"}


def _limited(report) -> list:
    return [r for r in report.results if r.outcome == "untestable" and r.untestable_reason == "rate-limited"]


@pytest.mark.parametrize("draft", sorted(RATE_LIMITED))
def test_a_server_that_rate_limits_the_kit_is_partial_and_fails_nothing(draft: str) -> None:
    import jsonschema

    result = quiet_run(draft, f"builtin:{RATE_LIMITED[draft]}", seed=3)
    report = result.report
    assert failing(report) == set(), [(r.clause, r.message) for r in report.failing()]
    limited = _limited(report)
    assert limited and report.summary.level == "partial" and result.exit_code == 1
    for r in limited:
        assert r.message.startswith("rate-limited by the target: ") and "429 Too Many Requests" in r.message
        assert any(isinstance(e.get("response"), dict) and e["response"].get("status") == 429 for e in r.evidence), \
            f"{r.clause}: the 429 is its evidence"
    assert any("429 Too Many Requests" in why for why in report.summary.partial_reasons)
    assert not set(report.summary.must_unverified) & {r.clause for r in limited}, "a 429 is no failed prerequisite"
    # what the kit could still judge before the limit was reached is judged
    assert any(r.outcome == "pass" for r in report.results)
    jsonschema.validate(report.to_dict(), json.loads(SCHEMA.read_text("utf-8")))
    xml = junit.to_junit(report)
    assert "the target answered 429 to the kit" in xml


def test_the_clauses_about_rate_limiting_still_judge_the_429s() -> None:
    """builtin:rate-limited-no-fields rate-limits like builtin:rate-limited-searches but exposes
    no RateLimit field: AIDRE-21.1-02 fails on it, and nothing else does."""
    report = quiet_run("aidre", "builtin:rate-limited-no-fields", seed=3).report
    assert failing(report) == {"AIDRE-21.1-02"}
    fine = quiet_run("aidre", "builtin:rate-limited-searches", seed=3).report
    judged = {r.clause: r.outcome for r in fine.results}
    assert judged["AIDRE-21.1-02"] == "pass" and judged["AIDRE-15.4-11"] == "pass"


def test_a_clause_behind_a_kit_caused_refusal_says_why() -> None:
    """A clause untestable because a prerequisite it names could not be judged (credentials, a
    429) takes that reason: the fix is the same, and it is no failed prerequisite."""
    def result(clause: str, outcome: str, message: str) -> model.ClauseResult:
        return model.ClauseResult(clause=clause, section="1", level="MUST", keyword="MUST", role="server",
                                  text="", outcome=outcome, message=message,
                                  untestable_reason=model.untestable_reason(message) if outcome == "untestable" else None)

    results = model.inherit_kit_refusals([
        result("X-1-01", "untestable", "rate-limited by the target: POST https://x.test/s was answered 429 ..."),
        result("X-1-02", "untestable", "no search succeeded (see X-1-01)"),
        result("X-1-03", "untestable", "needs credentials (--header): GET https://x.test/c was answered 401 ..."),
        result("X-1-04", "untestable", "no chunk was read (see X-1-03)"),
        result("X-1-05", "fail", "the answer was wrong"),
        result("X-1-06", "untestable", "no answer to judge (see X-1-05)"),
    ])
    reasons = {r.clause: r.untestable_reason for r in results}
    assert reasons["X-1-02"] == "rate-limited" and reasons["X-1-04"] == "credentials"
    assert reasons["X-1-06"] == "prerequisite", "a failed prerequisite stays one"
    assert results[1].message.startswith("rate-limited by the target: its prerequisite X-1-01 was rate-limited: ")
    assert results[3].message.startswith("needs credentials (--header): its prerequisite X-1-03 needs credentials: ")
