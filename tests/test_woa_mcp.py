"""The WoA host's MCP transport (4.3.2, 5.3): the kit as a real MCP client against the official
SDK's server (conformance/woa/reference_mcp_server.py), its broken and conforming variants
(fixtures/woa/mutants-mcp.toml), live-style hosts (opt-in, budget, https only, private
addresses) and the client's limits."""

from __future__ import annotations

import contextlib
import threading

import pytest

from conformance.fetch import ConnectTo, HttpConfig, Limits
from conformance.woa._mcp_fixtures import McpSession
from conformance.world import https, tls
from conformance.woa import reference_mcp_server as mcp_server
from conformance.world.site import Mutant, load_mutants, load_reference, mutate
from tests.conftest import failing, outcomes, quiet_run

DRAFT = "woa"
MUTANTS = load_mutants(DRAFT, file="mutants-mcp.toml")
CONFORMING = load_mutants(DRAFT, "conforming", file="mutants-mcp.toml")
TOOL, OUTPUTS = "WOA-4.3.2-01", "WOA-4.1-26"
MCP_CLAUSES = (TOOL, OUTPUTS)


def _threads() -> set[int]:
    return {t.ident for t in threading.enumerate()}


def _sockets() -> int | None:
    """Open sockets of this process (Linux: /proc/self/fd), None where that cannot be seen."""
    import os

    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        return None
    count = 0
    for fd in fds:
        with contextlib.suppress(OSError):
            count += os.readlink(f"/proc/self/fd/{fd}").startswith("socket:")
    return count


def _mcp_evidence(result) -> list[dict]:
    return [ev for ev in result.evidence if "mcp.adck.test" in ev.get("request", {}).get("url", "")]


def test_reference_passes_the_mcp_clauses_and_leaves_nothing_running() -> None:
    before, sockets = _threads(), _sockets()
    result = quiet_run(DRAFT, "builtin")
    report = result.report
    got = outcomes(report)
    assert {c: got.get(c) for c in MCP_CLAUSES} == {TOOL: "pass", OUTPUTS: "pass"}, \
        [(r.clause, r.outcome, r.message) for r in report.results if r.clause in MCP_CLAUSES]
    assert any(n.startswith("MCP server") for n in report.target["notes"])
    assert sockets is None or _sockets() <= sockets, "sockets (the MCP server's, the client's) left open"
    assert _threads() <= before, f"threads left running: {[t.name for t in threading.enumerate() if t.ident not in before]}"


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mcp_mutant_fails_exactly_its_clause(name: str) -> None:
    mutant = MUTANTS[name]
    result = quiet_run(DRAFT, f"builtin:{name}")
    report = result.report
    expected = {mutant.clause} | set(mutant.also_fails)
    assert failing(report) == expected, (
        f"{name} should fail {sorted(expected)}; failed {sorted(failing(report))}: "
        + "; ".join(f"{r.clause}: {r.message}" for r in report.results if r.outcome in ("fail", "error")))
    assert result.exit_code == 1 and report.summary.level == "non-conformant"
    failed = {r.clause: r for r in report.results}[mutant.clause]
    assert _mcp_evidence(failed), "a failing MCP clause shows the MCP exchanges (tools/list, tools/call)"
    assert f"--clause {mutant.clause}" in failed.replay


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CONFORMING))
def test_mcp_conforming_variant_is_not_failed(name: str) -> None:
    """A conforming variant passes the MCP clauses; one the kit cannot judge (expect partial: its
    own limits, a transport it does not speak) fails nothing and says why, naming AMB-44."""
    report = quiet_run(DRAFT, f"builtin:{name}").report
    got = outcomes(report)
    expect = CONFORMING[name].expect
    assert report.failing() == [], [(r.clause, r.message) for r in report.failing()]
    assert report.summary.level == expect
    if expect == "full":
        assert {c: got.get(c) for c in MCP_CLAUSES} == {TOOL: "pass", OUTPUTS: "pass"}, \
            [(r.clause, r.outcome, r.message) for r in report.results if r.clause in MCP_CLAUSES]
        assert not report.summary.must_unverified
    else:
        unjudged = {r.clause: r for r in report.results if r.clause in MCP_CLAUSES}
        assert {c: r.outcome for c, r in unjudged.items()} == {TOOL: "untestable", OUTPUTS: "untestable"}
        assert "AMB-44" in unjudged[TOOL].message, unjudged[TOOL].message
        assert _mcp_evidence(unjudged[TOOL]), "the exchanges that show why are the clause's evidence"
        assert set(report.summary.must_unverified) == set(MCP_CLAUSES)


def test_a_legacy_sse_server_is_probed_once_and_not_judged() -> None:
    """A server on MCP's deprecated HTTP+SSE transport (the SDK's own, a real MCP server): the
    POST is refused (405), one GET with Accept: text/event-stream finds the event stream, and
    WOA-4.3.2-01 could not be judged (AMB-44); a 404 to both (builtin:mcp-server-not-found) fails."""
    with live_host(mcp={"serve": "legacy-sse"}) as (server, reach):
        report = quiet_run(DRAFT, "https://host.adck.test", clauses=MCP_CLAUSES, invoke=True, **reach).report
        assert [r for r in server.received if r.startswith("GET ")] == ["GET /mcp"], server.received
    got = _mcp_results(report)
    assert got[TOOL][0] == "untestable" and "deprecated HTTP+SSE transport" in got[TOOL][1], got
    result = {r.clause: r for r in report.results}[TOOL]
    probe = [ev for ev in _mcp_evidence(result) if ev["request"].get("method") == "GET"]
    assert len(probe) == 1 and probe[0]["response"]["status"] == 200, probe


def test_the_kits_time_limit_on_the_session_is_not_the_servers_fault() -> None:
    """A server that never answers initialize within --timeout: the session's error is the kit's
    limit, named with the option that changes it, so WOA-4.3.2-01 could not be judged (AMB-44)."""
    from tests import hostile

    with hostile.Hang(ssl_context=tls.server_context("mcp.adck.test")) as server:
        config = HttpConfig(ca_bundle=tls.ca_bundle(), limits=Limits(total_timeout=0.5, connect_timeout=0.5),
                            connect_to=(ConnectTo("mcp.adck.test", 443, "127.0.0.1", server.port),))
        session = McpSession("https://mcp.adck.test/mcp")
        try:
            session.open(config, None, lambda: None)
            assert session.error and session.limit, (session.error, session.limit)
            assert "--timeout of 0.5 s; raise --timeout" in session.limit, session.limit
            assert not session.legacy_sse
        finally:
            session.close()


# ------------------------------------------------------------------ live-style hosts


@contextlib.contextmanager
def live_host(patch: tuple = (), mcp: dict | None = None):
    """The reference host (changed by ``patch`` and ``mcp`` settings) served as a live one:
    an origin target the kit reaches with --connect-to and --ca-bundle, as a user would (the
    runs check the MCP clauses only: --clause)."""
    site = mutate(load_reference(DRAFT), Mutant(name="live", clause=None, summary="", patch=patch,
                                                site={"mcp": mcp or {}}))
    with https.serve(site) as origin, mcp_server.serve(site.document, site.mcp) as server:
        yield server, {"ca_bundle": str(tls.ca_bundle()),
                       "connect_to": [f"host.adck.test:443:127.0.0.1:{origin.port}",
                                      f"mcp.adck.test:443:127.0.0.1:{server.port}"]}


def _mcp_results(report) -> dict[str, tuple[str, str]]:
    return {r.clause: (r.outcome, r.message) for r in report.results if r.clause in MCP_CLAUSES}


def test_live_host_mcp_is_opt_in_and_budgeted() -> None:
    before = _threads()
    with live_host() as (server, reach):
        report = quiet_run(DRAFT, "https://host.adck.test", clauses=MCP_CLAUSES, **reach).report
        got = _mcp_results(report)
        assert got[TOOL][0] == got[OUTPUTS][0] == "untestable" and "--invoke" in got[TOOL][1], got
        assert server.received == [], "without --invoke the kit does not connect to the MCP server"
        report = quiet_run(DRAFT, "https://host.adck.test", clauses=MCP_CLAUSES, invoke=True, **reach).report
        assert {c: o for c, (o, _) in _mcp_results(report).items()} == {TOOL: "pass", OUTPUTS: "pass"}
        assert any(r.startswith("POST /mcp") for r in server.received)
        # a budget of 0: tools/list is read (it runs no agent), tools/call is not sent
        calls = len(server.received)
        report = quiet_run(DRAFT, "https://host.adck.test", clauses=MCP_CLAUSES, invoke=True, invoke_budget=0, **reach).report
        got = _mcp_results(report)
        assert got[TOOL][0] == "pass" and got[OUTPUTS][0] == "untestable" and "budget" in got[OUTPUTS][1], got
        assert len(server.received) > calls
    assert _threads() <= before


@pytest.mark.parametrize(("server_value", "outcome"), [
    ("http://mcp.adck.test/mcp", "untestable"),
    ("woa-keywords-mcp", "not-applicable"),
    ("stdio:woa-mcp --serve", "not-applicable"),
])
def test_a_server_that_is_not_an_https_url_is_not_contacted(server_value: str, outcome: str) -> None:
    patch = ({"op": "replace", "path": "/transports/mcp/server", "value": server_value},)
    with live_host(patch) as (server, reach):
        report = quiet_run(DRAFT, "https://host.adck.test", clauses=MCP_CLAUSES, invoke=True, **reach).report
        got = _mcp_results(report)
        assert got[TOOL][0] == got[OUTPUTS][0] == outcome, got
        assert "AMB-42" in got[TOOL][1]
        assert server.received == []


def test_an_error_result_is_no_successful_response() -> None:
    """isError for an input the inputs schema accepts: nothing to judge (AMB-41), never a pass."""
    with live_host(mcp={"is_error": True}) as (server, reach):
        report = quiet_run(DRAFT, "https://host.adck.test", clauses=MCP_CLAUSES, invoke=True, **reach).report
        got = _mcp_results(report)
        assert got[TOOL][0] == "pass" and got[OUTPUTS][0] == "untestable" and "isError" in got[OUTPUTS][1], got


def test_a_document_named_private_address_is_not_contacted() -> None:
    """A server URL on 127.0.0.1 that the user did not name: reported, not contacted."""
    site = load_reference(DRAFT)
    with mcp_server.serve(site.document, site.mcp) as server:
        patch = ({"op": "replace", "path": "/transports/mcp/server", "value": f"https://127.0.0.1:{server.port}/mcp"},)
        live = mutate(site, Mutant(name="private", clause=None, summary="", patch=patch))
        with https.serve(live) as origin:
            report = quiet_run(DRAFT, "https://host.adck.test", clauses=MCP_CLAUSES, invoke=True, ca_bundle=str(tls.ca_bundle()),
                               connect_to=[f"host.adck.test:443:127.0.0.1:{origin.port}"]).report
        got = _mcp_results(report)
        assert got[TOOL][0] == "untestable" and "private" in got[TOOL][1], got
        assert server.received == []


# ------------------------------------------------------------------ the client's limits


def _session(server: mcp_server.McpOrigin, limits: Limits) -> McpSession:
    config = HttpConfig(ca_bundle=tls.ca_bundle(), connect_to=(ConnectTo("mcp.adck.test", 443, "127.0.0.1", server.port),),
                        limits=limits)
    session = McpSession(server.url)
    session.open(config, None, lambda: None)
    return session


def test_a_response_over_the_size_cap_is_cut() -> None:
    site = load_reference(DRAFT)
    big = mutate(site, Mutant(name="big", clause=None, summary="", patch=(
        {"op": "add", "path": "/agents/2/inputs/properties/text/description", "value": "x", "repeat": 50_000},)))
    with mcp_server.serve(big.document, big.mcp) as server:
        session = _session(server, Limits(max_body_bytes=20_000))
        try:
            assert session.error and "too-large" in session.error, session.error
            assert session.limit and "--max-body of 20000 bytes" in session.limit, session.limit
            assert any(e.body_truncated for e in session.exchanges)
        finally:
            session.close()


def test_a_tool_call_is_bounded_by_the_timeout() -> None:
    site = load_reference(DRAFT)
    with mcp_server.serve(site.document, {**site.mcp, "call_delay": 5}) as server:
        session = _session(server, Limits(total_timeout=0.5))
        try:
            assert session.error is None, session.error
            call = session.call("woa.keywords", {"text": "x"})
            assert call.result is None and "no answer within 0.5 s" in call.error
        finally:
            session.close()
