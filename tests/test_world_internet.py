"""The simulated internet (``conformance.world.internet``): what each virtual host serves, seen
through the kit's own fetcher and resolver, matches the status it says a scan should report."""

from __future__ import annotations

import json
import re
import socket
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import dns.resolver
import pytest

from conformance import catalog
from conformance.dns import DnsConfig, Resolver
from conformance.fetch import ConnectTo, Fetcher, HttpConfig, Limits
from conformance.scan.domain import classify
from conformance.world.internet import WELL_KNOWN, SimulatedInternet, simulated_internet

TIMEOUT = 1.0  # the scan's timeout in these tests; slow hosts answer after SLOW
SLOW = 2.0


@pytest.fixture(scope="module")
def net():
    with simulated_internet(200, seed=7, publishing=0.3, slow_delay=SLOW) as internet:
        yield internet


def fetcher(net: SimulatedInternet) -> Fetcher:
    return Fetcher(HttpConfig(ca_bundle=net.ca_bundle, connect_to=tuple(ConnectTo.parse(c) for c in net.connect_to),
                              limits=Limits(connect_timeout=TIMEOUT, total_timeout=TIMEOUT)))


def resolver(net: SimulatedInternet) -> Resolver:
    return Resolver(DnsConfig(nameservers=(net.nameserver_address,)))


def observed(net: SimulatedInternet, domain: str, draft: str, fetch: Fetcher) -> str:
    """What a scan makes of the draft's entry point at ``domain``: the scan's own classes
    (conformance.scan.domain.classify), so that a host's ``expected`` is the scan's reading."""
    return classify(domain, catalog.load(draft).scan, fetch, resolver(net))[0]


def sample(net: SimulatedInternet):
    """Every publishing or unreachable host, and 20 that publish nothing."""
    quiet = [h for h in net.hosts if set(h.kinds.values()) == {"none"}]
    return [h for h in net.hosts if h.publishes or "unreachable" in h.kinds.values()] + quiet[:20]


def test_every_kind_is_there(net):
    kinds = Counter(k.partition(":")[0] for h in net.hosts for d, k in h.kinds.items() if d in WELL_KNOWN)
    assert set(kinds) == {"none", "reference", "broken", "soft-404", "redirect", "slow", "oversized", "hostile",
                          "unreachable"}
    assert {h.kinds["aid"].partition(":")[0] for h in net.hosts} == {"none", "reference", "broken"}
    assert len(net.hosts) == 200 and len(set(net.domains())) == 200
    assert sum(h.publishes for h in net.hosts) == 60
    assert all(d.endswith(".adck.test") for d in net.domains())


def test_http_hosts_serve_what_they_expect(net):
    fetch = fetcher(net)
    jobs = [(h, draft) for h in sample(net) for draft in WELL_KNOWN]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda job: fetch.fetch(f"https://{job[0].domain}{WELL_KNOWN[job[1]]}"), jobs))
        seen = list(pool.map(lambda job: observed(net, job[0].domain, job[1], fetch), jobs))
    wrong = [(h.domain, d, h.kinds[d], h.expected[d], s, f.describe_error(), f.final and f.final.status)
             for (h, d), f, s in zip(jobs, results, seen) if s != h.expected[d]]
    assert not wrong
    for (h, d), f in zip(jobs, results):
        kind = h.kinds[d]
        if kind == "reference":  # the reference document, as JSON, naming its host, not the reference's
            assert f.final.status == 200 and len(f.exchanges) == 1
            assert isinstance(json.loads(f.final.body), dict)
            assert not re.search(r"(?<![a-z0-9-])(publisher|host|aidre)\.adck\.test", f.final.body.decode())
        elif kind == "soft-404":
            assert f.final.status == 200 and f.final.header("content-type").startswith("text/html")
        elif kind == "redirect":
            assert [e.status for e in f.exchanges] == [301, 200] and f.final_url.startswith(f"https://{h.domain}/moved/")
        elif kind == "none":
            assert f.final.status == 404
        elif kind == "slow":
            assert f.error_kind == "timeout"
        elif kind == "oversized" or h.detail.get(d) == "gzip-bomb":
            assert f.error_kind == "too-large"
        elif kind == "unreachable":
            assert f.error_kind == "connect"


def test_aid_records(net):
    lookup = resolver(net)
    for h in net.hosts:
        answer = lookup.txt(f"_agent.{h.domain}")
        if h.expected["aid"] == "found":
            assert answer.status == "ok"
            assert any(t.startswith("v=aid") for t in answer.texts())
            if h.kinds["aid"] == "reference":  # the reference's records, naming this host
                assert any(f"config=https://{h.domain}/.well-known/aid.json" in t for t in answer.texts())
                assert not any("provider.adck.test" in t for t in answer.texts())
        else:
            assert h.expected["aid"] == "not-found" and answer.status == "nxdomain", (h, answer)
    # an AID publisher's manifest is on its site (a host publishing for aid alone serves no other)
    fetch = fetcher(net)
    host = next(h for h in net.hosts if h.kinds["aid"] == "reference" and h.kinds["aiendpoint"] == "none")
    got = fetch.fetch(f"https://{host.domain}/.well-known/aid.json")
    assert got.final.status == 200 and isinstance(json.loads(got.final.body), dict)


def test_addresses_are_shared_and_published(net):
    shared = Counter(h.address for h in net.hosts)
    assert max(shared.values()) > 1 and len(shared) > 1
    assert all(a.startswith("127.") for a in shared)
    res = dns.resolver.Resolver(configure=False)
    res.nameservers, res.port = ["127.0.0.1"], net.nameserver_address[1]
    for h in net.hosts[::25]:
        assert [r.address for r in res.resolve(h.domain, "A")] == [h.address]
    down = [h for h in net.hosts if "unreachable" in h.kinds.values()]
    assert down and all(res.resolve(h.domain, "A") for h in down)  # they resolve; only connecting fails


def _ask(tls_socket, request: bytes) -> bytes:
    """One request on an open connection, and its whole response (headers and Content-Length body)."""
    tls_socket.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        data += tls_socket.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0 if request.startswith(b"HEAD ") else int(re.search(rb"(?im)^content-length: *(\d+)", head).group(1))
    while len(body) < length:
        body += tls_socket.recv(4096)
    return head


def _connect(port: int, host: str):  # noqa: ANN202 - an ssl.SSLSocket (closed by the caller's ``with``)
    """A TLS connection to a listener on loopback, for ``host``, trusting the mock CA."""
    import ssl

    from conformance.world import tls

    context = ssl.create_default_context(cafile=str(tls.ca_bundle()))
    return context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5), server_hostname=host)


def _quiet_host(net: SimulatedInternet) -> str:
    return next(h for h in net.hosts if set(h.kinds.values()) == {"none"}).domain


def test_a_host_keeps_its_connection_open_between_bodiless_requests(net):
    """Most web servers keep a connection open (a scan's three GETs to a domain then share one TLS
    handshake, as on the internet); a request with a body still closes it."""
    host = _quiet_host(net)
    with _connect(net.world.port("https"), host) as conn:
        heads = [_ask(conn, f"{method} /.well-known/{name} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
                 for method, name in (("GET", "ai"), ("HEAD", "woa.json"), ("GET", "ai-discovery"))]
        assert all(b"connection: close" not in h.lower() for h in heads), heads
        head = _ask(conn, f"POST /x HTTP/1.1\r\nHost: {host}\r\nContent-Length: 2\r\n\r\n{{}}".encode())
        assert b"connection: close" in head.lower()
        assert conn.recv(1) == b""  # closed after it


def test_a_scenario_world_closes_every_connection_unless_asked(net):
    """ScenarioWorld keeps Werkzeug's default (close) for every suite's world; only the simulated
    internet asks for kept connections."""
    from conformance.world.scenarios import ScenarioWorld

    host = _quiet_host(net)
    with ScenarioWorld() as world, _connect(world.port("https"), host) as conn:
        head = _ask(conn, f"GET /.well-known/ai HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        assert b"connection: close" in head.lower(), head


def facts(internet: SimulatedInternet):
    return [(h.domain, h.kinds, h.expected, h.address, h.detail) for h in internet.hosts]


def test_same_seed_same_hosts_and_it_stops():
    with simulated_internet(120, seed=3, publishing=0.2) as a:
        first, port = facts(a), a.world.port("https")
    with simulated_internet(120, seed=3, publishing=0.2) as b:
        assert facts(b) == first
    with simulated_internet(120, seed=4, publishing=0.2) as c:
        assert facts(c) != first
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass
