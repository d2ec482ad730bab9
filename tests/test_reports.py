"""Reports: valid against their schema, readable, replayable, and free of secrets."""

from __future__ import annotations

import json
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from conformance import catalog, cli, redact
from conformance.reports import badge, render
from tests.conftest import quiet_run

PROFILE = catalog.load("aiendpoint")


@pytest.fixture(scope="module")
def mutant_reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reports")
    quiet_run("aiendpoint", "builtin:media-type-text-plain", report_dir=folder,
              formats=list(render.FORMATS), seed=1234)
    return folder


def test_every_format_is_written(mutant_reports: Path) -> None:
    for name in ("report.json", "junit.xml", "report.md", "report.html", "badge.svg"):
        assert (mutant_reports / name).stat().st_size > 100, name


def test_json_report_matches_its_schema_and_carries_the_run(mutant_reports: Path) -> None:
    data = json.loads((mutant_reports / "report.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(render.schema()).validate(data)
    assert data["seed"] == 1234 and data["requests_sent"] == 8
    assert data["summary"] == data["summary"] | {"conformant": False, "level": "non-conformant"}
    failed = [r for r in data["results"] if r["outcome"] == "fail"]
    assert [r["clause"] for r in failed] == ["AIE-2.3-01"]
    r = failed[0]
    assert r["section"] == "2.3" and r["level"] == "MUST" and r["role"] == "publisher"
    assert r["text"].startswith("The AI Discovery Document MUST be served with the media type")
    assert "text/plain" in r["message"]
    response = r["evidence"][0]["response"]
    assert response["status"] == 200
    assert ["content-type", "text/plain; charset=utf-8"] in response["headers"]
    assert response["body_excerpt"].startswith("{")
    assert r["replay"].endswith("--seed 1234 --clause AIE-2.3-01")


def test_junit_has_one_case_per_clause_and_the_failure(mutant_reports: Path) -> None:
    suite = ET.parse(mutant_reports / "junit.xml").getroot()
    cases = suite.findall("testcase")
    data = json.loads((mutant_reports / "report.json").read_text("utf-8"))
    assert len(cases) == len(data["results"]) and suite.get("failures") == "1"
    failures = [c for c in cases if c.find("failure") is not None]
    assert failures[0].get("name").startswith("AIE-2.3-01")
    assert "replay: adck run aiendpoint" in failures[0].find("failure").text


def test_markdown_reads_in_one_screen_then_details(mutant_reports: Path) -> None:
    md = (mutant_reports / "report.md").read_text("utf-8")
    head = md.split("## Failures")[0]
    assert "non-conformant" in head and len(head.splitlines()) < 25
    assert "> The AI Discovery Document MUST be served with the media type" in md
    assert "Replay: `adck run aiendpoint@01 --target builtin:media-type-text-plain" in md


def test_untestable_must_is_not_counted_as_pass(tmp_path: Path) -> None:
    report = quiet_run("aiendpoint", "builtin:requires-authentication").report
    assert not report.summary.conformant
    assert "AIE-3.1-01" in report.summary.must_unverified
    doc = {r.clause: r for r in report.results}["AIE-3.1-01"]
    assert doc.outcome == "untestable" and doc.untestable_reason == "prerequisite"
    assert "AIE-2.2-02" in doc.message, "an untestable clause names the clause that explains why"


def test_unobservable_clauses_are_reported_but_do_not_count() -> None:
    report = quiet_run("aiendpoint", "builtin").report
    r = {x.clause: x for x in report.results}["AIE-6.3-01"]
    assert (r.outcome, r.untestable_reason) == ("untestable", "not-observable")
    assert report.summary.conformant


@pytest.mark.parametrize("mutant", ["credential-in-docs-uri", "credential-member"])
def test_reports_never_contain_the_secret(mutant: str, tmp_path: Path) -> None:
    quiet_run("aiendpoint", f"builtin:{mutant}", report_dir=tmp_path, formats=list(render.FORMATS))
    for path in tmp_path.iterdir():
        assert "adck-fake-credential-0000" not in path.read_text("utf-8"), f"secret leaked into {path.name}"


def test_redaction_rules() -> None:
    cleaned = redact.url("https://u:p@x.test/a?api_key=s3cr3t&q=1")
    assert "s3cr3t" not in cleaned and cleaned.startswith("https://x.test/a?api_key=") and cleaned.endswith("&q=1")
    assert "u:p" not in redact.url("https://u:p@x.test/")
    assert dict(redact.headers({"Authorization": "Bearer abc", "Accept": "x"})) == {
        "Authorization": redact.REDACTED, "Accept": "x"}
    assert "eyJhbGciOiJIUzI1NiJ9" not in redact.text("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefgh")
    assert redact.json_value({"auth": {"client_secret": "x", "header": "X-Key"}}) == {
        "auth": {"client_secret": redact.REDACTED, "header": "X-Key"}}
    # a header outside the allowlist may carry anything: its value is masked
    shown = dict(redact.headers({"X-Upstream-Token": "t0ken", "X-Anything": "v", "Content-Type": "application/json",
                                 "Location": "https://u:p@x.test/next?token=t0k3n&page=2"}))
    assert shown["X-Upstream-Token"] == shown["X-Anything"] == redact.REDACTED
    assert shown["Content-Type"] == "application/json"
    assert shown["Location"] == "https://x.test/next?token=[redacted]&page=2"
    # a query value shaped like a credential is masked whatever its parameter is called
    assert "ghp_" not in redact.url("https://x.test/?q=ghp_abcdefghijklmnopqrstuvwxyz0123")


def test_replay_command_reproduces_the_failure(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    first = quiet_run("aiendpoint", "builtin:id-uppercase", seed=7).report
    replay = {r.clause: r for r in first.results}["AIE-3.3-07"].replay
    argv = shlex.split(replay)
    assert argv[:2] == ["adck", "run"]
    code = cli.main(argv[1:] + ["--report-dir", str(tmp_path)])
    again = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert code == 1
    assert [(r["clause"], r["outcome"]) for r in again["results"]] == [("AIE-3.3-07", "fail")]
    assert again["summary"]["partial"] is True and again["seed"] == 7


# ------------------------------------------------------------------ partial runs (issue #8.3)
def _claims(folder: Path) -> dict[str, str]:
    """What each format says of the verdict, where a reader looks for it."""
    md = (folder / "report.md").read_text("utf-8").splitlines()
    junit = ET.parse(folder / "junit.xml").getroot()
    level = {p.get("name"): p.get("value") for p in junit.iter("property")}["level"]
    html_text = (folder / "report.html").read_text("utf-8")
    return {"md": "\n".join(md[:3]), "junit": level, "badge": (folder / "badge.svg").read_text("utf-8"),
            "html": html_text.split("<table")[0]}


@pytest.mark.parametrize("narrowing", [
    {"clauses": ["AIE-3.1-01"]},
    {"roles": ["document"]},
    {"extra_args": ["-k", "test_2_3"]},
    {"extra_args": ["--deselect", "aiendpoint/test_2_3_media_type.py::test_2_3_media_type_application_json"]},
], ids=["--clause", "--role", "-k", "--deselect"])
def test_a_narrowed_run_is_partial_in_every_format(narrowing: dict, tmp_path: Path) -> None:
    result = quiet_run("aiendpoint", "builtin", report_dir=tmp_path, formats=list(render.FORMATS), **narrowing)
    s = result.report.summary
    assert s.partial and s.partial_reasons and s.level == "partial" and not s.conformant
    assert result.exit_code == 0 and s.passed, "every MUST it checked passed"
    for fmt, said in _claims(tmp_path).items():
        assert "partial" in said, f"{fmt} does not say the run is partial"
        for claim in (">full<", ">conformant<", "— **full**", "— **conformant**", "aiendpoint-01: full",
                      "aiendpoint-01: conformant"):
            assert claim not in said, f"{fmt} claims {claim!r} for a partial run"
    assert _claims(tmp_path)["junit"] == "partial"


def test_the_whole_run_is_not_partial(tmp_path: Path) -> None:
    """The contrast that proves the partial check can fail: nothing narrowed, a verdict on the draft."""
    result = quiet_run("aiendpoint", "builtin", report_dir=tmp_path, formats=list(render.FORMATS))
    s = result.report.summary
    assert not s.partial and s.partial_reasons == [] and s.level == "full" and s.conformant
    assert "aiendpoint-01: full" in _claims(tmp_path)["md"] and _claims(tmp_path)["junit"] == "full"


def test_a_replayed_clause_reads_passed_never_conformant(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    code = cli.main(["run", "aiendpoint", "--target", "builtin", "--clause", "AIE-3.1-01",
                     "--report-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0 and "aiendpoint-01: AIE-3.1-01 passed (partial run" in out
    assert "aiendpoint-01: conformant" not in out and "aiendpoint-01: full" not in out


def test_a_partial_run_that_fails_a_must_is_non_conformant(tmp_path: Path) -> None:
    result = quiet_run("aiendpoint", "builtin:status-203", clauses=["AIE-2.2-05"])
    s = result.report.summary
    assert result.exit_code == 1 and s.partial and s.level == "non-conformant" and not s.passed
    assert render.headline(result.report).startswith("aiendpoint-01: AIE-2.2-05 failed (non-conformant")


# ------------------------------------------------------------------ ambiguities beside failures (#8.5)
def test_a_failure_names_the_ambiguity_it_rests_on(mutant_reports: Path, tmp_path: Path) -> None:
    result = quiet_run("aiendpoint", "builtin:status-203", report_dir=tmp_path, formats=["json", "md", "html", "junit"])
    r = {x.clause: x for x in result.report.results}["AIE-2.2-05"]
    assert r.outcome == "fail" and "AMB-14" in r.ambiguities
    reading = next(a for a in result.report.ambiguities if a["id"] == "AMB-14")["interpretation"]
    md = (tmp_path / "report.md").read_text("utf-8")
    assert "The kit's reading (AMB-14, " in md and reading in md
    assert "the kit's reading (AMB-14" in (tmp_path / "report.html").read_text("utf-8")
    assert "the kit's reading (AMB-14" in (tmp_path / "junit.xml").read_text("utf-8")
    data = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert {x["clause"]: x["ambiguities"] for x in data["results"]}["AIE-2.2-05"] == r.ambiguities
    # a clause no ambiguity touches lists none
    untouched = {cid for cid in PROFILE.clauses} - {c for a in PROFILE.ambiguities for c in a.clauses}
    listed = {x["clause"]: x["ambiguities"] for x in data["results"]}
    assert untouched & listed.keys() and all(listed[c] == [] for c in untouched & listed.keys())


# ------------------------------------------------------------------ an adapter error is no verdict (#8.4)
_BROKEN_ADAPTER = '''
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "stop":
        break
    print(json.dumps({"type": "result", "id": m["id"], "outcome": "maybe"}), flush=True)
'''


def test_an_adapter_that_breaks_the_protocol_exits_2_without_a_verdict(capsys: pytest.CaptureFixture,
                                                                       tmp_path: Path) -> None:
    from tests.hostile import adapter_command

    code = cli.main(["run", "aiendpoint", "--role", "agent", "--target", adapter_command(tmp_path, _BROKEN_ADAPTER),
                     "--report-dir", str(tmp_path / "r"), "--format", "json,badge,md"])
    err = capsys.readouterr().err
    assert code == 2 and "adapter broke the harness protocol" in err
    data = json.loads((tmp_path / "r" / "report.json").read_text("utf-8"))
    assert data["summary"]["level"] == "not-judged" and data["summary"]["not_judged"]
    badge = (tmp_path / "r" / "badge.svg").read_text("utf-8")
    assert "non-conformant" not in badge and "not judged" in badge


def test_long_text_is_cut_at_a_word_with_a_marker() -> None:
    text = "the kit reads the manifest " * 30
    shown = render.cut(text, 100)
    assert shown.endswith(" …") and len(shown) <= 102
    kept = shown.removesuffix(" …")
    assert text.startswith(kept) and text[len(kept)] == " ", "cut inside a word"
    assert render.cut("short", 100) == "short"


# ---------------------------------------------------------------- levels a draft defines itself

_LEVELS = (("D0", ("A", "B")), ("D1", ("C", "D")), ("D2", ("E", "F")))
#: The clause that defines each level (its row of the draft's table): judged when the target offers it.
_OFFERED_BY = {"D1": "C", "D2": "E"}


def _result(cid: str, level: str, outcome: str, reason: str | None = None):
    from conformance.reports.model import ClauseResult

    return ClauseResult(clause=cid, section="1", level=level, keyword=level, role="service", text="t",
                        outcome=outcome, message="", untestable_reason=reason)


_KEYWORDS = {"A": "MUST", "B": "SHOULD", "C": "MUST", "D": "SHOULD", "E": "MUST", "F": "MUST"}


def _summary(outcomes: dict, **kw):
    from conformance.reports.model import summarize

    results = [_result(c, _KEYWORDS[c], o, "prerequisite" if o == "untestable" else None) for c, o in outcomes.items()]
    return summarize(results, draft_levels=_LEVELS, offered_by=_OFFERED_BY, **kw)


@pytest.mark.parametrize(("outcomes", "met", "level", "exit_status"), [
    # every level met: the highest, judged full
    ({"A": "pass", "B": "pass", "C": "pass", "D": "pass", "E": "pass", "F": "pass"}, "D2", "full", 0),
    # a D1 service: it shows no D2 (E does not apply), so D2's clauses do not count: D1 full
    ({"A": "pass", "B": "pass", "C": "pass", "D": "pass", "E": "not-applicable", "F": "fail"}, "D1", "full", 0),
    # a D1 SHOULD failed under a met D2: D2 conformant
    ({"A": "pass", "C": "pass", "D": "fail", "E": "pass"}, "D2", "conformant", 0),
    # a service offering D1 (its row judged) that fails it: non-conformant, D0 met, exit 1
    ({"A": "pass", "C": "fail", "E": "not-applicable"}, "D0", "non-conformant", 1),
    # offering D2 means satisfying D1 too: a D1 MUST failed fails the run, though D2's own pass
    ({"A": "pass", "C": "fail", "E": "pass", "F": "pass"}, "D0", "non-conformant", 1),
    # a D2 MUST failed on a service that shows D2: non-conformant, D1 met
    ({"A": "pass", "C": "pass", "E": "pass", "F": "fail"}, "D1", "non-conformant", 1),
    # a D0 service: D1 not offered, what its D1 clauses saw does not count
    ({"A": "pass", "C": "not-applicable", "D": "fail", "E": "not-applicable"}, "D0", "full", 0),
    # a row that could not be checked (unreachable, budget spent) leaves its level offered, unverified
    ({"A": "pass", "C": "pass", "E": "untestable"}, "D1", "partial", 1),
    # a D0 MUST failed: no level, non-conformant
    ({"A": "fail", "C": "pass", "E": "pass"}, None, "non-conformant", 1),
    # a D0 MUST unchecked, D2 not shown: no level, and no verdict either way (partial)
    ({"A": "untestable", "C": "pass", "E": "not-applicable"}, None, "partial", 1),
])
def test_draft_levels_judge_every_level_offered(outcomes: dict, met: str | None, level: str, exit_status: int) -> None:
    """A level is offered when its defining clause was judged (the service shows it) or it is
    claimed: every MUST of an offered level counts, whatever level was met (issue 18: a service
    answering Discovery Requests that fails a D1 MUST exits 1)."""
    s = _summary(outcomes)
    assert (s.draft_level, s.level, s.exit_status) == (met, level, exit_status), s
    assert [a["level"] for a in s.draft_levels] == ["D0", "D1", "D2"]
    assert sum(s.counts["MUST"].values()) == sum(_KEYWORDS[c] == "MUST" for c in outcomes), "counts keep every clause"


def test_clauses_of_a_level_not_offered_do_not_apply_in_any_format() -> None:
    """The results of a level the target neither shows nor claims become not applicable (with
    what was seen), so no rendering lists a failure under a verdict that does not count it."""
    from conformance.reports.model import not_offered

    s = _summary({"A": "pass", "C": "pass", "E": "not-applicable", "F": "fail"})
    results = not_offered([_result("A", "MUST", "pass"), _result("F", "MUST", "fail")], s.draft_levels, _LEVELS)
    assert [r.outcome for r in results] == ["pass", "not-applicable"]
    assert "D2 is not offered" in results[1].message and "seen: fail" in results[1].message
    assert s.counts["MUST"]["fail"] == 0 and s.counts["MUST"]["not-applicable"] == 2


@pytest.mark.parametrize(("outcomes", "line"), [
    ({"A": "pass", "C": "pass", "E": "not-applicable", "F": "fail"}, "adp: D1 full (D2 not offered)"),
    ({"A": "pass", "C": "pass", "E": "pass", "F": "fail"}, "adp: non-conformant (D1 met; D2: 1 MUST failed)"),
    ({"A": "pass", "C": "fail", "E": "not-applicable"}, "adp: non-conformant (D0 met; D1: 1 MUST failed)"),
    ({"A": "fail", "C": "pass", "E": "not-applicable"}, "adp: non-conformant (D0: 1 MUST failed)"),
])
def test_draft_level_line_names_the_level_met_and_what_was_offered(outcomes: dict, line: str) -> None:
    """The headline never shows a level "full" above a MUST failure it counts (the green banner
    over a red failure of issue 18), and says when a level is simply not offered."""
    from conformance.reports.model import Report

    results = [_result(c, _KEYWORDS[c], o) for c, o in outcomes.items()]
    report = Report(kit={}, draft={"short": "adp"}, target={}, roles=["service"], seed=1, requests_sent=0,
                    started_at="", duration_s=0.0, command="", summary=_summary(outcomes),
                    results=results, coverage={}, ambiguities=[])
    assert render.headline(report) == line
    assert ("full" in badge.to_badge(report)) is line.startswith("adp: D1 full")


def test_drafts_without_levels_of_their_own_are_judged_as_before() -> None:
    from conformance.reports.model import summarize

    s = summarize([_result("X", "MUST", "pass")])
    assert (s.draft_level, s.draft_levels, s.level) == (None, [], "full")


def test_a_declared_level_is_offered() -> None:
    """--level D2 on a service that shows no D2: D2 is claimed, so its clauses count (E, the row,
    does not pass: not met, non-conformant); --level D1: D1 full, D2 not offered."""
    s = _summary({"A": "pass", "C": "pass", "E": "fail"}, declared_level="D2")
    assert (s.level, s.draft_level) == ("non-conformant", "D1")
    s = _summary({"A": "pass", "C": "pass", "E": "not-applicable", "F": "fail"}, declared_level="D2")
    assert s.level != "full" and s.exit_status == 1 and s.draft_level == "D1"
    s = _summary({"A": "pass", "C": "pass", "E": "not-applicable", "F": "fail"}, declared_level="D1")
    assert (s.level, s.draft_level, s.exit_status) == ("full", "D1", 0)
    # claiming less than the service shows does not hide what it shows
    s = _summary({"A": "pass", "C": "pass", "E": "pass", "F": "fail"}, declared_level="D0")
    assert (s.level, s.exit_status) == ("non-conformant", 1)


def test_level_option_is_checked_against_the_draft(capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["run", "aiendpoint", "--target", "builtin", "--level", "D1", "--format", ""]) == 2
    assert "defines no conformance levels" in capsys.readouterr().err


def test_a_level_the_run_did_not_check_is_not_met() -> None:
    """A document on its own has only D0 clauses: the verdict is D0, never D2 by default."""
    from conformance.reports.model import summarize

    s = summarize([_result("A", "MUST", "pass"), _result("B", "SHOULD", "pass")], draft_levels=_LEVELS,
                  offered_by=_OFFERED_BY)
    assert s.draft_level == "D0" and [a["met"] for a in s.draft_levels] == [True, False, False]
    assert not s.draft_levels[1]["checked"]


# ------------------------------------------------------------------ quotes are never bare fragments
#: What a bare fragment starts with: a list bullet, a table pipe, a lower-case word (the second
#: half of a sentence, a lettered step, a field name of a definition list).
_BARE = __import__("re").compile(r"^([*+-]\s|\||[a-z])")


def test_no_quote_of_any_catalog_displays_as_a_bare_fragment() -> None:
    """Every catalog's quotes, as every rendering shows them (reports.quotes.display): a table
    row names its row and table, a list item follows the sentence that introduces it, a half
    sentence its first half. The draft's words are all still there."""
    import re

    from conformance.reports import quotes

    bare, lost = [], []
    for short in catalog.available():
        for c in catalog.load(short).clauses.values():
            shown = quotes.display(c.text, c.section, c.lead)
            if _BARE.match(shown):
                bare.append(f"{c.id}: {shown[:60]}")
            words = quotes.cells(c.text) if c.text.startswith("|") else [re.sub(r"^[*+-]\s+", "", c.text)]
            if not all(w in shown for w in words if w):
                lost.append(c.id)
    assert not bare, f"{len(bare)} quotes shown as bare fragments: {bare[:5]}"
    assert not lost, f"quotes whose words are not all shown: {lost[:5]}"
    assert quotes.display("| D1 | Structured Discovery | Support Discovery Requests. |", "3.3") == \
        "The D1 row of §3.3's table: Structured Discovery — Support Discovery Requests."


@pytest.mark.parametrize(("draft", "target", "clause", "shown"), [
    ("aid@v1", "builtin:v-aid2", "AID-2.1-09", "The **v** row of §2.1's table: Requirement: **Required** — Description: "),
    ("aidre", "builtin:collection-no-name", "AIDRE-4-02", "Each collection SHOULD define: … name"),
    ("aiendpoint", "builtin:service-not-object", "AIE-3.1-03",
     "The top-level JSON object MUST contain the following fields: … service: (object, REQUIRED)"),
])
def test_rendered_quotes_of_failures_are_never_bare_fragments(draft: str, target: str, clause: str, shown: str,
                                                               tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A table row, a list item, a definition-list item: the terminal, report.md, junit.xml and
    report.html show each failing clause's quote with its context, never the bare fragment."""
    import html as html_lib
    import re

    cli.main(["run", draft, "--target", target, "--seed", "3", "--report-dir", str(tmp_path),
              "--format", "json,md,html,junit"])
    out = capsys.readouterr().out
    said = {"terminal": re.findall(r'^\s+the draft: "(.*)"$', out, re.M),
            "report.md": re.findall(r"^> (.*)$", (tmp_path / "report.md").read_text("utf-8"), re.M),
            "junit.xml": [c.get("name").split("] ", 1)[1] for c in ET.parse(tmp_path / "junit.xml").iter("testcase")
                          if "] " in c.get("name", "")]}
    page = (tmp_path / "report.html").read_text("utf-8")
    # the quotes' text (a code span keeps its backticks: `schemaVersion` is a name, not a fragment)
    said["report.html"] = [html_lib.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?code>", "`", q))).strip() for q in
                           re.findall(r'<(?:blockquote|div) class="quote">(.*?)</(?:blockquote|div)>', page, re.S)]
    for where, quotes_shown in said.items():
        assert quotes_shown, f"{where}: no quote found"
        bare = [q for q in quotes_shown if _BARE.match(q)]
        assert not bare, f"{where} shows bare fragments: {bare[:3]}"
    assert any(q.startswith(shown) for q in said["terminal"]), said["terminal"]
    assert any(q.startswith(shown) for q in said["report.md"]), said["report.md"]
