"""Issue #21, points 2 and 3: every budget counts every request sent (redirect hops
included), and every URL the target gives (in a document, an answer or a header) goes through
the one private-address guard of :meth:`conformance.fetch.Fetcher.fetch`.

* a server that answers every POST with a 307 to itself gets no more POSTs than
  ``--request-budget`` / ``--invoke-budget`` allows; what the budget stopped is untestable;
* an AIDRE discovery document naming its collections and chunk endpoints at loopback
  addresses other than the target's own makes the kit connect to none of them (unless
  ``--allow-private``);
* a hostile document naming private URLs in every URL field of each draft, run through a
  Fetcher that records every connection attempt, reaches no private address but the target's.
"""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path
from typing import Iterator

import pytest

from conformance import cli
from tests.conftest import ends
from tests.hostile import HostileServer
from tests.hostile.attacks import HOST, _ca, _tls


class Recorder:
    """A listening loopback socket (IPv4 or IPv6) that records every connection it accepts."""

    def __init__(self, family: int = socket.AF_INET) -> None:
        host = "::1" if family == socket.AF_INET6 else "127.0.0.1"
        self._sock = socket.create_server((host, 0), family=family)
        self._sock.settimeout(0.2)
        self.port: int = self._sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self._sock.close()


def _ipv6() -> bool:
    try:
        socket.create_server(("::1", 0), family=socket.AF_INET6).close()
        return True
    except OSError:
        return False


class Aidre(HostileServer):
    """A minimal AIDRE server on the target's name: its discovery document (``document``), a
    search that answers one result, or (``loop``) a 307 to itself for every POST."""

    def __init__(self, document: dict, loop: bool = False) -> None:
        self.document = document
        self.loop = loop
        self.posts = 0
        super().__init__(_tls())

    def handle(self, conn: socket.socket) -> None:
        head, _ = self.read_request(conn)
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        method, _, rest = line.partition(" ")
        path = rest.split(" ")[0]
        if method == "POST":
            with self._lock:
                self.posts += 1
            if self.loop:
                conn.sendall(f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {path}\r\nContent-Length: 0\r\n"
                             "Connection: close\r\n\r\n".encode())
                return
            value: object = {"results": [{"id": "c1", "score": 0.9, "text": "single sign-on", "collection": "docs"}]}
        elif path.startswith("/.well-known/ai-discovery"):
            value = self.document
        else:
            conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        body = json.dumps(value).encode()
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/aidre+json\r\nConnection: close\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)


def _document(**endpoints: str) -> dict:
    return {"aidre": "1.0", "name": "Hostile", "endpoints": {"search": "/search", **endpoints},
            "embedding_spaces": [], "capabilities": {"text_query": True}}


def _run(server: Aidre, tmp_path: Path, *extra: str) -> tuple[int, dict]:
    reports = tmp_path / "reports"
    reports.mkdir(exist_ok=True)
    argv = ["run", "aidre", "--target", f"https://{HOST}", "--connect-to", f"{HOST}:443:127.0.0.1:{server.port}",
            "--ca-bundle", str(_ca()), "--timeout", "3", *extra, "--report-dir", str(reports), "--format", "json"]
    code = ends(cli.main, argv)
    return code, json.loads((reports / "report.json").read_text("utf-8"))


def _results(report: dict) -> list[dict]:
    return report["results"]


# ------------------------------------------------------------------ (a) budgets count hops

@pytest.mark.parametrize("option", ["--request-budget", "--invoke-budget"])
def test_a_post_redirecting_to_itself_gets_no_more_requests_than_the_budget(
        option: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with Aidre(_document(), loop=True) as server:
        code, report = _run(server, tmp_path, option, "3")
    capsys.readouterr()
    assert server.posts <= 3, f"{server.posts} POSTs reached the server with {option} 3"
    assert code in (0, 1), code  # a clean verdict, no crash
    spent = [r for r in _results(report) if r["outcome"] == "untestable" and "budget" in r["message"]]
    assert spent, "no clause names the budget that stopped it"
    assert any("--request-budget" in r["message"] and "redirect hops included" in r["message"] for r in spent)
    # the report says the budget stopped the run, and which clauses it left untestable
    assert all(r["untestable_reason"] == "budget" for r in spent), [(r["clause"], r["untestable_reason"]) for r in spent]
    said = [p for p in report["summary"]["partial_reasons"] if "request budget" in p]
    assert said and all(r["clause"] in said[0] for r in spent[:5]), report["summary"]["partial_reasons"]
    assert not [r for r in _results(report) if r["outcome"] == "fail" and "budget" in r["message"]]
    assert report["summary"]["level"] != "full"


def test_the_invoker_counts_each_redirect_hop() -> None:
    from conformance.fetch import Fetcher, HttpConfig
    from conformance.invoke import Invoker
    from conformance.outcomes import Untestable

    loop = b"HTTP/1.1 307 Temporary Redirect\r\nLocation: /x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    from tests.hostile import Canned

    with Canned(loop) as server, Fetcher(HttpConfig()) as fetcher:
        invoker = Invoker(fetcher, allowed=True, budget=3, named_host=None)
        with pytest.raises(Untestable, match="budget"):
            invoker.post(f"http://127.0.0.1:{server.port}/x", b"{}")
        assert len(server.requests) == 3 and invoker.sent == 3
        with pytest.raises(Untestable, match="budget"):
            invoker.post(f"http://127.0.0.1:{server.port}/x", b"{}")
        assert len(server.requests) == 3


# ------------------------------------------------------------------ (b) document-given private URLs

@pytest.fixture
def insiders() -> Iterator[list[Recorder]]:
    made = [Recorder()]
    if _ipv6():
        made.append(Recorder(socket.AF_INET6))
    yield made
    for r in made:
        r.close()


def _private_document(insiders: list[Recorder]) -> dict:
    v4 = insiders[0]
    v6 = insiders[-1]
    v6_host = f"[::1]:{v6.port}" if v6 is not v4 else f"127.0.0.1:{v4.port}"
    return _document(collections=f"https://{v6_host}/collections",
                     chunk=f"https://127.0.0.1:{v4.port}/chunks/{{id}}")


PRIVATE = "not the host the user named"


def test_document_given_private_endpoints_are_not_fetched(insiders: list[Recorder], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture) -> None:
    with Aidre(_private_document(insiders)) as server:
        code, report = _run(server, tmp_path)
    capsys.readouterr()
    assert code in (0, 1)
    assert [r.connections for r in insiders] == [0] * len(insiders), "the kit connected to a private address"
    results = _results(report)
    refused = [r for r in results if PRIVATE in r["message"]]
    assert refused, "no clause says the private address was refused"
    assert all(r["outcome"] in ("untestable", "not-applicable") for r in refused), \
        [(r["clause"], r["outcome"]) for r in refused]
    collections = [r for r in results if r["clause"].startswith("AIDRE-4-")]
    assert collections and all(r["outcome"] != "fail" for r in collections)
    assert any(r["clause"].startswith("AIDRE-4-") and PRIVATE in r["message"] for r in collections)
    assert any(r["clause"].startswith("AIDRE-8-") and PRIVATE in r["message"] for r in refused), \
        [(r["clause"], r["message"][:80]) for r in results if r["clause"].startswith("AIDRE-8")]


def test_allow_private_fetches_them(insiders: list[Recorder], tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with Aidre(_private_document(insiders)) as server:
        code, _ = _run(server, tmp_path, "--allow-private")
    capsys.readouterr()
    assert code in (0, 1)
    assert all(r.connections > 0 for r in insiders), [r.connections for r in insiders]


def test_search_at_a_private_address_is_not_sent(insiders: list[Recorder], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture) -> None:
    document = _document(search=f"https://127.0.0.1:{insiders[0].port}/search")
    with Aidre(document) as server:
        code, report = _run(server, tmp_path)
    capsys.readouterr()
    assert code in (0, 1)
    assert insiders[0].connections == 0
    assert server.posts == 0
    assert any(PRIVATE in r["message"] for r in _results(report))


# ------------------------------------------------------------------ every fetch goes through the guard

@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, bool]]:
    """Every TCP connection the kit's fetcher opened: (host, port, mapped by --connect-to).
    The fetcher's one way out (``_MappedBackend.connect_tcp``): a new fetch of a URL the target
    gave that skips the guard shows here as an unmapped private host."""
    from conformance import fetch

    seen: list[tuple[str, int, bool]] = []
    original = fetch._MappedBackend.connect_tcp

    def connect_tcp(self, host, port, *args, **kwargs):
        mapped = any(m.maps(host, port) for m in self._mappings)
        stream = original(self, host, port, *args, **kwargs)  # the guard refuses by raising
        seen.append((host, port, mapped))
        return stream

    monkeypatch.setattr(fetch._MappedBackend, "connect_tcp", connect_tcp)
    return seen


def _unguarded(seen: list[tuple[str, int, bool]]) -> list[tuple[str, int]]:
    from conformance.fetch import is_private_address

    return [(h, p) for h, p, mapped in seen if not mapped and is_private_address(h)]


def test_no_aidre_url_of_the_document_reaches_a_private_address(
        insiders: list[Recorder], connections: list, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    v4, v6 = insiders[0], insiders[-1]
    six = f"[::1]:{v6.port}" if v6 is not v4 else f"127.0.0.1:{v4.port}"
    document = _document(search=f"https://127.0.0.1:{v4.port}/search", collections=f"https://{six}/collections",
                         chunk=f"https://{six}/chunks/{{id}}")
    with Aidre(document) as server:
        _run(server, tmp_path)
    capsys.readouterr()
    assert connections, "the fetcher was not used"
    assert _unguarded(connections) == [] and [r.connections for r in insiders] == [0] * len(insiders)


def test_no_woa_url_of_the_document_reaches_a_private_address(
        insiders: list[Recorder], connections: list) -> None:
    import copy
    from dataclasses import replace

    from tests.conftest import quiet_run
    from tests.test_woa_host import DRAFT, _rest_only_site, live

    site = _rest_only_site()
    doc = copy.deepcopy(site.document)
    doc["transports"]["rest"]["base"] = f"https://127.0.0.1:{insiders[0].port}"
    with live(replace(site, document=doc)) as reach:
        result = ends(quiet_run, DRAFT, "https://host.adck.test", seed=3, invoke=True, **reach)
    assert result.report is not None and result.exit_code in (0, 1)
    assert connections, "the fetcher was not used"
    assert _unguarded(connections) == [] and insiders[0].connections == 0
    assert not [r.clause for r in result.report.results if r.outcome == "error"]
