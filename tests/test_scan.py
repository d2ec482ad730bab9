"""``adck scan`` and ``adck judge`` on the simulated internet (conformance/world/internet.py):
every domain classed as its host says; the many-domain scan gives what scanning each domain
alone gives; the WARC judged offline gives the same lines; killed halfway and resumed, no
domain is lost or repeated; read-only, polite, and saying what it is."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conformance import catalog
from conformance.scan import warc
from conformance.scan.domain import USER_AGENT, Pacer, ScanOptions, live_recording, scan_domain, scope
from conformance.scan.judge import judge
from conformance.scan.run import Outputs, read_domains, scan
from conformance.world.internet import simulated_internet

TIMEOUT = 1.0  # slow hosts answer after SLOW: a scan sees them unreachable
SLOW = 2.0
DRAFTS = ("aiendpoint", "woa", "aidre", "aid")


def options(net) -> ScanOptions:  # noqa: ANN001 - a SimulatedInternet
    return ScanOptions(drafts=DRAFTS, ca_bundle=str(net.ca_bundle), connect_to=tuple(net.connect_to),
                       nameservers=(net.nameserver,), timeout=TIMEOUT, seed=11)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def by_key(items: list[dict]) -> dict[tuple[str, str], dict]:
    return {(i["domain"], i["draft"]): i for i in items}


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    with simulated_internet(80, seed=5, publishing=0.3, slow_delay=SLOW) as net:
        out = Outputs(tmp_path_factory.mktemp("scan") / "s")
        # judged in two worker processes (conformance.scan.pool), as on this machine by default;
        # the tests below compare its lines with judging each domain alone and offline, in-process
        stats = scan(net.domains(), options(net), out, concurrency=8, rate=100, judges=2)
        yield net, out, stats


def test_every_domain_is_classed_as_its_host_says(scanned) -> None:
    net, out, stats = scanned
    got = by_key(lines(out.results))
    assert stats.scanned == len(net.hosts) and stats.left == 0 and not stats.interrupted
    assert len(got) == len(net.hosts) * len(DRAFTS)
    wrong = {(h.domain, d): (h.kinds[d], h.expected[d], got[(h.domain, d)]["status"], got[(h.domain, d)]["detail"])
             for h in net.hosts for d in DRAFTS if got[(h.domain, d)]["status"] != h.expected[d]}
    assert not wrong
    found = [v for v in got.values() if v["status"] == "found"]
    assert found and all(v["level"] for v in found)  # every document found was judged
    # a partial level names what kept it partial: the MUSTs not checked (WoA's invocations, ...)
    assert all(v["not_checked"] for v in found if v["level"] == "partial")
    assert any(v["level"] == "partial" for v in found)
    references = [got[(h.domain, d)] for h in net.hosts for d in DRAFTS if h.kinds[d] == "reference"]
    assert references and all(not r["failed_must"] for r in references)
    broken = [got[(h.domain, d)] for h in net.hosts for d in DRAFTS if h.kinds[d].startswith("broken:")
              and h.expected[d] == "found"]
    assert broken and any(b["level"] == "non-conformant" for b in broken)


def test_the_scan_gives_what_scanning_each_domain_alone_gives(scanned) -> None:
    net, out, _ = scanned
    got = by_key(lines(out.results))
    profiles = [catalog.load(d) for d in DRAFTS]
    publishers = [h for h in net.hosts if h.publishes][:8]
    for host in publishers:
        alone = scan_domain(host.domain, options(net), live_recording(host.domain, options(net), profiles),
                            warc_name=out.warc.name)
        for line in alone:
            assert json.loads(line.to_json()) == got[(host.domain, line.draft)]


def test_judge_reproduces_the_scan_offline(scanned, tmp_path: Path) -> None:
    net, out, _ = scanned
    again = Outputs(tmp_path / "j")
    count = judge(out.warc, options(net), again)
    assert count == len(net.hosts)
    assert by_key(lines(again.results)) == by_key(lines(out.results))
    assert json.loads(again.summary_json.read_text()) == json.loads(out.summary_json.read_text())


def test_a_scan_is_read_only_polite_and_says_what_it_is(scanned) -> None:
    net, out, _ = scanned
    seen = [r for h in net.hosts for r in net.world.log_of(h.domain)]
    assert seen and {r.method for r in seen} <= {"GET", "HEAD"}
    profiles = [catalog.load(d) for d in DRAFTS]
    outside = [f"{r.host}{r.path}" for r in seen
               if not any(f"https://{r.host}{r.path}".startswith(p) for p in scope(r.host, profiles))
               and not r.path.startswith("/moved/")]  # a redirect within the host, followed
    assert not outside
    agents = {r.headers.get("User-Agent") for r in seen}
    assert agents == {USER_AGENT}
    assert all(s.domain in set(net.domains()) for s in warc.spans(out.warc))
    assert len(warc.spans(out.warc)) == len(net.hosts)


def test_the_warc_holds_the_lookups_that_paced_each_domain(scanned) -> None:
    """Every lookup the scan made is in its WARC: beside each domain's TXT query and GETs, the
    lookup that found the address its requests were paced by (A: every simulated host has one),
    before the first GET (the judging workers got that address and looked up nothing)."""
    net, out, _ = scanned
    recordings = warc.read_all(out.warc)
    for host in net.hosts:
        kinds = [kind for kind, _ in recordings[host.domain].items()]
        assert kinds.count("addresses") == 1 and "http" in kinds, (host.domain, kinds)
        assert kinds.index("addresses") < kinds.index("http")
        assert recordings[host.domain].addresses[host.domain].found == (host.address,)
        assert recordings[host.domain].addresses[host.domain].asked == ("A",)


def test_pacer_spaces_requests_to_one_address() -> None:
    class Addresses:
        def addresses(self, host: str) -> tuple[list[str], tuple[str, ...]]:
            return (["127.0.0.9"], ("A",)) if host.startswith("shared") else ([], ("A", "AAAA"))

    pacer = Pacer(20.0, Addresses())  # type: ignore[arg-type]
    stamps: list[tuple[str, float]] = []

    def hit(host: str) -> None:
        pacer(host)
        stamps.append((host, time.monotonic()))

    threads = [threading.Thread(target=hit, args=(f"shared-{i}.test",)) for i in range(6)]
    threads += [threading.Thread(target=hit, args=(f"own-{i}.test",)) for i in range(3)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    shared = sorted(at for host, at in stamps if host.startswith("shared"))
    assert all(b - a >= 0.045 for a, b in zip(shared, shared[1:]))  # 20 a second: 50 ms apart
    assert all(at - started < 0.1 for host, at in stamps if host.startswith("own"))  # no address shared: not held


def _paced(pace, hosts: list[str]) -> list[float]:  # noqa: ANN001 - in a judging worker: a SharedPacer
    stamps = []
    for host in hosts:
        pace(host)
        stamps.append(time.monotonic())
    return stamps


def _pace_of(recording) -> tuple[str, list[str]]:  # noqa: ANN001 - in a judging worker: a Recording
    return type(recording.pace).__name__, sorted(recording.pace._addresses)  # the addresses it need not look up


def test_judging_workers_share_the_scans_politeness_budget() -> None:
    """A request from a judging worker and one from the scan's own threads to the same address
    are paced by one budget (conformance.scan.pool): 20 a second, so 50 ms apart whoever sends."""
    from conformance.scan.pool import JudgingPool

    with simulated_internet(16, seed=3, publishing=0.0) as net:
        by_address: dict[str, list[str]] = {}
        for host in net.hosts:
            by_address.setdefault(host.address, []).append(host.domain)
        names = max(by_address.values(), key=len)[:6]  # one address, six names
        pool = JudgingPool(1, 20.0, options(net))
        try:
            pool.executor().submit(_paced, pool.pace, ["warm.invalid"]).result(timeout=120)  # the worker started
            theirs = pool.executor().submit(_paced, pool.pace, names[:3])
            ours = _paced(pool.pace, names[3:])
            stamps = sorted(ours + theirs.result(timeout=60))
            # a recording handed to a worker keeps its pacing (the requests a judging run sends are paced)
            # and the addresses this process found for its domain (names[3] was paced here)
            handed = live_recording(names[3], options(net), [catalog.load(d) for d in DRAFTS],
                                    pool.pace.knowing(names[3]))
            assert pool.executor().submit(_pace_of, handed).result(timeout=60) == ("SharedPacer", [names[3]])
        finally:
            pool.close()
    assert len(stamps) == 6 and all(b - a >= 0.045 for a, b in zip(stamps, stamps[1:]))


def _dies() -> None:  # in a judging worker: killed, as by the kernel's OOM killer
    os._exit(9)


def test_a_judging_worker_that_dies_costs_its_domain_not_the_scan() -> None:
    """A worker gone mid-judging breaks the pool (BrokenProcessPool: that domain's line says the kit
    failed on it); the next domain gets a new pool."""
    from concurrent.futures.process import BrokenProcessPool

    from conformance.scan.pool import JudgingPool

    pool = JudgingPool(1, 0.0, ScanOptions(timeout=TIMEOUT))
    try:
        with pytest.raises(BrokenProcessPool):
            pool.executor().submit(_dies).result(timeout=120)
        assert pool.executor().submit(os.getpid).result(timeout=120) != os.getpid()
    finally:
        pool.close()


def test_an_internationalized_domains_entry_points_are_in_scope() -> None:
    """A request's URL names the host by its A-label: the scope of ``bücher.example`` must be written
    so too, or a scan would refuse every entry point of such a domain as out of scope."""
    import httpx

    from conformance.fetch import Exchange

    recording = live_recording("bücher.example", ScanOptions(), [catalog.load(d) for d in DRAFTS])
    asked = Exchange(method="GET", url=str(httpx.URL("https://bücher.example/.well-known/ai")), request_headers={})
    assert recording.refuse(asked) is None
    other = Exchange(method="GET", url=str(httpx.URL("https://bücher.example/admin")), request_headers={})
    assert recording.refuse(other) is not None


def test_read_domains_folds_and_skips() -> None:
    assert read_domains(["# a list", "", "Example.COM.", "https://b.example/path", "example.com", " c.example # x"]) \
        == ["example.com", "b.example", "c.example"]
    # a pasted URL's credentials and query never become the domain (nor reach any output)
    assert read_domains(["https://user:sk_live_abcdefghijklmnop1234@d.example/x", "e.example?token=abc",
                         "https://:pw@f.example"]) == ["d.example", "e.example", "f.example"]


def test_killed_halfway_and_resumed_no_domain_is_lost_or_repeated(tmp_path: Path) -> None:
    with simulated_internet(60, seed=9, publishing=0.25, slow_delay=SLOW) as net:
        listing = tmp_path / "domains.txt"
        listing.write_text("\n".join(net.domains()) + "\n")
        prefix = tmp_path / "s"
        command = [sys.executable, "-m", "conformance.cli", "scan", str(listing), "--out", str(prefix),
                   "--ca-bundle", str(net.ca_bundle), "--nameserver", net.nameserver, "--timeout", str(TIMEOUT),
                   "--concurrency", "4", "--rate", "100", "--no-progress", "--seed", "11"]
        for c in net.connect_to:
            command += ["--connect-to", c]
        for d in DRAFTS:
            command += ["--draft", d]
        results = Outputs(prefix).results
        first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and first.poll() is None:
            text = results.read_text() if results.exists() else ""
            if len(text.splitlines()) >= 10 * len(DRAFTS) and '"status": "found"' in text:  # judging workers started
                break
            time.sleep(0.05)
        # the judging workers, the forkserver they were forked from, multiprocessing's resource tracker
        helpers = _descendants(first.pid)
        os.kill(first.pid, signal.SIGKILL)  # the scan alone: its helpers end by themselves
        first.wait()
        ending = time.monotonic() + 15
        while time.monotonic() < ending and any(Path(f"/proc/{pid}").exists() for pid in helpers):
            time.sleep(0.1)
        left = [pid for pid in helpers if Path(f"/proc/{pid}").exists()]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)
        assert helpers and not left, "a judging worker outlived the killed scan"
        killed_at = len({json.loads(x)["domain"] for x in results.read_text().splitlines() if x.strip().endswith("}")})
        assert 0 < killed_at < len(net.hosts), "the kill came halfway"
        second = subprocess.run(command, capture_output=True, text=True, timeout=600)
        assert second.returncode == 0, second.stderr
        got = lines(results)
        keys = [(g["domain"], g["draft"]) for g in got]
        assert len(keys) == len(set(keys)) == len(net.hosts) * len(DRAFTS)  # none lost, none twice
        assert all(by_key(got)[(h.domain, d)]["status"] == h.expected[d] for h in net.hosts for d in DRAFTS)
        path = Outputs(prefix).warc
        spans = sorted(warc.spans(path), key=lambda s: s.offset)
        assert sorted(s.domain for s in spans) == sorted(net.domains())
        # each domain's records once, back to back, nothing after the last: no orphan of the kill
        assert all(a.offset + a.length == b.offset for a, b in zip(spans, spans[1:]))
        assert spans[-1].offset + spans[-1].length == path.stat().st_size
        assert len(warc.read_all(path)) == len(net.hosts)


@pytest.mark.mutants  # the everyday loop scans the first size; CI (--mutants) both
@pytest.mark.parametrize("size", [200, 5000])
def test_a_scan_of_thousands_gives_what_each_domain_alone_and_the_offline_judge_give(size: int, tmp_path: Path) -> None:
    """Issue 25: a scan of 5,000 simulated domains (most publishing nothing), judged on two worker
    processes; every line as its host says; a sample of domains scanned alone (half of them
    publishers) gives the same lines; ``adck judge`` on its WARC gives every line again, offline."""
    import random

    with simulated_internet(size, seed=25, publishing=0.01, slow_delay=SLOW) as net:
        out = Outputs(tmp_path / "big")
        # 8 in flight, as the module fixture: 32 overran the 1 s timeout on a loaded machine (two test sessions)
        stats = scan(net.domains(), options(net), out, concurrency=8, rate=200, judges=2)
        assert stats.scanned == size and stats.left == 0
        got = by_key(lines(out.results))
        assert len(got) == size * len(DRAFTS)
        assert all(got[(h.domain, d)]["status"] == h.expected[d] for h in net.hosts for d in DRAFTS)
        rng = random.Random(size)
        publishers = [h.domain for h in net.hosts if h.publishes]
        quiet = [h.domain for h in net.hosts if not h.publishes]
        sample = rng.sample(publishers, min(10, len(publishers))) + rng.sample(quiet, 10)
        profiles = [catalog.load(d) for d in DRAFTS]
        for domain in sample:
            for line in scan_domain(domain, options(net), live_recording(domain, options(net), profiles),
                                    warc_name=out.warc.name):
                assert json.loads(line.to_json()) == got[(domain, line.draft)], (domain, line.draft)
        again = Outputs(tmp_path / "judged")
        assert judge(out.warc, options(net), again) == size
        assert by_key(lines(again.results)) == got


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid``: its children, theirs, and so on (Linux's /proc)."""
    parent_of = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent_of[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
    found, todo = [], [pid]
    while todo:
        at = todo.pop()
        below = [child for child, parent in parent_of.items() if parent == at]
        found += below
        todo += below
    return found


def test_the_summary_page_plots_adoption_levels_and_failures(scanned) -> None:
    net, out, _ = scanned
    page = out.summary_html.read_text("utf-8")
    assert page.startswith("<!doctype html>") and "<script" not in page
    for heading in ("Adoption", "Conformance levels", "Clauses failed most often"):
        assert heading in page
    data = json.loads(out.summary_json.read_text())
    for draft, d in data["drafts"].items():
        assert f"{d['statuses']['found']} of {len(net.hosts)}" in page


def test_wilson_interval() -> None:
    from conformance.scan.summary import wilson

    low, high = wilson(5, 100)
    assert 0.02 < low < 0.05 < high < 0.12
    assert wilson(0, 0) == (0.0, 0.0) and wilson(0, 50)[0] == 0.0 and wilson(50, 50)[1] == 1.0


def test_a_deadline_leaves_the_rest_for_a_resumed_run(tmp_path: Path) -> None:
    with simulated_internet(12, seed=2, publishing=0.0) as net:
        out = Outputs(tmp_path / "d")
        stopped = scan(net.domains(), options(net), out, concurrency=2, rate=100, deadline=1e-9)
        assert stopped.left == len(net.hosts) and stopped.scanned == 0
        resumed = scan(net.domains(), options(net), out, concurrency=2, rate=100)
        assert resumed.scanned == len(net.hosts) and resumed.left == 0
        assert len(lines(out.results)) == len(net.hosts) * len(DRAFTS)


def test_domains_are_asked_in_a_shuffled_order_the_same_for_the_same_seed(tmp_path: Path) -> None:
    """Neighbours in a list (here eight hosts in a row share an address) are not asked together:
    the order is a shuffle of the list, the same for the same ``--seed``, another for another."""
    from dataclasses import replace

    with simulated_internet(16, seed=2, publishing=0.0) as net:
        def asked(seed: int, name: str) -> list[str]:
            order: list[str] = []
            scan(net.domains(), replace(options(net), seed=seed), Outputs(tmp_path / name), concurrency=1,
                 rate=1000, on_domain=lambda domain, _: order.append(domain))
            return order

        first, again, other = asked(1, "a"), asked(1, "b"), asked(2, "c")
        listed = net.domains()
    assert sorted(first) == sorted(listed) and first == again
    assert first != listed and other != first


@pytest.mark.parametrize(("argv", "said"), [
    (["scan", "{empty}"], "no domain"),
    (["scan", "{list}", "--draft", "adp"], "has no entry point"),
    (["scan", "{list}", "--draft", "aid@v1,v2.1"], "one revision per draft"),
    (["scan", "{missing}"], "No such file"),
    (["scan", "{list}", "--judges", "-1"], "0 or more"),
    (["scan", "{list}", "--judges", "two"], "0 or more"),
    (["judge", "{missing}"], "no such file"),
])
def test_the_commands_refuse_with_one_line(argv: list[str], said: str, tmp_path: Path, capsys) -> None:
    from conformance import cli

    (tmp_path / "empty.txt").write_text("# nothing\n")
    (tmp_path / "list.txt").write_text("example.test\n")
    names = {"{empty}": str(tmp_path / "empty.txt"), "{list}": str(tmp_path / "list.txt"),
             "{missing}": str(tmp_path / "missing.txt")}
    try:
        code = cli.main([names.get(a, a) for a in argv] + ["--out", str(tmp_path / "o")])
    except SystemExit as exc:  # argparse's own refusal of a value (its usage line, then the error)
        code = exc.code
    assert code == 2 and said in capsys.readouterr().err


def test_a_domain_whose_address_is_private_is_not_connected_to(tmp_path: Path) -> None:
    """localhost resolves to loopback: a scan (without --allow-private) refuses to connect."""
    out = Outputs(tmp_path / "p")
    scan(["localhost"], ScanOptions(drafts=("aiendpoint",), timeout=TIMEOUT), out, concurrency=1, rate=100)
    line = lines(out.results)[0]
    assert line["status"] == "unreachable" and "private-address" in line["detail"]
    again = Outputs(tmp_path / "j")
    judge(out.warc, ScanOptions(drafts=("aiendpoint",), timeout=TIMEOUT), again)
    assert lines(again.results) == [line]  # the refusal is recorded, and judged the same


def test_a_result_line_holds_no_secret_and_no_control_character() -> None:
    from conformance.scan.domain import DraftResult

    secret = "sk_live_51Hc0ffeeDEADbeef0123456789abcdefXYZ"
    line = DraftResult("a.test", "aiendpoint", "01", "found",
                       f"HTTP 200 (from https://u:{secret}@a.test/x?token={secret}) \x1b[31m").to_json()
    assert secret not in line and "\x1b" not in json.loads(line)["detail"]


def test_a_fault_of_the_kit_on_one_domain_does_not_end_the_scan(tmp_path: Path, monkeypatch) -> None:
    from conformance.scan import run as scan_run

    real = scan_run.scan_domain

    def flaky(domain, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        if domain == "b.example":
            raise RuntimeError("boom")
        return real(domain, *args, **kwargs)

    monkeypatch.setattr(scan_run, "scan_domain", flaky)
    out = Outputs(tmp_path / "f")
    stats = scan(["localhost", "b.example"], ScanOptions(drafts=("aiendpoint",), timeout=TIMEOUT), out,
                 concurrency=1, rate=100)
    got = by_key(lines(out.results))
    assert stats.scanned == 2 and got[("b.example", "aiendpoint")]["status"] == "error"
    assert "RuntimeError: boom" in got[("b.example", "aiendpoint")]["detail"]
