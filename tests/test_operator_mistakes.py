"""Every operator mistake is exit 2 with one line on stderr that names the fix, before any
request is sent (``conformance/preflight.py``): a target kind the draft does not take, an
option that does not apply, a clause of a role not checked, a missing optional dependency, a
report folder that cannot be written or is in use, a file ``adck check`` cannot tell, a
compare output that is a file; and an interrupt at any time ends in one line, not a traceback.

Nothing here leaves loopback: a name such as example.com is refused before it is resolved
(``no_requests`` fails a test that fetches, looks up, resolves or starts a scenario world).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance import catalog, cli, preflight
from tests.hostile import adapter_command, gone

FIXTURES = Path(__file__).parents[1] / "fixtures"
ADCK = str(Path(sys.executable).with_name("adck"))


@pytest.fixture
def no_requests(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fail loudly if the run gets as far as sending anything: an HTTP request, a DNS query of
    the run's resolver, a client's scenario world, or a name resolved outside loopback."""
    sent: list[str] = []
    from conformance import dns, fetch
    from conformance.world import scenarios

    def refuse(what):
        def stop(*args, **kwargs):
            sent.append(what)
            raise AssertionError(f"{what} before the mistake was refused")
        return stop

    monkeypatch.setattr(fetch.Fetcher, "fetch", refuse("an HTTP request"))
    monkeypatch.setattr(dns.Resolver, "txt", refuse("a DNS query"))
    monkeypatch.setattr(scenarios.ScenarioWorld, "__init__", refuse("a scenario world"))
    real = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if isinstance(host, bytes):
            host = host.decode("ascii", "replace")
        if host and not (host in ("localhost", "::1") or host.startswith("127.") or host.endswith(".adck.test")):
            sent.append(f"resolve {host}")
            raise AssertionError(f"{host} resolved: tests stay on loopback")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return sent


def refused(capsys: pytest.CaptureFixture, argv: list[str], words: str) -> str:
    """``adck ARGV`` exits 2 with exactly one non-empty line on stderr, holding ``words``."""
    __tracebackhide__ = True
    code = cli.main(argv)
    out = capsys.readouterr()
    lines = [ln for ln in out.err.splitlines() if ln.strip()]
    assert code == 2, f"{argv}: exit {code}; stdout {out.out[-500:]!r} stderr {out.err[-500:]!r}"
    assert len(lines) == 1, f"{argv}: {out.err!r}"
    assert "Traceback" not in out.out + out.err
    assert words in lines[0], f"{argv}: {lines[0]!r}"
    return lines[0]


# -- 1. a target of the wrong kind for the draft ------------------------------------------------

def test_aid_refuses_a_url_and_names_the_domain_to_give(capsys, tmp_path, no_requests) -> None:
    reports = tmp_path / "reports"
    for url in ("https://example.com", "http://example.com:8080/x"):
        line = refused(capsys, ["run", "aid", "--target", url, "--report-dir", str(reports)],
                       "aid takes a DOMAIN")
        assert "not a URL: try --target example.com" in line
    assert not reports.exists() and no_requests == []


def test_adck_targets_lists_only_the_kinds_a_draft_takes(capsys) -> None:
    assert cli.main(["targets", "aid"]) == 0
    listed = capsys.readouterr().out
    assert "DOMAIN" in listed and "txt:RECORD" in listed and "https://HOST" not in listed
    assert cli.main(["targets", "aiendpoint"]) == 0
    listed = capsys.readouterr().out
    assert "https://HOST" in listed and "DOMAIN " not in listed and "txt:RECORD" not in listed


def _sample(syntax: str, profile: catalog.Profile, tmp_path: Path, dns_port: int) -> tuple[str, list[str], dict]:
    """A target of each kind `adck targets` lists, on loopback, with the role it is checked in."""
    client = profile.client
    assert client is not None
    doc = tmp_path / "doc.json"
    doc.write_text("{}", "utf-8")
    return {
        "builtin": ("builtin", [profile.server_role], {}),
        "https": ("https://127.0.0.1:9", [profile.server_role], {}),
        "PATH": (str(doc), ["document"], {}),
        "python": (f"python:{client.adapter}:handle", [client.role], {}),
        "cmd": (f"cmd:{sys.executable} -m {client.adapter}", [client.role], {}),
        "DOMAIN": ("nothing.adck.test", [profile.server_role], {"nameservers": [f"127.0.0.1:{dns_port}"]}),
        "txt": ("txt:v=aid1;uri=https://a.adck.test/mcp;proto=mcp", ["document"], {}),
        "warc": (f"warc:{_recorded(tmp_path)}#nothing.adck.test", [profile.server_role], {}),
    }[syntax.split(":")[0].split(" ")[0].split("://")[0]]


def _recorded(tmp_path: Path) -> Path:
    """A scan's WARC holding one domain that published nothing (a 404, no _agent record)."""
    from conformance.dns import TxtAnswer
    from conformance.fetch import Exchange
    from conformance.recording import Recording
    from conformance.scan import warc

    path = tmp_path / "scan.warc.gz"
    if not path.exists():
        recording = Recording(live=True)
        recording.keep(Exchange(method="GET", url="https://nothing.adck.test/.well-known/ai",
                                request_headers={"accept": "application/json"}, status=404, reason="Not Found",
                                http_version="HTTP/1.1", body=b"not found"))
        recording.keep_txt(TxtAnswer(name="_agent.nothing.adck.test", status="nxdomain", detail="NXDOMAIN"))
        with warc.DomainWriter(path) as writer:
            writer.write("nothing.adck.test", recording)
    return path


@pytest.mark.parametrize("draft", catalog.available())
def test_every_kind_adck_targets_lists_runs_without_a_kit_error(draft: str, tmp_path: Path) -> None:
    """Each kind `adck targets DRAFT` lists is checked (one clause of its role), never a clause
    the kit could not evaluate; a kind it does not list is refused in one line."""
    from conformance import cli_help
    from conformance.world.dns import MockDNS
    from tests.conftest import quiet_run

    from conformance import revisions

    profile = catalog.load(draft)
    # a clause of the revision `adck run DRAFT` judges (-01's agent clauses are not -00's)
    coverage = revisions.profile_of(draft, revisions.judged(draft).name).coverage()
    server = MockDNS()
    try:
        for syntax, _, drafts in cli_help.target_kinds():
            spec, roles, extra = _sample(syntax, profile, tmp_path, server.port)
            if drafts and draft not in drafts:
                result = quiet_run(draft, spec, **extra)
                assert result.exit_code == 2 and result.report is None, (syntax, result.error)
                continue
            clause = next(c.clause.id for c in coverage.values() if c.clause.role == roles[0] and c.tests)
            result = quiet_run(draft, spec, roles=roles, clauses=[clause], timeout=2, run_timeout=60, **extra)
            assert result.report is not None and result.exit_code in (0, 1), (syntax, spec, result.error)
            errors = [f"{r.clause}: {r.message}" for r in result.report.results if r.outcome == "error"]
            assert not errors, (syntax, spec, errors)
    finally:
        server.stop()


# -- 2. a report folder that cannot be created or written --------------------------------------

@pytest.mark.parametrize("folder", ["/proc/adck", "/sys/adck", "/proc/self/adck/deeper"])
def test_a_report_folder_that_cannot_be_made_is_refused_before_the_run(folder, capsys, monkeypatch,
                                                                       no_requests) -> None:
    from conformance import plugin

    monkeypatch.setattr(plugin, "resolve", lambda *a, **k: pytest.fail("the target was resolved"))
    line = refused(capsys, ["run", "aiendpoint", "--target", "builtin", "--report-dir", folder], "cannot create")
    assert line.startswith(f"adck: --report-dir {folder}:") and "pass a folder you can write to" in line


def test_the_probe_leaves_nothing_behind(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b" / "c"
    preflight.check_report_dir(deep)
    assert list(tmp_path.iterdir()) == []


# -- 3. an interrupt at any time ----------------------------------------------------------------

def _adck(*argv: str, **kwargs) -> subprocess.Popen:
    """``adck`` as a user starts it at a terminal, where Ctrl-C reaches it: SIGINT at its default
    disposition, whatever the self-tests inherited (a shell's background job, ``cmd &``, runs
    with SIGINT ignored, and Python then installs no KeyboardInterrupt for the child)."""
    return subprocess.Popen([ADCK, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_sigint_default, **kwargs)


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted(proc: subprocess.Popen) -> tuple[str, str]:
    __tracebackhide__ = True
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert proc.returncode == 2, (proc.returncode, out[-500:], err[-2000:])
    assert "Traceback" not in err and len(lines) == 1 and lines[0].startswith("adck: interrupted: "), err
    return out, lines[0]


def _wait_for(path: Path, seconds: float = 60) -> None:
    """Wait for ``path``; ``seconds`` is a hang detector, not a speed claim."""
    deadline = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > deadline:
            pytest.fail(f"{path} never appeared (waited {seconds:g} s)")
        time.sleep(0.01)


def test_ctrl_c_right_after_start_is_one_line(tmp_path: Path) -> None:
    proc = _adck("run", "aiendpoint", "--target", "builtin", "--report-dir", str(tmp_path / "r"))
    time.sleep(0.2)  # importing the kit, long before pytest's session
    _interrupted(proc)
    assert not (tmp_path / "r").exists()


class _Interrupts:
    """A descriptor whose ``__set_name__`` meets Ctrl-C, as ``functools.cached_property`` may
    while the kit's classes are built: Python 3.11 hands the interrupt on inside a RuntimeError."""

    def __set_name__(self, owner: type, name: str) -> None:
        raise KeyboardInterrupt


def _build_a_class_at_ctrl_c(*args, **kwargs):
    class Document:
        body = _Interrupts()

    raise AssertionError("the class was built")  # pragma: no cover


def _wrapped_interrupt(*args, **kwargs):
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as exc:
        raise RuntimeError("Error calling __set_name__ on '_Interrupts' instance 'body'") from exc


@pytest.mark.parametrize("lands", [_build_a_class_at_ctrl_c, _wrapped_interrupt], ids=["class-body", "wrapped"])
def test_ctrl_c_while_a_class_is_built_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys, lands) -> None:
    """An interrupt that reaches the kit wrapped in another exception (its cause or context) is
    still Ctrl-C: exit 2 and one line, not the wrapper's traceback."""
    monkeypatch.setattr(cli, "_parser", lands)
    assert cli.main(["run", "aiendpoint", "--target", "builtin"]) == 2
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("adck: interrupted: "), lines


def test_an_error_that_is_not_an_interrupt_is_not_called_one(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        try:
            raise ValueError("a bug of the kit's")
        except ValueError as exc:
            raise RuntimeError("wrapped") from exc

    monkeypatch.setattr(cli, "_parser", broken)
    with pytest.raises(RuntimeError, match="wrapped"):
        cli.main(["run", "aiendpoint", "--target", "builtin"])


def test_ctrl_c_mid_run_writes_the_partial_report(tmp_path: Path) -> None:
    reports = tmp_path / "r"
    proc = _adck("run", "aiendpoint", "--target", "builtin", "--report-dir", str(reports))
    _wait_for(reports / preflight.LOCK_NAME)  # the run has started: the clause tests come next
    _, line = _interrupted(proc)
    assert "partial report" in line
    report = json.loads((reports / "report.json").read_text("utf-8"))
    assert report["summary"]["level"] in ("partial", "non-conformant") and not report["summary"]["conformant"]
    assert sorted(p.name for p in reports.iterdir()) == ["junit.xml", "report.json", "report.md"]


# -- 4. a report folder in use by another run ---------------------------------------------------

def test_a_report_folder_in_use_is_refused_naming_the_run(tmp_path: Path, capsys, no_requests) -> None:
    """A run whose client hangs holds its folder; a second run there is refused, naming the
    first's pid, and leaves its files alone; Ctrl-C ends the first with its partial report,
    its adapter ended, and the folder is free again."""
    reports = tmp_path / "r"
    marker = tmp_path / "stepped"
    target = adapter_command(tmp_path, f'''
        sys.stdin.readline()  # the first step: never answered
        open({str(marker)!r}, "w").write(str(os.getpid()))
        for line in sys.stdin:  # until the kit says stop
            if '"stop"' in line:
                sys.exit(0)
    ''')
    first = _adck("run", "aiendpoint", "--role", "agent", "--target", target, "--report-dir", str(reports))
    try:
        _wait_for(marker)
        before = {p.name for p in reports.iterdir()}
        line = refused(capsys, ["run", "aiendpoint", "--target", "builtin", "--report-dir", str(reports)],
                       f"in use by another adck run (pid {first.pid})")
        assert "pass another --report-dir" in line
        assert {p.name for p in reports.iterdir()} == before == {preflight.LOCK_NAME} and no_requests == []
    finally:
        _, line = _interrupted(first)
    assert gone(int(marker.read_text())), "the adapter outlived the interrupted run"
    report = json.loads((reports / "report.json").read_text("utf-8"))
    assert report["summary"]["conformant"] is False
    assert preflight.LOCK_NAME not in {p.name for p in reports.iterdir()}


def test_a_stale_lock_does_not_block_and_is_not_a_report(tmp_path: Path, capsys) -> None:
    reports = tmp_path / "r"
    reports.mkdir()
    (reports / preflight.LOCK_NAME).write_text("999999999\n")  # a run killed outright left it
    document = str(FIXTURES / "aiendpoint" / "document.json")
    assert cli.main(["run", "aiendpoint", "--target", document, "--report-dir", str(reports)]) == 0
    out = capsys.readouterr().out
    assert preflight.LOCK_NAME not in out
    assert sorted(p.name for p in reports.iterdir()) == ["junit.xml", "report.json", "report.md"]


def test_the_lock_is_taken_once(tmp_path: Path) -> None:
    held = preflight.lock_report_dir(tmp_path)
    try:
        with pytest.raises(preflight.Refused, match=f"pid {os.getpid()}"):
            preflight.lock_report_dir(tmp_path)
    finally:
        held.release()
    preflight.lock_report_dir(tmp_path).release()
    assert list(tmp_path.iterdir()) == []


# -- 5. compare -o FILE ---------------------------------------------------------------------

def test_compare_into_a_file_is_refused(tmp_path: Path, capsys) -> None:
    a_file = tmp_path / "out.md"
    a_file.write_text("mine")
    refused(capsys, ["compare", str(tmp_path / "report.json"), "-o", str(a_file)],
            f"-o {a_file}: is a file; compare writes a folder (index.md, matrix.html): name a folder")
    assert a_file.read_text() == "mine"
    refused(capsys, ["compare", str(tmp_path / "report.json"), "-o", "/proc/adck-compare"], "cannot create")


# -- 6. adck check on a file it cannot tell, a missing file, a directory ------------------------

def test_check_mistakes_are_one_line_each(tmp_path: Path, capsys, monkeypatch) -> None:
    from conformance import api

    monkeypatch.setattr(api, "run", lambda *a, **k: pytest.fail("a file was checked"))
    nope = tmp_path / "nope.json"
    nope.write_text("{}")
    line = refused(capsys, ["check", str(nope)], "cannot tell the draft from the file name")
    assert "pass --draft DRAFT (" + ", ".join(catalog.available()) + ")" in line
    assert all(name in line for name in (".well-known/ai", "aid.json", "woa.json", "agent-metadata.json", "*.adp.json"))
    refused(capsys, ["check", str(tmp_path / "missing" / "aid.json")], "no such file; name a document file")
    refused(capsys, ["check", str(tmp_path)], "is a directory")
    good = tmp_path / "aid.json"
    good.write_bytes((FIXTURES / "aid" / "aid.json").read_bytes())
    refused(capsys, ["check", str(good), str(nope), str(tmp_path / "x.json")], "nope.json: cannot tell")


# -- 7. options that would do nothing ------------------------------------------------------------

DOC = str(FIXTURES / "aiendpoint" / "document.json")
RECORD = "txt:v=aid1;uri=https://api.adck.test/mcp;proto=mcp"


@pytest.mark.parametrize(("argv", "words"), [
    (["aiendpoint", "--role", "agent", "--target", "builtin", "--connect-to", "a.adck.test:443:127.0.0.1:1"],
     "--connect-to does not apply to the built-in agent of aiendpoint"),
    (["aid", "--role", "client", "--target", "builtin", "--connect-to", "a.adck.test:443:127.0.0.1:1"],
     "--connect-to does not apply to the built-in client of aid"),
    (["woa", "--role", "client", "--target", "builtin", "--connect-to", "a.adck.test:443:127.0.0.1:1"],
     "--connect-to does not apply to the built-in client of woa"),
    (["aidre", "--role", "client", "--target", "builtin", "--connect-to", "a.adck.test:443:127.0.0.1:1"],
     "--connect-to does not apply to the built-in client of aidre"),
    (["adp", "--role", "client", "--target", "builtin", "--connect-to", "a.adck.test:443:127.0.0.1:1"],
     "--connect-to does not apply to the built-in client of adp"),
    (["aiendpoint", "--target", "builtin", "--connect-to", "a.adck.test:443:127.0.0.1:1"],
     "--connect-to does not apply to the built-in publisher"),
    (["aiendpoint", "--target", DOC, "--connect-to", "a.adck.test:443:127.0.0.1:1"],
     "--connect-to does not apply to a document on its own"),
    (["aiendpoint", "--target", "builtin", "--invoke"], "--invoke does not apply"),
    (["aiendpoint", "--target", "https://127.0.0.1:9", "--invoke"], "none of the aiendpoint clauses"),
    (["aiendpoint", "--target", "https://127.0.0.1:9", "--invoke-budget", "5"], "--invoke-budget does not apply"),
    (["woa", "--target", "builtin", "--invoke"], "always invoked"),
    (["woa", "--target", str(FIXTURES / "woa" / "document.json"), "--invoke"], "--invoke does not apply"),
    (["aiendpoint", "--target", "https://127.0.0.1:9", "--nameserver", "127.0.0.1"],
     "aiendpoint is not published in DNS"),
    (["adp", "--target", "builtin", "--dnssec-anchor", "x.adck.test. IN DS 1 13 2 " + "ab" * 32],
     "adp is not published in DNS"),
    (["aid", "--target", RECORD, "--nameserver", "127.0.0.1"],
     "--nameserver does not apply to a record on its own (txt:)"),
    (["aid", "--target", "builtin", "--nameserver", "127.0.0.1"], "--nameserver does not apply to the built-in provider"),
    (["aiendpoint", "--target", "builtin", "--world", "respx"], "--world respx does not apply"),
    (["aiendpoint", "--target", "builtin", "--binding", "discover=/x"], "aiendpoint has a wire binding of its own"),
    (["aiendpoint", "--target", "builtin", "--level", "D1"], "aiendpoint defines no conformance levels"),
    (["adp", "--role", "client", "--target", "builtin", "--level", "D1"], "--level does not apply"),
    (["adp", "--target", str(FIXTURES / "adp" / "document.json"), "--binding", "discover=/x"],
     "--binding does not apply to a document on its own"),
])
def test_an_option_that_does_not_apply_is_refused(argv, words, capsys, tmp_path, no_requests) -> None:
    reports = tmp_path / "r"
    refused(capsys, ["run", *argv, "--report-dir", str(reports)], words)
    assert not reports.exists() and no_requests == []


def test_the_plain_pytest_route_refuses_the_same(capsys, tmp_path, no_requests) -> None:
    code = pytest.main(["--pyargs", "conformance.aiendpoint", "-p", "no:cacheprovider", "-q",
                        "--adck-target", "builtin", "--adck-nameserver", "127.0.0.1",
                        "--adck-report-dir", str(tmp_path / "r")])
    out = capsys.readouterr()
    assert code == pytest.ExitCode.USAGE_ERROR
    assert "ERROR: --nameserver does not apply to the built-in publisher of aiendpoint" in out.err
    assert not (tmp_path / "r").exists() and no_requests == []


def test_the_table_names_no_draft() -> None:
    """Applicability comes from the profiles and the target kinds, not from draft names."""
    source = Path(preflight.__file__).read_text("utf-8")
    code = "\n".join(ln for ln in source.splitlines() if not ln.lstrip().startswith(("#", '"', "'")))
    assert not [d for d in catalog.available() if f'"{d}"' in code or f"'{d}'" in code]


# -- 8. a clause of a role that is not checked --------------------------------------------------

@pytest.mark.parametrize(("argv", "words"), [
    (["--target", "builtin", "--clause", "AIE-2.2-05", "--role", "document"],
     "AIE-2.2-05 is a publisher clause, and --role document leaves the publisher role out: pass --role publisher"),
    (["--target", DOC, "--clause", "AIE-2.2-05"],
     "AIE-2.2-05 is a publisher clause, and a document on its own cannot be checked in the publisher role"),
    (["--role", "agent", "--target", "builtin", "--clause", "AIE-2.2-05"],
     "check a publisher with --target https://HOST"),
    (["--target", "builtin", "--clause", "AIE-9.9-99"], "unknown clause(s) AIE-9.9-99"),
])
def test_a_clause_of_a_role_not_checked_is_refused(argv, words, capsys, tmp_path, no_requests) -> None:
    refused(capsys, ["run", "aiendpoint", *argv, "--report-dir", str(tmp_path / "r")], words)
    assert no_requests == []


# -- 9. a missing optional dependency ------------------------------------------------------------

class _Missing:
    """An import hook that says the named top-level modules are not installed."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


def _uninstall(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    for module in list(sys.modules):
        if module.split(".")[0] in names or module == "conformance.adapters.aid_py" or module == "my_adapter":
            monkeypatch.delitem(sys.modules, module)
    monkeypatch.setattr(sys, "meta_path", [_Missing(*names), *sys.meta_path])


def test_the_aid_py_adapter_without_aid_py_names_the_extra(capsys, monkeypatch, no_requests) -> None:
    _uninstall(monkeypatch, "aid_py")
    refused(capsys, ["run", "aid", "--role", "client", "--target", "python:conformance.adapters.aid_py:discover",
                     "--format", ""], "pip install 'adck[aid-py]'")


def test_an_adapter_whose_library_is_missing_names_the_package(capsys, monkeypatch, tmp_path, no_requests) -> None:
    (tmp_path / "my_adapter.py").write_text("import adck_absent_library\n\ndef handle(message):\n    return None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    _uninstall(monkeypatch, "adck_absent_library")
    line = refused(capsys, ["run", "aiendpoint", "--role", "agent", "--target", "python:my_adapter:handle",
                            "--format", ""], "my_adapter needs the Python package 'adck_absent_library'")
    assert "pip install adck_absent_library" in line
    # a module the user named that is not there is a wrong name, not a dependency to install
    refused(capsys, ["run", "aiendpoint", "--role", "agent", "--target", "python:no_such_adapter_xyz:handle",
                     "--format", ""], "cannot import no_such_adapter_xyz:handle")


def test_world_respx_without_its_package_names_what_to_install(capsys, monkeypatch, no_requests) -> None:
    monkeypatch.setitem(preflight.WORLD_NEEDS, "respx", "adck_absent_respx")
    refused(capsys, ["run", "aiendpoint", "--role", "agent", "--target", "builtin", "--world", "respx",
                     "--format", ""], "--world respx needs the Python package 'adck_absent_respx', which is "
                                      "not installed: pip install adck_absent_respx")


def test_install_hints_come_from_the_package_metadata() -> None:
    assert preflight.install_hint("aid_py") == "pip install 'adck[aid-py]'"
    assert preflight.install_hint("respx") == "pip install respx"
