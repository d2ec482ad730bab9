"""An MCP server of the mock world: the MCP transport (WoA 4.3.2, 5.3) of the reference host.

The builtin woa target starts one beside the reference host's HTTPS origin when the host's
site has MCP settings (the ``[mcp]`` table of ``fixtures/woa/host.toml``, :attr:`Site.mcp`).
Its tools come from the site's own WoA document: each agent whose ``transports`` list ``mcp``
is a tool named from ``transports.mcp`` (``tool_namespace`` and the value the envelope's
``tool_field`` holds: the agent's id for ``agent``, each operation's name for ``operation``),
whose ``inputSchema`` is the agent's (or the operation's) ``inputs``, and whose successful
result is a value built from its ``outputs`` (``conformance.woa.reference_server.instance_of``). So a
variant that changes the document changes the tools.

It is the official MCP Python SDK's server over Streamable HTTP: the low-level
``mcp.server.Server``, whose tools are declared as data (``MCPServer`` derives a tool's schema
from a Python signature, and configures the whole process's logging when built), served by
uvicorn in a thread on 127.0.0.1 (a free port) with a certificate from the mock CA, as
``https://mcp.adck.test/mcp``; a target maps the name with ``--connect-to`` semantics
(:attr:`McpOrigin.connect_to`). DNS-rebinding protection stays on, for that name only.
``stop()`` ends it (and its thread); nothing outlives a run.

A broken variant changes one setting (:class:`McpOptions`) in its ``site.mcp`` table.
"""

from __future__ import annotations

import json
import logging
import shutil
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from conformance.fetch import ConnectTo
from conformance.world import tls

# The SDK and uvicorn log through the standard library; the kit's terminal is not theirs.
for _name in ("mcp", "uvicorn", "sse_starlette"):
    logging.getLogger(_name).addHandler(logging.NullHandler())


@dataclass(frozen=True)
class McpOptions:
    """How the MCP server behaves; the reference values conform, a variant changes one."""

    #: The name the server is reached by (the host of transports.mcp.server).
    hostname: str = "mcp.adck.test"
    #: The path of the Streamable HTTP endpoint.
    path: str = "/mcp"
    #: How a tool is named from {namespace} (tool_namespace) and {value} (what the envelope's
    #: tool_field holds): "{namespace}.{value}", "{value}", "{namespace}__{value}", ...
    tool_name: str = "{namespace}.{value}"
    #: Agent ids whose tools are not listed (nor callable).
    unlisted: tuple = ()
    #: "mcp": an MCP server; "legacy-sse": the same server over MCP's deprecated HTTP+SSE
    #: transport (protocol 2024-11-05: GET ``path`` opens the event stream, whose endpoint event
    #: names ``path``/messages/ for the client's POSTs; a POST to ``path`` is answered 405);
    #: "not-found": every request answered 404; "not-mcp": every request answered 200 with a
    #: JSON object that is not JSON-RPC; "redirect": every request answered 307 to
    #: ``redirect_to``; "down": nothing listens.
    serve: str = "mcp"
    #: Where "redirect" sends every request.
    redirect_to: str = ""
    #: Answer each request with one JSON response (True) or an SSE stream (False, the SDK's default).
    json_response: bool = False
    #: How a successful result carries the output: "structured" (structuredContent, and the same
    #: JSON as a text content), "text" (one text content holding the JSON only), "prose" (one
    #: text content that is not JSON).
    result: str = "structured"
    #: Members merged into every output (a variant breaks the outputs schema with them).
    output_merge: dict = field(default_factory=dict)
    #: Members removed from every output.
    output_remove: tuple = ()
    #: Every call of a listed tool answers isError: true.
    is_error: bool = False
    #: Seconds a tools/call takes before it answers.
    call_delay: float = 0.0
    #: Every request must carry ``Authorization: Bearer <conformance.world.site.TEST_TOKEN>``;
    #: without it the server answers 401 with ``WWW-Authenticate: Bearer`` (the MCP
    #: specification's authorization: a protected server's resource metadata is not modelled).
    auth: bool = False
    #: With ``auth``, the right token is refused too (a broken variant: 401 whatever is sent).
    auth_refuse_all: bool = False
    #: tools/list answers in this many pages (each but the last with a next cursor): the agents'
    #: tools on page ``tools_page``, one filler tool (no agent's) on every other page.
    list_pages: int = 1
    tools_page: int = 1

    @classmethod
    def of(cls, settings: dict) -> "McpOptions":
        known = {f.name for f in fields(cls)}
        unknown = set(settings) - known
        if unknown:
            raise ValueError(f"unknown mcp settings {sorted(unknown)}; known: {sorted(known)}")
        values = dict(settings)
        for name in ("unlisted", "output_remove"):
            if name in values:
                values[name] = tuple(values[name])
        options = cls(**values)
        if options.serve not in ("mcp", "legacy-sse", "not-found", "not-mcp", "redirect", "down"):
            raise ValueError(f"mcp serve = {options.serve!r}: expected mcp, legacy-sse, not-found, not-mcp, redirect "
                             "or down")
        if not 1 <= options.tools_page <= max(options.list_pages, 1):
            raise ValueError(f"mcp tools_page = {options.tools_page}: expected a page from 1 to list_pages")
        if options.result not in ("structured", "text", "prose"):
            raise ValueError(f"mcp result = {options.result!r}: expected structured, text or prose")
        return options


@dataclass(frozen=True)
class Tool:
    name: str
    agent: str
    inputs: Any
    outputs: Any


def tools_of(document: Any, options: McpOptions) -> dict[str, Tool]:
    """The tools the server lists for a WoA document, by name (the first of a name wins)."""
    if not isinstance(document, dict):
        return {}
    transports = document.get("transports") if isinstance(document.get("transports"), dict) else {}
    config = transports.get("mcp") if isinstance(transports.get("mcp"), dict) else {}
    namespace = config.get("tool_namespace") if isinstance(config.get("tool_namespace"), str) else ""
    tool_field = config.get("tool_field", "agent")
    found: dict[str, Tool] = {}
    for agent in document.get("agents") or []:
        if not isinstance(agent, dict) or not isinstance(agent.get("id"), str):
            continue
        if "mcp" not in (agent.get("transports") or []) or agent["id"] in options.unlisted:
            continue
        inputs, outputs = agent.get("inputs", {}), agent.get("outputs", {})
        if tool_field == "operation":
            entries = [(op["name"], op.get("inputs", inputs), op.get("outputs", outputs))
                       for op in agent.get("operations") or []
                       if isinstance(op, dict) and isinstance(op.get("name"), str)]
        else:
            entries = [(agent["id"], inputs, outputs)]
        for value, tool_inputs, tool_outputs in entries:
            name = options.tool_name.format(namespace=namespace, value=value)
            found.setdefault(name, Tool(name, agent["id"], tool_inputs, tool_outputs))
    return found


def _server(document: Any, options: McpOptions):
    """The SDK's low-level server answering tools/list and tools/call for ``document``."""
    import mcp_types as types
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError

    from conformance.schemas import PatternNotChecked, offline_validator
    from conformance.woa.reference_server import instance_of

    tools = tools_of(document, options)

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        listed = []
        for tool in tools.values():
            schema = tool.inputs if isinstance(tool.inputs, dict) else {"type": "object"}
            listed.append(types.Tool(name=tool.name, description=f"WoA agent {tool.agent}", input_schema=schema))
        if options.list_pages <= 1:
            return types.ListToolsResult(tools=listed)
        cursor = getattr(params, "cursor", None) or ""
        page = int(cursor.removeprefix("page-")) if cursor.removeprefix("page-").isdigit() else 1
        if page != options.tools_page:
            listed = [types.Tool(name=f"adck-filler-{page}", description="a tool of no WoA agent",
                                 input_schema={"type": "object"})]
        return types.ListToolsResult(tools=listed, next_cursor=f"page-{page + 1}" if page < options.list_pages else None)

    def text(value: str, is_error: bool = False) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(type="text", text=value)], is_error=is_error)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = tools.get(params.name)
        if tool is None:
            raise MCPError(-32602, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        try:
            errors = sorted(offline_validator(tool.inputs).iter_errors(arguments), key=lambda e: list(e.absolute_path))
        except PatternNotChecked:  # a pattern RE2 cannot run: the mock server does not judge it
            errors = []
        if errors:
            where = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
            return text(f"the arguments do not conform to the tool's inputSchema at {where}: {errors[0].message}", True)
        if options.call_delay:
            import anyio

            await anyio.sleep(options.call_delay)
        if options.is_error:
            return text(f"agent {tool.agent} failed", True)
        output = instance_of(tool.outputs)
        if isinstance(output, dict):
            output = {k: v for k, v in output.items() if k not in options.output_remove} | options.output_merge
        if options.result == "prose":
            return text(f"Done: {json.dumps(output)[:60]}")
        if options.result == "structured" and isinstance(output, dict):
            return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(output))],
                                        structured_content=output)
        return text(json.dumps(output))

    return Server("adck-mock-woa-host", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def _not_mcp_app(options: McpOptions):
    """An HTTP app that is no MCP server: 404 to everything, a JSON object that is not JSON-RPC,
    or a redirect elsewhere."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse
    from starlette.routing import Route

    async def answer(request: Any) -> Any:
        if options.serve == "not-found":
            return PlainTextResponse("not found\n", status_code=404)
        if options.serve == "redirect":
            return RedirectResponse(options.redirect_to, status_code=307)
        return JSONResponse({"service": "adck mock", "status": "ok"})

    return Starlette(routes=[Route("/{path:path}", answer, methods=["GET", "POST", "DELETE"])])


def _legacy_sse_app(document: Any, options: McpOptions, security: Any):
    """The SDK's server over MCP's deprecated HTTP+SSE transport (its ``SseServerTransport``):
    GET ``path`` is the event stream, POSTs go to ``path``/messages/; ``path`` takes no POST."""
    from mcp.server.sse import SseServerTransport
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Mount, Route

    server = _server(document, options)
    messages = options.path.rstrip("/") + "/messages/"
    sse = SseServerTransport(messages, security_settings=security)

    async def stream(request: Any) -> Response:
        async with sse.connect_sse(request.scope, request.receive, request._send) as (read, write):
            await server.run(read, write, server.create_initialization_options())
        return Response()

    return Starlette(routes=[Route(options.path, stream, methods=["GET"]),
                             Mount(messages, app=sse.handle_post_message)])


def app_for(document: Any, options: McpOptions):
    """The ASGI app the server runs: the SDK's Streamable HTTP app (or its legacy HTTP+SSE one),
    or a stand-in that is not MCP."""
    if options.serve not in ("mcp", "legacy-sse"):
        return _not_mcp_app(options)
    from mcp.server.transport_security import TransportSecuritySettings

    security = TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                         allowed_hosts=[options.hostname, f"{options.hostname}:*"],
                                         allowed_origins=[f"https://{options.hostname}"])
    if options.serve == "legacy-sse":
        return _legacy_sse_app(document, options, security)
    return _server(document, options).streamable_http_app(
        streamable_http_path=options.path, json_response=options.json_response, transport_security=security)


def _authorized(scope: dict, options: McpOptions) -> bool:
    from conformance.world.site import TEST_TOKEN

    given = dict(scope.get("headers") or []).get(b"authorization", b"").decode("latin-1")
    scheme, _, token = given.partition(" ")
    return scheme.lower() == "bearer" and token.strip() == TEST_TOKEN and not options.auth_refuse_all


async def _unauthorized(scope: dict, send: Any, options: McpOptions) -> None:
    """401 with a Bearer challenge and a JSON-RPC error body (what MCP servers answer)."""
    given = any(k == b"authorization" for k, _ in scope.get("headers") or [])
    body = json.dumps({"jsonrpc": "2.0", "id": None,
                       "error": {"code": -32001, "message": "Unauthorized: this server needs a bearer token"}}).encode()
    challenge = f'Bearer realm="{options.hostname}"' + (', error="invalid_token"' if given else "")
    await send({"type": "http.response.start", "status": 401,
                "headers": [(b"content-type", b"application/json"), (b"www-authenticate", challenge.encode()),
                            (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


@dataclass
class McpOrigin:
    """A running MCP server: how to reach it, and what it was asked."""

    options: McpOptions
    port: int
    #: "METHOD path" of every HTTP request the server received.
    received: list[str] = field(default_factory=list)
    _server: Any = None
    _thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"https://{self.options.hostname}{self.options.path}"

    @property
    def connect_to(self) -> ConnectTo:
        return ConnectTo(self.options.hostname, 443, "127.0.0.1", self.port)

    @property
    def note(self) -> str:
        """What a built-in target's notes say of it."""
        return f"MCP server (Streamable HTTP) on 127.0.0.1:{self.port} as {self.url}"

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(timeout=10)
        self._thread = None

    def __enter__(self) -> "McpOrigin":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_beside(site: Any) -> McpOrigin | None:
    """The reference host's companion (``[world] companion`` of profiles/woa/profile.toml): its
    MCP server beside the origin, when the site has one (``site.mcp``), else None."""
    return serve(site.document, site.mcp) if site.mcp else None


def serve(document: Any, settings: dict) -> McpOrigin:
    """Start the MCP server for ``document`` with ``settings`` (:class:`McpOptions`) on
    127.0.0.1 (a free port); stop it with ``.stop()``."""
    import uvicorn

    options = McpOptions.of(settings)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    origin = McpOrigin(options=options, port=port)
    if options.serve == "down":  # the name maps to a port nothing listens on
        sock.close()
        return origin
    inner = app_for(document, options)

    async def app(scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            origin.received.append(f"{scope['method']} {scope['path']}")
            if options.auth and not _authorized(scope, options):
                await _unauthorized(scope, send, options)
                return
        await inner(scope, receive, send)

    folder = Path(tempfile.mkdtemp(prefix="adck-mcp-"))
    try:
        pem = folder / "server.pem"
        tls.authority().issue_cert(options.hostname).private_key_and_cert_chain_pem.write_to_path(str(pem))
        config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="on", ws="none",
                                ssl_certfile=str(pem), timeout_graceful_shutdown=1, timeout_keep_alive=2)
        config.load()  # reads the certificate now: the files go at once
    except BaseException:
        sock.close()
        raise
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name=f"adck-mcp-{port}", daemon=True)
    origin._server, origin._thread = server, thread
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            origin.stop()
            sock.close()
            raise RuntimeError(f"the mock MCP server on 127.0.0.1:{port} did not start")
        time.sleep(0.005)
    return origin
