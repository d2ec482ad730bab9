"""Fixtures of the woa suite's client role (see conftest.py): the kit plays the WoA hosts on
loopback (the reference host's site, fixtures/woa/host.toml, under a fresh name per scenario)
and drives the client under test through its adapter (harness operations ``woa.discover``
and ``woa.invoke``), then judges from the replies and the requests the client sent.

A scenario's document names its own host as ``{host}``: the reference document's REST base is
moved there, so each scenario is a self-contained origin. Names a scenario maps to a private or
link-local address (8.2) are declared in the step's ``network.resolve`` while ``connect_to``
still points them at the loopback listener: a client that sends anyway is recorded by the
world, never let out of the machine.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from conformance.harness.adapters import Adapter
from conformance.harness.driver import ClientDriver
from conformance.outcomes import untestable
from conformance.outcomes import each_case as each  # noqa: F401 - the suite's tests import it from here
from conformance.world.scenarios import Recorded, Scenario, ScenarioWorld
from conformance.world.site import load_reference

#: The clients' clock starts here; steps move it forward (no test sleeps).
T0 = datetime(2026, 3, 15, 12, 0, tzinfo=timezone.utc)
WELL_KNOWN = "/.well-known/woa.json"
#: Every scenario's REST base is its own host (the reference document names host.adck.test).
OWN_BASE = {"op": "replace", "path": "/transports/rest/base", "value": "https://{host}"}
_MISSING = object()
#: The hello feature of a client that builds an input from an inputs schema itself (woa.invoke
#: without input); without it the clauses judged on built inputs are not applicable (AMB-51).
BUILD_INPUT = "woa.build-input"


def agent(agent_id: str, inputs: dict | None = None, *, transports: list[str] | None = None,
          operations: list[dict] | None = None, description: str = "An agent of the kit's scenarios.",
          name: str = "Scenario agent") -> dict:
    """An agent object (inputs default to one required string ``text``)."""
    out: dict[str, Any] = {
        "id": agent_id, "name": name, "description": description,
        "inputs": inputs if inputs is not None else {"type": "object", "properties": {"text": {"type": "string"}},
                                                     "required": ["text"]},
        "outputs": {"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"]},
        "transports": transports or ["rest"],
    }
    if operations is not None:
        out["operations"] = operations
    return out


class WoaScenarios:
    """The scenarios (origins) one test sets up, each the reference host changed like a mutant."""

    def __init__(self, world: ScenarioWorld) -> None:
        self.world = world
        self.created: list[Scenario] = []
        #: Names that resolve to a private address: host -> address (network.resolve).
        self.private: dict[str, str] = {}

    def new(self, name: str, *, patch: list[dict] | None = None, routes: list[dict] | None = None,
            listener: str = "https", agents: list[dict] | None = None, base: str | None = None,
            invoke_path: str | None = None, private: str | None = None) -> Scenario:
        """An origin. ``agents`` replaces the document's agents; ``base`` and ``invoke_path``
        its REST transport (``{host}`` is the scenario's own name); ``private``: the address
        the scenario's name resolves to (declared in network.resolve)."""
        ops: list[dict] = [OWN_BASE]
        if agents is not None:
            ops.append({"op": "replace", "path": "/agents", "value": agents})
        if base is not None:
            ops.append({"op": "replace", "path": "/transports/rest/base", "value": base})
        if invoke_path is not None:
            ops.append({"op": "replace", "path": "/transports/rest/invoke_path", "value": invoke_path})
        scenario = self.world.add(name, load_reference("woa"), patch=ops + list(patch or []), routes=routes,
                                  listener=listener)  # type: ignore[arg-type]
        self.created.append(scenario)
        if private is not None:
            self.private[scenario.host] = private
        return scenario

    def network(self, scenarios: list[Scenario]) -> dict:
        """The step's network: every scenario of the test reachable (its own listener), the
        private names declared in ``resolve``."""
        first = scenarios[0].network()
        connect_to = [c for s in self.created for c in s.network()["connect_to"]]
        out = {"connect_to": connect_to, "ca_file": first["ca_file"], "ca_pem": first["ca_pem"]}
        if self.private:
            out["resolve"] = [f"{h}:{a if ':' not in a else '[' + a + ']'}" for h, a in self.private.items()]
        return out

    def requests(self) -> list[Recorded]:
        return [r for s in self.created for r in s.requests()]

    def evidence(self) -> list:
        """What a report shows: the requests the client sent, and each step with its reply."""
        return [e for s in self.created for e in s.evidence()]


class WoaClient(ClientDriver):
    """Drives the WoA client under test through its adapter, one step at a time."""

    def builds_inputs(self) -> bool:
        """Whether the client builds an input from a schema itself (hello feature woa.build-input)."""
        return BUILD_INPUT in self.adapter.features

    def session(self, scenario: Scenario) -> str:
        """A session id for several steps (the client keeps its document cache)."""
        return f"{self.run_id}-{scenario.host}"

    def discover(self, scenarios: WoaScenarios, scenario: Scenario, *, at: timedelta = timedelta(0),
                 session: str | None = None, authority: str | None = None) -> dict:
        return self._run(scenarios, scenario, "woa.discover", {"authority": authority or scenario.authority},
                         at, session)

    def invoke(self, scenarios: WoaScenarios, scenario: Scenario, agent_id: str, *, operation: str | None = None,
               input: Any = _MISSING, at: timedelta = timedelta(0), session: str | None = None) -> dict:
        """Invoke ``agent_id`` of the origin; without ``input`` the client builds it from the schema."""
        params: dict[str, Any] = {"authority": scenario.authority, "agent": agent_id}
        if operation is not None:
            params["operation"] = operation
        if input is not _MISSING:
            params["input"] = input
        return self._run(scenarios, scenario, "woa.invoke", params, at, session)

    def _run(self, scenarios: WoaScenarios, scenario: Scenario, operation: str, params: dict, at: timedelta,
             session: str | None) -> dict:
        __tracebackhide__ = True
        return self.step(operation, params, now=T0 + at, network=scenarios.network([scenario]),
                         world=scenario.world, record=scenario.steps, session=session)


@pytest.fixture
def woa_scenarios(scenario_world: ScenarioWorld) -> WoaScenarios:
    return WoaScenarios(scenario_world)


@pytest.fixture(scope="session")
def woa_client(adck_adapter: Adapter, request: pytest.FixtureRequest) -> WoaClient:
    from conformance.plugin import STATE

    return WoaClient(adck_adapter, f"r{request.config.stash[STATE].seed}")


# ---------------------------------------------------------------- judging helpers

def said(reply: dict) -> str:
    """A client's reply in a few words, for failure messages."""
    kind = reply.get("error_kind")
    text = f"the client answered {reply.get('outcome')!r}" + (f" ({kind})" if kind else "")
    if reply.get("messages"):
        text += f": {reply['messages'][0]!r}"
    return text


def posts(scenario: Scenario) -> list[Recorded]:
    """The invocation requests a scenario got: every request but the document's (none when the
    client never asked for the document at /.well-known/woa.json: WOA-3-02 judges that)."""
    sent = scenario.requests()
    if not any(r.path == WELL_KNOWN for r in sent):
        return []
    return [r for r in sent if r.path != WELL_KNOWN]


def fetched_document(scenario: Scenario, reply: dict) -> None:
    """*Untestable* unless the client got the scenario's document (WOA-3-02 judges that)."""
    __tracebackhide__ = True
    if not any(r.path == WELL_KNOWN and r.status in (200, 304) for r in scenario.requests()):
        untestable(f"the client did not fetch the document of {scenario.authority} at {WELL_KNOWN}; {said(reply)} "
                   "(see WOA-3-02)")


def invocation(scenario: Scenario, reply: dict, *, method: str | None = "POST") -> Recorded:
    """The client's one invocation request to ``scenario`` (with ``method``), or *untestable*."""
    __tracebackhide__ = True
    sent = [r for r in posts(scenario) if method is None or r.method == method]
    if not sent:
        others = posts(scenario)
        if others and method == "POST":
            untestable(f"the client sent no POST, only {others[0].method} {others[0].path} (see WOA-4.3.1-10)")
        untestable(f"the client sent no invocation to {scenario.host}; {said(reply)} (see WOA-3-02)")
    return sent[0]


def body_json(request: Recorded) -> Any:
    """The invocation body as JSON, or *untestable* (WOA-4.3.1-11 judges it)."""
    __tracebackhide__ = True
    try:
        return json.loads(request.body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        untestable(f"the invocation body is not JSON ({exc}: {request.body[:80]!r}) (see WOA-4.3.1-11)")


def envelope_of(request: Recorded) -> dict:
    """The invocation envelope (a JSON object holding agent or input), or *untestable*."""
    __tracebackhide__ = True
    body = body_json(request)
    if not isinstance(body, dict):
        untestable(f"the invocation body is a JSON {type(body).__name__}, not an object (see WOA-5.1-01)")
    if "agent" not in body and "input" not in body:
        untestable(f"the body {json.dumps(body)[:120]} is not the invocation envelope: no agent or input at its "
                   "top level (see WOA-5.2-01)")
    return body


def control_invocation(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """The control of a test that passes when a client sends nothing: the same client invokes an
    agent of a valid origin (a valid certificate, an https base on a public name), else the
    test is *untestable* (a client that never sends passes no security clause by silence)."""
    __tracebackhide__ = True
    s = woa_scenarios.new("control")
    reply = woa_client.invoke(woa_scenarios, s, "summarizer", operation="default", input={"text": "control"})
    if not any(r.path == "/agents/summarizer/invoke" and r.method == "POST" for r in s.requests()):
        untestable(f"control: asked to invoke agent summarizer of a valid origin ({s.authority}), the client sent "
                   f"{[f'{r.method} {r.path}' for r in s.requests()] or 'nothing'}; {said(reply)} (see WOA-3-02)")


def input_of(envelope: dict) -> dict:
    """The envelope's input object, or *untestable* (WOA-5.1-06 judges it)."""
    __tracebackhide__ = True
    value = envelope.get("input")
    if not isinstance(value, dict):
        untestable(f"the envelope's input is {json.dumps(value)[:80] if 'input' in envelope else 'absent'}, not an "
                   "object (see WOA-5.1-06)")
    return value


def conformance_error(schema: dict, value: Any) -> str | None:
    """Why ``value`` does not conform to ``schema`` (JSON Schema 2020-12, format an annotation), or None."""
    from conformance.schemas import errors

    error = next(iter(errors(schema, value)), None)
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(root)"
    return f"at {where}: {error.message}"


# ---------------------------------------------------------------- seeded generators

#: The characters of the agent-id ABNF (4.1): ALPHA / DIGIT / "-" / "_".
ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def random_agent_id(rng) -> str:
    """An agent id drawn over the ABNF's space: 1 to 40 characters, edges weighted."""
    length = rng.choice([1, 1, 2, 3, rng.randint(4, 12), rng.randint(13, 40)])
    return "".join(rng.choice(ID_CHARS) for _ in range(length))


def random_core_schema(rng, depth: int = 0) -> dict:
    """An inputs schema of 4.2's minimum only: type object, properties, required (nested)."""
    kinds = ["string", "integer", "number", "boolean", "array", "null"] + (["object"] if depth < 2 else [])
    props: dict[str, dict] = {}
    for i in range(rng.randint(1, 4)):
        kind = rng.choice(kinds)
        name = rng.choice(["text", "count", "ratio", "flag", "tags", "nothing", "opts", "x"]) + str(i)
        props[name] = random_core_schema(rng, depth + 1) if kind == "object" else {"type": kind}
    required = [n for n in props if rng.random() < 0.7]
    return {"type": "object", "properties": props, "required": required}


# ---------------------------------------------------------------- an MCP server for scenarios

def mcp_answer(site, route, request):
    """Route handler ``woa.client-mcp``: a small MCP server (Streamable HTTP, JSON responses,
    no session) for the client scenarios, whose requests the scenario world records like any
    other (the kit judges the tools/call a client sends, WOA-4.3.2-06). Its tools are the
    agents of the site's document that list mcp, named tool_namespace + "." + the value the
    envelope's tool_field holds (the agent's id, or each operation's name)."""
    from werkzeug import Response

    from conformance.world.handlers import request_body

    def reply(value: Any, status: int = 200) -> Response:
        response = Response(json.dumps(value).encode("utf-8"), status=status)
        response.headers["Content-Type"] = "application/json"
        return response

    try:
        message = json.loads((request_body(request) or b"").decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return reply({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}}, 400)
    if request.method != "POST" or not isinstance(message, dict):
        return reply({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "invalid request"}}, 400)
    if "id" not in message:
        return Response(b"", status=202)
    method, ident = message.get("method"), message.get("id")
    document = site.document if isinstance(site.document, dict) else {}
    config = (document.get("transports") or {}).get("mcp") or {}
    if method == "initialize":
        return reply({"jsonrpc": "2.0", "id": ident, "result": {
            "protocolVersion": (message.get("params") or {}).get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}}, "serverInfo": {"name": "adck scenario MCP server", "version": "1"}}})
    if method == "tools/list":
        tools = []
        for a in document.get("agents", []):
            if not isinstance(a, dict) or "mcp" not in (a.get("transports") or []):
                continue
            values = [a.get("id")] if config.get("tool_field") == "agent" else \
                [o.get("name") for o in a.get("operations") or [] if isinstance(o, dict)]
            tools += [{"name": f"{config.get('tool_namespace')}.{v}", "inputSchema": a.get("inputs") or {}}
                      for v in values]
        return reply({"jsonrpc": "2.0", "id": ident, "result": {"tools": tools}})
    if method == "tools/call":
        return reply({"jsonrpc": "2.0", "id": ident, "result": {
            "content": [{"type": "text", "text": "done"}], "structuredContent": {"result": "done"}, "isError": False}})
    return reply({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no method {method}"}})



# ---------------------------------------------------------------- the input a client is given

#: An input the kit gives a client to send as it is (the harness's woa.invoke ``input``),
#: chosen so that a transformation of the data changes what the client sends (AMB-55): values
#: at the schema's bounds (a client that clamps as if they were exclusive moves them), a float
#: that rounding changes, an array out of order and one with a repeated item (sorting, a set),
#: an optional member that is null, an empty string, a member the schema does not declare (it
#: allows it), text in NFD, outside the BMP and with escapes, and nesting.
GIVEN_INPUT = {
    "text": "Cafe\u0301 \u2013 na\u00efve \U0001F680 \"quoted\" \\ back",
    "max_words": 500,
    "min_words": 10,
    "ratio": 0.123456789,
    "tiny": 1e-7,
    "tags": ["gamma", "alpha", "beta"],
    "repeats": ["x", "x"],
    "note": None,
    "empty": "",
    "extra": {"deep": {"k": [3, 1, {"z": True}]}},
}
#: The inputs schema the given input conforms to (additional members allowed, as by default).
GIVEN_SCHEMA = {
    "type": "object",
    "properties": {
        "text": {"type": "string"},
        "max_words": {"type": "integer", "minimum": 10, "maximum": 500},
        "min_words": {"type": "integer", "minimum": 10, "maximum": 500},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        "tiny": {"type": "number", "exclusiveMinimum": 0},
        "tags": {"type": "array", "items": {"type": "string"}},
        "repeats": {"type": "array", "items": {"type": "string"}},
        "note": {"type": ["string", "null"]},
        "empty": {"type": "string"},
    },
    "required": ["text"],
}


def difference(given: Any, sent: Any, where: str = "") -> str | None:
    """Where ``sent`` is not the JSON value ``given`` (None when it is): numbers compare by
    value (7 and 7.0 are one JSON number), every other value by type and content, arrays in
    order, objects by their members (not their order)."""
    at = where or "(root)"
    number = (int, float)
    if isinstance(given, bool) or isinstance(sent, bool):
        return None if type(given) is type(sent) and given == sent else f"{at}: {json.dumps(given)} became {json.dumps(sent)}"
    if isinstance(given, number) and isinstance(sent, number):
        return None if given == sent else f"{at}: {json.dumps(given)} became {json.dumps(sent)}"
    if isinstance(given, dict) and isinstance(sent, dict):
        for key in given:
            if key not in sent:
                return f"{where}/{key}: the member {json.dumps(key)} was dropped"
            found = difference(given[key], sent[key], f"{where}/{key}")
            if found:
                return found
        extra = [k for k in sent if k not in given]
        return f"{where or '(root)'}: members {json.dumps(extra)[:80]} were added" if extra else None
    if isinstance(given, list) and isinstance(sent, list):
        if len(given) != len(sent):
            return f"{at}: {json.dumps(given)[:80]} became {json.dumps(sent)[:80]}"
        for i, (a, b) in enumerate(zip(given, sent)):
            found = difference(a, b, f"{where}/{i}")
            if found:
                return f"{found} (in {json.dumps(given)[:60]}, sent as {json.dumps(sent)[:60]})" if "(in " not in found else found
        return None
    if type(given) is type(sent) and given == sent:
        return None
    return f"{at}: {json.dumps(given, ensure_ascii=True)[:80]} became {json.dumps(sent, ensure_ascii=True)[:80]}"
