"""Fixtures of the woa suite for the host's MCP transport (4.3.2, 5.3): the kit as an MCP client.

A host's document may expose agents over ``mcp``: ``transports.mcp`` names a ``server``, a
``tool_namespace`` and a ``tool_field``. The kit connects to that server as a real MCP client,
the official MCP Python SDK's (``mcp``: ``ClientSession`` over ``streamable_http_client``), once
per run (:class:`McpSession`, fixture ``mcp_session``): initialize, then tools/list (following
pagination); the tests then look for each agent's tool and call it.

The SDK's HTTP client (``httpx2``) is built here, so every request keeps the kit's limits:

* time: each MCP operation is bounded by ``--timeout`` (``anyio.fail_after``), each connection
  by the connect timeout; the SDK's own read timeout is the same;
* size: each response (a JSON body or a whole SSE stream) is cut at ``--max-body`` bytes, one
  SSE event at the same (``max_sse_event_size``), and only the identity coding is asked for
  and accepted, so a compressed body cannot grow past the cap;
* redirects: the SDK follows only redirects that stay on the server's origin and keep the
  method, at most five (``max_redirects``); never https to http;
* trust and names: the run's CA bundle and ``--connect-to`` mappings (the builtin host's MCP
  server is one of them), and the private-address rule of ``conformance.fetch``: a server
  the document names may not be reached on a loopback or private address unless the user
  named that host (``--connect-to``, the target's own host) or passed ``--allow-private``;
* no credentials, no proxies or netrc from the environment, no cookies kept.

Every HTTP request of the session is recorded as an :class:`~conformance.fetch.Exchange`
(evidence in reports: the JSON-RPC message sent, the JSON or event stream received) and
counted in the run's requests. Connecting to a live host's MCP server is opt-in like any
invocation (``--invoke``), and only a ``server`` that is an https URL is contacted (AMB-42);
each tools/call counts against ``--invoke-budget`` (:meth:`Invoker.count`).
"""

from __future__ import annotations

import socket
import ssl
import time
from contextlib import AsyncExitStack, ExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest

from conformance.fetch import (USER_AGENT, Exchange, Fetcher, HttpConfig, PrivateRedirect, is_private_address,
                               public_address, verifying_context)
from conformance.invoke import Invoker
from conformance.outcomes import not_applicable, untestable
from conformance.targets import Target

__all__ = ["McpConfig", "McpSession", "McpTool", "SEPARATORS", "mcp_config", "mcp_session", "mcp_tools",
           "tool_name_forms"]

#: How tool_namespace and a tool name may be joined (the draft names no separator: AMB-14).
SEPARATORS = (".", "/", "_", "__", ":", "-")
#: tools/list pages read at most (a server whose cursor never ends cannot hold the run).
MAX_PAGES = 20
#: What a tools/list the kit stopped at MAX_PAGES leaves unjudged (the kit's limit, not the server's).
PAGE_CAP = (f"the kit reads at most {MAX_PAGES} pages of tools/list (its cap, MAX_PAGES in "
            "conformance/woa/_mcp_fixtures.py) and the server had more")
#: The bytes of tools/list read at most across all its pages (each page is capped by --max-body
#: itself), or one --max-body when that is larger: memory is bounded by the listing's total, not
#: per page, and grows with --max-body as one response does.
LIST_TOTAL_BYTES = 4 * 1024 * 1024
#: Why the kit does not judge a server that speaks MCP's deprecated HTTP+SSE transport.
LEGACY_SSE = ("the server speaks MCP's deprecated HTTP+SSE transport, which the kit does not speak (it connects over "
              "Streamable HTTP only)")
#: Bytes of each response kept as evidence (the report shows an excerpt of them).
KEPT_BYTES = 64 * 1024


@dataclass(frozen=True)
class McpConfig:
    """The document's mcp transport configuration (4.3.2)."""

    server: str
    tool_namespace: str
    tool_field: str


@dataclass(frozen=True)
class McpTool:
    """A tool the host must list: one agent (and operation, when tool_field is operation) that
    lists mcp, the value the envelope's tool_field would carry, and the schemas that apply."""

    agent: str
    operation: str | None
    value: str
    inputs: Any
    outputs: Any

    @property
    def label(self) -> str:
        return f"agent {self.agent!r}" + (f" operation {self.operation!r}" if self.operation is not None else "")


def tool_name_forms(namespace: str, value: str) -> list[str]:
    """The tool names the kit accepts for ``value`` (AMB-14): namespace-joined forms, then bare."""
    joined = [namespace + sep + value for sep in SEPARATORS] if namespace else []
    return joined + [value]


# ------------------------------------------------------------------ the MCP client


class _PageCap(RuntimeError):
    """tools/list had more pages, or more bytes in all, than the kit reads."""


@dataclass
class _Meter:
    """Response bytes the session's client read; ``cap`` (when set) ends a read that passes it."""

    read: int = 0
    cap: int | None = None


class PrivateAddress(OSError):
    """The server a document names is on a loopback or private address the user did not name."""


def _kind(exc: BaseException) -> tuple[str, str]:
    """An exchange's error (kind, detail), in the fetcher's words."""
    import httpx2

    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, PrivateAddress):
            return ("private-address", str(cause))
        if isinstance(cause, ssl.SSLError):
            return ("tls", getattr(cause, "verify_message", None) or str(cause))
        cause = cause.__cause__ or cause.__context__
    if isinstance(exc, httpx2.TimeoutException):
        return ("timeout", f"{type(exc).__name__}: {exc or 'no answer in time'}")
    if isinstance(exc, httpx2.ConnectError):
        return ("connect", str(exc) or "connection failed")
    if isinstance(exc, httpx2.ProtocolError):
        return ("protocol", str(exc) or type(exc).__name__)
    return ("transport", f"{type(exc).__name__}: {exc}")


def _client(config: HttpConfig, named_host: str | None, exchanges: list[Exchange], on_request: Callable[[], None],
            meter: _Meter | None = None):
    """An ``httpx2.AsyncClient`` for the SDK that keeps the kit's limits (module docstring)."""
    import anyio
    import httpcore2
    import httpx2

    limits = config.limits
    mappings = config.connect_to

    class Backend(httpcore2.AsyncNetworkBackend):
        """TCP to the ``--connect-to`` destination, else to a checked public address."""

        def __init__(self) -> None:
            self._inner = httpcore2.AnyIOBackend()

        async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                              local_address: str | None = None, socket_options: Any = None):
            for m in mappings:
                dest = m.maps(host, port)
                if dest:
                    host, port = dest
                    break
            else:
                trusted = config.allow_private or (named_host is not None and host.lower() == named_host.lower())
                if not trusted:
                    host = await self._public_address(host, port)
            return await self._inner.connect_tcp(host, port, timeout=timeout, local_address=local_address,
                                                 socket_options=socket_options)

        @staticmethod
        async def _public_address(host: str, port: int) -> str:
            """The address to connect to, resolved once here, refused when it is not public
            (the fetcher's one rule, :func:`conformance.fetch.public_address`)."""
            try:
                addresses = [] if is_private_address(host) else [
                    str(info[4][0]) for info in await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)]
                return public_address(host, addresses)
            except PrivateRedirect as exc:
                raise PrivateAddress(f"{exc}; reported, not contacted (--allow-private, or --connect-to naming it, "
                                     "lets the kit connect)") from None

        async def sleep(self, seconds: float) -> None:
            await self._inner.sleep(seconds)

    class Capped(httpx2.AsyncByteStream):
        """A response body read at most to the cap, its first bytes kept as evidence."""

        def __init__(self, inner: Any, exchange: Exchange, started: float) -> None:
            self._inner, self._exchange, self._started, self._size = inner, exchange, started, 0

        async def __aiter__(self):
            ex = self._exchange
            async for chunk in self._inner:
                self._size += len(chunk)
                if meter is not None:
                    meter.read += len(chunk)
                    if meter.cap is not None and meter.read > meter.cap:
                        raise _PageCap("total")
                room = KEPT_BYTES - len(ex.body)
                if room > 0:
                    ex.body += chunk[:room]
                ex.elapsed_total = time.monotonic() - self._started
                if self._size > limits.max_body_bytes:
                    ex.body_truncated = True
                    ex.error = ("too-large", f"the response exceeds the kit's cap of {limits.max_body_bytes} bytes; "
                                             "reading stopped")
                    raise httpx2.ReadError(ex.error[1])
                yield chunk

        async def aclose(self) -> None:
            await self._inner.aclose()

    class Transport(httpx2.AsyncHTTPTransport):
        def __init__(self, context: ssl.SSLContext) -> None:
            super().__init__(verify=context, trust_env=False, retries=0)
            self._pool = httpcore2.AsyncConnectionPool(ssl_context=context, max_connections=8, http1=True,
                                                       http2=False, retries=0, network_backend=Backend())

        async def handle_async_request(self, request: Any) -> Any:
            body = await request.aread()
            # the user's credentials go to an origin they named only (conformance.credentials)
            given = config.credentials.for_url(str(request.url)) if config.credentials is not None else {}
            given = {k: v for k, v in given.items() if k not in request.headers}
            for name, value in given.items():
                request.headers[name] = value
            exchange = Exchange(method=request.method, url=str(request.url.copy_with(userinfo=b"")),
                                request_headers=dict(request.headers), request_body=body)
            if given:
                exchange.credentials, exchange.credential_headers = "sent", tuple(given)
            exchanges.append(exchange)
            on_request()
            started = time.monotonic()
            try:
                response = await super().handle_async_request(request)
            except Exception as exc:
                exchange.error = _kind(exc)
                exchange.elapsed_total = time.monotonic() - started
                raise
            exchange.elapsed_headers = time.monotonic() - started
            exchange.status = response.status_code
            exchange.reason = response.reason_phrase
            exchange.http_version = response.http_version
            exchange.response_headers = [(k, v) for k, v in response.headers.multi_items()]
            stream = response.extensions.get("network_stream")
            try:
                ssl_object = stream.get_extra_info("ssl_object") if stream is not None else None
                exchange.tls_version = ssl_object.version() if ssl_object is not None else None
            except Exception:  # noqa: BLE001 - a fact for the report only
                pass
            coding = response.headers.get("content-encoding", "identity").strip().lower()
            if coding not in ("", "identity"):
                exchange.error = ("encoding", f"Content-Encoding {coding!r} was not asked for (Accept-Encoding: identity)")
                await response.aclose()
                raise httpx2.DecodingError(exchange.error[1])
            response.stream = Capped(response.stream, exchange, started)
            return response

    context = verifying_context(config.ca_bundle)  # the kit's one verifying context, as the fetcher's
    return httpx2.AsyncClient(
        transport=Transport(context), trust_env=False, follow_redirects=False, max_redirects=limits.max_redirects,
        timeout=httpx2.Timeout(limits.total_timeout, connect=limits.connect_timeout),
        headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"},
    )


@dataclass
class CallResult:
    """What one tools/call brought back: the result (None when there was none) or why not."""

    name: str
    arguments: dict
    result: Any = None
    error: str | None = None


@dataclass
class McpSession:
    """The run's MCP session with the host's server: what it listed, and what it was asked.

    Opened once (initialize, tools/list) and closed at the end of the run; ``error`` says why
    there is no session or no listing. Each exchange is kept as evidence."""

    url: str
    exchanges: list[Exchange] = field(default_factory=list)
    #: Why the session or its tools/list failed (None: it worked).
    error: str | None = None
    #: When the error is the kit's doing (its --timeout, its --max-body), what it was and the
    #: option that changes it: the server is not judged on it.
    limit: str | None = None
    #: The POST was refused (404, 405) and a GET with Accept: text/event-stream opened an event
    #: stream: the server speaks MCP's deprecated HTTP+SSE transport (AMB-44).
    legacy_sse: bool = False
    #: tools/list had more pages than the kit reads (MAX_PAGES): ``tools`` holds those it read.
    truncated: str | None = None
    #: The server's name and version, and the protocol version agreed on.
    server_info: str = ""
    #: The tools listed, as JSON objects (name, inputSchema, ...).
    tools: list[dict] = field(default_factory=list)
    calls: list[CallResult] = field(default_factory=list)
    _stack: ExitStack | None = None
    _portal: Any = None
    _session: Any = None
    _timeout: float = 10.0
    _meter: _Meter = field(default_factory=_Meter)

    def evidence(self) -> list[Exchange]:
        return list(self.exchanges)

    @property
    def names(self) -> list[str]:
        return [t.get("name") for t in self.tools if isinstance(t.get("name"), str)]

    def open(self, config: HttpConfig, named_host: str | None, on_request: Callable[[], None]) -> None:
        """Connect, initialize and list the tools; failures go to ``error``, never raised."""
        from anyio.from_thread import start_blocking_portal

        self._timeout = config.limits.total_timeout
        self._max_body = config.limits.max_body_bytes
        self._stack = ExitStack()
        self._portal = self._stack.enter_context(start_blocking_portal(name="adck-mcp-client"))

        @asynccontextmanager
        async def connected():
            from mcp.client.session import ClientSession
            from mcp.client.streamable_http import streamable_http_client
            from mcp_types import Implementation

            from conformance import __version__

            async with AsyncExitStack() as stack:
                http = await stack.enter_async_context(_client(config, named_host, self.exchanges, on_request,
                                                               self._meter))
                read, write = await stack.enter_async_context(streamable_http_client(
                    self.url, http_client=http, max_sse_event_size=config.limits.max_body_bytes))
                yield await stack.enter_async_context(ClientSession(
                    read, write, read_timeout_seconds=self._timeout,
                    client_info=Implementation(name="adck", version=__version__)))

        try:
            self._session = self._stack.enter_context(self._portal.wrap_async_context_manager(connected()))
            init = self._bounded(self._session.initialize)
            info = init.server_info
            self.server_info = f"{info.name} {info.version} (MCP {init.protocol_version})"
        except Exception as exc:  # noqa: BLE001 - every failure of the server is an observation
            self.error = f"no MCP session with {self.url}: initialize failed: {self._why(exc)}"
            self.limit = self._limit(exc)
            if self.limit is None:
                self._probe_legacy_sse(config, named_host, on_request)
            return
        try:
            self._list()
        except _PageCap as exc:
            self.truncated = str(exc)
        except Exception as exc:  # noqa: BLE001
            self.error = f"tools/list of {self.url} failed: {self._why(exc)}"
            self.limit = self._limit(exc)

    def _limit(self, exc: BaseException) -> str | None:
        """The kit's own limit that ended the session, naming the option that changes it (None:
        the server's doing)."""
        import httpx2

        seen: set[int] = set()
        cause: BaseException | None = exc
        timed_out = False
        while cause is not None and id(cause) not in seen:
            seen.add(id(cause))
            timed_out = timed_out or isinstance(cause, (TimeoutError, httpx2.TimeoutException))
            cause = cause.__cause__ or cause.__context__
        if timed_out or any(e.error and e.error[0] == "timeout" for e in self.exchanges):
            return f"no answer within the kit's --timeout of {self._timeout:g} s; raise --timeout to judge it"
        if any(e.body_truncated or (e.error and e.error[0] == "too-large") for e in self.exchanges):
            return (f"a response exceeds the kit's --max-body of {self._max_body} bytes; raise --max-body to "
                    "judge it")
        return None

    def _probe_legacy_sse(self, config: HttpConfig, named_host: str | None, on_request: Callable[[], None]) -> None:
        """After initialize's POST was answered 404 or 405, one GET with Accept: text/event-stream:
        a 200 text/event-stream is the endpoint of MCP's deprecated HTTP+SSE transport (its body,
        the event stream, is not read). The exchange is kept as evidence."""
        last = next((e for e in reversed(self.exchanges) if e.method == "POST"), None)
        if last is None or last.status not in (404, 405):
            return

        async def probe() -> tuple[int, str]:
            async with _client(config, named_host, self.exchanges, on_request) as http:
                async with http.stream("GET", self.url, headers={"Accept": "text/event-stream"}) as response:
                    return response.status_code, response.headers.get("content-type", "")

        try:
            status, kind = self._bounded(probe)
        except Exception:  # noqa: BLE001 - no answer: no legacy endpoint seen
            return
        self.legacy_sse = status == 200 and kind.split(";")[0].strip().lower() == "text/event-stream"

    def _list(self) -> None:
        import mcp_types as types

        total = max(LIST_TOTAL_BYTES, self._max_body)
        self._meter.cap = self._meter.read + total
        cursor = None
        try:
            for n in range(1, MAX_PAGES + 1):
                params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
                try:
                    page = self._bounded(lambda: self._session.list_tools(params=params))
                except Exception as exc:  # noqa: BLE001 - the total passed mid-page, or the server's fault
                    if self._meter.read > self._meter.cap:
                        raise _PageCap(f"tools/list passed {total} bytes in all while page {n} was read: the kit "
                                       f"reads at most {LIST_TOTAL_BYTES} bytes of tools/list across its pages, or "
                                       "one --max-body when that is larger; raise --max-body to read more") from None
                    raise exc
                self.tools += [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in page.tools]
                cursor = page.next_cursor
                if not cursor:
                    return
        finally:
            self._meter.cap = None
        raise _PageCap(f"tools/list still had a next cursor after {MAX_PAGES} pages: {PAGE_CAP}")

    def call(self, name: str, arguments: dict) -> CallResult:
        """tools/call ``name`` with ``arguments`` (the caller counted it against the budget)."""
        import mcp_types as types

        outcome = CallResult(name, arguments)
        self.calls.append(outcome)
        request = types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments))
        try:
            outcome.result = self._bounded(lambda: self._session.send_request(request, types.CallToolResult))
        except Exception as exc:  # noqa: BLE001
            outcome.error = self._why(exc)
        return outcome

    def _bounded(self, operation: Callable[[], Any]) -> Any:
        """Run one MCP operation in the client's event loop, within the kit's time limit."""
        import anyio

        async def run() -> Any:
            with anyio.fail_after(self._timeout):
                return await operation()

        return self._portal.call(run)

    def _why(self, exc: BaseException) -> str:
        """An exception of the SDK or the network in a vendor's words (with the HTTP error, if one)."""
        from mcp.shared.exceptions import MCPError

        if isinstance(exc, TimeoutError):
            text = f"no answer within {self._timeout:g} s (--timeout)"
        elif isinstance(exc, MCPError):
            text = f"JSON-RPC error {exc.error.code}: {(exc.error.message.splitlines() or [''])[0][:300]}"
        else:
            text = f"{type(exc).__name__}: {str(exc).splitlines()[0][:300] if str(exc) else ''}"
        last = next((e for e in reversed(self.exchanges) if e.method == "POST"), None)
        if last is not None and last.error:
            text += f" (HTTP: {last.method} {last.url}: {last.error[0]}: {last.error[1]})"
        elif last is not None and last.status is not None:
            kind = (last.header("content-type") or "no Content-Type").split(";")[0]
            said = last.body[:160].decode("utf-8", "replace")
            text += f" (HTTP: {last.method} {last.url} answered {last.status} {last.reason}, {kind}: {said!r})"
        return text

    @property
    def refused_private(self) -> bool:
        return any(e.error and e.error[0] == "private-address" for e in self.exchanges)

    def close(self) -> None:
        stack, self._stack = self._stack, None
        if stack is None:
            return
        try:
            stack.close()  # ends the session (DELETE), then the client's event loop and its thread
        except BaseException:  # noqa: BLE001 - a broken server cannot fail the run's teardown
            pass


# ------------------------------------------------------------------ fixtures


@pytest.fixture(scope="session")
def mcp_config(host_value: dict) -> McpConfig:
    """The served document's mcp transport (*not-applicable* without one that an agent lists)."""
    transports = host_value.get("transports")
    config = transports.get("mcp") if isinstance(transports, dict) else None
    agents = [a for a in host_value.get("agents") or [] if isinstance(a, dict)] \
        if isinstance(host_value.get("agents"), list) else []
    listing = [a for a in agents if isinstance(a.get("transports"), list) and "mcp" in a["transports"]]
    if config is None and not listing:
        not_applicable("the document configures no mcp transport")
    if config is None:
        untestable("agents list mcp, but the document's transports has no mcp configuration (see WOA-4.1-16)")
    if not listing:
        not_applicable("the document configures an mcp transport, but no agent lists it")
    if not isinstance(config, dict):
        untestable("transports.mcp is not a JSON object (see WOA-4-05)")
    values = {k: config.get(k) for k in ("server", "tool_namespace", "tool_field")}
    wrong = [k for k, v in values.items() if not isinstance(v, str)]
    if wrong:
        untestable(f"transports.mcp has no string {', '.join(wrong)} (see WOA-4.3.2-03 to WOA-4.3.2-05)")
    return McpConfig(**values)


@pytest.fixture(scope="session")
def mcp_tools(host_value: dict, mcp_config: McpConfig) -> list[McpTool]:
    """The tools the host's MCP server must list: per agent that lists mcp, the value its
    envelope's tool_field carries (AMB-14, AMB-43)."""
    out: list[McpTool] = []
    for agent in host_value.get("agents") or []:
        if not (isinstance(agent, dict) and isinstance(agent.get("id"), str)
                and isinstance(agent.get("transports"), list) and "mcp" in agent["transports"]):
            continue
        inputs, outputs = agent.get("inputs"), agent.get("outputs")
        if mcp_config.tool_field == "agent":
            out.append(McpTool(agent["id"], None, agent["id"], inputs, outputs))
        elif mcp_config.tool_field == "operation":
            ops = agent.get("operations") if isinstance(agent.get("operations"), list) else []
            out += [McpTool(agent["id"], op["name"], op["name"], op.get("inputs", inputs), op.get("outputs", outputs))
                    for op in ops if isinstance(op, dict) and isinstance(op.get("name"), str)]
    if not out:
        not_applicable(f"tool_field {mcp_config.tool_field!r} names no envelope field that gives the agents listing mcp "
                       "a tool name the kit can know (agent: the agent's id; operation: each operation's name) (AMB-43)")
    return out


def _server_url(config: McpConfig) -> str:
    """The https URL of the MCP server (AMB-42): *untestable* for http, *not-applicable* for
    anything that is no absolute URL (an identifier, a command)."""
    import httpx

    try:
        url = httpx.URL(config.server)
    except Exception:  # noqa: BLE001
        url = None
    if url is None or not url.is_absolute_url or not url.host:
        not_applicable(f"server {config.server!r} is not an absolute URL: an identifier the kit cannot connect to (AMB-42)")
    if url.scheme == "http":
        untestable(f"server {config.server!r} is a plain-HTTP URL: the kit connects to MCP servers over HTTPS only, "
                   "and did not contact it (AMB-42)")
    if url.scheme != "https":
        not_applicable(f"server {config.server!r} is a {url.scheme}: URL, not a Streamable HTTP endpoint the kit can "
                       "connect to (AMB-42)")
    return str(url.copy_with(userinfo=None, fragment=None))


@pytest.fixture(scope="session")
def mcp_session(request: pytest.FixtureRequest, adck_target: Target, adck_fetcher: Fetcher, adck_invoker: Invoker,
                mcp_config: McpConfig, mcp_tools: list[McpTool]):
    """The run's one MCP session with the host's server (initialize, tools/list), closed at the end."""
    import httpx

    from conformance.woa._host_fixtures import unreachable

    url = _server_url(mcp_config)
    why = unreachable(adck_target, url)
    if why:
        untestable(f"the MCP server {url} is not contacted: {why}")
    if not adck_invoker.allowed:
        untestable("connecting to a live host's MCP server opens a session with a server whose tools may cost money "
                   "or change state, so it is opt-in like any invocation: pass --invoke (and --invoke-budget N) to "
                   "check this clause (AMB-42)")
    session = McpSession(url)
    request.addfinalizer(session.close)

    def counted() -> None:
        adck_fetcher.requests_sent += 1

    named = httpx.URL(adck_target.origin).host if adck_target.origin else None
    session.open(adck_fetcher.config, named, counted)  # the target's, with the user's credentials
    return session
