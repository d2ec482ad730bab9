"""The badges say what was checked: draft and revision, roles, verdict (the draft's own level for
ADP), day; a partial run is grey and says partial. Built from Report objects, no run."""

from __future__ import annotations

import json
import re

import pytest

from conformance.reports import badge, render
from conformance.reports.model import ClauseResult, Report, summarize

_ADP = "draft-xu-efficient-agent-discovery-profile-00"
_LEVELS = (("D0", ("A", "B")), ("D1", ("C",)), ("D2", ("D",)))


def _r(cid: str, outcome: str, level: str = "MUST") -> ClauseResult:
    return ClauseResult(clause=cid, section="4.1", level=level, keyword=level, role="service", text="t",
                        outcome=outcome, message="", untestable_reason="prerequisite" if outcome == "untestable" else None)


def _report(results, *, short="aiendpoint", draft_id="draft-aiendpoint-ai-discovery-00",
            roles=("publisher", "document"), partial=False, levels=()) -> Report:
    reasons = ["--clause AIE-3.1-01"] if partial else []
    return Report(kit={"name": "adck", "version": "0"}, draft={"short": short, "id": draft_id, "title": "t"},
                  target={"spec": "builtin"}, roles=list(roles), seed=1, requests_sent=2,
                  started_at="2026-11-23T19:10:10+00:00", duration_s=1.0, command="adck run",
                  summary=summarize(results, partial_reasons=reasons, draft_levels=levels,
                                    offered_by={"D1": "C", "D2": "D"} if levels else None),
                  results=results, coverage={}, ambiguities=[])


def _svg_text(svg: str) -> str:
    """The words the SVG shows (its <text> elements), and the fill of the message's box."""
    return " | ".join(dict.fromkeys(re.findall(r"<text[^>]*>([^<]*)</text>", svg)))


def test_a_full_run_names_draft_revision_roles_and_day() -> None:
    report = _report([_r("A", "pass"), _r("B", "pass", "SHOULD")])
    label, message, color = badge.parts(report)
    assert (label, color) == ("adck aiendpoint-00", "brightgreen")
    assert message == "full · publisher, document · 2026-11-23"
    shown = _svg_text(badge.to_badge(report))
    assert "adck aiendpoint-00" in shown and "full · publisher, document · 2026-11-23" in shown
    assert badge.SVG_COLOR["brightgreen"] in badge.to_badge(report)


def test_a_non_conformant_run_is_red() -> None:
    report = _report([_r("A", "fail"), _r("B", "pass")])
    _, message, color = badge.parts(report)
    assert message.startswith("non-conformant · ") and color == "red"
    assert badge.SVG_COLOR["red"] in badge.to_badge(report)


def test_a_partial_run_is_grey_and_says_partial() -> None:
    report = _report([_r("A", "pass")], partial=True)
    assert report.summary.partial and report.summary.level == "partial"
    _, message, color = badge.parts(report)
    assert message.startswith("partial · ") and color == "lightgrey"
    svg = badge.to_badge(report)
    assert "partial" in _svg_text(svg) and badge.SVG_COLOR["lightgrey"] in svg
    for claim in ("full", "conformant"):
        assert not re.search(rf"(?<!non-){claim}", _svg_text(svg)), f"a partial run's badge claims {claim}"


def test_a_partial_run_that_saw_a_must_fail_says_both() -> None:
    """A failed MUST proves non-conformance even in a partial run: it says so, and partial, in grey."""
    _, message, color = badge.parts(_report([_r("A", "fail")], partial=True))
    assert message.startswith("non-conformant (partial run)") and color == "lightgrey"


@pytest.mark.parametrize(("outcomes", "words"), [
    ({"A": "pass", "B": "pass", "C": "pass", "D": "not-applicable"}, "D1 full"),
    ({"A": "pass", "B": "pass", "C": "pass", "D": "fail"}, "non-conformant"),
    ({"A": "pass", "B": "pass", "C": "pass", "D": "pass"}, "D2 full"),
    ({"A": "pass", "B": "fail", "C": "pass", "D": "pass"}, "non-conformant"),
])
def test_adp_names_the_level_met(outcomes: dict, words: str) -> None:
    results = [_r(c, o) for c, o in outcomes.items()]
    report = _report(results, short="adp", draft_id=_ADP, roles=("service", "document"), levels=_LEVELS)
    label, message, _ = badge.parts(report)
    assert label == "adck adp-00"
    assert message == f"{words} · service, document · 2026-11-23"


@pytest.mark.parametrize(("short", "draft_id", "tag"), [
    ("adp", _ADP, "adp-00"), ("woa", "draft-gaikwad-woa-03", "woa-03"),
    ("aid", "aid-v1-2025-06-19", "aid v1"), ("x", "something", "x"),
])
def test_the_draft_tag_is_short_and_keeps_the_revision(short: str, draft_id: str, tag: str) -> None:
    assert badge.draft_tag(_report([_r("A", "pass")], short=short, draft_id=draft_id)) == tag


def test_the_shields_endpoint_json_says_the_same(tmp_path) -> None:
    report = _report([_r("A", "pass")], partial=True)
    written = render.write(report, tmp_path, ["badge", "shields"])
    assert [p.name for p in written] == ["badge.svg", "badge.json"]
    data = json.loads((tmp_path / "badge.json").read_text("utf-8"))
    assert data == {"schemaVersion": 1, "label": "adck aiendpoint-00",
                    "message": "partial · publisher, document · 2026-11-23", "color": "lightgrey"}


def test_a_clause_run_names_only_the_roles_of_the_clauses_it_checked(tmp_path) -> None:
    """`adck run aiendpoint --target builtin:status-203 --clause AIE-2.2-05` checks one publisher
    clause: its badge names the publisher role, not the document and agent roles the target has."""
    from tests.conftest import quiet_run

    result = quiet_run("aiendpoint", "builtin:status-203", clauses=["AIE-2.2-05"], report_dir=tmp_path,
                       formats=["badge", "shields"])
    report = result.report
    assert report.summary.partial and {r.role for r in report.results} == {"publisher"}
    assert len(report.roles) > 1, "the target has more roles than the clause checked"
    data = json.loads((tmp_path / "badge.json").read_text("utf-8"))
    assert data["message"].split(" · ")[1] == "publisher", data["message"]
    shown = _svg_text((tmp_path / "badge.svg").read_text("utf-8"))
    assert all(role not in shown for role in set(report.roles) - {"publisher"}), shown
    # a partial run over two roles names both, in the report's order
    both = _report([ClauseResult(clause="X", section="1", level="MUST", keyword="MUST", role=role, text="t",
                                 outcome="pass", message="") for role in ("document", "publisher")], partial=True)
    assert badge.parts(both)[1].split(" · ")[1] == "publisher, document"


def test_a_run_of_several_revisions_names_the_newest_that_passed() -> None:
    """An agent that takes a document from /.well-known/ai-discovery after a 5xx breaks a sentence
    -01 added (AIE-2.1-09) and none of -00's: judged @all, the badge says what holds, -00 full, and
    never -01; when both pass it names -01; when none passes, the newest judged, red."""
    from tests.conftest import quiet_run

    older = quiet_run("aiendpoint@all", "builtin:accepts-suffix-after-server-error", roles=["agent"]).report
    assert [e["level"] for e in older.revisions] == ["full", "non-conformant"]
    assert badge.parts(older)[0] == "adck aiendpoint-00" and badge.parts(older)[1].startswith("full · agent")
    both = quiet_run("aiendpoint@all", "builtin").report
    assert badge.parts(both)[0] == "adck aiendpoint-01" and badge.parts(both)[2] == "brightgreen"
    none = quiet_run("aiendpoint@all", "builtin:alias-names-another-service").report
    assert badge.parts(none)[:3:2] == ("adck aiendpoint-01", "red")
