"""Judging many documents in one process, and in processes forked warm (docs/benchmark.md, issue 25):
a later run in a process skips collecting what it would deselect, with the same verdicts; a
scan's judging workers and a LocalCluster's partitions are forked from a process that loaded the
suites once (conformance/scan/warm.py)."""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from conformance import api, plugin
from conformance.scan.domain import ScanOptions
from conformance.world.internet import simulated_internet

FIXTURES = Path(__file__).parents[1] / "fixtures"
TARGETS = {"aiendpoint": FIXTURES / "aiendpoint" / "document.json", "woa": FIXTURES / "woa" / "document.json",
             "aidre": FIXTURES / "aidre" / "document.json",
             "aid": "txt:v=aid1;u=https://api.example.com/mcp;p=mcp;a=pat"}


def _verdicts(draft: str) -> dict[str, dict]:
    """Each clause's result, whole (its tests, outcome, message, evidence)."""
    run = api.run(draft, str(TARGETS[draft]), roles=["document"], report_dir=None, seed=7)
    assert run.report is not None, run.error
    return {r.clause: asdict(r) for r in run.report.results}


@pytest.mark.parametrize("draft", sorted(TARGETS))
def test_a_later_run_skips_the_modules_it_would_deselect_with_the_same_verdicts(
        draft: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first run of a draft in a process collects every module of its suite and learns which
    clauses each holds; the next, checking the document role only, does not collect the modules
    whose every test is of another role, and its verdicts are the first's, test by test."""
    monkeypatch.setattr(plugin, "_MODULE_CLAUSES", {})  # this process has collected nothing yet
    skipped: list[str] = []
    ignore = plugin.pytest_ignore_collect

    def counting(collection_path, config):  # noqa: ANN001 - pytest's hook arguments
        said = ignore(collection_path, config)
        if said:
            skipped.append(Path(collection_path).name)
        return said

    monkeypatch.setattr(plugin, "pytest_ignore_collect", counting)  # each run registers the plugin anew
    first = _verdicts(draft)
    assert skipped == [], "the first run skipped a module it had never collected"
    second = _verdicts(draft)
    assert skipped, "the second run collected every module again"
    assert second == first
    assert any(r["outcome"] == "pass" and r["tests"] for r in first.values())


def test_what_an_interrupted_collection_half_learnt_is_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    """A session interrupted mid-collection (Ctrl-C) leaves a module half read; the next session
    learns only what it collected itself, so no module is skipped on a partial list of its tests."""
    half = str(Path(plugin.__file__).parent / "aiendpoint" / "test_2_1_resource_location.py")
    monkeypatch.setattr(plugin, "_MODULE_CLAUSES", {})
    monkeypatch.setattr(plugin, "_COLLECTING", {half: {"AIE-2.1-04"}})  # an agent-role clause only
    run = api.run("woa", str(TARGETS["woa"]), roles=["document"], report_dir=None, seed=7)  # another suite
    assert run.report is not None and plugin._MODULE_CLAUSES  # it learnt its own modules
    assert half not in plugin._MODULE_CLAUSES


def test_a_test_of_another_role_or_revision_is_not_collected(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a module the run collects, a clause test it would deselect is not made into items
    (its parametrized cases are most of a suite), and one the run checks is."""
    from conformance import revisions

    judged = revisions.run_profile("aid", tuple(r.name for r in revisions.judgeable("aid")[1])).clauses
    checked = next(c for c in judged.values() if c.role == "document")
    other_role = next(c for c in judged.values() if c.role == "client")
    older = next(cid for cid in sorted(revisions.every_clause("aid") - set(judged)))

    class Config:
        def __init__(self, roles: list[str]) -> None:
            self.options = {"adck_draft": "aid", "adck_role": roles}

        def getoption(self, name: str, default=None):  # noqa: ANN001, ANN201 - pytest's signature
            return self.options.get(name, default)

    assert not plugin._would_deselect(Config(["document"]), "aid", checked.id)
    assert plugin._would_deselect(Config(["document"]), "aid", other_role.id)
    assert not plugin._would_deselect(Config([]), "aid", other_role.id)  # no --adck-role: every role the target has
    assert plugin._would_deselect(Config([]), "aid", older)  # held by a revision this run does not judge


def _loaded() -> tuple[int, int]:  # in a judging worker: what it holds before its first document
    suites = [m for m in sys.modules if m.startswith("conformance.") and ".test_" in m]
    from conformance import plugin as its_plugin

    return len(suites), len(its_plugin._MODULE_CLAUSES)


def _loaded_in_a_new_judging_worker() -> tuple[int, int]:
    from conformance.scan import warm
    from conformance.scan.pool import JudgingPool

    warm.stop()  # the next pool starts its own forkserver, here
    pool = JudgingPool(1, 0.0, ScanOptions(timeout=1.0))
    try:
        return pool.executor().submit(_loaded).result(timeout=180)
    finally:
        pool.close()
        warm.stop()


def test_a_judging_worker_starts_with_the_suites_loaded() -> None:
    """The workers are forked from a process that judged once under every scanned draft: each
    suite's modules are imported (and rewritten) there once a scan, not in every worker."""
    suites, known = _loaded_in_a_new_judging_worker()
    assert suites >= 40 and known >= 40, (suites, known)


def test_a_scan_started_in_a_folder_of_lookalike_modules_still_forks_warm(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The forkserver starts in the scan's current folder, which Python puts first on its import
    path: a dns.py there (the kit's own conformance/dns.py, for one) must not stand in for
    dnspython, in the warm-up or in a worker."""
    (tmp_path / "dns.py").write_text("raise ImportError(\"the folder's dns.py was imported\")\n")
    monkeypatch.chdir(tmp_path)
    suites, known = _loaded_in_a_new_judging_worker()
    assert suites >= 40 and known >= 40, (suites, known)


def test_a_local_clusters_partitions_are_forked_warm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each partition's ``adck scan`` runs in a process forked from the warm forkserver (where this
    process may fork one), and says what it wrote to stderr when it fails."""
    pytest.importorskip("distributed", reason="the cluster extra (pip install 'adck[cluster]'), in the test extras")
    from conformance.scan import cluster

    forked: list[list[str]] = []
    real = cluster._scan_forked

    def spy(argv: list[str], said: Path) -> tuple[int, str]:
        forked.append(argv)
        return real(argv, said)

    monkeypatch.setattr(cluster, "_scan_forked", spy)
    with simulated_internet(4, seed=1, publishing=0.5) as net:  # loopback only: its mock DNS, its listener
        arguments = ScanOptions(drafts=("aiendpoint",), ca_bundle=str(net.ca_bundle), connect_to=tuple(net.connect_to),
                                nameservers=(net.nameserver,), timeout=1.0).cli_args()
        done = cluster.scan_part(net.domains(), str(tmp_path / "p0"), arguments)
    assert forked and done["exit"] == 0
    assert len((tmp_path / "p0.jsonl").read_text().splitlines()) == 4
    with pytest.raises(RuntimeError, match="--rate"):  # a refused option: exit 2, its line quoted
        cluster.scan_part(["a.example"], str(tmp_path / "p1"), ["--rate", "fast"])


def test_the_warm_up_judges_every_scanned_draft_and_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm-up judges an empty offline recording: no query, no connection, no name resolved
    (a clause that would ask what a recording cannot hold, such as AID-2.1-46's other record
    types, is not checked rather than asked)."""
    import socket

    from conformance import catalog
    from conformance.scan import warm

    sent: list[str] = []

    def refuse(what: str):  # noqa: ANN202 - a socket method's stand-in
        def stop(*args, **kwargs):
            sent.append(f"{what} {args[1:2]}")
            raise OSError(f"{what} during the warm-up")
        return stop

    monkeypatch.setattr(socket.socket, "connect", refuse("connect"))
    monkeypatch.setattr(socket.socket, "sendto", refuse("sendto"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("resolve"))
    assert warm.warm_up() == sorted(d for d in catalog.available() if catalog.load(d).scan is not None)
    assert sent == []
