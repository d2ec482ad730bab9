"""The aid_py adapter (conformance.adapters.aid_py): aid-discovery driven as an AID client.

The adapter's correctness: its hello validates, it answers every step of the client suite
within the protocol (no adapter errors), it claims no manifests and no local execution (so
those clauses are not applicable), and python: and cmd: give the same verdicts. And aid_py's
own verdicts against this draft, pinned (docs/aid-discovery-report.md explains each failure):
a change in them is a change in the kit or in aid_py, and either needs a look.

Skipped when aid_py is not installed (``pip install 'adck[aid-py]'``), except the check that a
missing aid_py stops a run with a message saying what to install.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import catalog
from conformance.harness.adapters import schema
from tests.conftest import outcomes, quiet_run

DRAFT = "aid@v1"  # the v1 verdict, pinned (plain "aid" is the newest revision the suite judges)
IN_PROCESS = "python:conformance.adapters.aid_py:discover"
AS_PROCESS = f"cmd:{sys.executable} -m conformance.adapters.aid_py"
ROOT = Path(__file__).resolve().parents[1]
#: One seed for both paths: the generated-input clauses then serve both the same examples.
SEED = 20250619

#: Client clauses about manifests or local execution: the sections on them (0's implementation
#: status, 2.2.x, 2.4, 4.1, Appendices A to C) and the steps of 2.3, 2.5 and 4 that need a
#: manifest (2.3 steps 3 to 5; unparseable, unknown and failed manifests; the TLS of its fetch).
MANIFEST_SECTIONS = ("0", "2.2", "2.4", "4.1", "A", "B", "C")
MANIFEST_STEPS = {"AID-2.3-08", *(f"AID-2.3-{n:02d}" for n in range(10, 19)),
                  *(f"AID-2.5-{n:02d}" for n in range(2, 9)), "AID-4-06"}


def _needs_manifest(clause: catalog.Clause) -> bool:
    return clause.id in MANIFEST_STEPS or any(clause.section == s or clause.section.startswith(s + ".")
                                              for s in MANIFEST_SECTIONS)


@pytest.fixture(scope="module")
def aid_py():
    return pytest.importorskip("aid_py", reason="aid-discovery is not installed: pip install 'adck[aid-py]'")


@pytest.fixture(scope="module")
def in_process_run(aid_py):
    return quiet_run(DRAFT, IN_PROCESS, roles=["client"], seed=SEED)


def test_hello_follows_the_protocol(aid_py) -> None:
    from aid_py import constants
    from conformance.adapters.aid_py import discover

    hello = discover({"type": "hello", "protocol": "adck-harness/1", "kit": "adck test"})
    assert list(schema("hello").iter_errors(hello)) == []
    assert hello["operations"] == ["aid.discover"] and hello["features"] == []
    assert hello["client"]["name"] == "aid-discovery (aid_py)" and hello["client"]["version"]
    # the tokens aid_py knows, less those it ties to a uri other than https:// (v1 has no other)
    assert {"mcp", "a2a"} <= set(hello["protocols"]) <= set(constants.PROTOCOL_TOKENS)
    assert not {"local", "zeroconf", "websocket"} & set(hello["protocols"])
    assert discover({"type": "stop"}) is None


def test_the_client_suite_runs_without_adapter_errors(in_process_run) -> None:
    report = in_process_run.report
    assert report is not None and report.roles == ["client"]
    assert in_process_run.exit_code in (0, 1)
    errors = {r.clause: r.message for r in report.results if r.outcome == "error"}
    assert errors == {}
    adapter = report.target["adapter"]
    assert adapter["client"]["name"] == "aid-discovery (aid_py)"
    assert adapter["steps"] > 0 and adapter["client_dns_queries"] > 0


#: aid-discovery 2.1.1 against the client clauses it is judged on (the rest: not applicable, or
#: untestable by the catalog). Seed SEED; the generated records of AID-2.3-05 fail it with most
#: seeds (an auth hint listing two tokens), the fixed ones of the other clauses with any seed.
PINNED = {
    "AID-1.2-02": "pass", "AID-2.1-07": "pass", "AID-2.3-02": "pass", "AID-2.3-03": "pass",
    "AID-2.3-04": "pass", "AID-2.3-07": "pass", "AID-2.5-01": "pass", "AID-4-10": "pass",
    "AID-2.3-05": "fail",  # rejects auth=custom,mtls (a list of two Appendix A tokens): ERR_INVALID_TXT
    "AID-2.3-06": "fail",  # connects with a v=aid2 record (its own later revision)
    "AID-2.1-17": "fail",  # takes proto as one token: proto=graphql,a2a is ERR_UNSUPPORTED_PROTO
    "AID-4-02": "fail",    # no DNSSEC validation: uses a record whose signature fails
}


def test_aid_py_verdicts_are_pinned(in_process_run) -> None:
    got = outcomes(in_process_run.report)
    judged = {cid: o for cid, o in got.items() if o in ("pass", "fail", "error")}
    assert judged == PINNED
    assert in_process_run.exit_code == 1


def test_manifest_and_local_clauses_are_not_applicable(in_process_run) -> None:
    profile = catalog.load(DRAFT.partition("@")[0])
    got = outcomes(in_process_run.report)
    judged = {c.id: got[c.id] for c in profile.clauses.values()
              if c.role == "client" and _needs_manifest(c) and c.id in got and not c.untestable}
    assert {cid: o for cid, o in judged.items() if o != "not-applicable"} == {}
    reasons = {r.message for r in in_process_run.report.results if r.outcome == "not-applicable"}
    assert all("does not claim aid.manifest" in m or "does not claim aid.local" in m for m in reasons), reasons


def test_cmd_and_python_paths_give_the_same_verdicts(in_process_run) -> None:
    as_process = quiet_run(DRAFT, AS_PROCESS, roles=["client"], seed=SEED).report
    assert as_process is not None
    assert outcomes(as_process) == outcomes(in_process_run.report)


@pytest.mark.parametrize("target", [IN_PROCESS, AS_PROCESS])
def test_a_missing_aid_py_stops_the_run_saying_what_to_install(target: str, tmp_path: Path) -> None:
    shadow = tmp_path / "aid_py"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise ImportError('aid_py is not installed (simulated)')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "conformance.cli", "run", DRAFT, "--role", "client",
                           "--target", target, "--format", ""],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    output = " ".join((done.stdout + done.stderr).split())
    assert "pip install 'adck[aid-py]'" in output and "simulated" in output


def test_the_dns_evidence_names_the_adapter(aid_py) -> None:
    """aid_py sends its own DNS queries, to the resolver the adapter pointed at the kit's
    nameserver: the hello says so (``dns``), and every DNS query in the evidence names the
    adapter beside the client, with the transport the nameserver saw."""
    from conformance.adapters.aid_py import ADAPTER, discover

    hello = discover({"type": "hello", "protocol": "adck-harness/1", "kit": "adck test"})
    assert hello["dns"]["asked_by"] == "client" and hello["dns"]["adapter"] == ADAPTER
    report = quiet_run("aid@v1", IN_PROCESS, roles=["client"], clauses=["AID-2.3-05"], seed=SEED).report
    failed = next(r for r in report.results if r.clause == "AID-2.3-05")
    queries = [ev["dns"] for ev in failed.evidence if "dns" in ev]
    assert queries, failed.evidence
    for q in queries:
        assert q["status"].startswith(f"asked by the client over {q['transport']}, to the nameserver its adapter "
                                      f"{ADAPTER} pointed it at: "), q
        assert q["asked_by"] == "client" and q["adapter"] == ADAPTER and q["transport"] in ("udp", "tcp")
