"""The reference WoA client of draft-gaikwad-woa-00, usable as a library.

    client = ReferenceWoaClient(HttpConfig(ca_bundle=...), resolve={"api.example": ("10.0.0.7",)})
    found = client.discover("https://api.example.com", now=...)      # the WoA document
    found = client.invoke("https://api.example.com", "summarizer", now=..., operation="default",
                          input={"text": "..."})                     # or input=None: built from inputs
    found.outcome  # "document" | "none" | "invoked" | "refused" | "error"

It fetches ``/.well-known/woa.json`` of the origin it is given (over HTTPS only, honouring
the caching headers of section 7 with the clock it is given), selects the agent, takes the first
transport the agent lists that it speaks (rest, or mcp: an MCP tools/call over Streamable HTTP,
4.3.2), builds the REST invocation URL as 4.3.1 says (``base`` + ``invoke_path``, every case-sensitive ``{agent_id}`` replaced), and POSTs the
invocation envelope of 5.1 as ``application/json``. Given no input, it builds one from the
selected operation's ``inputs`` (or the agent's): every required property, with a value of the
type its subschema gives; keywords it does not understand are ignored (4.2). It sends nothing
to a REST base, or a redirect target, that resolves to a private or link-local address unless
configured to (8.2), never follows a redirect off HTTPS, and treats descriptions and responses
as data only (4.1, 8.4).

Each decision the draft governs is one small method, so that a broken variant (see
``conformance.woa.variants``) overrides exactly one of them. One instance is one client
with its memory (the document cache, per origin): the harness keeps one per session.
"""

from __future__ import annotations

import ipaddress
import json
import re
import ssl
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal
from urllib.parse import urlsplit

from conformance.document import loads
from conformance.fetch import Fetch, Fetcher, HttpConfig

WELL_KNOWN = "/.well-known/woa.json"
PLACEHOLDER = "{agent_id}"
#: The transports this client speaks.
TRANSPORTS = ("rest", "mcp")
#: The MCP protocol version it asks for (Streamable HTTP).
MCP_VERSION = "2025-06-18"
#: How MCP servers join tool_namespace and a tool name (AMB-14); the bare value is tried too.
MCP_SEPARATORS = (".", "/", "_", "__", ":", "-")
#: Redirects of an invocation followed at most (each checked like the base).
MAX_REDIRECTS = 3
_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?", re.IGNORECASE)
_NO_STORE = re.compile(r"(?:^|,)\s*no-store\b", re.IGNORECASE)
_NO_CACHE = re.compile(r"(?:^|,)\s*no-cache\b", re.IGNORECASE)
#: Private and link-local ranges of 8.2 (AMB-21); loopback is left to the kit's world.
PRIVATE_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "fc00::/7", "fe80::/10"))

Outcome = Literal["document", "none", "invoked", "refused", "error"]


@dataclass
class Found:
    """What the client concluded (the harness reply's content)."""

    outcome: Outcome
    error_kind: str | None = None
    document: Any = None
    status: int | None = None
    output: Any = None
    cached: Any = None
    messages: list[str] = field(default_factory=list)


@dataclass
class _Cached:
    """A stored document response (section 7)."""

    document: Any
    fresh_until: datetime | None
    etag: str | None
    last_modified: str | None


class Refused(Exception):
    """The client will not do what it was asked (the reason is its message)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class ReferenceWoaClient:
    """Discovers and invokes WoA agents the way the draft asks a client to."""

    #: What the client says it can do (the harness hello's ``features``): it builds an input
    #: from an inputs schema itself when it is given none; it invokes agents over MCP too.
    features: tuple[str, ...] = ("woa.build-input", "woa.mcp")

    def __init__(self, http: HttpConfig, resolve: dict[str, tuple[str, ...]] | None = None,
                 allow_private: bool = False) -> None:
        self.http = replace(http, limits=replace(http.limits, max_redirects=0))
        #: What each name resolves to, as the client's resolver answers (the harness's ``resolve``).
        self.resolve = {k.lower(): tuple(v) for k, v in (resolve or {}).items()}
        #: An administrator allowed invocations of private addresses (8.2).
        self.allow_private = allow_private
        self._fetchers: dict[str, Fetcher] = {}
        self._cache: dict[str, _Cached] = {}

    # ------------------------------------------------------------------ HTTP

    def ssl_context(self, purpose: Literal["document", "invoke"]) -> ssl.SSLContext | None:
        """The TLS context of a connection: None is the fetcher's verifying one (8.1)."""
        return None

    def fetcher(self, purpose: Literal["document", "invoke"]) -> Fetcher:
        if purpose not in self._fetchers:
            self._fetchers[purpose] = Fetcher(self.http, ssl_context=self.ssl_context(purpose))
        return self._fetchers[purpose]

    def close(self) -> None:
        for f in self._fetchers.values():
            f.close()

    # ------------------------------------------------------------------ discovery (3, 7, 8.1)

    def document_url(self, origin: str) -> str:
        """Where the document of ``origin`` is: /.well-known/woa.json over HTTPS, whatever scheme
        the user typed (8.1: plain HTTP is never used)."""
        text = origin.strip()
        if "://" not in text:
            text = "https://" + text
        parts = urlsplit(text)
        return f"https://{parts.netloc}{WELL_KNOWN}"

    def document_headers(self) -> dict[str, str]:
        return {"Accept": "application/woa+json, application/json"}

    def fresh(self, cached: _Cached, now: datetime) -> bool:
        """Whether a stored document may be used without asking (7: max-age)."""
        return cached.fresh_until is not None and now < cached.fresh_until

    def conditional_headers(self, cached: _Cached) -> dict[str, str]:
        """Validators of a stale stored document (7: ETag, Last-Modified)."""
        out: dict[str, str] = {}
        if cached.etag:
            out["If-None-Match"] = cached.etag
        if cached.last_modified:
            out["If-Modified-Since"] = cached.last_modified
        return out

    def storable(self, cache_control: str) -> bool:
        """Whether a response may be stored (7: no-store)."""
        return not _NO_STORE.search(cache_control)

    def freshness(self, cache_control: str, now: datetime) -> datetime | None:
        if _NO_CACHE.search(cache_control):
            return None
        m = _MAX_AGE.search(cache_control)
        return now + timedelta(seconds=int(m.group(1))) if m else None

    def store(self, url: str, document: Any, fetch: Fetch, now: datetime) -> None:
        final = fetch.final
        assert final is not None
        cache_control = final.header("cache-control") or ""
        if not self.storable(cache_control):
            self._cache.pop(url, None)
            return
        self._cache[url] = _Cached(document, self.freshness(cache_control, now), final.header("etag"),
                                   final.header("last-modified"))

    def document(self, origin: str, now: datetime) -> Any:
        """The origin's WoA document (from the cache while fresh), or raises :class:`Refused`."""
        url = self.document_url(origin)
        cached = self._cache.get(url)
        if cached is not None and self.fresh(cached, now):
            return cached.document
        headers = self.document_headers() | (self.conditional_headers(cached) if cached else {})
        fetch = self.fetcher("document").fetch(url, headers=headers)
        final = fetch.final
        if fetch.error and (final is None or final.status in (301, 302, 303, 307, 308)):
            raise Refused("tls" if fetch.error_kind == "tls" else "fetch", f"{url}: {fetch.describe_error()}")
        assert final is not None
        if final.status == 304 and cached is not None:
            cached.fresh_until = self.freshness(final.header("cache-control") or "", now)
            return cached.document
        if final.status != 200:
            raise Refused("not-found" if final.status == 404 else f"http-{final.status}", f"{url} answered {final.status}")
        try:
            document = loads(final.body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise Refused("invalid-json", f"{url}: {exc}") from None
        if not isinstance(document, dict) or not isinstance(document.get("agents"), list):
            raise Refused("invalid-document", f"{url}: not a WoA document")
        self.store(url, document, fetch, now)
        self.after_discovery(origin, document)
        return document

    def after_discovery(self, origin: str, document: dict) -> None:
        """What the client does with a document beyond reading it: nothing (descriptions are
        untrusted data, 4.1)."""

    def discover(self, origin: str, now: datetime) -> Found:
        try:
            document = self.document(origin, now)
        except Refused as exc:
            return Found("error" if exc.kind in ("tls", "fetch") or exc.kind.startswith("http-5") else "none",
                         error_kind=exc.kind, messages=[str(exc)])
        stored = self._cache.get(self.document_url(origin))
        return Found("document", document=document, cached=stored.document if stored else None)

    # ------------------------------------------------------------------ selection (3, 4.1)

    def find_agent(self, document: dict, agent_id: str) -> dict:
        """The agent with ``agent_id`` in this origin's document (never another origin's, 4.1)."""
        agent = next((a for a in document.get("agents", []) if isinstance(a, dict) and a.get("id") == agent_id), None)
        if agent is None:
            raise Refused("unknown-agent", f"the document lists no agent {agent_id!r}")
        return agent

    def choose_transport(self, document: dict, agent: dict) -> str:
        """The first transport the agent lists that the client speaks and the document configures (3)."""
        configs = document.get("transports") if isinstance(document.get("transports"), dict) else {}
        for name in agent.get("transports") or []:
            if name in TRANSPORTS and isinstance(configs.get(name), dict):
                return name
        raise Refused("no-transport", f"agent {agent.get('id')!r} lists no transport this client speaks "
                                      f"({', '.join(TRANSPORTS)}): {agent.get('transports')!r}")

    # ------------------------------------------------------------------ the URL (4.3.1)

    def substitute(self, invoke_path: str, agent_id: str) -> str:
        """Every case-sensitive {agent_id} replaced with the id, verbatim."""
        return invoke_path.replace(PLACEHOLDER, agent_id)

    def concatenate(self, base: str, path: str) -> str:
        """base + invoke_path, as strings: nothing added, nothing removed."""
        return base + path

    def invocation_url(self, document: dict, agent: dict, transport: str) -> str:
        config = document["transports"][transport]
        base, path = config.get("base"), config.get("invoke_path")
        if not isinstance(base, str) or not isinstance(path, str):
            raise Refused("bad-transport", f"transport {transport!r} has no base or invoke_path string")
        return self.concatenate(base, self.substitute(path, agent["id"]))

    def secure(self, url: str) -> None:
        """Invocations go over HTTPS only (8.1)."""
        if urlsplit(url).scheme.lower() != "https":
            raise Refused("insecure", f"{url} is not an https URL; plain HTTP is never used")

    # ------------------------------------------------------------------ addresses (8.2)

    def private(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address.strip("[]").split("%")[0])
        except ValueError:
            return False
        if ip.version == 6 and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in net for net in PRIVATE_NETWORKS if net.version == ip.version)

    def addresses(self, host: str) -> tuple[str, ...]:
        """What ``host`` resolves to (an address literal is itself)."""
        host = host.lower().strip("[]")
        try:
            ipaddress.ip_address(host)
            return (host,)
        except ValueError:
            return self.resolve.get(host, ())

    def private_address(self, url: str) -> str | None:
        """A private or link-local address ``url``'s host is or resolves to, if any."""
        host = urlsplit(url).hostname or ""
        return next((a for a in self.addresses(host) if self.private(a)), None)

    def invocation_allowed(self, url: str) -> None:
        """8.2: no invocation to a private or link-local address unless configured."""
        address = None if self.allow_private else self.private_address(url)
        if address:
            raise Refused("private-address", f"{url} resolves to {address}, a private or link-local address")

    def redirect_allowed(self, url: str) -> None:
        """8.2: a redirect target gets the same validation as the base."""
        self.secure(url)
        address = None if self.allow_private else self.private_address(url)
        if address:
            raise Refused("private-redirect", f"redirect to {url}, which resolves to {address}; not followed")

    # ------------------------------------------------------------------ the input (4.2, 5.1)

    def operation_of(self, agent: dict, operation: str | None) -> dict | None:
        ops = agent.get("operations")
        if operation is None or not isinstance(ops, list):
            return None
        op = next((o for o in ops if isinstance(o, dict) and o.get("name") == operation), None)
        if op is None:
            raise Refused("unknown-operation", f"agent {agent.get('id')!r} has no operation {operation!r}")
        return op

    def inputs_schema(self, agent: dict, operation: str | None) -> Any:
        """The selected operation's inputs, or the agent's when it has no override (5.1)."""
        op = self.operation_of(agent, operation)
        if op is not None and isinstance(op.get("inputs"), dict):
            return op["inputs"]
        return agent.get("inputs")

    def understands(self, schema: Any) -> bool:
        """Whether the client can build a request from ``schema``: it ignores keywords it does
        not understand (4.2), so any object schema will do."""
        return isinstance(schema, dict)

    def build_input(self, schema: Any) -> dict:
        """An input built from ``schema``: every required property (4.2's minimum)."""
        value = self.value_for(schema if isinstance(schema, dict) else {}, 0)
        return value if isinstance(value, dict) else {}

    def value_for(self, schema: dict, depth: int) -> Any:
        """A value for ``schema``: its const, first enum, default, else a value of its type."""
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return schema["enum"][0]
        if "default" in schema:
            return schema["default"]
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind == "object" or (kind is None and ("properties" in schema or "required" in schema)):
            return self.object_for(schema, depth)
        if kind == "array":
            items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
            count = schema.get("minItems", 0) if isinstance(schema.get("minItems"), int) else 0
            return [self.value_for(items, depth + 1) for _ in range(min(count, 8))]
        if kind == "string":
            n = schema.get("minLength", 1) if isinstance(schema.get("minLength"), int) else 1
            most = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
            return "x" * (min(max(n, 1), most) if most is not None else max(n, 1))
        if kind in ("integer", "number"):
            return self.number_for(schema, kind == "integer")
        if kind == "boolean":
            return True
        if kind == "null":
            return None
        return "x"

    def number_for(self, schema: dict, integer: bool) -> int | float:
        """A number within the schema's bounds (minimum, maximum, their exclusive forms,
        multipleOf): the lowest integer allowed, or for a number between two bounds the middle."""
        def bound(name: str) -> float | None:
            value = schema.get(name)
            return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None

        low, high = bound("minimum"), bound("maximum")
        xlow, xhigh = bound("exclusiveMinimum"), bound("exclusiveMaximum")
        step = bound("multipleOf")
        if integer:
            import math

            lo = max([math.ceil(v) for v in (low,) if v is not None]
                     + [math.floor(v) + 1 for v in (xlow,) if v is not None], default=None)
            hi = min([math.floor(v) for v in (high,) if v is not None]
                     + [math.ceil(v) - 1 for v in (xhigh,) if v is not None], default=None)
            value = lo if lo is not None else min(1, hi) if hi is not None else 1
            if step and step > 0 and float(step).is_integer():
                value = math.ceil(value / step) * int(step)
            return int(value)
        lo = max([v for v in (low, xlow) if v is not None], default=None)
        hi = min([v for v in (high, xhigh) if v is not None], default=None)
        if lo is not None and hi is not None:
            return lo if lo == low and xlow is None or lo == hi else (lo + hi) / 2
        if lo is not None:
            return lo if xlow is None or (low is not None and low > xlow) else lo + 1
        if hi is not None:
            return hi if xhigh is None or (high is not None and high < xhigh) else hi - 1
        return 1.5

    def object_for(self, schema: dict, depth: int) -> dict:
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        required = [r for r in schema.get("required", []) if isinstance(r, str)]
        if depth > 8:
            return {}
        return {name: self.value_for(props.get(name) if isinstance(props.get(name), dict) else {}, depth + 1)
                for name in required}

    # ------------------------------------------------------------------ the envelope (5.1, 5.2)

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        """agent (the id, always: AMB-06), operation when one was asked for, input."""
        out: dict[str, Any] = {"agent": agent["id"]}
        if operation is not None and isinstance(agent.get("operations"), list):
            out["operation"] = operation
        out["input"] = input
        return out

    def body(self, envelope: dict) -> Any:
        """The request body: the envelope itself (5.2)."""
        return envelope

    def encode(self, body: Any) -> bytes:
        return json.dumps(body, ensure_ascii=False).encode("utf-8")

    def media_type(self) -> str:
        return "application/json"

    def method(self) -> str:
        return "POST"

    def send(self, url: str, data: bytes) -> Fetch:
        """The invocation request, redirects followed (307/308 only) after validating each target."""
        headers = {"Content-Type": self.media_type(), "Accept": "application/json"}
        method = self.method()
        for _ in range(MAX_REDIRECTS + 1):
            fetch = self.fetcher("invoke").fetch(url, method=method, headers=headers, content=data)
            final = fetch.final
            location = final.header("location") if final is not None and final.status in (307, 308) else None
            if not location:
                return fetch
            from urllib.parse import urljoin

            url = urljoin(url, location.strip())
            self.redirect_allowed(url)
        raise Refused("too-many-redirects", f"more than {MAX_REDIRECTS} redirects")

    # ------------------------------------------------------------------ MCP (4.3.2, 5.3)

    def mcp_envelope(self, agent: dict, operation: str | None, input: dict) -> dict:
        """The invocation envelope an MCP invocation translates (5.1's fields)."""
        out: dict[str, Any] = {"agent": agent["id"]}
        if operation is not None and isinstance(agent.get("operations"), list):
            out["operation"] = operation
        out["input"] = input
        return out

    def mcp_tool_value(self, config: dict, envelope: dict) -> str:
        """The value of the envelope field that tool_field names (4.3.2): the agent's id for
        "agent", the operation for "operation" ("default" when none is named, 5.1)."""
        field_name = config.get("tool_field")
        value = envelope.get(field_name) if isinstance(field_name, str) else None
        if value is None and field_name == "operation":
            value = "default"
        if not isinstance(value, str):
            raise Refused("mcp-tool", f"tool_field {field_name!r} names no envelope field this client fills")
        return value

    def mcp_tool_name(self, config: dict, value: str, listed: list[str]) -> str:
        """The listed tool named by the value, alone or after tool_namespace (AMB-14)."""
        namespace = str(config.get("tool_namespace", ""))
        forms = [f"{namespace}{sep}{value}" for sep in MCP_SEPARATORS] + [value]
        return next((f for f in forms if f in listed), forms[0])

    def mcp_arguments(self, envelope: dict) -> dict:
        """The tool arguments: the envelope's input (5.3)."""
        return envelope["input"]

    def _rpc(self, server: str, message: dict, session: dict[str, str]) -> tuple[Fetch, Any]:
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                   "MCP-Protocol-Version": MCP_VERSION} | session
        fetch = self.fetcher("invoke").fetch(server, method="POST", headers=headers,
                                             content=json.dumps(message).encode("utf-8"))
        final = fetch.final
        if final is None or fetch.error:
            raise Refused("fetch", f"{server}: {fetch.describe_error()}")
        if final.header("mcp-session-id"):
            session["Mcp-Session-Id"] = final.header("mcp-session-id") or ""
        text = final.body.decode("utf-8", errors="replace")
        if "text/event-stream" in (final.header("content-type") or ""):
            text = next((line[5:].strip() for line in text.splitlines() if line.startswith("data:")), "")
        try:
            return fetch, loads(text) if text.strip() else None
        except ValueError:
            return fetch, None

    def invoke_mcp(self, config: dict, envelope: dict) -> Found:
        """Translate the envelope into an MCP tools/call on the server (4.3.2): initialize,
        list the tools, call the one tool_field names with the input as arguments."""
        server = str(config.get("server"))
        session: dict[str, str] = {}
        _, hello = self._rpc(server, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                      "params": {"protocolVersion": MCP_VERSION, "capabilities": {},
                                                 "clientInfo": {"name": "adck-woa-client", "version": "0.1"}}},
                             session)
        if not isinstance(hello, dict) or "result" not in hello:
            raise Refused("mcp", f"{server} did not answer initialize")
        self._rpc(server, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
        _, tools = self._rpc(server, {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}, session)
        listed = [t.get("name") for t in ((tools or {}).get("result") or {}).get("tools", []) if isinstance(t, dict)]
        name = self.mcp_tool_name(config, self.mcp_tool_value(config, envelope), listed)
        fetch, answer = self._rpc(server, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                           "params": {"name": name, "arguments": self.mcp_arguments(envelope)}},
                                  session)
        result = answer.get("result") if isinstance(answer, dict) else None
        output = result.get("structuredContent", result) if isinstance(result, dict) else None
        return Found("invoked", status=fetch.final.status if fetch.final else None, output=output)

    def after_response(self, origin: str, document: dict, output: Any) -> None:
        """What the client does with an agent's output beyond returning it: nothing (8.4)."""

    def invoke(self, origin: str, agent_id: str, now: datetime, operation: str | None = None,
               input: dict | None = None) -> Found:
        try:
            document = self.document(origin, now)
            agent = self.find_agent(document, agent_id)
            transport = self.choose_transport(document, agent)
            if transport == "mcp":
                url = str(document["transports"]["mcp"].get("server"))
            else:
                url = self.invocation_url(document, agent, transport)
            self.secure(url)
            self.invocation_allowed(url)
            if input is None:
                schema = self.inputs_schema(agent, operation)
                if not self.understands(schema):
                    raise Refused("schema", f"cannot build an input for agent {agent_id!r} from its inputs schema")
                input = self.build_input(schema)
            else:
                self.operation_of(agent, operation)
            if transport == "mcp":
                return self.invoke_mcp(document["transports"]["mcp"], self.mcp_envelope(agent, operation, input))
            envelope = self.envelope(agent, operation, input, url)
            fetch = self.send(url, self.encode(self.body(envelope)))
        except Refused as exc:
            return Found("refused" if exc.kind not in ("tls", "fetch") else "error", error_kind=exc.kind,
                         messages=[str(exc)])
        final = fetch.final
        if final is None:
            return Found("error", error_kind=fetch.error_kind, messages=[fetch.describe_error()])
        output = None
        try:
            output = loads(final.body.decode("utf-8")) if final.body else None
        except (ValueError, UnicodeDecodeError):
            output = None
        if 200 <= final.status < 300:
            self.after_response(origin, document, output)
        return Found("invoked", status=final.status, output=output)
