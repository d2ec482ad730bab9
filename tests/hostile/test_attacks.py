"""Every attack of :mod:`tests.hostile.attacks`, with the same demands on each run:

* it ends by the kit's own deadline, with a clean verdict or exit 2, never a crash or a hang
  (``tests.conftest.ends``), and a run that only a limit ends says which one ended it;
* it leaves a well-formed report in every format (JSON valid against its schema, with no
  NaN/Infinity; JUnit that parses; Markdown where nothing of the target renders; HTML with
  nothing of the target unescaped), written through no planted symlink, with no stale
  artifact of an earlier run beside it;
* no secret reaches any file, stdout or stderr; no escape sequence reaches the terminal;
* no process the run started is left behind.
"""

from __future__ import annotations

import json
import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from markdown_it import MarkdownIt

from conformance import cli
from conformance.harness import adapters
from conformance.reports import render
from tests.conftest import ends
from tests.hostile import gone
from tests.hostile.attacks import ATTACKS, GHP, SECRET, argv_of

FORMATS = ",".join(render.FORMATS)  # every format the kit writes
FILES = tuple(name for name, _ in render._WRITERS.values())


def _renders_nothing(name: str, file: str, markdown: str) -> None:
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    outside_code = re.sub(r"<code>.*?</code>", "", html, flags=re.S)
    for tag in ("<img", "<script", "href=", "@octocat"):
        assert tag not in outside_code, f"{name}: target text renders in {file} ({tag})"


def _clean(name: str, where: str, text: str, secrets: tuple[str, ...]) -> None:
    for secret in (*secrets, SECRET, GHP):
        assert secret not in text, f"{name}: a secret reached {where}"
    for control in ("\x1b", "\x07", "\x9b", "\x00"):
        assert control not in text, f"{name}: {control!r} reached {where}"


def _processes_ended(name: str, setup) -> None:
    assert not adapters._LIVE, f"{name}: an adapter process is still tracked as running"
    for pidfile in setup.pidfiles:
        if pidfile.exists():
            assert gone(int(pidfile.read_text())), f"{name}: a process the adapter forked outlived the run"


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_kit_survives(name: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    reports = tmp_path / "reports"
    reports.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched")
    (reports / "report.json").symlink_to(victim)  # planted before the run
    (reports / "badge.svg").write_text("<svg>adck aiendpoint full</svg>")  # an earlier run's verdict
    with ATTACKS[name]("test") as setup:
        code = ends(cli.main, argv_of(setup, str(reports), FORMATS))
        if setup.kind == "file":  # a command that reads files others made: read what it wrote now
            written = {p.relative_to(setup.outputs).as_posix(): p.read_text("utf-8", "replace")
                       for p in sorted(setup.outputs.rglob("*")) if p.is_file()} if setup.outputs else {}
    out = capsys.readouterr()

    assert code in setup.exits, f"{name}: exit {code}, expected {setup.exits}; {out.err[-500:]}"
    if setup.kind == "file":
        _survives_a_file(name, setup, code, out, written)
        return
    assert victim.read_text() == "untouched", "a report was written through a planted symlink"
    written = sorted(p.name for p in reports.iterdir())
    assert written == sorted(FILES), f"{name}: {written}"

    texts = {n: (reports / n).read_text("utf-8") for n in FILES}
    data = json.loads(texts["report.json"], parse_constant=lambda c: pytest.fail(f"report.json holds {c}"))
    jsonschema.Draft202012Validator(render.schema()).validate(data)
    # the limit that ended the run, in the kit's own words (a result's message or a partial reason)
    assert setup.stopped_by in texts["report.json"], f"{name}: the report does not say {setup.stopped_by!r}"
    ET.fromstring(texts["junit.xml"].encode("utf-8"))
    ET.fromstring(texts["badge.svg"].encode("utf-8"))
    for file in ("badge.json", "report.sarif"):
        json.loads(texts[file], parse_constant=lambda c, file=file: pytest.fail(f"{file} holds {c}"))
    assert "full" not in texts["badge.svg"] or data["summary"]["level"] == "full"

    _renders_nothing(name, "report.md", texts["report.md"])
    # the page's own script is its only one (copy buttons, filters); target text adds no tag
    assert texts["report.html"].count("<script") == 1 and "<img" not in texts["report.html"]

    for where, text in [*texts.items(), ("stdout", out.out), ("stderr", out.err)]:
        _clean(name, where, text, setup.secrets)
    _processes_ended(name, setup)


def _survives_a_file(name: str, setup, code: int, out, written: dict[str, str]) -> None:
    """A command that reads files others made (compare, baseline --from, check): exit 2 is one
    line; what it prints and writes holds no secret and no escape sequence, and renders nothing."""
    assert "Traceback" not in out.out + out.err, f"{name}: {out.err[-800:]}"
    if code == 2:
        assert len(out.err.strip().splitlines()) == 1, f"{name}: exit 2 says more than one line: {out.err[-800:]}"
    for where, text in [*written.items(), ("stdout", out.out), ("stderr", out.err)]:
        _clean(name, where, text, setup.secrets)
        if where.endswith(".md"):
            _renders_nothing(name, where, text)
        if where.endswith(".html"):
            assert "<img" not in text and 'href="javascript' not in text.lower(), f"{name}: {where} renders markup"
    _processes_ended(name, setup)


def test_sigterm_ends_the_run_with_a_partial_report_and_no_orphans(tmp_path: Path) -> None:
    """SIGTERM to ``adck run`` while a client is being checked: a partial report, no orphan."""
    import signal
    import subprocess
    import sys
    import textwrap

    script = tmp_path / "adapter.py"
    pidfile = tmp_path / "adapter.pid"
    script.write_text(textwrap.dedent(f'''
        import json, os, sys, time
        open({str(pidfile)!r}, "w").write(str(os.getpid()))
        sys.stdin.readline()
        print(json.dumps({{"type": "hello", "protocol": "adck-harness/1", "client": {{"name": "slow"}},
                          "operations": ["aiendpoint.discover"]}}), flush=True)
        for line in sys.stdin:
            time.sleep(0.3)
            m = json.loads(line)
            print(json.dumps({{"type": "result", "id": m["id"], "outcome": "none"}}), flush=True)
    '''), encoding="utf-8")
    reports = tmp_path / "reports"
    proc = subprocess.Popen([sys.executable, "-m", "conformance.cli", "run", "aiendpoint", "--role", "agent",
                             "--target", f"cmd:{sys.executable} {script}", "--report-dir", str(reports)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for _ in range(100):
        if pidfile.exists():
            break
        time.sleep(0.1)
    time.sleep(1.5)
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("adck run did not end after SIGTERM")
    assert proc.returncode == 2, err.decode()[-500:]
    data = json.loads((reports / "report.json").read_text("utf-8"))
    assert data["summary"]["partial"] and data["summary"]["level"] != "full" and not data["summary"]["conformant"]
    assert gone(int(pidfile.read_text())), "the adapter outlived the run"
