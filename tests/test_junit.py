"""junit.xml agrees with the exit status: a SHOULD that failed is skipped (with properties saying
it failed) unless ``--fail-on should``, which makes it a failure and the exit status 1; a MUST
failure is always a failure; the suite's counts are those of its cases; names are cut at a word.

Most checks render Report objects built here (no run); two runs of the cheap SHOULD mutant
``builtin:no-charset`` (it fails AIE-2.3-02 and nothing else) prove the CLI wiring."""

from __future__ import annotations

import contextlib
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance import cli
from conformance.reports.junit import to_junit
from conformance.reports.model import ClauseResult, Report, summarize

LONG = ("The AI Discovery Document MUST be served with the media type application/json and the "
        "charset parameter, whichever the server prefers")


def _r(cid: str, level: str, outcome: str, reason: str | None = None, text: str = "the clause") -> ClauseResult:
    return ClauseResult(clause=cid, section="2.3", level=level, keyword=level, role="publisher", text=text,
                        outcome=outcome, message=f"{cid} observed <&> \"this\"", untestable_reason=reason,
                        replay=None if outcome == "pass" else f"adck run x --clause {cid}")


def _report(fail_on: str) -> Report:
    results = [_r("M-PASS", "MUST", "pass", text=LONG), _r("M-FAIL", "MUST", "fail"), _r("S-FAIL", "SHOULD", "fail"),
               _r("S-ERR", "SHOULD", "error"), _r("M-UNCH", "MUST", "untestable", "prerequisite"),
               _r("M-UNOBS", "MUST", "untestable", "not-observable"), _r("M-NA", "MUST", "not-applicable"),
               _r("Y-FAIL", "MAY", "fail"), _r("S-PASS", "SHOULD", "pass")]
    return Report(kit={"name": "adck", "version": "0"}, draft={"short": "aiendpoint", "id": "d", "title": "t"},
                  target={"spec": "builtin:x"}, roles=["publisher"], seed=1, requests_sent=0, started_at="",
                  duration_s=0.5, command="adck run", summary=summarize(results, fail_on=fail_on),
                  results=results, coverage={}, ambiguities=[])


def _cases(xml: str) -> tuple[ET.Element, dict[str, ET.Element]]:
    suite = ET.fromstring(xml.encode("utf-8"))
    return suite, {c.find("properties/property[@name='clause']").get("value"): c for c in suite.iter("testcase")}


def _kind(case: ET.Element) -> str | None:
    return next((el.tag for el in case if el.tag in ("failure", "error", "skipped")), None)


@pytest.mark.parametrize("fail_on", ["must", "should"])
def test_the_suite_counts_are_those_of_its_cases(fail_on: str) -> None:
    suite, cases = _cases(to_junit(_report(fail_on)))
    kinds = [_kind(c) for c in cases.values()]
    assert suite.get("tests") == str(len(cases)) == "9"
    for attr, kind in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
        assert suite.get(attr) == str(kinds.count(kind)), attr


def test_by_default_a_should_failure_is_skipped_with_properties_saying_it_failed() -> None:
    report = _report("must")
    suite, cases = _cases(to_junit(report))
    assert report.summary.exit_status == 1  # M-FAIL
    kinds = {cid: _kind(c) for cid, c in cases.items()}
    assert kinds == {"M-PASS": None, "M-FAIL": "failure", "S-FAIL": "skipped", "S-ERR": "skipped",
                     "M-UNCH": "skipped", "M-UNOBS": "skipped", "M-NA": "skipped", "Y-FAIL": "skipped",
                     "S-PASS": None}
    assert cases["S-FAIL"].find("skipped").get("message") == (
        'SHOULD failed (not failing the run: --fail-on must): S-FAIL observed <&> "this"')
    props = {p.get("name"): p.get("value") for p in cases["S-FAIL"].iter("property")}
    assert props["keyword"] == "SHOULD" and props["outcome"] == "fail"
    assert cases["M-FAIL"].find("failure").get("type") == "MUST"
    assert cases["M-UNCH"].find("skipped").get("message").startswith("untestable (a prerequisite failed")
    assert cases["M-UNOBS"].find("skipped").get("message").startswith("untestable (not observable")
    assert cases["M-NA"].find("skipped").get("message").startswith("not-applicable:")
    suite_props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert suite_props["fail_on"] == "must" and suite_props["exit_status"] == "1"


def test_with_fail_on_should_a_should_failure_is_a_failure() -> None:
    report = _report("should")
    _, cases = _cases(to_junit(report))
    assert _kind(cases["S-FAIL"]) == "failure" and _kind(cases["S-ERR"]) == "error"
    assert _kind(cases["M-FAIL"]) == "failure" and _kind(cases["Y-FAIL"]) == "skipped"
    assert report.summary.blocking == ["M-FAIL", "S-FAIL", "S-ERR", "M-UNCH"]


def test_case_names_are_cut_at_a_word() -> None:
    _, cases = _cases(to_junit(_report("must")))
    name = cases["M-PASS"].get("name")
    head = name.removeprefix("M-PASS [MUST] ")
    assert head.endswith(" …") and LONG.startswith(head.removesuffix(" …"))
    assert LONG[len(head.removesuffix(" …"))] == " ", "cut at a word boundary"


def _cli(*argv: str) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return cli.main(list(argv))


@pytest.fixture(scope="module")
def should_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, Path]]:
    out = {}
    for fail_on in ("must", "should"):
        folder = tmp_path_factory.mktemp(fail_on)
        code = _cli("run", "aiendpoint", "--target", "builtin:no-charset", "--fail-on", fail_on,
                    "--report-dir", str(folder), "--format", "json,junit", "--seed", "9")
        out[fail_on] = (code, folder)
    return out


@pytest.mark.parametrize(("fail_on", "exit_status", "kind"), [("must", 0, "skipped"), ("should", 1, "failure")])
def test_a_should_mutant_under_each_policy(should_runs, fail_on: str, exit_status: int, kind: str) -> None:
    code, folder = should_runs[fail_on]
    assert code == exit_status
    data = json.loads((folder / "report.json").read_text("utf-8"))
    s = data["summary"]
    # the verdict is the same under both policies; only the exit status differs
    assert (s["level"], s["fail_on"], s["exit_status"]) == ("conformant", fail_on, exit_status)
    assert s["blocking"] == ([] if fail_on == "must" else ["AIE-2.3-02"])
    failed = next(r for r in data["results"] if r["clause"] == "AIE-2.3-02")
    assert failed["outcome"] == "fail"
    assert ("--fail-on should" in failed["replay"]) is (fail_on == "should")
    suite, cases = _cases((folder / "junit.xml").read_text("utf-8"))
    assert _kind(cases["AIE-2.3-02"]) == kind
    assert suite.get("failures") == ("0" if fail_on == "must" else "1")


def test_a_must_above_the_draft_level_judged_is_not_a_failure() -> None:
    """ADP: a D1 MUST that failed on a service that does not offer D1 (its row G does not apply)
    does not fail the run, nor the dashboard."""
    results = [_r("A", "MUST", "pass"), _r("E", "MUST", "fail"), _r("G", "MUST", "not-applicable")]
    summary = summarize(results, draft_levels=(("D0", ("A",)), ("D1", ("E", "G"))), offered_by={"D1": "G"})
    assert (summary.draft_level, summary.exit_status) == ("D0", 0)
    report = _report("must")
    report.results, report.summary = results, summary
    suite, cases = _cases(to_junit(report))
    assert _kind(cases["E"]) == "skipped" and suite.get("failures") == "0"
    assert cases["E"].find("skipped").get("message").startswith("MUST failed (above the draft level the verdict judges)")


def test_a_run_that_exits_1_with_no_failed_clause_has_a_failing_case() -> None:
    """Exit 1 because MUST clauses went unchecked (a failed prerequisite, the budget, the deadline)
    while no clause was seen to fail: the dashboard must not be green while the job is red."""
    results = [_r("M-PASS", "MUST", "pass"), _r("M-UNCH", "MUST", "untestable", "prerequisite")]
    report = Report(kit={"name": "adck", "version": "0"}, draft={"short": "aiendpoint", "id": "d", "title": "t"},
                    target={"spec": "builtin:x"}, roles=["publisher"], seed=1, requests_sent=0, started_at="",
                    duration_s=0.5, command="adck run", summary=summarize(results), results=results,
                    coverage={}, ambiguities=[])
    assert report.summary.exit_status == 1
    suite = ET.fromstring(to_junit(report).encode("utf-8"))
    failures = [c for c in suite.iter("testcase") if c.find("failure") is not None]
    assert [c.get("classname") for c in failures] == ["aiendpoint.verdict"]
    assert "M-UNCH" in failures[0].find("failure").get("message")
    assert suite.get("failures") == "1" and suite.get("tests") == "3"
    # and a run that passes gets no such case
    ok = [_r("M-PASS", "MUST", "pass")]
    passing = Report(**{**report.__dict__, "summary": summarize(ok), "results": ok})
    assert ".verdict" not in to_junit(passing)
