"""The scenario world: where the kit plays the server for a client under test.

One set of loopback listeners serves every scenario of a run, each scenario under a name of
its own (``five-redirects-3.adck.test``), dispatched by the Host header, and records every
request a client sends. Listeners:

* ``https``       a certificate for ``*.adck.test`` from the mock CA (the one clients trust)
* ``http``        plain HTTP, for the same names (a client should never reach it)
* ``wrong-name``  a mock-CA certificate for another name (RFC 6125 hostname check)
* ``untrusted``   a certificate for ``*.adck.test`` from a CA the client was not told to trust
* ``expired``     a mock-CA certificate for ``*.adck.test`` that expired years ago (real time:
                  certificate dates are checked against the machine's clock, not the harness's)
"""

from __future__ import annotations

import functools
import itertools
from datetime import datetime
import json
import logging
import re
import socket
import threading
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

import trustme
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response
from werkzeug.http import http_date
from werkzeug.serving import WSGIRequestHandler

from conformance.fetch import Exchange
from conformance.harness.adapters import Step
from conformance.world import tls
from conformance.world.handlers import request_body
from conformance.world.https import LoopbackServer, respond
from conformance.world.site import Mutant, Site, mutate

if TYPE_CHECKING:
    import httpx

logging.getLogger("werkzeug").setLevel(logging.ERROR)

DOMAIN = "adck.test"
Listener = Literal["https", "http", "wrong-name", "untrusted", "expired"]


@dataclass
class Recorded:
    """A request a client sent, as the world saw it, and the status it got."""

    listener: str
    host: str
    method: str
    path: str
    query: str
    headers: dict[str, str]
    status: int
    #: The request body (at most :data:`~conformance.world.handlers.MAX_REQUEST_BODY` bytes).
    body: bytes = b""

    def exchange(self) -> Exchange:
        scheme = "http" if self.listener == "http" else "https"
        url = f"{scheme}://{self.host}{self.path}" + (f"?{self.query}" if self.query else "")
        return Exchange(method=self.method, url=url, request_headers=self.headers, status=self.status,
                        reason=f"(served by the {self.listener} listener)", request_body=self.body)


@dataclass
class Scenario:
    """One server set-up for one client check: a site under its own name."""

    name: str
    host: str
    site: Site
    listener: Listener
    world: "ScenarioWorld"
    steps: list[Step] = field(default_factory=list)

    @property
    def authority(self) -> str:
        return f"https://{self.host}"

    def requests(self, listener: str | None = None) -> list[Recorded]:
        """Every request the client sent to this scenario's name (on one listener, or all)."""
        return [r for r in self.world.log_of(self.host) if listener is None or r.listener == listener]

    def network(self) -> dict:
        """The harness request's ``network``: how the client reaches this scenario's name
        (in the respx world nothing connects, so there is no mapping)."""
        w = self.world
        return {
            "connect_to": [] if w.mode == "respx" else [f"{self.host}:443:127.0.0.1:{w.port(self.listener)}",
                                                        f"{self.host}:80:127.0.0.1:{w.port('http')}"],
            "ca_file": str(tls.ca_bundle()),
            "ca_pem": tls.authority().cert_pem.bytes().decode("ascii"),
        }

    def evidence(self) -> list:
        return [r.exchange() for r in self.requests()] + list(self.steps)


class ScenarioWorld:
    """The listeners of a run's scenarios; stop it with ``stop()`` (or use ``with``)."""

    def __init__(self, mode: Literal["sockets", "respx"] = "sockets", *, keep_alive: bool = False) -> None:
        """``sockets``: real listeners on loopback (TLS included). ``respx``: no sockets at all;
        every httpx request of this process is answered in-process through respx, for Python
        clients built on httpx (certificate checks cannot be observed there). ``keep_alive``:
        the listeners keep a connection open after a GET or HEAD without a body, as most web
        servers do (Werkzeug closes every connection)."""
        self.mode = mode
        #: The clients' clock of the current step (set by the driver): responses carry it as Date.
        self.clock: datetime | None = None
        self._sites: dict[str, Site] = {}
        self._log: list[Recorded] = []
        self._lock = threading.Lock()
        self._counter = itertools.count(1)
        self._servers: dict[str, HTTPServer] = {}
        self._respx = None
        if mode == "respx":
            import respx

            self._respx = respx.mock(assert_all_called=False, assert_all_mocked=True)
            self._respx.route().mock(side_effect=self._respx_answer)
            self._respx.start()
            return
        foreign_ca = trustme.CA(organization_name="a CA nobody trusts")
        contexts = {
            "https": tls.server_context(f"*.{DOMAIN}"),
            "http": None,
            "wrong-name": tls.server_context("not-the-name-you-asked-for.invalid"),
            "untrusted": _context(foreign_ca, f"*.{DOMAIN}"),
            "expired": _context(tls.authority(), f"*.{DOMAIN}", expired=True),
        }
        for name, ctx in contexts.items():
            server = LoopbackServer(host="127.0.0.1", port=0, ssl_context=ctx, threaded=True)
            server.expect_request(re.compile(".*")).respond_with_handler(self._handler(name))
            server.start()
            server.server.RequestHandlerClass = _KeepAliveHandler if keep_alive else _OneDateHandler  # type: ignore[union-attr]
            self._servers[name] = server

    def _respx_answer(self, request: "httpx.Request") -> "httpx.Response":
        import httpx
        from werkzeug.test import EnvironBuilder

        listener = "http" if request.url.scheme == "http" else "https"
        wz = EnvironBuilder(method=request.method, path=request.url.path,
                            query_string=request.url.query.decode("latin-1"),
                            headers=list(request.headers.items()), data=request.content).get_request()
        response = self._answer(listener, wz)
        return httpx.Response(response.status_code, headers=list(response.headers.items()),
                              content=b"".join(response.response))

    def _handler(self, listener: str):
        return lambda request: self._answer(listener, request)

    def _answer(self, listener: str, request: Request) -> Response:
        raw = request.host or ""
        host = raw if raw.startswith("[") else raw.rsplit(":", 1)[0].lower()
        body = request_body(request) if request.method not in ("GET", "HEAD") else b""
        site = self._sites.get(host)
        response = respond(site, request) if site is not None else Response(b"no such scenario\n", status=421)
        etag = response.headers.get("ETag")
        if response.status_code == 200 and etag and etag in request.headers.get("If-None-Match", ""):
            response = _not_modified(response)  # a conditional GET that matches the route's ETag
        # the client's clock, so that Date and max-age agree with `now` (the machine's, without one);
        # a dynamic route that dates its answer itself keeps its Date (a signed PKA response is
        # dated on the clock it was signed on: AID v1.2 Appendix D)
        if "Date" not in response.headers:
            response.headers["Date"] = http_date(self.clock) if self.clock is not None else http_date()
        with self._lock:
            self._log.append(Recorded(listener, host, request.method, request.path,
                                      request.query_string.decode("latin-1"), dict(request.headers),
                                      response.status_code, body or b""))
        return response

    def port(self, listener: str) -> int:
        return self._servers[listener].port if listener in self._servers else 0

    def request_count(self) -> int:
        """Requests clients sent to this world so far."""
        with self._lock:
            return len(self._log)

    def log_of(self, host: str) -> list[Recorded]:
        with self._lock:
            return [r for r in self._log if r.host == host]

    def add(self, name: str, site: Site, *, patch: list[dict] | None = None, routes: list[dict] | None = None,
            listener: Listener = "https") -> Scenario:
        """A new scenario: ``site`` changed like a mutant (JSON patch, route changes), under a fresh name."""
        if self.mode == "respx" and listener in ("wrong-name", "untrusted", "expired"):
            from conformance.outcomes import outside_world

            outside_world("certificate checks need real TLS: run this clause in the socket world (without --world respx)")
        host = f"{re.sub(r'[^a-z0-9-]+', '-', name.lower()).strip('-')}-{next(self._counter)}.{DOMAIN}"
        routes = json.loads(json.dumps(routes or []).replace("{host}", host))  # a route may name its host
        changed = mutate(site, Mutant(name=name, clause=None, summary=name, patch=tuple(patch or ()),
                                      routes=tuple(routes or ())))
        changed = replace(changed, hostname=host,  # a document may name its host too: {host}
                          document=json.loads(json.dumps(changed.document).replace("{host}", host)))
        with self._lock:
            self._sites[host] = changed
        return Scenario(name=name, host=host, site=changed, listener=listener, world=self)

    def change(self, scenario: Scenario, *, patch: list[dict] | None = None, routes: list[dict] | None = None) -> None:
        """Change a scenario's site between two steps (a provider updating its manifest)."""
        routes = json.loads(json.dumps(routes or []).replace("{host}", scenario.host))
        patch = json.loads(json.dumps(patch or []).replace("{host}", scenario.host))
        changed = mutate(scenario.site, Mutant(name=scenario.name, clause=None, summary="changed",
                                               patch=tuple(patch), routes=tuple(routes)))
        scenario.site = changed
        with self._lock:
            self._sites[scenario.host] = changed

    def stop(self) -> None:
        if self._respx is not None:
            self._respx.stop()
            self._respx = None
        for server in self._servers.values():
            if server.is_running():
                server.stop()

    def __enter__(self) -> "ScenarioWorld":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _context(ca: trustme.CA, hostname: str, expired: bool = False):
    import ssl

    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    dates = {"not_before": datetime(2020, 1, 1), "not_after": datetime(2021, 1, 1)} if expired else {}
    ca.issue_cert(hostname, **dates).configure_cert(ctx)
    return ctx


def _not_modified(response: Response) -> Response:
    """304 Not Modified for a 200: the same validators and freshness headers, no body."""
    kept = {k: v for k, v in response.headers.items()
            if k.lower() in ("etag", "cache-control", "expires", "last-modified", "vary")}
    answer = Response(b"", status=304)
    del answer.headers["Content-Type"]
    for name, value in kept.items():
        answer.headers[name] = value
    return answer


class _OneDateHandler(WSGIRequestHandler):
    """Werkzeug's handler without the Date of the machine's clock that http.server adds to
    every response: the world sends one Date, the clients' clock (two Dates, one of them in
    real time, would make Expires and Retry-After dates unreadable for a client)."""

    def send_response(self, code: int, message: str | None = None) -> None:
        self.log_request(code)
        self.send_response_only(code, message)
        self.send_header("Server", self.version_string())


class _KeepAliveHandler(_OneDateHandler):
    """:class:`_OneDateHandler` keeping the connection open after a GET or HEAD without a body,
    as most web servers do: Werkzeug sends ``Connection: close`` on every response (it cannot
    drain an unread body before the next request line, which a bodiless request does not have).
    An idle connection is closed after ``timeout`` seconds."""

    timeout = 10

    def make_environ(self):  # noqa: ANN201 - Werkzeug's WSGIEnvironment
        environ = super().make_environ()
        if self._reusable():
            # Werkzeug reads whatever follows a response, to drain an unread body: that would be
            # the next request on a kept connection (it then waits for 10 MB). A bodiless request
            # leaves nothing to drain, so it looks at a socket nothing is ever written to.
            self.connection = _nothing_to_read()
        return environ

    def run_wsgi(self) -> None:
        connection = self.connection
        try:
            super().run_wsgi()
        finally:
            self.connection = connection

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "connection" and value.lower() == "close" and self._reusable():
            return
        super().send_header(keyword, value)

    def _reusable(self) -> bool:
        return (self.request_version == "HTTP/1.1" and not self.close_connection
                and self.command in ("GET", "HEAD")
                and "Content-Length" not in self.headers and "Transfer-Encoding" not in self.headers)


@functools.cache
def _socket_pair() -> tuple[socket.socket, socket.socket]:
    return socket.socketpair()


def _nothing_to_read() -> socket.socket:
    """A socket nothing is ever written to (one end of a pair both kept open for the process)."""
    return _socket_pair()[0]
