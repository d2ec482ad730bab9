"""Issue #21 point 5: no process an adapter starts outlives the run, a double-forked
``setsid()`` daemon included (conformance/harness/reaper.py), and the kit ends no process it
did not start."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance import cli
from conformance.harness import reaper
from tests.hostile import adapter_command, alive, gone

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="child subreaper: Linux only")

ADCK = str(Path(sys.executable).with_name("adck"))

BEHAVES = '''
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "stop":
            sys.exit(0)
        print(json.dumps({"type": "result", "id": m["id"], "outcome": "none"}), flush=True)
'''
HANGS = '''
    time.sleep(600)
'''


def _daemon_then(pidfile: Path, then: str, clean_env: bool = False) -> str:
    """An adapter body: double-fork a setsid() daemon (its pid in ``pidfile``, stdio let go,
    asleep for 600 s, its environment emptied if ``clean_env``), then ``then``."""
    env = "{}" if clean_env else "dict(os.environ)"
    return f'''
    pidfile = {str(pidfile)!r}
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            open(pidfile + ".tmp", "w").write(str(os.getpid()))
            os.rename(pidfile + ".tmp", pidfile)
            os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)"], {env})
        os._exit(0)
    os.wait()
    while not os.path.exists(pidfile):
        time.sleep(0.01)
''' + then


def _daemon_pid(pidfile: Path) -> int:
    assert pidfile.exists(), "the adapter never started its daemon"
    return int(pidfile.read_text())


def _subreaper() -> int | None:
    return reaper._prctl(reaper._PR_GET_CHILD_SUBREAPER, 0)


@pytest.mark.parametrize("then", [BEHAVES, HANGS], ids=["behaves", "hangs"])
@pytest.mark.parametrize("clean_env", [False, True], ids=["token", "no-environment"])
def test_a_setsid_daemon_ends_with_an_in_process_run(tmp_path: Path, then: str, clean_env: bool) -> None:
    pidfile = tmp_path / "daemon.pid"
    target = adapter_command(tmp_path, _daemon_then(pidfile, then, clean_env))
    # a process of the test's own, started before the run: the run must leave it alone
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        was = _subreaper()
        code = cli.main(["run", "aiendpoint", "--role", "agent", "--target", target,
                         "--run-timeout", "3", "--report-dir", str(tmp_path / "r")])
        assert code in (1, 2)
        assert gone(_daemon_pid(pidfile)), "the setsid() daemon outlived the run"
        assert alive(bystander.pid), "the run ended a process it did not start"
        assert bystander.poll() is None  # nor reaped it behind its Popen's back
        assert _subreaper() == was, "the run left the subreaper flag changed"
    finally:
        bystander.kill()
        bystander.wait()


@pytest.mark.parametrize("then", [BEHAVES, HANGS], ids=["behaves", "hangs"])
def test_a_setsid_daemon_ends_with_an_adck_process(tmp_path: Path, then: str) -> None:
    pidfile = tmp_path / "daemon.pid"
    target = adapter_command(tmp_path, _daemon_then(pidfile, then))
    proc = subprocess.run([ADCK, "run", "aiendpoint", "--role", "agent", "--target", target,
                           "--run-timeout", "3", "--report-dir", str(tmp_path / "r")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode in (1, 2), proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert gone(_daemon_pid(pidfile)), "the setsid() daemon outlived the adck process"


def test_another_runs_process_is_left_to_that_run(tmp_path: Path) -> None:
    """A process carrying another run's token (a concurrent adck run's daemon adopted by this
    kit) is not this run's to end."""
    other = subprocess.Popen([sys.executable, "-c", "import time; print(flush=True); time.sleep(600)"],
                             env={**os.environ, reaper.ENV: "another-run"}, stdout=subprocess.PIPE)
    try:
        # Popen returns once the exec began, before the kernel has set the new image's
        # environment: /proc/PID/environ reads empty for that moment. A concurrent run's daemon
        # is long past it; wait until this one is too.
        assert other.stdout is not None and other.stdout.readline() == b"\n"
        before: set[tuple[int, int]] = set()
        assert other.pid not in reaper._started_by_run(before, "this-run")
        reaper.end_descendants({(p, s) for p, (_, _, s) in reaper._descendants().items()}, "this-run")
        assert other.poll() is None and alive(other.pid)
    finally:
        other.kill()
        other.wait()
