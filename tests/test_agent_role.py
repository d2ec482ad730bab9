"""The agent (client) role: the reference agent passes, each broken agent fails exactly its
clause, the cmd: and python: paths agree, and adapter faults are told apart from client faults."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from conformance import revisions
from conformance.aiendpoint.variants import VARIANTS
from conformance.world.site import load_mutants
from tests.conftest import assert_broken_client_fails_exactly_its_clause, every_revision, failing, outcomes, quiet_run

DRAFT = "aiendpoint"
AGENT_MUTANTS = load_mutants(DRAFT, file="agent-mutants.toml")
IN_PROCESS = "python:conformance.aiendpoint.adapter:handle"
AS_PROCESS = f"cmd:{sys.executable} -m conformance.aiendpoint.adapter"




@pytest.mark.parametrize("judged", [f"{DRAFT}@00", f"{DRAFT}@01"])
def test_reference_agent_passes_every_agent_clause(judged: str) -> None:
    result = quiet_run(judged, "builtin", roles=["agent"])
    report = result.report
    assert result.exit_code == 0 and report.summary.level == "full" and report.roles == ["agent"]
    held = revisions.profile_of(DRAFT, judged.split("@")[1]).clauses
    tested = {cid for cid, c in every_revision(DRAFT).coverage().items()
              if c.status == "tested" and c.clause.role == "agent" and cid in held}
    assert {cid: o for cid, o in outcomes(report).items() if cid in tested and o != "pass"} == {}
    adapter = report.target["adapter"]
    assert adapter["protocol"] == "adck-harness/1" and adapter["steps"] >= len(tested)
    assert adapter["client_requests"] > 0


def test_every_agent_variant_is_declared() -> None:
    assert set(AGENT_MUTANTS) == set(VARIANTS)
    assert any(m.via == "cmd" for m in AGENT_MUTANTS.values()), "one variant runs through the cmd: path"


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(AGENT_MUTANTS))
def test_agent_mutant_fails_exactly_its_clause(name: str) -> None:
    assert_broken_client_fails_exactly_its_clause(DRAFT, name, "agent")


def test_cmd_and_python_paths_give_the_same_verdicts() -> None:
    in_process = quiet_run(DRAFT, IN_PROCESS, roles=["agent"]).report
    as_process = quiet_run(DRAFT, AS_PROCESS, roles=["agent"]).report
    assert outcomes(in_process) == outcomes(as_process)
    assert in_process.summary.level == as_process.summary.level == "full"


def test_cmd_and_python_paths_agree_on_a_broken_agent() -> None:
    name = "three-redirects"
    in_process = quiet_run(DRAFT, f"builtin:{name}", roles=["agent"]).report
    as_process = quiet_run(DRAFT, f"{AS_PROCESS} --variant {name}", roles=["agent"]).report
    assert outcomes(in_process) == outcomes(as_process)
    assert failing(as_process) == {"AIE-2.2-09"}


def _adapter(tmp_path: Path, body: str) -> str:
    script = tmp_path / "adapter.py"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"cmd:{sys.executable} {script}"


HELLO = '''
    import json, sys
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "stop":
            break
        if m["type"] == "hello":
            print(json.dumps({"type": "hello", "protocol": "adck-harness/1",
                              "client": {"name": "broken"}, "operations": ["aiendpoint.discover"]}), flush=True)
            continue
'''


def test_a_malformed_reply_is_an_adapter_error_not_a_client_failure(tmp_path: Path) -> None:
    target = _adapter(tmp_path, HELLO + '''
        print(json.dumps({"type": "result", "id": m["id"], "outcome": "maybe"}), flush=True)
    ''')
    report = quiet_run(DRAFT, target, roles=["agent"]).report
    discover = [r for r in report.results if r.outcome not in ("not-applicable",)
                and r.untestable_reason != "not-observable"]
    assert discover and all(r.outcome == "error" for r in discover)
    assert all("adapter error, not a verdict on the client" in r.message for r in discover)
    assert not report.summary.conformant


def test_an_adapter_that_dies_is_an_adapter_error(tmp_path: Path) -> None:
    target = _adapter(tmp_path, HELLO + '''
        sys.exit(3)
    ''')
    report = quiet_run(DRAFT, target, roles=["agent"]).report
    errors = [r for r in report.results if r.outcome == "error"]
    assert errors and "adapter" in errors[0].message
    assert not any(r.outcome == "fail" for r in report.results)


def test_operations_the_adapter_does_not_offer_are_not_applicable(tmp_path: Path) -> None:
    """This adapter offers discover only: the invoke clause (4.1-05) does not apply to it."""
    target = _adapter(tmp_path, HELLO + '''
        print(json.dumps({"type": "result", "id": m["id"], "outcome": "none"}), flush=True)
    ''')
    report = quiet_run(DRAFT, target, roles=["agent"]).report
    assert outcomes(report)["AIE-4.1-05"] == "not-applicable"


@pytest.mark.parametrize("target, words", [
    ("cmd:/no/such/program --flag", "cannot start the adapter"),
    ("python:no_such_module_xyz:handle", "cannot import"),
    ("python:conformance.aiendpoint.adapter", "expected python:MODULE:CALLABLE"),
])
def test_unusable_adapters_exit_2(target: str, words: str, capsys: pytest.CaptureFixture) -> None:
    from conformance import cli

    code = cli.main(["run", DRAFT, "--role", "agent", "--target", target, "--format", ""])
    out = capsys.readouterr()
    assert code == 2 and words in out.out + out.err


def test_agent_reports_carry_no_credentials(tmp_path: Path) -> None:
    quiet_run(DRAFT, "builtin:caches-credentials", roles=["agent"], report_dir=tmp_path,
              formats=["json", "junit", "md", "html"])
    for path in tmp_path.iterdir():
        assert "adck-client-credential-5f2a9c" not in path.read_text("utf-8"), path.name
    data = json.loads((tmp_path / "report.json").read_text("utf-8"))
    failed = [r for r in data["results"] if r["outcome"] == "fail"]
    assert [r["clause"] for r in failed] == ["AIE-6.2-02"]
    assert failed[0]["replay"].startswith("adck run aiendpoint@01 --target builtin:caches-credentials --role agent")


# ---------------------------------------------------------------- two worlds, one scenario set

TLS_CLAUSES = {"AIE-6.4-04", "AIE-6.4-05"}


@pytest.mark.mutants
@pytest.mark.parametrize("target", ["builtin", "builtin:three-redirects", "builtin:follows-https-to-http",
                                    "builtin:ignores-cache-headers", "builtin:keeps-http-authority"])
def test_respx_world_gives_the_socket_world_verdicts(target: str) -> None:
    """The same scenarios answered in-process through respx (no sockets) judge a Python client
    built on httpx as the loopback world does; only certificate checks need real TLS."""
    sockets = outcomes(quiet_run(DRAFT, target, roles=["agent"]).report)
    respx_report = quiet_run(DRAFT, target, roles=["agent"], world="respx").report
    in_memory = outcomes(respx_report)
    assert {c: o for c, o in in_memory.items() if c not in TLS_CLAUSES} == \
        {c: o for c, o in sockets.items() if c not in TLS_CLAUSES}
    assert {in_memory[c] for c in TLS_CLAUSES} == {"untestable"}
    assert respx_report.target["adapter"]["client_requests"] > 0


def test_respx_world_needs_an_in_process_client(capsys: pytest.CaptureFixture) -> None:
    from conformance import cli

    code = cli.main(["run", DRAFT, "--role", "agent", "--target", AS_PROCESS, "--world", "respx", "--format", ""])
    out = capsys.readouterr()
    assert code == 2 and "needs a python: or builtin" in out.out + out.err


# ---------------------------------------------------------------- adapter faults stay adapter faults

def test_a_late_reply_does_not_shift_later_steps(tmp_path: Path) -> None:
    from conformance.harness.adapters import AdapterError, command_adapter

    script = tmp_path / "slow_first.py"
    script.write_text(textwrap.dedent(HELLO + '''
        if m["id"] == "a":
            import time; time.sleep(1.5)
        print(json.dumps({"type": "result", "id": m["id"], "outcome": "none"}), flush=True)
    '''), encoding="utf-8")
    adapter = command_adapter(f"cmd:{sys.executable} {script}", timeout=1.0)
    try:
        step = {"type": "run", "session": "s", "operation": "aiendpoint.discover",
                "params": {"authority": "https://x.adck.test", "now": "2026-03-15T12:00:00Z",
                           "network": {"connect_to": [], "ca_file": "/dev/null"}}}
        with pytest.raises(AdapterError, match="no reply within"):
            adapter.run(step | {"id": "a"})
        assert adapter.run(step | {"id": "b"})["id"] == "b"
    finally:
        adapter.close()


def test_invalid_utf8_is_an_adapter_error_at_once(tmp_path: Path) -> None:
    """At once: on the bad line itself, not at the 20 s step timeout (that error says "no reply
    within") nor at the adapter's exit (that one says it exited)."""
    from conformance.harness.adapters import AdapterError, command_adapter

    script = tmp_path / "bad_bytes.py"
    script.write_text(textwrap.dedent(HELLO + '''
        sys.stdout.buffer.write(b'{"type": "result", "id": "\\xff"}\\n'); sys.stdout.flush()
    '''), encoding="utf-8")
    adapter = command_adapter(f"cmd:{sys.executable} {script}", timeout=20)
    try:
        with pytest.raises(AdapterError, match="not UTF-8"):
            adapter.run({"type": "run", "id": "a", "session": "s", "operation": "aiendpoint.discover",
                         "params": {"authority": "x", "now": "2026-03-15T12:00:00Z",
                                    "network": {"connect_to": [], "ca_file": "/dev/null"}}})
    finally:
        adapter.close()


def test_an_in_process_handler_that_raises_is_an_adapter_error() -> None:
    from conformance.harness.adapters import AdapterError, callable_adapter

    def handler(message: dict) -> dict:
        if message["type"] == "hello":
            return {"type": "hello", "protocol": "adck-harness/1", "client": {"name": "x"},
                    "operations": ["aiendpoint.discover"]}
        raise KeyError("params")

    adapter = callable_adapter(handler, "python:x:y")
    with pytest.raises(AdapterError, match="raised KeyError"):
        adapter.run({"type": "run", "id": "a", "session": "s", "operation": "aiendpoint.discover",
                     "params": {"authority": "x", "now": "2026-03-15T12:00:00Z",
                                "network": {"connect_to": [], "ca_file": "/dev/null"}}})


# ---------------------------------------------------------------- conforming edge cases (no false fails)

from datetime import datetime, timedelta  # noqa: E402

from conformance.aiendpoint.adapter import make_handler  # noqa: E402
from conformance.aiendpoint.reference_client import Discovery, ReferenceAgent  # noqa: E402
from conformance.fetch import Exchange, Fetch  # noqa: E402


class StoresNothing(ReferenceAgent):
    """RFC 9111 makes storing optional (AMB-17): fetches every time, reports cached: null."""

    def freshness(self, response: Exchange, now: datetime) -> datetime | None:
        return None


class FetchesAliasAfter404(ReferenceAgent):
    """4.1-03's MAY: fetches /ai after a 404, and still concludes there is no document (AMB-18)."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        if fetch.final is not None and fetch.final.status == 404:
            self.fetcher.fetch(origin + "/ai")
        return super().conclude(origin, fetch, now)


class QuietForTwoHours(ReferenceAgent):
    """After a 404, quiet for two hours: "a reasonable period" (AMB-19), not the RECOMMENDED 24."""

    def not_found(self, origin: str, now: datetime) -> Discovery:
        answer = super().not_found(origin, now)
        self._remember(origin).quiet_until = now + timedelta(hours=2)
        return answer


stores_nothing = make_handler(StoresNothing, "stores nothing")
fetches_alias_after_404 = make_handler(FetchesAliasAfter404, "fetches /ai after a 404")
quiet_for_two_hours = make_handler(QuietForTwoHours, "quiet for two hours after a 404")


@pytest.mark.mutants
@pytest.mark.parametrize("handler", ["stores_nothing", "fetches_alias_after_404", "quiet_for_two_hours"])
def test_conforming_agents_reach_full(handler: str) -> None:
    """Readings the kit holds conforming (AMB-17, AMB-18, AMB-19) must not fail anything, under
    each revision that holds them: the fetch of /ai after a 404 is -00's MAY (4.1-03, AMB-18);
    -01 withdraws it (the stop of 4.1-06, no probing of 4.1-07: SHOULDs, so still conformant)."""
    report = quiet_run(f"{DRAFT}@all", f"python:tests.test_agent_role:{handler}", roles=["agent"]).report
    failed = {cid for cid, o in outcomes(report).items() if o in ("fail", "error")}
    levels = {r["name"]: r["level"] for r in report.revisions}
    if handler == "fetches_alias_after_404":
        assert failed == {"AIE-4.1-06", "AIE-4.1-07"}
        assert levels == {"00": "full", "01": "conformant"}
    else:
        assert failed == set()
        assert levels == {"00": "full", "01": "full"}


def test_scenario_responses_carry_one_date_the_clients_clock() -> None:
    """Expires and Retry-After dates are read against Date: the world sends one, the clock's
    (http.server would add the machine's as well), and answers a matching If-None-Match 304."""
    from pathlib import Path as _Path

    from conformance.fetch import ConnectTo, Fetcher, HttpConfig
    from conformance.world.scenarios import ScenarioWorld
    from conformance.world.site import load_reference

    clock = datetime(2026, 3, 15, 12, 0)
    with ScenarioWorld() as world:
        s = world.add("dates", load_reference(DRAFT), routes=[{"path": "/.well-known/ai", "headers": {"ETag": '"v1"'}}])
        world.clock = clock
        network = s.network()
        fetcher = Fetcher(HttpConfig(ca_bundle=_Path(network["ca_file"]),
                                     connect_to=tuple(ConnectTo.parse(c) for c in network["connect_to"])))
        final = fetcher.fetch(s.authority + "/.well-known/ai").final
        assert final is not None and [v for k, v in final.response_headers if k.lower() == "date"] == \
            ["Sun, 15 Mar 2026 12:00:00 GMT"]
        again = fetcher.fetch(s.authority + "/.well-known/ai", headers={"If-None-Match": '"v1"'}).final
        assert again is not None and again.status == 304 and again.body == b""
