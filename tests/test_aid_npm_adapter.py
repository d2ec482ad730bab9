"""The aid_npm adapter (conformance/adapters/aid_npm): npm's @agentcommunity/aid driven as an AID client.

The adapter's correctness: its hello validates, the library's DNS goes to the kit's nameserver
and nowhere else (the library's fixed DoH endpoints 1.1.1.1 and 8.8.8.8 are replaced by the
adapter's loopback forwarder, and a connection off loopback is refused), it answers every step of
the client suite without adapter errors, and its two targets (node, python -m) agree. And the
library's own verdicts against AID v1, pinned: a change in them is a change in the kit, the
adapter or the library, and needs a look.

The package is installed with npm into a temporary prefix (or into ``$ADCK_NPM_CACHE``, reused
across runs). Without ``node`` or ``npm`` on PATH, or when the install fails, the tests skip
saying why; under CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.adapters import aid_npm
from conformance.harness.adapters import schema
from conformance.world.dns import MockDNS
from tests.conftest import outcomes, quiet_run

DRAFT = "aid@v1"  # the v1 verdict, pinned (plain "aid" is the newest revision the suite judges)
SEED = 20250619
ROOT = Path(__file__).resolve().parents[1]
EVIDENCE = re.compile(r"adck aid_npm: dns-query endpoints asked by the library: \[(?P<asked>[^\]]*)\], replaced by "
                      r"(?P<url>\S+) \((?P<redirected>\d+) queries\); forwarded (?P<forwarded>\d+): "
                      r"\[(?P<queries>[^\]]*)\].*; non-loopback connections refused: \[(?P<refused>[^\]]*)\]$")


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"CI: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def node_path() -> str:
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        _unavailable(f"{' and '.join(missing)} not on PATH: the aid_npm adapter needs Node >= 20.6 and npm")
    try:
        return aid_npm.node()
    except aid_npm.NodeUnavailable as exc:
        _unavailable(str(exc))


@pytest.fixture(scope="module")
def prefix(node_path: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = aid_npm.default_prefix() if os.environ.get("ADCK_NPM_CACHE") else tmp_path_factory.mktemp("npm")
    try:
        return aid_npm.install(where)
    except (aid_npm.NodeUnavailable, subprocess.TimeoutExpired) as exc:
        _unavailable(f"could not install {aid_npm.PACKAGE}@{aid_npm.VERSION}: {exc}")


@pytest.fixture(scope="module")
def suite_run(prefix: Path, node_path: str):
    return quiet_run(DRAFT, aid_npm.target(prefix, node_path=node_path), roles=["client"], seed=SEED)


class Adapter:
    """adapter.mjs as a process, spoken to line by line."""

    def __init__(self, node_path: str, prefix: Path, *options: str) -> None:
        self.proc = subprocess.Popen([node_path, str(aid_npm.ADAPTER), "--prefix", str(prefix), *options],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, encoding="utf-8")

    def ask(self, message: dict) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"the adapter said nothing; stderr: {self.proc.stderr.read() if self.proc.stderr else ''}"
        return json.loads(line)

    def stop(self) -> int:
        assert self.proc.stdin
        self.proc.stdin.write('{"type": "stop"}\n')
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def _step(n: int, domain: str, nameserver: str, anchors: list[str] | None = None) -> dict:
    network: dict = {"nameservers": [nameserver], "connect_to": []}
    if anchors:
        network["dnssec_anchors"] = anchors
    return {"type": "run", "id": f"t-{n}", "session": f"t-{n}", "operation": "aid.discover",
            "params": {"domain": domain, "now": "2025-07-01T12:00:00Z", "network": network}}


def _evidence(reply: dict) -> re.Match:
    found = [m for m in map(EVIDENCE.match, reply.get("messages", [])) if m]
    assert len(found) == 1, reply
    return found[0]


def test_hello_follows_the_protocol(prefix: Path, node_path: str) -> None:
    adapter = Adapter(node_path, prefix)
    hello = adapter.ask({"type": "hello", "protocol": "adck-harness/1", "kit": "adck test"})
    assert adapter.stop() == 0
    assert list(schema("hello").iter_errors(hello)) == []
    assert hello["client"]["name"] == "@agentcommunity/aid" and hello["client"]["version"] == aid_npm.VERSION
    assert hello["operations"] == ["aid.discover"] and hello["features"] == []
    # the tokens the library accepts at an https:// uri: not local, zeroconf, websocket
    assert {"mcp", "a2a"} <= set(hello["protocols"]) and not {"local", "zeroconf", "websocket"} & set(hello["protocols"])
    # who asks the kit's nameserver: the adapter's forwarder, on the library's behalf
    assert hello["dns"]["asked_by"] == "adapter" and "1.1.1.1, 8.8.8.8" in hello["dns"]["how"]
    assert "no DNSSEC validation" in hello["dns"]["how"]


def test_the_library_asks_the_kits_nameserver_and_nothing_else(prefix: Path, node_path: str) -> None:
    long_desc = "x" * 40
    records = ('_agent.plain TXT "v=aid1;uri=https://api.plain.direct.adck.test/mcp;proto=mcp"\n'
               # over 512 bytes: the UDP answer is truncated, the forwarder retries over TCP
               f'_agent.big TXT "v=aid1;uri=https://api.big.direct.adck.test/mcp;proto=mcp;desc=big" '
               + " ".join(f'";x-pad{i}={long_desc * 5}"' for i in range(3)) + "\n")
    with MockDNS() as server:
        server.add_zone("direct.adck.test.", records)
        nameserver = f"127.0.0.1:{server.port}"
        adapter = Adapter(node_path, prefix)
        try:
            adapter.ask({"type": "hello", "protocol": "adck-harness/1", "kit": "adck test"})
            plain = adapter.ask(_step(1, "plain.direct.adck.test", nameserver))
            big = adapter.ask(_step(2, "big.direct.adck.test", nameserver))
            missing = adapter.ask(_step(3, "absent.direct.adck.test", nameserver))
        finally:
            assert adapter.stop() == 0
        log = [(q.name, q.rdtype, q.transport) for q in server.log]
    assert plain["outcome"] == "connect" and plain["connect"]["uri"] == "https://api.plain.direct.adck.test/mcp"
    assert plain["connect"]["protocol"] == "mcp"
    assert big["outcome"] == "connect" and big["connect"]["uri"] == "https://api.big.direct.adck.test/mcp", big
    assert missing["outcome"] == "none" and missing["error_kind"] == "ERR_NO_RECORD"
    # the kit's nameserver was asked, by the library's own query bytes through the forwarder
    assert ("_agent.plain.direct.adck.test.", "TXT", "udp") in log
    assert ("_agent.big.direct.adck.test.", "TXT", "tcp") in log
    assert ("_agent.absent.direct.adck.test.", "TXT", "udp") in log
    for reply in (plain, big, missing):
        ev = _evidence(reply)
        assert ev["asked"] == "1.1.1.1, 8.8.8.8"  # what the library's code asks for ...
        assert ev["url"].startswith("http://127.0.0.1:")  # ... and where it went instead
        assert int(ev["redirected"]) >= 1 and int(ev["forwarded"]) >= 1
        assert all(f"-> {nameserver} " in q for q in ev["queries"].split("; "))
        assert ev["refused"] == ""
    assert "udp+tcp NOERROR" in _evidence(big)["queries"]
    assert "NXDOMAIN" in _evidence(missing)["queries"]


@pytest.mark.parametrize("validating", [False, True], ids=["default", "validating-resolver"])
def test_dnssec_is_the_resolvers_the_library_validates_nothing(validating: bool, prefix: Path, node_path: str) -> None:
    """A signed zone, then the same record changed after signing. By default the forwarder passes
    both on and the library uses the tampered one (AID-4-02 fails); with --validating-resolver
    the forwarder answers SERVFAIL for it, as the library's real DoH resolvers would, and the
    library reports no record."""
    record = '_agent TXT "v=aid1;uri=https://api.{0}/mcp;proto=mcp"\n'
    with MockDNS() as server:
        signed = server.add_zone("signed.adck.test.", record.format("signed.adck.test"), sign=True)
        tampered = server.add_zone("tampered.adck.test.", record.format("tampered.adck.test"), sign=True)
        server.tamper("tampered.adck.test.", "_agent")
        nameserver = f"127.0.0.1:{server.port}"
        anchors = [signed.keys.ds.to_text(), tampered.keys.ds.to_text()]
        adapter = Adapter(node_path, prefix, *(["--validating-resolver"] if validating else []))
        try:
            adapter.ask({"type": "hello", "protocol": "adck-harness/1", "kit": "adck test"})
            good = adapter.ask(_step(1, "signed.adck.test", nameserver, anchors))
            bad = adapter.ask(_step(2, "tampered.adck.test", nameserver, anchors))
        finally:
            assert adapter.stop() == 0
    assert good["outcome"] == "connect" and good["connect"]["uri"] == "https://api.signed.adck.test/mcp", good
    if validating:
        assert "dnssec secure-or-negative" in _evidence(good)["queries"]
        assert bad["outcome"] == "none" and bad["error_kind"] == "ERR_NO_RECORD", bad
        assert "SERVFAIL (the forwarder's DNSSEC validation: the answer's RRSIG fails" in _evidence(bad)["queries"]
    else:
        assert "dnssec" not in _evidence(good)["queries"]
        assert bad["outcome"] == "connect" and "attacker.invalid" in bad["connect"]["uri"], bad


def test_no_real_dns_over_https_endpoint_is_contacted(prefix: Path, node_path: str) -> None:
    """The real dns-query, given a public DoH endpoint (TEST-NET-1 here, never routed), is refused
    by the adapter's guard before a packet leaves; the wrapper refuses a non-loopback endpoint."""
    redirect = (aid_npm.HERE / "redirect.mjs").as_uri()
    dns_query = (prefix / "node_modules" / "dns-query" / "index.mjs").as_uri()
    script = f"""
        import * as redirect from {json.dumps(redirect)};
        import * as real from {json.dumps(dns_query)};
        redirect.installGuard();
        const out = {{}};
        const q = {{question: {{type: "TXT", name: "_agent.example.adck.test"}}}};
        try {{ await real.query(q, {{endpoints: ["192.0.2.1"], retries: 0, timeout: 3000}}); out.doh = "answered"; }}
        catch (e) {{ out.doh = String(e.message); }}
        try {{ await fetch("https://192.0.2.1/dns-query"); out.fetch = "answered"; }}
        catch (e) {{ out.fetch = String(e.cause ? e.cause.message : e.message); }}
        redirect.state.forwarder = {{url: "https://192.0.2.1/dns-query"}};
        redirect.beginStep({{nameservers: ["127.0.0.1:9"]}});
        try {{ await redirect.wrapQuery(real)(q, {{endpoints: ["1.1.1.1"]}}); out.wrapper = "answered"; }}
        catch (e) {{ out.wrapper = String(e.message); }}
        out.refused = redirect.state.refused;
        process.stdout.write(JSON.stringify(out));
        process.exit(0);
    """
    done = subprocess.run([node_path, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert "refused a connection to 192.0.2.1:443" in out["doh"]
    assert "refused a connection to 192.0.2.1:443" in out["fetch"]
    assert "refused the DNS endpoint" in out["wrapper"] and "not loopback" in out["wrapper"]
    assert out["refused"] == ["192.0.2.1:443", "192.0.2.1:443"]


def test_the_client_suite_runs_without_adapter_errors(suite_run) -> None:
    report = suite_run.report
    assert report is not None and report.roles == ["client"]
    assert {r.clause: r.message for r in report.results if r.outcome == "error"} == {}
    adapter = report.target["adapter"]
    assert adapter["client"] == {"name": "@agentcommunity/aid", "version": aid_npm.VERSION,
                                 "language": adapter["client"]["language"], "homepage": "https://aid.agentcommunity.org"}
    # every step asked the kit's mock DNS; no fallback, no PKA: no HTTP request at all
    assert adapter["steps"] > 0 and adapter["client_dns_queries"] > 0
    assert adapter["client_requests"] == 0


#: @agentcommunity/aid 1.1.0 against AID v1's client clauses it is judged on, seed SEED.
PINNED = {
    "AID-1.2-02": "pass", "AID-2.1-07": "pass", "AID-2.3-02": "pass", "AID-2.3-03": "pass",
    "AID-2.3-04": "pass", "AID-2.3-06": "pass", "AID-2.3-07": "pass", "AID-2.5-01": "pass", "AID-4-10": "pass",
    # two causes: a bug, discover() skips a record whose text does not begin with v=aid1
    # (ERR_NO_RECORD) although its own parse() accepts the pairs in any order (no revision asks
    # v first); and a revision, the generated records' auth=custom,mtls is ERR_INVALID_TXT
    # (v1.1/v1.2: auth is one token)
    "AID-2.3-05": "fail",
    # a revision: v1.1/v1.2 make proto one token; v1 says a comma-separated list, first preferred
    "AID-2.1-17": "fail",
    # a limit of the adapter: the library leaves DNSSEC to its DoH resolvers (which validate) and
    # reads no AD bit; the default forwarder standing in for them does not validate
    # (test_dnssec_is_the_resolvers_the_library_validates_nothing: with --validating-resolver it passes)
    "AID-4-02": "fail",
}


def test_npm_aid_verdicts_are_pinned(suite_run) -> None:
    got = outcomes(suite_run.report)
    assert {cid: o for cid, o in got.items() if o in ("pass", "fail", "error")} == PINNED
    assert suite_run.exit_code == 1


def test_failures_show_the_redirected_dns_in_their_evidence(suite_run) -> None:
    """Each failing clause's evidence holds the kit's DNS log (the client asked) and the
    adapter's line: the library's endpoints, the loopback forwarder, the step's nameserver."""
    failed = [r for r in suite_run.report.results if r.outcome == "fail"]
    assert failed
    for result in failed:
        asked = [e["dns"] for e in result.evidence if "dns" in e and e["dns"]["status"].startswith("asked by")]
        assert asked, result.clause
        # a kit that reads the hello's dns says the adapter asked, on the client's behalf
        assert all(d.get("asked_by", "adapter") == "adapter" for d in asked), asked
        for e in result.evidence:
            step = e.get("harness")
            if not step or not step.get("reply"):
                continue
            ev = _evidence(step["reply"])
            nameservers = step["request"]["params"]["network"]["nameservers"]
            assert ev["asked"] == "1.1.1.1, 8.8.8.8" and ev["url"].startswith("http://127.0.0.1:")
            assert all(any(f"-> {ns} " in q for ns in nameservers) for q in ev["queries"].split("; "))
            assert ev["refused"] == ""


def test_the_python_launcher_gives_the_same_verdicts(suite_run, prefix: Path) -> None:
    target = f"cmd:{sys.executable} -m conformance.adapters.aid_npm --prefix {prefix}"
    as_launched = quiet_run(DRAFT, target, roles=["client"], seed=SEED).report
    assert as_launched is not None
    assert outcomes(as_launched) == outcomes(suite_run.report)


@pytest.mark.parametrize("launcher", ["node", "python"])
def test_a_missing_package_stops_the_run_saying_what_to_install(launcher: str, node_path: str,
                                                                tmp_path: Path) -> None:
    empty = tmp_path / "empty-prefix"
    empty.mkdir()
    target = (aid_npm.target(empty, node_path=node_path) if launcher == "node"
              else f"cmd:{sys.executable} -m conformance.adapters.aid_npm --prefix {empty}")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "conformance.cli", "run", DRAFT, "--role", "client",
                           "--target", target, "--format", ""],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    output = " ".join((done.stdout + done.stderr).split())
    assert "python -m conformance.adapters.aid_npm --install" in output and str(empty) in output
