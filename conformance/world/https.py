"""An HTTP(S) origin on loopback serving a :class:`~conformance.world.site.Site`.

Built on pytest-httpserver (Werkzeug, threaded) with a certificate from the mock CA. A
target name (``publisher.adck.test``) is mapped to the loopback port with ``--connect-to``,
so the kit's fetcher does real SNI and certificate checks against the name.
"""

from __future__ import annotations

import gzip
import logging
import re
import socket
import time
from dataclasses import dataclass, replace

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from conformance.fetch import ConnectTo, HttpConfig, Limits
from conformance.world import tls
from conformance.world.site import Site

logging.getLogger("werkzeug").setLevel(logging.ERROR)


@dataclass
class MockOrigin:
    """A running origin: its public URL, and how to reach and trust it."""

    site: Site
    server: HTTPServer

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def origin(self) -> str:
        """The URL a user would type: ``https://publisher.adck.test``."""
        return f"{self.site.scheme}://{self.site.hostname}"

    @property
    def connect_to(self) -> ConnectTo:
        default_port = 443 if self.site.scheme == "https" else 80
        return ConnectTo(self.site.hostname, default_port, "127.0.0.1", self.port)

    def http_config(self, limits: Limits = Limits()) -> HttpConfig:
        return HttpConfig(ca_bundle=tls.ca_bundle(), connect_to=(self.connect_to,), limits=limits)

    def stop(self) -> None:
        if self.server.is_running():
            self.server.stop()

    def __enter__(self) -> "MockOrigin":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def unauthorized(site: Site, route, request: Request) -> Response | None:
    """The 401 of a site that requires a bearer token (``Site.auth``) on ``route``, when the
    request does not carry it (or, ``refuse_all``, whatever it carries); None: let it through."""
    auth = site.auth
    if not auth or route.path not in auth.get("paths", ()) or request.method not in auth.get("methods", (request.method,)):
        return None
    from conformance.world.site import TEST_TOKEN

    given = request.headers.get("Authorization", "")
    scheme, _, token = given.partition(" ")
    if scheme.lower() == "bearer" and token.strip() == auth.get("token", TEST_TOKEN) and not auth.get("refuse_all"):
        return None
    body = auth.get("body", "")
    if auth.get("echo"):  # a hostile target: every request header, values included, sent back
        import json

        body = json.dumps({"error": "unauthorized", "you_sent": dict(request.headers)})
    response = Response(body.encode("utf-8"), status=401)
    response.headers["Content-Type"] = auth.get("content_type", "application/json")
    challenge = f'Bearer realm="{site.hostname}"'
    response.headers["WWW-Authenticate"] = challenge + (', error="invalid_token"' if given else "")
    response.headers["Cache-Control"] = "no-store"
    return response


class Counter:
    """Requests counted by one running origin (a variant's rate limit), safe across threads."""

    def __init__(self) -> None:
        import threading

        self._lock, self.count = threading.Lock(), 0

    def next(self) -> int:
        with self._lock:
            self.count += 1
            return self.count


def rate_limited(site: Site, route, request: Request, counter: Counter | None) -> Response | None:
    """The 429 of a site that rate-limits ``route`` (``Site.rate_limit``) once its allowance in
    this origin is spent; None: let it through."""
    limit = site.rate_limit
    if not limit or counter is None or route.path not in limit.get("paths", ()) \
            or request.method not in limit.get("methods", (request.method,)):
        return None
    if counter.next() <= int(limit.get("after", 0)):
        return None
    response = Response(str(limit.get("body", "")).encode("utf-8"), status=429)
    response.headers["Content-Type"] = limit.get("content_type", "application/json")
    response.headers["Retry-After"] = str(limit.get("retry_after", "60"))
    for name, value in (limit.get("headers") or {}).items():
        response.headers[name] = str(value)
    return response


def respond(site: Site, request: Request, counter: Counter | None = None) -> Response:
    """What ``site`` answers to ``request``: the one place a route becomes a response
    (``counter``: the running origin's, for a variant's rate limit)."""
    route = site.route_for(request.path, request.query_string.decode("latin-1"), request.method)
    if route is None:
        response = Response(b"not found\n", status=404)
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
        return response
    refused = unauthorized(site, route, request) or rate_limited(site, route, request, counter)
    if refused is not None:
        return refused
    if route.delay:
        time.sleep(route.delay)
    if route.handler is not None:
        from conformance.world.handlers import answer

        return answer(site, route, request)
    if route.accept_exactly is not None and request.headers.get("Accept") != route.accept_exactly:
        response = Response(b"not acceptable\n", status=406)
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
        return response
    if route.refuse_when and route.refuse_when[1] in request.headers.get(route.refuse_when[0], ""):
        response = Response(b"refused\n", status=route.refuse_status)
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
        return response
    language = next((tag for tag in route.localized
                     if request.headers.get("Accept-Language", "").lower().startswith(tag.lower())), None)
    if language is not None:
        route = replace(route, patch=route.patch + tuple(route.localized[language]))
    body = site.render(route)
    gzipped = route.gzip and "gzip" in request.headers.get("Accept-Encoding", "").lower()
    if gzipped:
        body = gzip.compress(body)
    response = Response(body, status=route.status)
    del response.headers["Content-Type"]  # Werkzeug adds one; a route sets its own
    for name, value in route.headers:
        response.headers.add(name, value)
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    if route.gzip:
        response.headers.add("Vary", "Accept-Encoding")
    if route.localized:
        response.headers["Content-Language"] = language or "en"
        response.headers.add("Vary", "Accept-Language")
    return response


class LoopbackServer(HTTPServer):
    """pytest-httpserver's server, polling for shutdown every 50 ms instead of 500 (a run stops
    its servers at the end, and the kit's self-tests start hundreds of runs), and answering on
    sockets with TCP_NODELAY: Werkzeug writes a response's headers and body in separate small
    writes, and Nagle's algorithm held the second one back until the client's delayed ACK,
    about 10 ms on every HTTPS exchange (five times the exchange itself)."""

    def thread_target(self) -> None:
        server = self.server
        assert server is not None
        accept = server.get_request

        def get_request():
            connection, address = accept()
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return connection, address

        server.get_request = get_request  # type: ignore[method-assign]
        server.serve_forever(poll_interval=0.05)


def serve(site: Site) -> MockOrigin:
    """Start an origin for ``site`` on 127.0.0.1 (a free port); stop it with ``.stop()``."""
    ssl_context = None
    if site.scheme == "https":
        ssl_context = tls.server_context(site.certificate_hostname or site.hostname,
                                         maximum=site.tls_max, minimum=site.tls_min)
    server = LoopbackServer(host="127.0.0.1", port=0, ssl_context=ssl_context, threaded=True)
    counter = Counter()
    server.expect_request(re.compile(".*")).respond_with_handler(lambda request: respond(site, request, counter))
    server.start()
    return MockOrigin(site=site, server=server)
