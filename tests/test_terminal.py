"""What `adck run` prints when its output is not a terminal (a pipe, a CI log), its help, and
shell completion (issue #13, points 3). One CLI run on a failing variant, shared by the checks."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from conformance import cli, cli_help
from conformance.reports import terminal, verdict
from conformance.reports.model import ClauseResult, Report, summarize


@pytest.fixture(scope="session")
def piped(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, int, dict]:
    """(stdout, stderr, exit status, report.json) of `adck run` on a failing variant, its
    output captured as a pipe would (not a tty) with COLUMNS=80."""
    folder = tmp_path_factory.mktemp("terminal")
    out, err = io.StringIO(), io.StringIO()
    assert not out.isatty()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COLUMNS", "80")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["run", "aiendpoint", "--target", "builtin:get-not-allowed", "--seed", "5",
                             "--report-dir", str(folder), "--format", "json"])
    return out.getvalue(), err.getvalue(), code, json.loads((folder / "report.json").read_text("utf-8"))


def test_nothing_wraps_in_a_pipe(piped) -> None:
    stdout, _, code, report = piped
    lines = stdout.splitlines()
    assert code == 1
    assert any(len(line) > 80 for line in lines), "the output was wrapped at COLUMNS=80"
    # the verdict is one line, from the draft's name to the seed
    verdict = [line for line in lines if line.startswith("aiendpoint-01: non-conformant — ")]
    assert len(verdict) == 1 and verdict[0].endswith(f"seed {report['seed']}"), stdout
    # every URL a failure's evidence names is whole on one line
    urls = {re.search(r"https?://\S+", ev["request"]["url"]).group(0)
            for r in report["results"] if r["outcome"] == "fail" for ev in r["evidence"] if "request" in ev}
    assert urls
    for url in urls:
        assert any(url in line for line in lines), f"{url} is split over lines"


def test_long_text_is_cut_at_a_word_with_a_marker(piped) -> None:
    stdout, _, _, report = piped
    reading = next(line for line in stdout.splitlines() if "the kit's reading (AMB-30)" in line)
    assert reading.endswith(" …"), reading
    shown = reading.split("): ", 1)[1].removesuffix(" …")
    full = next(a["interpretation"] for a in report["ambiguities"] if a["id"] == "AMB-30")
    assert len(shown) < len(full) and full.startswith(shown)
    assert full[len(shown)] == " ", f"cut mid-word: ...{shown[-20:]!r}"
    # verdict.cut: at a word, never past the limit
    assert terminal.line("alpha beta gamma", 12) == "alpha beta …"
    assert terminal.line("word " * 200, 600).endswith("word …")


def test_the_summary_is_grouped_by_section_with_the_failure_and_its_replay(piped) -> None:
    stdout, _, _, report = piped
    lines = stdout.splitlines()
    heads = [line.split()[0] for line in lines if line.startswith("§")]
    assert heads == sorted(set(heads), key=lambda h: [int(p) for p in h[1:].split(".")]), heads
    at = lines.index(next(line for line in lines if line.startswith("§2.2 ")))
    assert "1 failed" in lines[at]
    assert lines[at + 1].strip().startswith("FAIL AIE-2.2-01"), lines[at:at + 3]
    failure = lines[at + 1:at + 8]
    assert any(line.strip().startswith('the draft: "The AI Discovery Document MUST be accessible') for line in failure)
    assert any(line.strip().startswith("observed:") and "405" in line for line in failure)
    replay = {r["clause"]: r["replay"] for r in report["results"]}["AIE-2.2-01"]
    assert any(line.strip() == f"replay:    {replay}" for line in failure), failure
    assert replay.startswith("adck run aiendpoint@01 --target builtin:get-not-allowed")


def test_counts_use_proper_plurals(piped) -> None:
    stdout, _, _, _ = piped
    assert "2 requests;" in stdout and "54 MUST clauses could not be checked" in stdout
    assert not re.search(r"\b1 (requests|clauses|MUST clauses|roles|DNS queries|harness steps)\b", stdout)
    assert not re.search(r"\(s\)", stdout), "a plural left to the reader"
    assert [verdict.plural(n, "request") for n in (0, 1, 2)] == ["0 requests", "1 request", "2 requests"]
    assert verdict.plural(1, "DNS query", "DNS queries") == "1 DNS query"
    assert verdict.plural(3, "DNS query", "DNS queries") == "3 DNS queries"


def test_nothing_of_pytest_is_printed_without_v(piped) -> None:
    stdout, stderr, _, _ = piped
    for said in (stdout, stderr):
        for pytest_said in ("test session starts", "short test summary", "=====", "FAILED ", "PASSED",
                            "passed in", "site-packages", "Traceback"):
            assert pytest_said not in said
        assert not re.search(r"\.py [.sFEx]+", said), "pytest's progress dots"


def test_v_shows_pytest_naming_the_suites_files_from_its_root(tmp_path: Path) -> None:
    """The contrast: -v is pytest's output, and its paths are the suite's, not ../../site-packages/…"""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli.main(["run", "aiendpoint", "--target", "builtin:get-not-allowed", "--clause", "AIE-2.2-01",
                         "--report-dir", str(tmp_path), "--format", "json", "-v"])
    said = out.getvalue()
    assert code == 1 and "test session starts" in said
    assert re.search(r"^aiendpoint/test_2_2_access_method\.py F", said, re.MULTILINE), said
    assert "FAILED aiendpoint/test_2_2_access_method.py::" in said and "../" not in said


def _hostile_report() -> Report:
    evil = "\x1b[2J\x1b]52;c;aGk=\x07[bold]boom[/bold] :smiley:\nsecond line"
    result = ClauseResult(clause="AIE-2.2-01", section="2.2", level="MUST", keyword="MUST", role="publisher",
                          text="The document MUST be served.", outcome="fail", message=evil,
                          evidence=[{"request": {"method": "GET", "url": "https://h.test/\x1b[31m", "headers": {}}}],
                          replay="adck run aiendpoint --target 'x\x1b[0m' --clause AIE-2.2-01")
    return Report(kit={}, draft={"short": "aiendpoint", "id": "d-00"}, target={"spec": "https://h.test/\x07"},
                  roles=["publisher"], seed=1, requests_sent=1, started_at="", duration_s=0.0, command="",
                  summary=summarize([result]), results=[result], coverage={}, ambiguities=[])


def test_target_text_brings_no_control_character_to_the_terminal() -> None:
    out = io.StringIO()
    cli._print_summary(_hostile_report(), Console(file=out, highlight=False, soft_wrap=True, emoji=False))
    said = out.getvalue()
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", said), repr(said)
    assert "\\x1b[2J" in said, "the escape is shown as text, so the reader sees it was there"
    assert "[bold]boom[/bold] :smiley:" in said, "markup or emoji codes in target text were interpreted"
    observed = next(line for line in said.splitlines() if "observed:" in line)
    assert observed.endswith("second line"), "a newline in target text started a line of its own"
    assert "1 request;" in said


def test_a_run_that_cannot_start_says_so_on_stdout_in_one_line() -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["run", "aiendpoint", "--target", "builtin", "--role", "bogus", "--format", "json"])
    assert code == 2
    assert out.getvalue().splitlines() == [
        "adck: no verdict: the run could not start (exit status 2); the reason is on stderr"]
    assert "--role bogus" in err.getvalue() and "publisher, document, agent" in err.getvalue()


# -- help and completion -----------------------------------------------------------------------

def _help(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main([*argv, "--help"])
    return out.getvalue()


def test_run_help_lists_every_target_kind_role_and_format() -> None:
    text = _help("run")
    for kind in ("builtin | builtin:MUTANT", "https://HOST[:PORT]", "PATH or file:PATH", "python:MODULE:CALLABLE",
                 'cmd:"COMMAND ARGS"', "txt:RECORD", "DOMAIN"):
        assert kind in text, f"--help omits {kind}"
    from conformance.targets import kinds

    for prefix in kinds():  # generated from the registry: a registered kind is listed
        assert f"{prefix}:" in text or prefix in text
    for short, roles in cli_help.roles_by_draft().items():
        assert re.search(rf"^  {short}\s+{re.escape(', '.join(roles))}$", text, re.MULTILINE), short
    from conformance.reports.render import FORMATS

    assert f"report formats (--format, comma-separated): {', '.join(FORMATS)}" in text


def test_targets_lists_the_kinds_of_the_draft_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance.world import site

    monkeypatch.setattr(site, "load_mutants", lambda *a, **k: {})  # the kinds only, not the variants' tables
    said = {}
    for draft in ("aid", "aiendpoint"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert cli.main(["targets", draft]) == 0
        said[draft] = out.getvalue()
    assert "DOMAIN  a provider publishing" in said["aid"] and "txt:RECORD" in said["aid"]
    assert "python:MODULE:CALLABLE" in said["aiendpoint"]
    assert "DOMAIN" not in said["aiendpoint"] and "txt:RECORD" not in said["aiendpoint"]


@pytest.mark.parametrize(("shell", "marker"), [
    ("bash", "complete -o"), ("zsh", "#compdef adck"), ("fish", "complete --command adck")])
def test_the_completion_command_prints_each_shells_script(shell: str, marker: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["completion", shell]) == 0
    assert marker in out.getvalue() and "_ARGCOMPLETE" in out.getvalue()


def _complete(line: str, tmp_path: Path) -> list[str]:
    """What `adck` answers the shell for ``line``, as the completion script asks it (argcomplete's
    protocol: environment variables in, the words out), in-process through cli.main; argcomplete's
    debug stream is kept off file descriptor 9, which may be pytest's."""
    import argcomplete

    got = tmp_path / "completions"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(argcomplete.autocomplete, "_init_debug_stream", lambda: None)
        for key, value in {"_ARGCOMPLETE": "1", "COMP_LINE": line, "COMP_POINT": str(len(line)),
                           "_ARGCOMPLETE_IFS": "\n", "_ARGCOMPLETE_STDOUT_FILENAME": str(got)}.items():
            mp.setenv(key, value)
        with pytest.raises(SystemExit) as exc:
            cli.main([])
    assert exc.value.code == 0
    return got.read_text().split()


def test_completion_knows_commands_options_roles_formats_and_variants(tmp_path: Path) -> None:
    assert _complete("adck ru", tmp_path) == ["run"]
    assert _complete("adck run --fo", tmp_path) == ["--format"]
    assert _complete("adck run aiendpoint --role ", tmp_path) == ["publisher", "document", "agent"]
    assert _complete("adck run adp --format json,ju", tmp_path) == ["json,junit"]
    assert "builtin:get-not-allowed" in _complete("adck run aiendpoint@01 --target builtin:get", tmp_path)
    assert "builtin:get-not-allowed" in _complete("adck run aiendpoint --target builtin:get", tmp_path)


# -- what a failure shows: its own cases' evidence, the readings it rests on ------------------------

def _run_all_formats(tmp_path: Path, *argv: str) -> tuple[str, dict, dict[str, str]]:
    """(stdout, report.json, {md, html, junit text}) of an `adck run` whose output is piped."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        cli.main(["run", *argv, "--seed", "5", "--report-dir", str(tmp_path), "--format", "json,md,html,junit"])
    texts = {name: (tmp_path / f).read_text("utf-8")
             for name, f in (("md", "report.md"), ("html", "report.html"), ("junit", "junit.xml"))}
    return out.getvalue(), json.loads((tmp_path / "report.json").read_text("utf-8")), texts


def _hosts(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9-]+\.adck\.test", text))


def test_a_failure_shows_the_evidence_of_its_failing_cases_not_of_those_that_passed(tmp_path: Path) -> None:
    """builtin:three-redirects gives up after 3 redirects: of AIE-2.2-09's five cases (chains of
    5, 5, 1, 3 and 2 redirects, each on a scenario of its own) the two chains of 5 fail and the
    other three pass. The failure's evidence is the two failing scenarios' requests and steps,
    in report.json and in every rendering; no exchange of a passing case (which ends in a 200
    and a 'document' reply) is shown under it."""
    stdout, report, texts = _run_all_formats(tmp_path, "aiendpoint", "--role", "agent",
                                             "--target", "builtin:three-redirects", "--clause", "AIE-2.2-09")
    r = {x["clause"]: x for x in report["results"]}["AIE-2.2-09"]
    assert r["outcome"] == "fail" and r["message"].startswith("2 of 5 cases: "), r["message"]
    steps = [ev["harness"] for ev in r["evidence"] if "harness" in ev]
    assert [s["reply"]["outcome"] for s in steps] == ["error", "error"], steps
    failing = {s["request"]["params"]["authority"].removeprefix("https://") for s in steps}
    requests = [ev for ev in r["evidence"] if "request" in ev]
    assert requests and {_hosts(ev["request"]["url"]).pop() for ev in requests} == failing
    assert all(ev["response"]["status"] != 200 for ev in requests), "a passing case's 200 is in the evidence"
    # the renderings show the same: only the failing scenarios' hosts under the failure
    shown = [line for line in stdout.splitlines() if line.strip().startswith("evidence:")]
    assert shown and all(_hosts(line) <= failing and "-> document" not in line for line in shown), shown
    md = texts["md"].split("## Failures", 1)[1].split("## All clauses", 1)[0]
    assert _hosts(md) == failing and "-> document" not in md
    article = re.search(r'<article class="failure[^>]*id="f-AIE-2.2-09".*?</article>', texts["html"], re.S).group(0)
    assert _hosts(article) == failing


def test_a_failure_prints_only_the_readings_it_rests_on(tmp_path: Path) -> None:
    """AID-2.1-01 is linked to two ambiguities (AMB-01: requirements in tables; AMB-07: how the
    record is parsed), but a provider with no _agent record at all fails it on the DNS answer
    alone: no reading is printed beside that failure, in any rendering. The links stay in
    report.json (``ambiguities``) for `adck ambiguities` and the comparison."""
    stdout, report, texts = _run_all_formats(tmp_path, "aid@v1", "--target", "builtin:no-record")
    r = {x["clause"]: x for x in report["results"]}["AID-2.1-01"]
    assert r["outcome"] == "fail" and "nxdomain" in r["message"]
    failure = stdout.split("FAIL AID-2.1-01", 1)[1].split("replay:", 1)[0]
    assert "the kit's reading" not in failure, failure
    md = texts["md"].split("AID-2.1-01", 1)[1].split("Replay:", 1)[0]
    assert "The kit's reading" not in md
    article = re.search(r'<article class="failure[^>]*id="f-AID-2.1-01".*?</article>', texts["html"], re.S).group(0)
    assert "the kit's reading" not in article
    import xml.etree.ElementTree as ET

    case = next(c for c in ET.fromstring(texts["junit"].split("\n", 1)[1]).iter("testcase")
                if c.get("name").startswith("AID-2.1-01 "))
    assert "the kit's reading" not in case.find("failure").text
    assert {"AMB-01", "AMB-07"} <= set(r["ambiguities"]) and r["applied_ambiguities"] == []


def test_a_reading_is_printed_when_the_test_names_it_or_the_message_does() -> None:
    from conformance.reports.model import applied

    linked = ["AMB-01", "AMB-07", "AMB-30"]
    assert applied("TXT _agent.x: timeout", (), linked) == []
    assert applied("answered 405 (AMB-30)", (), linked) == ["AMB-30"]
    assert applied("no v=aid1", ("AMB-07",), linked) == ["AMB-07"]
    assert applied("see AMB-300 and XAMB-01", (), linked) == [], "an id is matched whole"
    assert applied("x", ("AMB-99",), linked, known={"AMB-01", "AMB-07", "AMB-30"}) == [], "an unknown id is dropped"
