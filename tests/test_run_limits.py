"""Every run ends by the kit's own deadline, and no adapter process outlives it.

A hostile client adapter can go silent, flood its stdout, or fork a child that keeps the pipe
open; a run narrowed by its deadline is partial and never conformant.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import plugin
from conformance.harness import adapters
from tests.conftest import ends, quiet_run
from tests.hostile import adapter_command, gone

def _adapter(tmp_path: Path, body: str) -> str:
    return adapter_command(tmp_path, body)


def test_clauses_not_started_by_the_deadline_are_untestable_and_the_run_partial() -> None:
    result = quiet_run("aiendpoint", "builtin", run_timeout=0.001)
    s = result.report.summary
    assert result.exit_code == 1 and s.partial and not s.conformant and s.level == "partial"
    assert any("--run-timeout" in reason for reason in s.partial_reasons)
    judged = [r for r in result.report.results if r.untestable_reason != "not-observable"]
    assert judged and all(r.outcome == "untestable" and "deadline" in r.message for r in judged)


def test_a_silent_adapter_is_interrupted_at_the_deadline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugin, "RUN_TIMEOUT_GRACE", 0.5)
    target = _adapter(tmp_path, '''
        time.sleep(600)
    ''')
    # the adapter sleeps 600 s: only the kit's --run-timeout ends this run (ends() fails a hang)
    result = ends(quiet_run, "aiendpoint", target, roles=["agent"], run_timeout=1.0)
    assert result.exit_code == 2 and result.report is not None
    s = result.report.summary
    assert s.partial and not s.conformant and any("deadline" in r for r in s.partial_reasons)
    # the kit's own account: the run's deadline, named with its value and option
    assert any("deadline (1 s, --run-timeout)" in r for r in s.partial_reasons), s.partial_reasons


def test_a_reply_line_without_end_is_an_adapter_error_with_bounded_memory(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adapters, "MAX_REPLY_LINE", 256 * 1024)
    target = _adapter(tmp_path, '''
        sys.stdin.readline()
        chunk = "x" * 65536
        while True:
            sys.stdout.write(chunk)
            sys.stdout.flush()
    ''')
    result = quiet_run("aiendpoint", target, roles=["agent"], run_timeout=60)
    assert result.exit_code == 2 and result.report.summary.level == "not-judged"
    errors = [r.message for r in result.report.results if r.outcome == "error"]
    assert errors and "reply line of over" in errors[0]


def test_a_forked_child_holding_stdout_is_ended_with_its_adapter(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    target = _adapter(tmp_path, f'''
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open({str(pidfile)!r}, "w").write(str(child.pid))
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "stop":
                os._exit(0)  # leaves the child behind, holding stdout
            print(json.dumps({{"type": "result", "id": m["id"], "outcome": "none"}}), flush=True)
    ''')
    quiet_run("aiendpoint", target, roles=["agent"], run_timeout=120)
    assert gone(int(pidfile.read_text())), "the adapter's child outlived the run"
    assert not adapters._LIVE


def test_stderr_is_kept_as_a_bounded_tail(tmp_path: Path) -> None:
    target = _adapter(tmp_path, '''
        sys.stderr.write("e" * (8 * 1024 * 1024) + "\\nthe real error: ghp_abcdefghijklmnopqrstuvwxyz0123\\n")
        sys.stderr.flush()
        sys.exit(3)
    ''')
    result = quiet_run("aiendpoint", target, roles=["agent"], run_timeout=60)
    messages = " ".join(r.message for r in result.report.results if r.outcome == "error")
    assert "the real error" in messages and "ghp_abcdefghijkl" not in messages
    assert len(json.dumps([r.message for r in result.report.results])) < 2_000_000
