"""The kit's one HTTP fetcher: every request any suite sends goes through :class:`Fetcher`.

It faces hostile targets, so every request has a connect timeout, a total deadline, a body
size cap and a redirect cap; it follows redirects itself (httpx would silently follow https
to http), never keeps cookies, never reads proxy settings from the environment, and keeps a
transcript of every exchange for the report. ``--connect-to`` has curl's meaning: the TCP
connection goes elsewhere while the Host header, SNI and certificate check keep the name.
The user's credentials (``-H``, ``--header-env``: :mod:`conformance.credentials`) go with a
request only when its origin, hop by hop, is one the user named.
"""

from __future__ import annotations

import functools
import ipaddress
import re
import socket
import ssl
import threading
import time
import zlib
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import httpcore
import httpx

from conformance import __version__

if TYPE_CHECKING:
    from conformance.credentials import Credentials
    from conformance.recording import Recording

#: What every request of the kit says it is: the project and its version, and no URL (the project
#: publishes none in its metadata, and a User-Agent must not point at a page that does not exist).
USER_AGENT = f"adck/{__version__} (Agent Discovery Conformance Kit)"
#: The content codings the kit decodes, and so the only ones it asks for.
ACCEPT_ENCODING = "gzip, deflate"
#: Stacked content codings the kit decodes at most (``gzip, gzip`` is two); more is refused.
MAX_CODINGS = 2
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True)
class Limits:
    """Bounds on one fetch. The defaults suit a discovery document."""

    #: Seconds to establish a TCP (and TLS) connection.
    connect_timeout: float = 5.0
    #: Seconds for one request, from sending it to the last body byte; also bounds each read.
    total_timeout: float = 10.0
    #: Bytes of body read at most; a larger body is cut and flagged (4x the draft's 256 KB).
    max_body_bytes: int = 1024 * 1024
    #: Redirects followed at most (the draft's 5; one more is refused).
    max_redirects: int = 5


@dataclass(frozen=True)
class ConnectTo:
    """One ``HOST1:PORT1:HOST2:PORT2`` mapping, as curl's ``--connect-to``.

    An empty HOST1 or PORT1 matches any; an empty HOST2 or PORT2 keeps the original.
    """

    host: str
    port: int | None
    to_host: str
    to_port: int | None

    _PART = r"(\[[^\]]*\]|[^:\[\]]*)"
    _RE = re.compile(rf"^{_PART}:(\d*):{_PART}:(\d*)$")

    @classmethod
    def parse(cls, spec: str) -> "ConnectTo":
        m = cls._RE.match(spec.strip())
        if not m:
            raise ValueError(
                f"--connect-to {spec!r}: expected HOST1:PORT1:HOST2:PORT2 "
                "(e.g. api.example.com:443:127.0.0.1:8443)"
            )
        h1, p1, h2, p2 = m.groups()
        for p in (p1, p2):
            if p and not 0 < int(p) < 65536:
                raise ValueError(f"--connect-to {spec!r}: port {p} is not in 1-65535; expected "
                                 "HOST1:PORT1:HOST2:PORT2 (e.g. api.example.com:443:127.0.0.1:8443)")
        return cls(h1.strip("[]").lower(), int(p1) if p1 else None, h2.strip("[]"), int(p2) if p2 else None)

    def maps(self, host: str, port: int) -> tuple[str, int] | None:
        if self.host and self.host != host.lower().strip("[]"):
            return None
        if self.port is not None and self.port != port:
            return None
        return (self.to_host or host, self.to_port or port)

    def __str__(self) -> str:
        def h(x: str) -> str:
            return f"[{x}]" if ":" in x else x

        return f"{h(self.host)}:{self.port or ''}:{h(self.to_host)}:{self.to_port or ''}"


@dataclass(frozen=True)
class HttpConfig:
    """How to reach a target: trust, name mapping and limits."""

    ca_bundle: Path | None = None
    connect_to: tuple[ConnectTo, ...] = ()
    limits: Limits = Limits()
    #: Follow redirects to loopback, private and link-local addresses the user did not name
    #: (``--allow-private``); by default such a redirect is reported, not fetched.
    allow_private: bool = False
    #: The user's credentials and the origins they go to (None: the run has none).
    credentials: "Credentials | None" = None
    #: The recorded world a scan keeps, or a judge answers from (:mod:`conformance.recording`);
    #: None: every request goes to the network.
    recording: "Recording | None" = None


def is_private_address(address: str) -> bool:
    """Loopback, private, link-local, unique-local, unspecified or reserved: not the public net."""
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%")[0])
    except ValueError:
        return False
    return ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved or ip.is_unspecified \
        or ip.is_multicast or (ip.version == 6 and ip.ipv4_mapped is not None and is_private_address(str(ip.ipv4_mapped)))


#: The error kind of a request refused before it was sent: a URL the target gave (in a
#: document, an answer or a header) names a loopback or private address the user did not name.
PRIVATE_ADDRESS = "private-address"


class PrivateRedirect(Exception):
    """A redirect led to an address on this machine or a private network the user did not name."""


def public_address(host: str, addresses: list[str]) -> str:
    """The one private-address rule, for every connection the kit opens to a host the user
    did not name (this fetcher's, and the MCP client's in :mod:`conformance.woa._mcp_fixtures`):
    the address to connect to, taken from ``addresses`` (``host`` resolved once by the caller,
    so a second lookup cannot change it), or :class:`PrivateRedirect` when ``host`` is, or
    resolves to, a loopback or private address (or to nothing)."""
    if is_private_address(host):
        raise PrivateRedirect(f"{host} is a loopback or private address")
    private = [a for a in addresses if is_private_address(a)]
    if private:
        raise PrivateRedirect(f"{host} resolves to {private[0]}, a loopback or private address")
    if not addresses:
        raise PrivateRedirect(f"{host} resolves to no address")
    return addresses[0]


class _Deadline(threading.local):
    """The monotonic time by which the current thread's request must be over (None: no request)."""

    at: float | None = None
    #: True while a redirect hop to another host is being fetched: its address is checked.
    guard: bool = False

    def bound(self, timeout: float | None, exc: type[Exception]) -> float | None:
        """``timeout`` shortened to what is left before the deadline; ``exc`` once it has passed."""
        if self.at is None:
            return timeout
        left = self.at - time.monotonic()
        if left <= 0:
            raise exc("the request's total deadline passed")
        return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A connection whose every read and write ends by the request's deadline, so a peer that
    trickles (headers included) cannot stretch a request past ``Limits.total_timeout``."""

    def __init__(self, inner: httpcore.NetworkStream, deadline: _Deadline) -> None:
        self._inner = inner
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._deadline.bound(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._deadline.bound(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(ssl_context, server_hostname,
                                      self._deadline.bound(timeout, httpcore.ConnectTimeout))
        return _DeadlineStream(inner, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _MappedBackend(httpcore.NetworkBackend):
    """Opens TCP connections to the ``--connect-to`` destination of a host:port."""

    def __init__(self, mappings: tuple[ConnectTo, ...], deadline: _Deadline) -> None:
        self._mappings = mappings
        self._deadline = deadline
        self._inner = httpcore.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None, socket_options: Any = None) -> httpcore.NetworkStream:
        for m in self._mappings:
            dest = m.maps(host, port)
            if dest:
                host, port = dest
                break
        else:
            if self._deadline.guard:  # a redirect to a host the user did not name
                host = self._checked_address(host, port)
        stream = self._inner.connect_tcp(host, port, timeout=self._deadline.bound(timeout, httpcore.ConnectTimeout),
                                         local_address=local_address, socket_options=socket_options)
        return _DeadlineStream(stream, self._deadline)

    @staticmethod
    def _checked_address(host: str, port: int) -> str:
        """The address to connect to, resolved once here, refused when it is loopback or
        private (:func:`public_address`)."""
        if is_private_address(host):
            return public_address(host, [])
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as exc:
            raise httpcore.ConnectError(f"cannot resolve {host}: {exc}") from None
        return public_address(host, [str(info[4][0]) for info in infos])

    def sleep(self, seconds: float) -> None:  # pragma: no cover - not used without retries
        self._inner.sleep(seconds)


class _Transport(httpx.HTTPTransport):
    def __init__(self, ssl_context: ssl.SSLContext, mappings: tuple[ConnectTo, ...], deadline: _Deadline) -> None:
        super().__init__(verify=ssl_context, trust_env=False, retries=0)
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context,
            max_connections=8,
            http1=True,
            http2=False,
            retries=0,
            network_backend=_MappedBackend(mappings, deadline),
        )


class _Client(httpx.Client):
    def _build_redirect_request(self, request: httpx.Request, response: httpx.Response) -> None:  # type: ignore[override]
        # The fetcher follows redirects itself; httpx would parse a hostile Location here and
        # raise, losing the response (fetch() reports it as a bad-redirect, with evidence).
        return None


@dataclass
class Exchange:
    """One request and what came back: the unit of evidence in a report."""

    method: str
    url: str
    request_headers: dict[str, str]
    status: int | None = None
    reason: str = ""
    http_version: str = ""
    response_headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""
    body_truncated: bool = False
    #: Seconds from sending the request to receiving the response headers.
    elapsed_headers: float | None = None
    #: Seconds from sending the request to the last body byte read.
    elapsed_total: float | None = None
    #: Set when the exchange did not complete: (kind, detail).
    error: tuple[str, str] | None = None
    #: True for a redirect hop to another origin than the request's first: a report shows only
    #: a short excerpt of such a body.
    cross_origin: bool = False
    #: The body the kit sent (a POST's JSON), shown in reports beside the response.
    request_body: bytes = b""
    #: The TLS version the connection negotiated ("TLSv1.3"), None over plain HTTP.
    tls_version: str | None = None
    #: The user's credentials on this request: "sent" (the headers named in
    #: ``credential_headers`` went with it), "withheld" (the kit sent it without them on
    #: purpose: the clause judges the unauthenticated answer), or "" (none given for its origin).
    credentials: str = ""
    credential_headers: tuple[str, ...] = ()

    def header(self, name: str) -> str | None:
        """The response header's value (several values joined by ', '), or None."""
        values = [v for k, v in self.response_headers if k.lower() == name.lower()]
        return ", ".join(values) if values else None


@dataclass
class Fetch:
    """The outcome of fetching a URL: every exchange of the redirect chain, and the verdict."""

    url: str
    exchanges: list[Exchange] = field(default_factory=list)
    #: Why the fetch did not yield a final response: (kind, detail). Kinds: connect, timeout,
    #: tls, protocol, encoding, too-large, too-many-redirects, insecure-redirect, bad-redirect,
    #: private-redirect, private-address (refused before it was sent), budget (a redirect hop
    #: the run's request budget no longer covered), transport.
    error: tuple[str, str] | None = None

    @property
    def final(self) -> Exchange | None:
        """The last exchange that has a response (after redirects), if any."""
        for ex in reversed(self.exchanges):
            if ex.status is not None:
                return ex
        return None

    @property
    def final_url(self) -> str:
        return self.exchanges[-1].url if self.exchanges else self.url

    @property
    def redirects(self) -> list[Exchange]:
        return [e for e in self.exchanges if e.status in REDIRECT_STATUSES and e.header("location")]

    @property
    def error_kind(self) -> str | None:
        return self.error[0] if self.error else None

    def evidence(self) -> list[Exchange]:
        """The exchanges a report shows when a clause that used this fetch does not pass."""
        return list(self.exchanges)

    def describe_error(self) -> str:
        return f"{self.error[0]}: {self.error[1]}" if self.error else "no error"


class EncodingRefused(ValueError):
    """A Content-Encoding the kit does not decode (unknown, or stacked too deep)."""


class _Decoder:
    """Decodes a body's stacked content codings chunk by chunk, never holding more than the
    body cap: a compression bomb costs at most the cap in memory and stops at once."""

    _STEP = 64 * 1024

    def __init__(self, content_encoding: str | None, cap: int) -> None:
        codings = [c.strip().lower() for c in (content_encoding or "").split(",") if c.strip()]
        codings = [c for c in codings if c != "identity"]
        if len(codings) > MAX_CODINGS:
            raise EncodingRefused(f"Content-Encoding {content_encoding!r} stacks {len(codings)} codings; "
                                  f"the kit decodes at most {MAX_CODINGS}")
        unknown = [c for c in codings if c not in ("gzip", "x-gzip", "deflate")]
        if unknown:
            raise EncodingRefused(f"Content-Encoding {unknown[0]!r} was not asked for (Accept-Encoding: "
                                  f"{ACCEPT_ENCODING}) and the kit does not decode it")
        # the last coding applied is the first to undo
        self._layers: list[Any] = [self._layer(c) for c in reversed(codings)]
        self._first_data = [True] * len(self._layers)
        self._cap = cap
        self.size = 0
        self.out: list[bytes] = []
        self.over = False

    @staticmethod
    def _layer(coding: str) -> Any:
        return zlib.decompressobj(16 + zlib.MAX_WBITS if coding in ("gzip", "x-gzip") else zlib.MAX_WBITS)

    def feed(self, data: bytes) -> None:
        """Decode more raw bytes; sets ``over`` once the decoded size passes the cap."""
        self._push(0, data)

    def _push(self, i: int, data: bytes) -> None:
        if self.over:
            return
        if i == len(self._layers):
            room = self._cap + 1 - self.size
            self.out.append(data[:room])
            self.size += min(len(data), room)
            self.over = self.size > self._cap
            return
        layer = self._layers[i]
        while not self.over:
            try:
                chunk = layer.decompress(data, self._STEP)
            except zlib.error:
                if self._first_data[i] and not layer.eof:
                    # "deflate" is often sent as a raw stream without the zlib wrapper
                    self._layers[i] = layer = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._first_data[i] = False
                    continue
                raise
            self._first_data[i] = False
            data = layer.unconsumed_tail
            if chunk:
                self._push(i + 1, chunk)
            if (not data and not chunk) or layer.eof:
                break

    def complete(self) -> bool:
        """Did every coded stream end properly (not cut short)?"""
        return all(layer.eof for layer in self._layers)

    def body(self) -> bytes:
        return b"".join(self.out)[: self._cap]


def _cause(exc: BaseException, kind: type[BaseException]) -> BaseException | None:
    """The first exception of ``kind`` in exc's chain of causes, if any."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, kind):
            return exc
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return None


def _ssl_error_in(exc: BaseException) -> ssl.SSLError | None:
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ssl.SSLError):
            return exc
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return None


def _classify(exc: Exception) -> tuple[str, str]:
    ssl_exc = _ssl_error_in(exc)
    if ssl_exc is not None:
        return ("tls", getattr(ssl_exc, "verify_message", None) or str(ssl_exc))
    if isinstance(exc, httpx.TimeoutException):
        return ("timeout", f"{type(exc).__name__}: {exc or 'no answer in time'}")
    if isinstance(exc, httpx.ConnectError):
        return ("connect", str(exc) or "connection failed")
    if isinstance(exc, httpx.RemoteProtocolError) and "Receive buffer too long" in str(exc):
        # h11's bound on a response head, the one limit that ends headers that never end
        return ("protocol", f"the response head (status line and headers) is longer than the "
                            f"{httpcore.HTTP11Connection.MAX_INCOMPLETE_EVENT_SIZE} bytes the kit reads, or never "
                            "ends (h11: Receive buffer too long)")
    if isinstance(exc, (httpx.RemoteProtocolError, httpx.LocalProtocolError, httpx.DecodingError)):
        return ("protocol", str(exc) or type(exc).__name__)
    return ("transport", f"{type(exc).__name__}: {exc}")


def _tls_version(response: httpx.Response) -> str | None:
    """The TLS version of the connection a response came on ("TLSv1.3"), None over plain HTTP."""
    stream = response.extensions.get("network_stream")
    try:
        ssl_object = stream.get_extra_info("ssl_object") if stream is not None else None
        return ssl_object.version() if ssl_object is not None else None
    except Exception:  # noqa: BLE001 - a fact for the report, never a reason to fail a fetch
        return None


def verifying_context(ca_bundle: "Path | None") -> ssl.SSLContext:
    """The kit's verifying TLS context for ``ca_bundle`` (None: the system's roots): hostname
    checked, certificate required. One per bundle file as it stands (its path, size and time),
    shared by every fetcher of the process (and the WoA MCP client): loading the roots costs more
    than a request. Shared, so never changed: a client that validates otherwise (a broken
    agent) builds its own; httpcore sets the same ALPN (http/1.1) on it for every connection."""
    if ca_bundle is None:
        return _verifying_context(None, 0, 0)
    try:
        stat = Path(ca_bundle).stat()
    except OSError:  # not cached: the context's own load says what is wrong with the file
        return _verifying_context.__wrapped__(str(ca_bundle), 0, 0)
    return _verifying_context(str(ca_bundle), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _verifying_context(cafile: str | None, size: int, mtime_ns: int) -> ssl.SSLContext:  # noqa: ARG001 - the key
    ctx = ssl.create_default_context(cafile=cafile)
    ctx.check_hostname = True
    ctx.verify_mode = ssl.CERT_REQUIRED
    return ctx


class Fetcher:
    """Sends the kit's requests to one target, within :class:`Limits`, and remembers them.

    ``get()`` fetches each URL once per run and shares the result; ``requests_sent`` counts
    every request that left the kit (each redirect hop is one).
    """

    def __init__(self, config: HttpConfig = HttpConfig(), ssl_context: ssl.SSLContext | None = None) -> None:
        """``ssl_context`` replaces the verifying context built from ``config`` (the kit's
        broken reference agents use it to mis-validate on purpose; nothing else should)."""
        self.config = config
        self.limits = config.limits
        ctx = ssl_context if ssl_context is not None else verifying_context(config.ca_bundle)
        no_cookies = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
        self._deadline = _Deadline()
        self._client = _Client(
            transport=_Transport(ctx, config.connect_to, self._deadline),
            trust_env=False,
            follow_redirects=False,
            # The jar itself: httpx copies an httpx.Cookies into a fresh jar, losing the policy.
            cookies=no_cookies,
            timeout=httpx.Timeout(self.limits.total_timeout, connect=self.limits.connect_timeout),
            headers={"User-Agent": USER_AGENT, "Accept": "application/json", "Accept-Encoding": ACCEPT_ENCODING},
        )
        self._cache: dict[tuple, Fetch] = {}
        self._lock = threading.Lock()
        self.requests_sent = 0
        #: The host the user named for the run (the target's): every request to another host,
        #: its first one included, goes through the private-address guard (a URL taken from a
        #: document, an answer or a header may not reach this machine or a private network
        #: unless the user named it, or passed ``--allow-private``). None: only redirects to
        #: another host than a request's first are guarded (the reference clients).
        self.named_host: str | None = None

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> "Fetcher":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, url: str, headers: dict[str, str] | None = None, credentials: bool = True) -> Fetch:
        """GET ``url`` following redirects, once per run: later calls share the result."""
        key = ("GET", url, tuple(sorted((headers or {}).items())), credentials)
        with self._lock:
            if key not in self._cache:
                self._cache[key] = self.fetch(url, headers=headers, credentials=credentials)
            return self._cache[key]

    def fetch(self, url: str, method: str = "GET", headers: dict[str, str] | None = None,
              content: bytes | None = None, named_host: str | None = None, credentials: bool = True,
              spend: Callable[[], str | None] | None = None) -> Fetch:
        """Send a request and follow redirects within the limits; never raises for the target's faults.

        ``named_host``: the host the user named, when ``url`` came from a document (an
        invocation URL): then even the first request may not reach a private address unless
        it goes to that host. ``credentials``: send the user's credentials to each hop whose
        origin the user named (False: withhold them, for a clause that judges the answer to a
        request without credentials). ``spend``: called before each redirect hop (each is one
        more request); when it answers a reason, the hop is not sent and the fetch ends with a
        ``budget`` error saying it (the caller counted the first request itself)."""
        result = Fetch(url=url)
        current = httpx.URL(url)
        first = current
        if named_host is None:
            named_host = self.named_host
        trusted = (named_host if named_host is not None else first.host).lower()
        # the user named the first host (and the --connect-to names): a redirect to another host
        # may not reach this machine or a private network, unless the user's own target is such
        # an address (an IP literal) or --allow-private
        guard = not (self.config.allow_private or is_private_address(trusted))
        for hop in range(self.limits.max_redirects + 1):
            other_host = current.host != trusted
            # a scan guards every host, the one named included (conformance.recording)
            public_only = self.config.recording is not None and self.config.recording.public_only
            exchange = self._send(method, current, headers, content, guard=guard and (other_host or public_only),
                                  credentials=credentials, redirected=hop > 0)
            exchange.cross_origin = (current.scheme, current.host, current.port) != (first.scheme, first.host, first.port)
            result.exchanges.append(exchange)
            if exchange.error and exchange.status is None:
                result.error = exchange.error
                return result
            if exchange.error:  # a response came, but its body broke a limit
                result.error = exchange.error
                return result
            location = exchange.header("location") if exchange.status in REDIRECT_STATUSES else None
            if not location:
                return result
            try:
                nxt = current.join(location.strip())
            except Exception as exc:  # noqa: BLE001 - a hostile Location must not crash the kit
                result.error = ("bad-redirect", f"unusable Location {location!r}: {exc}")
                return result
            if nxt.scheme not in ("http", "https"):
                result.error = ("bad-redirect", f"redirect to a non-HTTP URL {str(nxt)!r}")
                return result
            if current.scheme == "https" and nxt.scheme == "http":
                result.error = ("insecure-redirect", f"redirect from {current} to {nxt} changes https to http; not followed")
                return result
            if hop == self.limits.max_redirects:
                result.error = ("too-many-redirects",
                                f"more than {self.limits.max_redirects} consecutive redirects; the next one, to {nxt}, was not followed")
                return result
            if exchange.status == 303 or (exchange.status in (301, 302) and method == "POST"):
                method, content = "GET", None
            stopped = spend() if spend is not None else None
            if stopped:
                result.error = ("budget", f"the redirect to {nxt} was not followed: {stopped}")
                return result
            current = nxt
        return result  # pragma: no cover - the loop always returns

    def _send(self, method: str, url: httpx.URL, headers: dict[str, str] | None,
              content: bytes | None = None, guard: bool = False, credentials: bool = True,
              redirected: bool = False) -> Exchange:
        if url.userinfo:  # httpx would turn user:password@ (say, from a Location) into Basic auth
            url = url.copy_with(userinfo=b"")
        given = self.config.credentials
        # decided for this hop's own origin: a redirect elsewhere gets none (conformance.credentials)
        extra = given.for_url(url) if given is not None and credentials else {}
        own = {k.lower() for k in (headers or {})}
        extra = {k: v for k, v in extra.items() if k.lower() not in own}  # a test's own header stands
        request = self._client.build_request(method, url, headers={**extra, **(headers or {})}, content=content)
        exchange = Exchange(method=method, url=str(url), request_headers=dict(request.headers),
                            request_body=content or b"")
        if extra:
            exchange.credentials, exchange.credential_headers = "sent", tuple(extra)
        elif not credentials:
            exchange.credentials = "withheld"
        recording = self.config.recording
        if recording is not None:  # the recorded world answers first, or refuses (conformance.recording)
            held = recording.answer(exchange)
            if held is not None:
                return held
            refused = recording.refuse(exchange, redirected)
            if refused is not None:
                exchange.error = refused
                return exchange
            if recording.user_agent:  # a scan says what it is (docs/scan.md)
                request.headers["User-Agent"] = exchange.request_headers["user-agent"] = recording.user_agent
            if recording.pace is not None:
                recording.pace(url.host, recording)
        limits = self.limits
        started = time.monotonic()
        self.requests_sent += 1
        self._deadline.at = started + limits.total_timeout
        self._deadline.guard = guard
        try:
            exchange = self._exchange(request, exchange, started, redirected)
            if exchange.error and exchange.error[0] in ("private-redirect", PRIVATE_ADDRESS):
                self.requests_sent -= 1  # refused before it was sent: nothing left the kit
            if recording is not None:  # a refusal too: judged again, it is refused the same way
                recording.keep(exchange)
            return exchange
        finally:
            self._deadline.at = None
            self._deadline.guard = False

    def _exchange(self, request: httpx.Request, exchange: Exchange, started: float,
                  redirected: bool = True) -> Exchange:
        limits = self.limits
        try:
            response = self._client.send(request, stream=True)
        except Exception as exc:  # noqa: BLE001 - every failure of the target becomes evidence
            private = _cause(exc, PrivateRedirect)
            if private and redirected:
                exchange.error = ("private-redirect", f"redirect to {request.url.host}: {private}; reported, not "
                                  "fetched (--allow-private follows it)")
            elif private and self.config.recording is not None and self.config.recording.public_only:
                exchange.error = (PRIVATE_ADDRESS, f"{request.url}: {private}; a scan connects to no loopback or "
                                  "private address, its domains' own included; not fetched (--allow-private fetches it)")
            elif private:
                exchange.error = (PRIVATE_ADDRESS, f"{request.url} is not the host the user named, and {private}: "
                                  "the kit does not send a URL taken from the target to this machine or a private "
                                  "network; not fetched (--allow-private fetches it)")
            else:
                exchange.error = _classify(exc)
            exchange.elapsed_total = time.monotonic() - started
            return exchange
        try:
            exchange.elapsed_headers = time.monotonic() - started
            exchange.status = response.status_code
            exchange.reason = response.reason_phrase
            exchange.http_version = response.http_version
            exchange.response_headers = [(k, v) for k, v in response.headers.multi_items()]
            exchange.tls_version = _tls_version(response)
            deadline = started + limits.total_timeout
            raw = 0
            decoder: _Decoder | None = None
            try:
                # the cap counts decoded bytes, across every stacked coding, inside the deadline
                decoder = _Decoder(response.headers.get("content-encoding"), limits.max_body_bytes)
                for chunk in response.iter_raw():
                    raw += len(chunk)
                    decoder.feed(chunk)
                    if decoder.over:
                        exchange.body_truncated = True
                        exchange.error = ("too-large", f"body exceeds the kit's cap of {limits.max_body_bytes} "
                                                       f"bytes (decoded); reading stopped")
                        break
                    if time.monotonic() > deadline:
                        exchange.error = ("timeout", f"body not complete within {limits.total_timeout:g} s "
                                                     f"(read {raw} bytes)")
                        break
                else:
                    if raw and not decoder.complete():
                        exchange.error = ("protocol", "the compressed body ends before its coded stream does")
            except EncodingRefused as exc:
                exchange.error = ("encoding", str(exc))
            except zlib.error as exc:
                exchange.error = ("protocol", f"the body does not decode as its Content-Encoding says: {exc}")
            except Exception as exc:  # noqa: BLE001
                exchange.error = _classify(exc)
            exchange.body = decoder.body() if decoder is not None else b""
            exchange.elapsed_total = time.monotonic() - started
        finally:
            response.close()
        return exchange
