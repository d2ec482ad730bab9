"""§4.3.2 MCP Transport (client): invoking an agent over mcp, the client translates the
invocation envelope into an MCP tools/call: the tool named by the envelope field that
tool_field names (alone or after tool_namespace: AMB-14), the envelope's input as arguments.
The scenario's MCP server is a route of the scenario world (handler ``woa.client-mcp``), so
the kit reads the JSON-RPC messages the client sends."""

from __future__ import annotations

import json

from conformance.outcomes import clause, untestable, violation
from conformance.woa._client_fixtures import (GIVEN_INPUT, GIVEN_SCHEMA, WELL_KNOWN, WoaClient, WoaScenarios, agent,
                                             difference, each, fetched_document, said)

#: How MCP servers join tool_namespace and a tool name (AMB-14); the bare value counts too.
SEPARATORS = (".", "/", "_", "__", ":", "-")
NAMESPACE = "kit"


def _messages(scenario, path: str) -> list[dict]:
    """The JSON-RPC messages the client POSTed to ``path``, in order."""
    found = []
    for r in scenario.requests():
        if r.path == path and r.method == "POST":
            try:
                message = json.loads(r.body.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                continue
            found += [m for m in (message if isinstance(message, list) else [message]) if isinstance(m, dict)]
    return found


def _rpc_elsewhere(scenario, path: str) -> list:
    """Requests carrying a JSON-RPC message to another path than the server's."""
    out = []
    for r in scenario.requests():
        if r.path in (path, WELL_KNOWN) or r.method != "POST":
            continue
        try:
            message = json.loads(r.body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(message, dict) and "jsonrpc" in message:
            out.append(r)
    return out


#: The input the client is asked to pass on (AMB-55): the same data as over REST, so that a
#: transformation of the arguments (strings for numbers, nulls dropped, arrays sorted) shows.
GIVEN = GIVEN_INPUT


def _translation(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: tuple[str, str, str | None, str, str, str]) -> None:
    __tracebackhide__ = True
    name, tool_field, operation, value, agent_id, path = case
    config = {"server": f"https://{{host}}{path}", "tool_namespace": NAMESPACE, "tool_field": tool_field}
    ops = [{"name": "default", "description": "Default."}, {"name": "outline", "description": "Outline."}]
    s = woa_scenarios.new(f"mcp-{tool_field}", patch=[{"op": "add", "path": "/transports/mcp", "value": config}],
                          agents=[agent(agent_id, GIVEN_SCHEMA, transports=["mcp"],
                                        operations=ops if tool_field == "operation" else None)],
                          routes=[{"path": path, "handler": "woa.client-mcp"}])
    reply = woa_client.invoke(woa_scenarios, s, agent_id, operation=operation, input=GIVEN)
    fetched_document(s, reply)
    messages = _messages(s, path)
    calls = [m for m in messages if m.get("method") == "tools/call"]
    if not calls:
        sent = [f"{r.method} {r.path}" for r in s.requests()]
        if stray := _rpc_elsewhere(s, path):
            violation(f"{name}: the document's MCP server is https://{s.host}{path}, and the client sent its MCP "
                      f"messages to {stray[0].path}; {said(reply)}", readings=("AMB-56",))
        if any(r.path not in (path, WELL_KNOWN) for r in s.requests()):
            untestable(f"{name}: agent {agent_id} lists only mcp, and the client sent {sent}: not over MCP (see WOA-3-02)")
        violation(f"{name}: agent {agent_id} lists only mcp (server https://{s.host}{path}, tool_field {tool_field!r}), "
                  f"and the client sent no MCP tools/call (it sent {sent}); {said(reply)}")
    before = messages[:messages.index(calls[0])]
    methods = [m.get("method") for m in before]
    if "initialize" not in methods:
        violation(f"{name}: the client sent tools/call without initializing the MCP session first (it sent "
                  f"{methods or 'nothing'} before it): MCP's lifecycle begins with initialize", readings=("AMB-56",))
    if "notifications/initialized" not in methods[methods.index("initialize"):]:
        violation(f"{name}: the client sent tools/call after initialize without the notifications/initialized "
                  f"notification MCP's lifecycle asks for (it sent {methods})", readings=("AMB-56",))
    params = calls[0].get("params") if isinstance(calls[0].get("params"), dict) else {}
    forms = [value] + [f"{NAMESPACE}{sep}{value}" for sep in SEPARATORS]
    if params.get("name") not in forms:
        violation(f"{name}: tool_field is {tool_field!r}, whose envelope value is {value!r}, so the tool is {value!r} "
                  f"(or {NAMESPACE}.{value}, AMB-14); the client called tools/call with name "
                  f"{json.dumps(params.get('name'))}")
    changed = difference(GIVEN, params.get("arguments"))
    if changed:
        violation(f"{name}: the envelope's input is {json.dumps(GIVEN, ensure_ascii=True)[:160]}, and the client's "
                  f"tools/call arguments are another value: {changed}", readings=("AMB-55",))


@clause("WOA-4.3.2-06")
def test_4_3_2_client_translates_envelope_to_tools_call(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """When using the MCP transport, the client translates the WoA invocation envelope into
    the appropriate MCP tool invocation as defined by the MCP specification [MCP]. (On the
    server URL the document names, wherever its path: initialize, notifications/initialized,
    then tools/call named by tool_field's value, alone or after tool_namespace, exactly (an id
    with upper case, "-" and "_"), with the envelope's input as arguments, the same JSON
    value: AMB-14, AMB-55, AMB-56.)"""
    woa_client.needs("woa.mcp", "the client does not invoke agents over MCP")
    each([("tool_field agent", "agent", None, "Tool_er-2", "Tool_er-2", "/mcp"),
          ("tool_field operation", "operation", "outline", "outline", "tooler", "/mcp"),
          ("a server URL of another path", "agent", None, "tooler", "tooler", "/rpc/woa-tools")],
         lambda case: _translation(woa_client, woa_scenarios, case))
