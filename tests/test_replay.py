"""A replay reproduces the verdict of the clause it replays, whatever the command line held
(issue 19: braces on the command line crashed the run with KeyError: 'id')."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from conformance import cli


def _replays(folder: Path) -> tuple[str, dict[str, str]]:
    data = json.loads((folder / "report.json").read_text("utf-8"))
    return data["command"], {r["clause"]: r["replay"] for r in data["results"] if r["replay"]}


@pytest.mark.parametrize("argv", [
    # the documented form of --binding holds {id}
    ["adp", "--target", "builtin:rank-shuffled", "--binding", "agent=/agents/{id}"],
    # a cmd: target is the user's own command line: braces, quotes and all
    ["aiendpoint", "--role", "agent", "--target",
     f"cmd:env ADCK_TAG='{{x}} {{clause}}' {sys.executable} -m conformance.aiendpoint.adapter --variant three-redirects"],
])
def test_braces_on_the_command_line_are_data(argv: list[str], tmp_path: Path,
                                             capsys: pytest.CaptureFixture) -> None:
    code = cli.main(["run", *argv, "--report-dir", str(tmp_path), "--format", "json"])
    err = capsys.readouterr().err
    assert code in (0, 1) and "Traceback" not in err and "KeyError" not in err, err
    command, replays = _replays(tmp_path)
    given = cli._parser().parse_args(["run", *argv])
    ran = cli._parser().parse_args(shlex.split(command)[1:])
    assert (ran.target, ran.role, ran.binding, ran.clause) == (given.target, given.role, given.binding, []), command
    assert replays
    for clause, replay in replays.items():
        again = cli._parser().parse_args(shlex.split(replay)[1:])
        assert (again.target, again.role, again.binding, again.clause) == (
            given.target, given.role, given.binding, [clause]), replay


def test_a_replay_with_braces_reproduces_the_failure(tmp_path: Path) -> None:
    assert cli.main(["run", "adp", "--target", "builtin:rank-shuffled", "--binding", "agent=/agents/{id}",
                     "--report-dir", str(tmp_path), "--format", "json"]) == 1
    _, replays = _replays(tmp_path)
    again = tmp_path / "again"
    assert cli.main([*shlex.split(replays["ADP-3.3-02"])[1:], "--report-dir", str(again), "--format", "json"]) == 1
    data = json.loads((again / "report.json").read_text("utf-8"))
    assert [(r["clause"], r["outcome"]) for r in data["results"]] == [("ADP-3.3-02", "fail")]
