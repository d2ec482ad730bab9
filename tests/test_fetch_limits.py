"""The fetcher against hostile and tricky servers: every read is bounded in time, size and
redirects, and a misbehaving target yields an error kind, never an exception or a hang.

Everything listens on 127.0.0.1; names (``*.adck.test``) reach it only through
``--connect-to`` mappings, so no test leaves loopback.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import re
from typing import Iterator

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from conformance import api
from conformance.fetch import ConnectTo, Fetch, Fetcher, HttpConfig, Limits
from conformance.world import tls
from conformance.world.https import MockOrigin, serve
from conformance.world.site import Route, Site

try:  # tests/ as a package, or (pytest's rootdir-less default) tests/ on sys.path
    from tests import hostile
    from tests.conftest import ends
except ImportError:  # pragma: no cover
    import hostile  # type: ignore[no-redef]
    from conftest import ends  # type: ignore[no-redef]

CAP = 64 * 1024
FAST = Limits(total_timeout=1, connect_timeout=1, max_body_bytes=CAP)


def make_fetcher(*connect_to: ConnectTo | str, ca: bool = True, limits: Limits = FAST) -> Fetcher:
    mappings = tuple(ConnectTo.parse(c) if isinstance(c, str) else c for c in connect_to)
    return Fetcher(HttpConfig(ca_bundle=tls.ca_bundle() if ca else None, connect_to=mappings, limits=limits))


def _fetch(fetcher: Fetcher, url: str) -> Fetch:
    with fetcher:
        return fetcher.fetch(url)


def fetched(fetcher: Fetcher, url: str) -> Fetch:
    """One fetch, under the hang detector (``tests.conftest.ends``): a fetch that never ends
    fails the test. No test here asserts how long a fetch takes: ``benchmarks/limits.py``
    measures it."""
    return ends(_fetch, fetcher, url)


def ok_head(length: int) -> bytes:
    """A raw 200 response head announcing ``length`` bytes of body."""
    return hostile.OK_HEAD + f"Content-Length: {length}\r\n\r\n".encode()


def redirect(path: str, location: str, status: int = 302) -> Route:
    return Route(path=path, status=status, headers=(("Location", location),))


def ok(path: str, text: str = '{"ok": true}') -> Route:
    return Route(path=path, body="text", text=text, headers=(("Content-Type", "application/json"),))


@contextlib.contextmanager
def origin(*routes: Route, hostname: str = "svc.adck.test", **site: object) -> Iterator[MockOrigin]:
    with serve(Site(hostname=hostname, document={}, routes=routes, **site)) as o:
        yield o


def seen_requests(o: MockOrigin) -> list[Request]:
    return [req for req, _ in o.server.log]


# -- time limits ------------------------------------------------------------------------------

def test_hang_times_out_within_the_deadline() -> None:
    with hostile.Hang() as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error_kind == "timeout", result.describe_error()
    assert result.final is None
    assert server.connections == 1


def test_hang_behind_tls_times_out_within_the_deadline() -> None:
    with hostile.Hang(ssl_context=tls.server_context("hang.adck.test")) as server:
        result = fetched(make_fetcher(f"hang.adck.test:443:127.0.0.1:{server.port}"), "https://hang.adck.test/")
    assert result.error_kind == "timeout", result.describe_error()


def test_trickled_body_stops_at_the_total_deadline() -> None:
    with hostile.Trickle(interval=0.2) as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error_kind == "timeout", result.describe_error()
    final = result.final
    assert final is not None and final.status == 200  # the headers came; the body never finished
    assert 0 < len(final.body) < 20


def test_trickled_headers_stop_at_the_total_deadline() -> None:
    # Each header byte arrives well within the per-read timeout; only a deadline over the
    # whole exchange stops this.
    with hostile.Trickle(interval=0.2, in_head=True) as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error_kind == "timeout", result.describe_error()
    assert result.final is None


# -- size limits ------------------------------------------------------------------------------

def test_flood_is_cut_at_the_cap() -> None:
    with hostile.Flood() as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error_kind == "too-large", result.describe_error()
    final = result.final
    assert final is not None and final.status == 200
    assert final.body_truncated
    assert len(final.body) == CAP
    assert final.body == b"x" * CAP


def test_gzip_bomb_is_too_large_on_the_decoded_size() -> None:
    bomb = gzip.compress(b"\0" * (16 * 1024 * 1024), compresslevel=9)
    assert len(bomb) < CAP  # on the wire it is small; decoded it is 256 times the cap
    head = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
            b"Content-Length: " + str(len(bomb)).encode() + b"\r\n\r\n")
    with hostile.Canned(head + bomb) as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error_kind == "too-large", result.describe_error()
    final = result.final
    assert final is not None and final.body_truncated
    assert len(final.body) == CAP and final.body == b"\0" * CAP


def _canned_encoded(body: bytes, encoding: str) -> bytes:
    return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: " + encoding.encode()
            + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def test_stacked_gzip_bomb_is_capped_on_the_decoded_size_in_bounded_memory() -> None:
    """``gzip, gzip``: a few KB on the wire, gigabytes decoded. The cap applies to the decoded
    bytes across both layers, and the fetch never holds more than a few chunks."""
    import tracemalloc

    inner = gzip.compress(b"\0" * (256 * 1024 * 1024), compresslevel=9)
    bomb = gzip.compress(inner, compresslevel=9)
    assert len(bomb) < 64 * 1024
    tracemalloc.start()
    with hostile.Canned(_canned_encoded(bomb, "gzip, gzip")) as server:
        result = fetched(make_fetcher(), server.url + "/")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.error_kind == "too-large", result.describe_error()
    assert result.final.body == b"\0" * CAP
    assert peak < 32 * 1024 * 1024, f"decoding held {peak} bytes"


@pytest.mark.parametrize("encoding", ["gzip, gzip, gzip", "br", "zstd", "compress", "gzip, bogus"])
def test_unasked_or_too_deep_encodings_are_refused(encoding: str) -> None:
    body = gzip.compress(b'{"ok": true}')
    with hostile.Canned(_canned_encoded(body, encoding)) as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error_kind == "encoding", result.describe_error()


@pytest.mark.parametrize("encoding, encode", [
    ("gzip", gzip.compress),
    ("x-gzip", gzip.compress),
    ("deflate", __import__("zlib").compress),
    ("deflate", lambda b: __import__("zlib").compress(b)[2:-4]),  # raw deflate, as some servers send it
    ("gzip, gzip", lambda b: gzip.compress(gzip.compress(b))),
    ("identity", lambda b: b),
])
def test_asked_encodings_decode(encoding: str, encode) -> None:
    with hostile.Canned(_canned_encoded(encode(b'{"ok": true}'), encoding)) as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error is None and result.final.body == b'{"ok": true}', result.describe_error()


def test_a_cut_compressed_body_is_a_protocol_error() -> None:
    body = gzip.compress(b"x" * 1000)[:-10]
    with hostile.Canned(_canned_encoded(body, "gzip")) as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error_kind == "protocol", result.describe_error()


def test_body_at_the_cap_is_not_too_large() -> None:
    body = b" " * CAP
    response = ok_head(len(body)) + body
    with hostile.Canned(response) as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error is None, result.describe_error()
    assert result.final.body == body and not result.final.body_truncated


# -- broken HTTP ------------------------------------------------------------------------------

def test_garbage_is_a_protocol_error() -> None:
    with hostile.Garbage() as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error_kind == "protocol", result.describe_error()
    assert result.final is None


def test_short_body_against_content_length_is_an_error() -> None:
    with hostile.BadLength(declared="100", body=b"0123456789") as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error_kind == "protocol", result.describe_error()


@pytest.mark.parametrize("declared", ["banana", "-5", "10, 20", "99999999999999999999999999"])
def test_unparseable_content_length_is_an_error(declared: str) -> None:
    with hostile.BadLength(declared=declared, body=b"0123456789") as server:
        result = fetched(make_fetcher(), server.url + "/")
    assert result.error is not None
    assert result.error_kind in {"protocol", "too-large"}, result.describe_error()


def test_refused_connection_is_a_connect_error() -> None:
    sock, port = hostile.refused_port()
    try:
        result = fetched(make_fetcher(), f"http://127.0.0.1:{port}/")
    finally:
        sock.close()
    assert result.error_kind == "connect", result.describe_error()
    assert result.final is None


# -- redirects --------------------------------------------------------------------------------

def test_redirect_loop_stops_after_five_redirects() -> None:
    with origin(redirect("/loop", "/loop")) as o:
        fetcher = make_fetcher(o.connect_to)
        result = fetched(fetcher, "https://svc.adck.test/loop")
        assert len(seen_requests(o)) == 6
    assert result.error_kind == "too-many-redirects", result.describe_error()
    assert fetcher.requests_sent == 6
    assert len(result.exchanges) == 6
    assert len(result.redirects) == 6  # five followed, the sixth refused


def test_exactly_five_redirects_are_followed() -> None:
    routes = [redirect(f"/r{i}", f"/r{i + 1}", status=s) for i, s in zip(range(5), (301, 302, 303, 307, 308))]
    with origin(*routes, ok("/r5")) as o:
        fetcher = make_fetcher(o.connect_to)
        result = fetched(fetcher, "https://svc.adck.test/r0")
        assert len(seen_requests(o)) == 6
    assert result.error is None, result.describe_error()
    assert result.final.status == 200 and result.final.url == "https://svc.adck.test/r5"
    assert len(result.redirects) == 5
    assert fetcher.requests_sent == 6


def test_https_to_http_redirect_is_not_followed() -> None:
    with hostile.Canned(ok_head(2) + b"{}") as plain:
        with origin(redirect("/down", f"http://127.0.0.1:{plain.port}/x")) as o:
            fetcher = make_fetcher(o.connect_to)
            result = fetched(fetcher, "https://svc.adck.test/down")
        assert plain.connections == 0
    assert result.error_kind == "insecure-redirect", result.describe_error()
    assert fetcher.requests_sent == 1
    assert result.final.status == 302


def test_redirect_to_ftp_is_a_bad_redirect() -> None:
    with origin(redirect("/ftp", "ftp://127.0.0.1:21/ai.json")) as o:
        fetcher = make_fetcher(o.connect_to)
        result = fetched(fetcher, "https://svc.adck.test/ftp")
    assert result.error_kind == "bad-redirect", result.describe_error()
    assert fetcher.requests_sent == 1


@pytest.mark.parametrize("location", ["http://[::1", "http://x:port/", "//[zz]/"])
def test_unusable_location_is_a_bad_redirect(location: str) -> None:
    # Werkzeug refuses to send such a Location, so a raw server does.
    response = f"HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n".encode("latin-1")
    with hostile.Canned(response) as server:
        fetcher = make_fetcher()
        result = fetched(fetcher, server.url + "/bad")
        assert server.connections == 1
    assert result.error_kind == "bad-redirect", result.describe_error()
    assert fetcher.requests_sent == 1
    assert result.final.status == 302 and result.final.header("location") == location  # the evidence


# -- TLS --------------------------------------------------------------------------------------

def test_tls_is_verified_by_default() -> None:
    with origin(ok("/x")) as o:
        result = fetched(make_fetcher(o.connect_to, ca=False), "https://svc.adck.test/x")
        assert seen_requests(o) == []
    assert result.error_kind == "tls", result.describe_error()
    assert result.final is None


def test_tls_with_the_ca_bundle_succeeds() -> None:
    with origin(ok("/x")) as o:
        result = fetched(make_fetcher(o.connect_to), "https://svc.adck.test/x")
    assert result.error is None, result.describe_error()
    assert result.final.status == 200 and result.final.body == b'{"ok": true}'


def test_certificate_for_another_name_is_a_tls_error() -> None:
    with origin(ok("/x"), certificate_hostname="other.adck.test") as o:
        result = fetched(make_fetcher(o.connect_to), "https://svc.adck.test/x")
        assert seen_requests(o) == []
    assert result.error_kind == "tls", result.describe_error()


def test_connect_to_keeps_the_name_for_sni_certificate_and_host() -> None:
    server_names: list[str | None] = []
    ctx = tls.server_context("svc.adck.test")
    ctx.sni_callback = lambda sslobj, name, context: server_names.append(name)
    server = HTTPServer(host="127.0.0.1", port=0, ssl_context=ctx, threaded=True)
    server.expect_request("/x").respond_with_handler(
        lambda req: Response(req.headers.get("Host", ""), content_type="text/plain"))
    server.start()
    try:
        result = fetched(make_fetcher(f"svc.adck.test:443:127.0.0.1:{server.port}"), "https://svc.adck.test/x")
    finally:
        server.stop()
    assert result.error is None, result.describe_error()
    assert result.final.url == "https://svc.adck.test/x"
    assert result.final.body == b"svc.adck.test"
    assert server_names == ["svc.adck.test"]


def test_connect_to_only_maps_the_matching_port() -> None:
    # :8443 does not match the origin's mapping (port 443); the catch-all after it sends the
    # connection to a refused port (a name left unmapped would go to DNS, off loopback).
    sock, refused = hostile.refused_port()
    try:
        with origin(ok("/x")) as o:
            fetcher = make_fetcher(o.connect_to, f"svc.adck.test::127.0.0.1:{refused}")
            result = fetched(fetcher, "https://svc.adck.test:8443/x")
            assert seen_requests(o) == []
    finally:
        sock.close()
    assert result.error_kind == "connect", result.describe_error()


# -- ConnectTo.parse --------------------------------------------------------------------------

def test_connect_to_parse_plain() -> None:
    c = ConnectTo.parse("API.Example.com:443:127.0.0.1:8443")
    assert c == ConnectTo("api.example.com", 443, "127.0.0.1", 8443)
    assert c.maps("api.example.com", 443) == ("127.0.0.1", 8443)
    assert c.maps("API.EXAMPLE.COM", 443) == ("127.0.0.1", 8443)
    assert c.maps("api.example.com", 80) is None
    assert c.maps("other.example.com", 443) is None
    assert str(c) == "api.example.com:443:127.0.0.1:8443"


def test_connect_to_parse_wildcards() -> None:
    any_host = ConnectTo.parse(":443:127.0.0.1:8443")
    assert any_host == ConnectTo("", 443, "127.0.0.1", 8443)
    assert any_host.maps("anything.example", 443) == ("127.0.0.1", 8443)
    assert any_host.maps("anything.example", 80) is None
    any_port = ConnectTo.parse("a.example::127.0.0.1:")
    assert any_port == ConnectTo("a.example", None, "127.0.0.1", None)
    assert any_port.maps("a.example", 8080) == ("127.0.0.1", 8080)  # empty PORT2 keeps the port
    keep_host = ConnectTo.parse("a.example:443::8443")
    assert keep_host.maps("a.example", 443) == ("a.example", 8443)  # empty HOST2 keeps the host
    assert ConnectTo.parse(":::").maps("x.example", 1) == ("x.example", 1)


def test_connect_to_parse_ipv6_in_brackets() -> None:
    c = ConnectTo.parse("[2001:DB8::1]:443:[::1]:8443")
    assert c == ConnectTo("2001:db8::1", 443, "::1", 8443)
    assert c.maps("[2001:db8::1]", 443) == ("::1", 8443)
    assert str(c) == "[2001:db8::1]:443:[::1]:8443"
    assert ConnectTo.parse(str(c)) == c


@pytest.mark.parametrize("spec", [
    "", "a.example", "a.example:443", "a.example:443:127.0.0.1",
    "a.example:443:127.0.0.1:8443:9", "a.example:https:127.0.0.1:8443", "a.example:443:127.0.0.1:port",
    "::1:443:127.0.0.1:8443", "[::1:443:127.0.0.1:8443", "a.example:-1:127.0.0.1:8443",
    "a.example:443:127.0.0.1:65536", "a.example:0:127.0.0.1:8443",
])
def test_connect_to_parse_rejects_malformed_specs(spec: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        ConnectTo.parse(spec)
    message = str(excinfo.value)
    assert repr(spec) in message
    assert "HOST1:PORT1:HOST2:PORT2" in message


# -- what the kit does not keep or send -------------------------------------------------------

def _recording_server(handler) -> HTTPServer:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.expect_request(re.compile(".*")).respond_with_handler(handler)
    server.start()
    return server


def test_cookies_are_not_kept() -> None:
    def handle(req: Request) -> Response:
        if req.path == "/set":
            response = Response("", status=302, headers={"Location": "/check"})
        else:
            response = Response("{}", content_type="application/json")
        response.set_cookie("sid", "s3cret", path="/")
        return response

    server = _recording_server(handle)
    try:
        fetcher = make_fetcher(f"jar.adck.test:80:127.0.0.1:{server.port}")
        with fetcher:
            first = fetcher.fetch("http://jar.adck.test/set")  # Set-Cookie, then a redirect hop
            second = fetcher.fetch("http://jar.adck.test/check")  # a later request of the run
    finally:
        server.stop()
    assert first.error is None and second.error is None
    assert first.exchanges[0].header("set-cookie")  # the server did try
    paths = [req.path for req, _ in server.log]
    assert paths == ["/set", "/check", "/check"]
    assert [req.headers.get("Cookie") for req, _ in server.log] == [None, None, None]


def test_proxy_environment_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    # The "proxy" is a listener that counts: any use of it shows, and answers 502.
    with hostile.Canned(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n") as proxy:
        for name in ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy"):
            monkeypatch.setenv(name, proxy.url)
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        with origin(ok("/x")) as o, hostile.Canned(ok_head(2) + b"{}") as plain:
            fetcher = make_fetcher(o.connect_to, f"plain.adck.test:80:127.0.0.1:{plain.port}")
            with fetcher:
                secure = fetcher.fetch("https://svc.adck.test/x")
                clear = fetcher.fetch("http://plain.adck.test/x")
            assert plain.connections == 1
        assert proxy.connections == 0
    assert secure.error is None and secure.final.status == 200, secure.describe_error()
    assert clear.error is None and clear.final.status == 200, clear.describe_error()


def test_no_credentials_are_sent(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    # A netrc with credentials for the host, a cookie set on the way, and a redirect whose
    # Location carries userinfo: none of it may turn into an Authorization or Cookie header.
    netrc = tmp_path / "netrc"
    netrc.write_text("machine creds.adck.test login alice password wonderland\n"
                     "default login alice password wonderland\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))

    def handle(req: Request) -> Response:
        routes = {"/a": "/b", "/b": "http://mallory:pw@creds.adck.test/c"}
        if req.path in routes:
            response = Response("", status=302, headers={"Location": routes[req.path]})
            response.set_cookie("session", "abc", path="/")
            return response
        return Response("{}", content_type="application/json")

    server = _recording_server(handle)
    try:
        fetcher = make_fetcher(f"creds.adck.test:80:127.0.0.1:{server.port}")
        with fetcher:
            chain = fetcher.fetch("http://creds.adck.test/a")
            again = fetcher.get("http://creds.adck.test/c")
    finally:
        server.stop()
    assert chain.error is None and again.error is None, chain.describe_error()
    assert [req.path for req, _ in server.log] == ["/a", "/b", "/c", "/c"]
    for req, _ in server.log:
        assert "Authorization" not in req.headers, (req.path, req.headers.get("Authorization"))
        assert "Cookie" not in req.headers, (req.path, req.headers.get("Cookie"))
    for ex in chain.exchanges + again.exchanges:
        assert not {"authorization", "cookie"} & {k.lower() for k in ex.request_headers}
        assert "mallory" not in ex.url and "pw@" not in ex.url


# -- sharing ----------------------------------------------------------------------------------

def test_get_fetches_once_and_shares() -> None:
    with origin(ok("/x")) as o:
        fetcher = make_fetcher(o.connect_to)
        with fetcher:
            first = fetcher.get("https://svc.adck.test/x")
            second = fetcher.get("https://svc.adck.test/x")
        assert len(seen_requests(o)) == 1
    assert first is second
    assert fetcher.requests_sent == 1
    assert first.final.status == 200


# -- end to end: the conformance suite against hostile targets --------------------------------

def _run(target: str, connect_to: list[str]) -> api.RunResult:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return api.run("aiendpoint", target, connect_to=connect_to, ca_bundle=str(tls.ca_bundle()),
                       timeout=1, report_dir=None)


def run_suite(target: str, connect_to: list[str]) -> api.RunResult:
    """A run with ``--timeout 1``, under the hang detector: a run that never ends fails the test."""
    return ends(_run, target, connect_to)


def outcomes(result: api.RunResult) -> dict[str, str]:
    assert result.report is not None, f"no report (exit {result.exit_code}, pytest {result.pytest_exit})"
    return {r.clause: r.outcome for r in result.report.results}


def assert_no_errors(result: api.RunResult) -> None:
    errors = [(r.clause, getattr(r, "message", "")) for r in result.report.results if r.outcome == "error"]
    assert errors == []


@pytest.mark.parametrize("server_class, kind", [(hostile.Hang, "timeout"), (hostile.Garbage, "protocol"),
                                                (hostile.Trickle, "timeout")], ids=["hang", "garbage", "trickle"])
def test_suite_against_a_target_that_never_delivers(server_class, kind: str) -> None:
    with server_class(ssl_context=tls.server_context("bad.adck.test")) as server:
        result = run_suite("https://bad.adck.test", [f"bad.adck.test:443:127.0.0.1:{server.port}"])
    got = outcomes(result)
    assert got["AIE-2.1-01"] == "fail"
    # the kit's own account of why the fetch stopped: the deadline (hang, trickle), or what came
    message = next(r.message for r in result.report.results if r.clause == "AIE-2.1-01")
    assert f"did not reach a document: {kind}: " in message, message
    assert_no_errors(result)
    assert result.exit_code == api.EXIT_NONCONFORMANT


def test_suite_against_a_flood() -> None:
    with hostile.Flood(ssl_context=tls.server_context("flood.adck.test")) as server:
        result = run_suite("https://flood.adck.test", [f"flood.adck.test:443:127.0.0.1:{server.port}"])
    got = outcomes(result)
    # The server does answer 200 at the well-known URI; what it sends is too large to read.
    assert got["AIE-2.1-01"] == "pass"
    assert got["AIE-4.5-01"] == "fail"
    assert_no_errors(result)
    assert result.exit_code == api.EXIT_NONCONFORMANT


def test_suite_against_a_refused_port() -> None:
    sock, port = hostile.refused_port()
    try:
        result = run_suite("https://gone.adck.test", [f"gone.adck.test:443:127.0.0.1:{port}"])
    finally:
        sock.close()
    got = outcomes(result)
    assert got["AIE-2.1-01"] == "fail"
    assert_no_errors(result)
    assert result.exit_code == api.EXIT_NONCONFORMANT


def _nested_document(head: bytes) -> bytes:
    body = b"[" * 100_000 + b"]" * 100_000  # valid JSON, 200 KB, nested 100,000 deep
    return ok_head(len(body)) + body


def _nested_object(head: bytes) -> bytes:
    body = b'{"a":' * 50_000 + b"1" + b"}" * 50_000  # a valid object, nested 50,000 deep
    return ok_head(len(body)) + body


@pytest.mark.parametrize("make_server, verdict", [
    # endless "[[[[": cut at the body cap, so unreadable; the size clause fails
    pytest.param(lambda ctx: hostile.Flood(ssl_context=ctx, pattern=b"["), {"AIE-4.5-01": "fail"},
                 id="endless-brackets"),
    # a complete 200 KB array nested 100,000 deep: visibly not an object
    pytest.param(lambda ctx: hostile.Canned(_nested_document, ssl_context=ctx),
                 {"AIE-3.1-01": "fail", "AIE-4.5-01": "fail"}, id="nested-array"),
    # an object nested deeper than Python parses: cannot be judged either way
    pytest.param(lambda ctx: hostile.Canned(_nested_object, ssl_context=ctx),
                 {"AIE-3.1-01": "untestable", "AIE-4.5-01": "fail"}, id="nested-object"),
])
def test_suite_against_deeply_nested_json(make_server, verdict) -> None:
    """Deep nesting (6.5's denial-of-service shape) never crashes the kit nor passes as conformant."""
    with make_server(tls.server_context("deep.adck.test")) as server:
        result = run_suite("https://deep.adck.test", [f"deep.adck.test:443:127.0.0.1:{server.port}"])
    assert result.pytest_exit != pytest.ExitCode.INTERNAL_ERROR
    got = outcomes(result)
    assert {k: got.get(k) for k in verdict} == verdict
    assert_no_errors(result)
    assert result.exit_code == api.EXIT_NONCONFORMANT


# ------------------------------------------------------------------ redirects to private addresses
def test_a_redirect_to_a_loopback_address_the_user_did_not_name_is_reported_not_fetched() -> None:
    secret = '{"internal": "do-not-copy-0xC0FFEE"}'
    with origin(ok("/secret.json", secret), hostname="127.0.0.1", certificate_hostname="127.0.0.1") as inside, \
         origin(redirect("/", f"https://127.0.0.1:{inside.port}/secret.json"), hostname="hostile.adck.test") as outside:
        fetcher = make_fetcher(outside.connect_to)
        result = fetched(fetcher, "https://hostile.adck.test/")
        assert result.error_kind == "private-redirect", result.describe_error()
        assert seen_requests(inside) == [], "the kit fetched the internal address"
        assert fetcher.requests_sent == 1, "the refused hop never left the kit: it is not counted as sent"
        allowed = Fetcher(HttpConfig(ca_bundle=tls.ca_bundle(), connect_to=(outside.connect_to,),
                                     limits=FAST, allow_private=True))
        with allowed:
            followed = allowed.fetch("https://hostile.adck.test/")
        assert followed.error_kind != "private-redirect" and len(seen_requests(inside)) == 1


def test_a_target_on_a_private_address_may_redirect_to_another() -> None:
    with origin(ok("/doc"), hostname="127.0.0.1", certificate_hostname="127.0.0.1") as second, \
         origin(redirect("/", f"https://127.0.0.1:{second.port}/doc"), hostname="127.0.0.1",
                certificate_hostname="127.0.0.1") as first:
        result = fetched(make_fetcher(), f"https://127.0.0.1:{first.port}/")
    assert result.error is None and result.final.status == 200, result.describe_error()


def test_a_body_from_another_origin_is_only_excerpted_in_evidence() -> None:
    from conformance.reports.model import CROSS_ORIGIN_EXCERPT, exchange_evidence

    big = '{"internal": "' + "z" * 5000 + '"}'
    with origin(ok("/doc", big), hostname="other.adck.test") as other, \
         origin(redirect("/", "https://other.adck.test/doc"), hostname="first.adck.test") as first:
        result = fetched(make_fetcher(first.connect_to, other.connect_to), "https://first.adck.test/")
    hop, final = result.exchanges
    assert not hop.cross_origin and final.cross_origin and result.error is None
    excerpt = exchange_evidence(final)["response"]["body_excerpt"]
    assert excerpt.count("z") < CROSS_ORIGIN_EXCERPT


# -- what the kit says it is ----------------------------------------------------------------------

def test_the_user_agent_names_the_kit_and_its_version_and_no_url_the_project_does_not_publish() -> None:
    """Every request says ``adck/VERSION (Agent Discovery Conformance Kit)``. A URL in it would
    have to be one the project publishes (``[project.urls]`` of pyproject.toml); it has none, so
    the User-Agent names none (it named https://github.com/adck, which is not the project's)."""
    import tomllib
    from pathlib import Path

    from conformance import __version__

    with origin(ok("/ua")) as o:
        result = fetched(make_fetcher(o.connect_to), "https://svc.adck.test/ua")
        agent = seen_requests(o)[0].headers["User-Agent"]
    assert result.final is not None and result.final.status == 200
    assert agent == f"adck/{__version__} (Agent Discovery Conformance Kit)"
    published = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text("utf-8"))["project"]
    urls = set(published.get("urls", {}).values())
    named = set(re.findall(r"https?://[^\s);]+", agent))
    assert named <= urls, f"the User-Agent names {named - urls}, which the project does not publish"
