"""The adck command line: exit statuses, help, catalog listing, and the plain-pytest route."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import catalog, cli
from tests.conftest import every_revision


REFERENCE = Path(__file__).parents[1] / "fixtures" / "aiendpoint" / "document.json"


def run_cli(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_builtin_reference_exits_0_and_writes_reports(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    code, out = run_cli(capsys, "run", "aiendpoint", "--target", "builtin", "--report-dir", str(tmp_path))
    assert code == 0 and "aiendpoint-01: full" in out
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert report["summary"]["conformant"] is True
    assert {p.name for p in tmp_path.iterdir()} == {"report.json", "junit.xml", "report.md"}


def test_must_mutant_exits_1_should_mutant_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    code, out = run_cli(capsys, "run", "aiendpoint", "--target", "builtin:get-not-allowed", "--report-dir", str(tmp_path))
    assert code == 1 and "AIE-2.2-01" in out
    code, out = run_cli(capsys, "run", "aiendpoint", "--target", "builtin:no-charset", "--report-dir", str(tmp_path))
    assert code == 0 and "AIE-2.3-02" in out


def test_failure_output_names_section_quotes_and_observes(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    code, out = run_cli(capsys, "run", "aiendpoint", "--target", "builtin:status-203", "--report-dir", str(tmp_path))
    assert code == 1
    assert "AIE-2.2-05 (§2.2, MUST, publisher)" in out
    assert 'the draft: "The server MUST respond with HTTP status code 200 (OK)' in out
    assert "observed:" in out and "203" in out


@pytest.mark.parametrize("argv, words", [
    (["run", "nosuchdraft", "--target", "builtin"], "no profile"),
    (["run", "aiendpoint", "--target", "builtin:nosuchmutant"], "no built-in variant"),
    (["run", "aiendpoint", "--target", "./does/not/exist.json"], "no such file"),
    (["run", "aiendpoint", "--target", "gopher://x"], "unknown target kind"),
    (["run", "aiendpoint", "--target", "builtin", "--format", "pdf"], "unknown report format"),
    (["run", "aiendpoint", "--target", "builtin", "--clause", "AIE-9.9-99"], "unknown clause"),
    (["run", "aiendpoint", "--target", "builtin", "--connect-to", "nonsense"], "HOST1:PORT1:HOST2:PORT2"),
    (["run", "aiendpoint", "--target", "builtin", "--ca-bundle", "/no/such.pem"], "no such file"),
    (["run", "aiendpoint", "--target", str(REFERENCE), "--role", "agent"], "cannot be checked in the agent role"),
    (["run", "aiendpoint", "--target", "builtin", "--role", "server"], "is not a role of aiendpoint"),
])
def test_unusable_arguments_exit_2_with_a_reason(argv, words, capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    code, out = run_cli(capsys, *argv, "--report-dir", str(tmp_path))
    assert code == 2
    assert words in out


def _mistakes(tmp: Path) -> list[tuple[list[str], str]]:
    """Mistakes that are not the target's: each is exit 2 and one line, never exit 1."""
    not_pem = tmp / "not-a-ca.pem"
    not_pem.write_text("hello\n")
    broken_pem = tmp / "broken-ca.pem"
    broken_pem.write_text("-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n")
    a_file = tmp / "a-file"
    a_file.write_text("x")
    fifo = tmp / "fifo.json"
    os.mkfifo(fifo)
    run = ["run", "aiendpoint", "--target"]
    return [
        (run + ["builtin", "--timeout", "0"], "--timeout: must be more than 0"),
        (run + ["builtin", "--timeout", "-3"], "--timeout: must be more than 0"),
        (run + ["builtin", "--timeout", "nan"], "--timeout: must be more than 0"),
        (run + ["builtin", "--max-body", "0"], "--max-body: must be more than 0"),
        (run + ["builtin", "--ca-bundle", str(not_pem)], "not a PEM file"),
        (run + ["builtin", "--ca-bundle", str(broken_pem)], "do not load"),
        (run + ["builtin", "--ca-bundle", str(tmp)], "is a directory"),
        (run + ["builtin", "--report-dir", str(a_file)], "is a file, not a directory"),
        (run + ["builtin", "--report-dir", str(a_file / "sub")], "is a file, not a directory"),
        (run + ["txt:v=aid1;uri=https://x.test/;proto=mcp"], "txt: targets are for aid, not aiendpoint"),
        (run + ["https://exa%20mple.com"], "is not a host name"),
        (run + ["https://a..b"], "is not a host name"),
        (run + ["https://-x-.test"], "is not a host name"),
        (run + ["https://x.test:99999"], "out of range"),
        (run + ["https://"], "expected https://HOST"),
        (run + [str(tmp)], "is a directory"),
        (run + [str(fifo)], "is a FIFO"),
        (run + ["/dev/null"], "is a character device"),
        (run + ["builtin:three-redirects"], "--role agent"),
        (["run", "aid", "--role", "client", "--target", "builtin:no-record"], "without --role client"),
        (["targets", "nosuch"], "no profile for draft 'nosuch'"),
        (["clauses", "nosuch"], "no profile for draft 'nosuch'"),
        (["ambiguities", "nosuch"], "no profile for draft 'nosuch'"),
    ]


def test_mistakes_that_are_not_the_targets_exit_2_in_one_line(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    for argv, words in _mistakes(tmp_path):
        if argv[0] == "run" and "--report-dir" not in argv:
            argv = [*argv, "--report-dir", str(reports)]
        try:
            code = cli.main(argv)
        except SystemExit as exc:  # argparse's own mistakes
            code = exc.code
        out = capsys.readouterr()
        said = out.err.strip()
        assert code == 2, f"{argv}: exit {code}; {out.out[-300:]} {said}"
        assert words in said, f"{argv}: {said!r}"
        assert len(said.splitlines()) == 1 and "Traceback" not in out.out + out.err, f"{argv}: {said!r}"
        assert not reports.exists(), f"{argv}: a run that could not start wrote reports"


def test_document_target(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    reference = Path(__file__).parents[1] / "fixtures" / "aiendpoint" / "document.json"
    code, _ = run_cli(capsys, "run", "aiendpoint", "--target", str(reference), "--report-dir", str(tmp_path))
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert code == 0 and report["roles"] == ["document"] and report["requests_sent"] == 0
    assert all(r["role"] == "document" for r in report["results"])


def test_unreachable_origin_is_a_failing_clause_not_a_crash(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again before the run: nothing listens there
    code, _ = run_cli(capsys, "run", "aiendpoint", "--target", "https://gone.adck.test",
                      "--connect-to", f"gone.adck.test:443:127.0.0.1:{port}", "--timeout", "2",
                      "--report-dir", str(tmp_path))
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    outcomes = {r["clause"]: r["outcome"] for r in report["results"]}
    assert code == 1 and outcomes["AIE-2.1-01"] == "fail"
    assert "error" not in outcomes.values()


def test_plain_http_target_is_tested_not_refused(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    code, _ = run_cli(capsys, "run", "aiendpoint", "--target", "builtin:plain-http", "--report-dir", str(tmp_path))
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert code == 1
    assert [r["clause"] for r in report["results"] if r["outcome"] == "fail"] == ["AIE-6.4-03"]


def test_clauses_json_lists_status_and_tests(capsys: pytest.CaptureFixture) -> None:
    code, out = run_cli(capsys, "clauses", "aiendpoint", "--json")
    data = json.loads(out)
    by_id = {c["id"]: c for c in data["clauses"]}
    assert code == 0
    assert by_id["AIE-2.3-01"]["status"] == "tested"
    assert by_id["AIE-2.3-01"]["tests"] == ["test_2_3_media_type::test_2_3_media_type_application_json"]
    assert by_id["AIE-6.3-03"]["status"] == "untestable" and by_id["AIE-6.3-03"]["untestable"]
    assert {c["status"] for c in data["clauses"]} <= {"tested", "untestable", "optional", "untested"}


def test_clauses_json_counts_the_mutants_each_clause_is_proven_against(capsys: pytest.CaptureFixture) -> None:
    from conformance import catalog, proofs

    for draft in catalog.available():
        code, out = run_cli(capsys, "clauses", draft, "--json")
        data = json.loads(out)
        proven = proofs.proofs(catalog.load(draft))
        assert code == 0 and data["mutant_floor"] == proofs.FLOOR
        for c in data["clauses"]:
            assert c["mutants"] == len(set(proven.get(c["id"], ()))) == len(set(c["proven_by"]))
    by_id = {c["id"]: c for c in json.loads(run_cli(capsys, "clauses", "aiendpoint", "--json")[1])["clauses"]}
    # the well-known URI clause is proven by a 404 and by a redirect chain one hop too long
    assert {"builtin:well-known-404", "builtin:redirect-chain-of-6"} <= set(by_id["AIE-2.1-01"]["proven_by"])
    assert "AMB-01" in by_id["AIE-3.1-10"]["ambiguities"]


def test_ambiguities_command_lists_reading_and_clauses(capsys: pytest.CaptureFixture) -> None:
    code, out = run_cli(capsys, "ambiguities", "aiendpoint", "--json")
    data = json.loads(out)
    first = data["ambiguities"][0]
    assert code == 0 and first["id"] == "AMB-01" and first["interpretation"] and "AIE-3.1-10" in first["clauses"]
    code, out = run_cli(capsys, "ambiguities", "aid")
    assert code == 0 and "the kit's reading" in out and "clauses judged by this reading" in out


def test_clauses_table_ambiguities_and_targets(capsys: pytest.CaptureFixture) -> None:
    assert run_cli(capsys, "clauses", "aiendpoint")[0] == 0
    code, out = run_cli(capsys, "clauses", "aiendpoint", "--ambiguities")
    assert code == 0 and "AMB-01" in out
    code, out = run_cli(capsys, "targets", "aiendpoint")
    assert code == 0 and "wrong-certificate" in out and "five-redirects" in out


def test_help_mentions_every_command(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0 and all(w in out for w in ("run", "clauses", "targets", "ambiguities"))


def test_plain_pytest_route(tmp_path: Path) -> None:
    """`pytest --pyargs conformance.aiendpoint --adck-target …` works through the pytest11 plugin."""
    base = [sys.executable, "-m", "pytest", "--pyargs", "conformance.aiendpoint", "-q", "-p", "no:cacheprovider",
            "--adck-report-dir", str(tmp_path)]
    ok = subprocess.run(base + ["--adck-target", "builtin"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stdout[-2000:] + ok.stderr[-2000:]
    assert "aiendpoint-01: full" in ok.stdout and (tmp_path / "report.json").exists()
    bad = subprocess.run(base + ["--adck-target", "builtin:method-lowercase"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and "AIE-3.3-17 (§3.3, MUST, document)" in bad.stdout
    replay = json.loads((tmp_path / "report.json").read_text("utf-8"))["results"]
    cmd = next(r["replay"] for r in replay if r["outcome"] == "fail")
    assert cmd.startswith("pytest --pyargs conformance.aiendpoint --adck-draft aiendpoint@01 "
                          "--adck-target builtin:method-lowercase")
    # --adck-draft names the revisions: one (its verdict), several (each one's), or one refused in one line
    old = subprocess.run(base + ["--adck-draft", "aiendpoint@00", "--adck-target", "builtin"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert old.returncode == 0 and "aiendpoint-00: full" in old.stdout, old.stdout[-2000:]
    both = subprocess.run(base + ["--adck-draft", "aiendpoint@all", "--adck-target", "builtin"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert both.returncode == 0 and "aiendpoint: -01 full; -00 full" in both.stdout, both.stdout[-2000:]
    wrong = subprocess.run(base + ["--adck-draft", "woa@00", "--adck-target", "builtin"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
    assert wrong.returncode == 4 and "the suite collected is aiendpoint's" in wrong.stderr, wrong.stderr
    none = subprocess.run([sys.executable, "-m", "pytest", "--pyargs", "conformance.aiendpoint", "-q",
                           "-p", "no:cacheprovider"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert none.returncode == 4 and "pass --adck-target" in none.stdout + none.stderr


def test_a_draft_whose_suite_is_not_built_says_so(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """A draft with a catalog and no implemented role yet (as each draft starts) exits 2 naming
    the catalog commands, instead of running nothing and calling that a verdict."""
    import dataclasses

    real = catalog.load
    monkeypatch.setattr(catalog, "load", lambda short: dataclasses.replace(real(short), roles_implemented=()))
    assert cli.main(["run", "adp", "--target", "builtin"]) == 2
    err = capsys.readouterr().err
    assert "the adp suite is being built" in err and "adck clauses adp" in err


# ------------------------------------------------------------------ adck targets: names whole, --json
def _variant_names(draft: str) -> set[str]:
    from conformance.world.site import load_mutants

    profile = catalog.load(draft)
    names = set(load_mutants(draft)) | set(load_mutants(draft, "conforming"))
    if profile.client:
        names |= set(load_mutants(draft, file=profile.client.mutants))
    return names


@pytest.mark.parametrize("draft", ["aiendpoint", "aid"])
def test_targets_never_breaks_a_variant_name_piped_or_narrow(draft: str, capsys: pytest.CaptureFixture,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Piped (capsys is no terminal) at COLUMNS=40, and in a terminal 50 columns wide, each
    variant's name stands whole on a line, beside its clause."""
    import io
    import re

    from rich.console import Console

    monkeypatch.setenv("COLUMNS", "40")
    code, piped = run_cli(capsys, "targets", draft)
    narrow = io.StringIO()
    console = Console(file=narrow, force_terminal=True, width=50, color_system=None, highlight=False,
                      soft_wrap=True, emoji=False)
    assert code == 0 and cli._cmd_targets(cli._parser().parse_args(["targets", draft]), console) == 0
    names = _variant_names(draft)
    for said in (piped, narrow.getvalue()):
        words = {w for line in said.splitlines() for w in re.findall(r"[\w.:-]+", line)}
        broken = sorted(n for n in names if n not in words)
        assert not broken, f"variant names broken over lines: {broken[:5]}"


def test_targets_json_lists_kinds_and_every_variant_with_role_and_clause(capsys: pytest.CaptureFixture) -> None:
    code, out = run_cli(capsys, "targets", "aiendpoint", "--json")
    data = json.loads(out)
    assert code == 0 and data["short"] == "aiendpoint" and data["roles"] == ["publisher", "document", "agent"]
    assert {"syntax": "PATH or file:PATH", "description": "a document on its own (document role only)"} in data["kinds"]
    assert not any(k["syntax"].startswith("txt:") for k in data["kinds"]), "AID's kinds are not aiendpoint's"
    profile = every_revision("aiendpoint")
    assert {v["name"] for v in data["broken"]} | {v["name"] for v in data["conforming"]} == _variant_names("aiendpoint")
    for v in data["broken"]:
        assert v["clause"] in profile.clauses and v["role"] == profile.clauses[v["clause"]].role, v
        assert v["summary"] and v["target"] == f"builtin:{v['name']}"
    agent = next(v for v in data["broken"] if v["name"] == "three-redirects")
    assert agent["run_role"] == "agent" and agent["command"].endswith("--role agent --target builtin:three-redirects")
    five = next(v for v in data["conforming"] if v["name"] == "five-redirects")
    assert five["must_reach"] == "full" and "clause" not in five
