"""Baselines: a listed failure does not fail the run but stays failed in the report (marked
expected, with its reason); a listed clause that passes is stale; an expired entry fails again;
a baseline the kit cannot use is exit 2 with one line. The round trip runs the cheap aiendpoint
targets (status-203 fails one MUST, AIE-2.2-05) a handful of times per session."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

from conformance import cli
from conformance.reports import baseline as bl
from conformance.reports import render
from conformance.reports.model import ClauseResult, exit_rule, summarize
from tests.conftest import quiet_run

CLAUSE = "AIE-2.2-05"  # what builtin:status-203 fails, and nothing else
REASON = "our CDN rewrites 200 to 203; fix tracked in OPS-1"


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("baseline")


@pytest.fixture(scope="module")
def failing_report(folder: Path) -> Path:
    """The report.json of a run that fails one MUST (exit 1)."""
    result = quiet_run("aiendpoint", "builtin:status-203", report_dir=folder / "plain", formats=["json"], seed=3)
    assert result.exit_code == 1 and [r.clause for r in result.report.failing()] == [CLAUSE]
    return folder / "plain" / "report.json"


@pytest.fixture(scope="module")
def written(failing_report: Path, folder: Path) -> Path:
    """``adck baseline --from report.json -o FILE``: the placeholder reason, as written."""
    out = folder / "written.toml"
    code, said, _ = _cli("baseline", "--from", str(failing_report), "-o", str(out))
    assert code == 0 and "1 entry" in said and "replace each reason" in said
    return out


def _edited(written: Path, folder: Path, name: str, expires: str | None = None) -> Path:
    text = written.read_text("utf-8").replace(bl.PLACEHOLDER, REASON)
    if expires:
        text = text.replace("# expires = YYYY-MM-DD", f"expires = {expires}")
    path = folder / name
    path.write_text(text, "utf-8")
    return path


@pytest.fixture(scope="module")
def expected_run(written: Path, folder: Path):
    """The failing target again, with the baseline: exit 0, the failure marked expected."""
    path = _edited(written, folder, "edited.toml", expires="2999-12-31")
    return quiet_run("aiendpoint", "builtin:status-203", baseline=path, report_dir=folder / "expected",
                     formats=["json", "junit", "md"], seed=3)


def test_the_written_baseline_lists_the_failure_and_its_placeholder_is_refused(written: Path) -> None:
    text = written.read_text("utf-8")
    assert f'clause = "{CLAUSE}"' in text and 'draft = "aiendpoint"' in text and bl.PLACEHOLDER in text
    assert text.count("[[expected]]") == 1
    with pytest.raises(bl.BaselineError, match="placeholder"):
        bl.load(written)


def test_a_placeholder_reason_is_exit_2_in_one_line(written: Path) -> None:
    code, _, err = _cli("run", "aiendpoint", "--target", "builtin", "--format", "", "--baseline", str(written))
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and "still the placeholder" in lines[0] and CLAUSE in lines[0]


def test_a_baselined_failure_exits_0_and_stays_failed_in_the_report(expected_run, folder: Path) -> None:
    result = expected_run
    assert result.exit_code == 0
    s = result.report.summary
    # the verdict is not softened: the MUST failed, the run is non-conformant
    assert (s.level, s.passed, s.conformant) == ("non-conformant", False, False)
    assert (s.blocking, s.expected_failures, s.exit_status) == ([], [CLAUSE], 0)
    r = next(r for r in result.report.results if r.clause == CLAUSE)
    assert r.outcome == "fail" and r.baseline == {"reason": REASON, "expires": "2999-12-31", "status": "expected"}
    assert render.headline(result.report) == "aiendpoint-01: non-conformant; 1 failure expected by the baseline"
    assert "(exit status 0; the verdict is unchanged: non-conformant)" in bl.lines(result.report)[0]
    data = json.loads((folder / "expected" / "report.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(render.schema()).validate(data)
    assert data["baseline"]["expected"] == [CLAUSE] and data["baseline"]["path"].endswith("edited.toml")
    assert data["baseline"]["entries"] == [{"clause": CLAUSE, "reason": REASON, "expires": "2999-12-31",
                                            "status": "expected"}]
    md = (folder / "expected" / "report.md").read_text("utf-8")
    assert "1 failure expected by the baseline" in md and f"Expected by the baseline (not failing the run): `{REASON}`" in md
    suite = ET.parse(folder / "expected" / "junit.xml").getroot()
    case = next(c for c in suite.iter("testcase") if c.get("name").startswith(CLAUSE))
    assert case.find("failure") is None and "expected by the baseline" in case.find("skipped").get("message")
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert props["outcome"] == "fail" and props["baseline"] == "expected" and props["baseline_reason"] == REASON
    assert suite.get("failures") == "0"


def test_a_baselined_clause_that_passes_is_stale(written: Path, folder: Path) -> None:
    path = _edited(written, folder, "stale.toml")
    # narrowed to the listed clause: a partial run, cheap, and the entry is as stale as in a whole one
    result = quiet_run("aiendpoint", "builtin", baseline=path, clauses=[CLAUSE], report_dir=folder / "stale",
                       formats=["json", "md"])
    assert result.exit_code == 0 and result.report.summary.level == "partial"
    assert result.report.baseline["stale"] == [CLAUSE] and result.report.baseline["expected"] == []
    console = Console(file=io.StringIO(), width=200)
    cli._print_baseline(result.report, console)
    said = console.file.getvalue()
    assert f"stale: {CLAUSE} now passes: remove it from the baseline" in said
    assert "1 baseline entry stale" in (folder / "stale" / "report.md").read_text("utf-8")
    assert render.headline(result.report).endswith("; 1 baseline entry stale (now passing)")


def test_an_expired_entry_fails_the_run_again(written: Path, folder: Path) -> None:
    path = _edited(written, folder, "expired.toml", expires="2020-01-31")
    result = quiet_run("aiendpoint", "builtin:status-203", baseline=path, clauses=[CLAUSE],
                       report_dir=folder / "expired", formats=["json", "junit"])
    assert result.exit_code == 1
    assert result.report.summary.blocking == [CLAUSE] and result.report.baseline["expired"] == [CLAUSE]
    assert any(f"{CLAUSE} fails again: its baseline entry expired on 2020-01-31" in line
               for line in bl.lines(result.report))
    suite = ET.parse(folder / "expired" / "junit.xml").getroot()
    failure = next(c for c in suite.iter("testcase") if c.get("name").startswith(CLAUSE)).find("failure")
    assert "expired on 2020-01-31" in failure.get("message") and suite.get("failures") == "1"


def test_an_unknown_clause_id_is_exit_2_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text('[[expected]]\nclause = "AIE-9.9-99"\nreason = "x"\n', "utf-8")
    code, _, err = _cli("run", "aiendpoint", "--target", "builtin", "--format", "", "--baseline", str(path))
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and "unknown clause id(s) AIE-9.9-99" in lines[0]


def test_a_malformed_baseline_is_exit_2_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text('[[expected]\nclause = "AIE-2.2-05"\n', "utf-8")
    code, _, err = _cli("run", "aiendpoint", "--target", "builtin", "--format", "", "--baseline", str(path))
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and "not valid TOML" in lines[0]


@pytest.mark.parametrize(("text", "words"), [
    ('[[expected]]\nclause = "A"\n', "reason is required"),
    ('[[expected]]\nclause = "A"\nreason = "  "\n', "reason is required"),
    ('[[expected]]\nreason = "r"\n', "clause is missing"),
    ('[[expected]]\nclause = "A"\nreason = "r"\nexpires = "31/12/2026"\n', "YYYY-MM-DD"),
    ('[[expected]]\nclause = "A"\nreason = "r"\nexpires = "2026-02-30"\n', "YYYY-MM-DD"),
    ('[[expected]]\nclause = "A"\nreason = "r"\nexpires = 2026-01-01T00:00:00Z\n', "not a date and time"),
    ('[[expected]]\nclause = "A"\nreason = "r"\nexpiry = 2026-01-01\n', "unknown key(s) expiry"),
    ('[[expected]]\nclause = "A"\nreason = "r"\n[[expected]]\nclause = "A"\nreason = "s"\n', "listed twice"),
    ('expected = "A"\n', "list of entries"),
    ('version = 2\n', "version 2"),
    ('exepcted = []\n', "unknown key(s) exepcted"),
])
def test_each_mistake_in_a_baseline_says_what_to_fix(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "b.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(bl.BaselineError, match=None) as caught:
        bl.load(path)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_json_baseline_reads_as_the_toml_one(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"draft": "aiendpoint", "expected": [
        {"clause": CLAUSE, "reason": REASON, "expires": "2026-12-31"}]}), "utf-8")
    assert bl.load(path).entries == (bl.Entry(CLAUSE, REASON, dt.date(2026, 12, 31)),)
    with pytest.raises(bl.BaselineError, match="not valid JSON"):
        (tmp_path / "c.json").write_text("{", "utf-8")
        bl.load(tmp_path / "c.json")


def test_a_baseline_of_another_draft_is_refused() -> None:
    base = bl.Baseline(path="b.toml", draft="aid", entries=())
    with pytest.raises(bl.BaselineError, match="is for aid, not aiendpoint"):
        bl.check(base, "aiendpoint", {CLAUSE})


def _r(cid: str, level: str, outcome: str, reason: str | None = None) -> ClauseResult:
    return ClauseResult(clause=cid, section="1", level=level, keyword=level, role="publisher", text="t",
                        outcome=outcome, message="m", untestable_reason=reason)


def test_an_entry_holds_through_its_expiry_day() -> None:
    base = bl.Baseline(path="b.toml", draft=None, entries=(bl.Entry("A", "r", dt.date(2026, 6, 30)),))
    waived, section = bl.apply(base, [_r("A", "MUST", "fail")], dt.date(2026, 6, 30))
    assert waived == {"A"} and section["expected"] == ["A"]
    waived, section = bl.apply(base, [_r("A", "MUST", "fail")], dt.date(2026, 7, 1))
    assert waived == set() and section["expired"] == ["A"]
    # a clause the run did not judge is neither stale nor expected
    waived, section = bl.apply(base, [_r("A", "MUST", "not-applicable")], dt.date(2026, 6, 1))
    assert waived == set() and section["not_checked"] == ["A"]


def test_the_exit_rule() -> None:
    results = [_r("M", "MUST", "pass"), _r("S", "SHOULD", "fail"), _r("Y", "MAY", "fail")]
    assert exit_rule(results, complete=True) == (0, [])
    assert exit_rule(results, complete=True, fail_on="should") == (1, ["S"])
    assert exit_rule(results, complete=True, fail_on="should", waived={"S"}) == (0, [])
    assert exit_rule(results, complete=False) == (1, [])
    unchecked = [_r("M", "MUST", "untestable", "prerequisite"), _r("N", "MUST", "untestable", "not-observable")]
    assert exit_rule(unchecked, complete=True) == (1, ["M"])
    assert exit_rule(unchecked, complete=True, not_judged=True) == (2, [])
    # the baseline waives the exit status, never the verdict
    s = summarize([_r("M", "MUST", "fail"), _r("P", "MUST", "pass")], waived={"M"})
    assert (s.level, s.passed, s.exit_status, s.expected_failures) == ("non-conformant", False, 0, ["M"])


def test_baseline_from_report_options(failing_report: Path, folder: Path) -> None:
    code, out, _ = _cli("baseline", "--from", str(failing_report), "--reason", REASON)
    assert code == 0 and f'reason = "{REASON}"' in out
    path = folder / "given.toml"
    path.write_text(out, "utf-8")
    assert bl.load(path).entries == (bl.Entry(CLAUSE, REASON, None),)
    # an existing baseline is not overwritten (its reasons would be lost) unless --force
    code, _, err = _cli("baseline", "--from", str(failing_report), "-o", str(path))
    assert code == 2 and "--force" in err and path.read_text("utf-8") == out
    code, _, err = _cli("baseline", "--from", str(path))
    assert code == 2 and "report.json" in err and len(err.strip().splitlines()) == 1


def test_reasons_are_written_as_toml_strings_whatever_they_hold(tmp_path: Path) -> None:
    reason = 'quote " backslash \\ tab\t newline\n del\x7f é 😀'
    text = bl.from_report({"draft": {"short": "aiendpoint"}, "results": [
        {"clause": CLAUSE, "outcome": "fail", "keyword": "MUST", "message": "a\nb"}]}, reason=reason)
    path = tmp_path / "b.toml"
    path.write_text(text, "utf-8")
    assert bl.load(path).entries[0].reason == reason.strip()
