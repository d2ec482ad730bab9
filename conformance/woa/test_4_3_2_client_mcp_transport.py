"""§4.3.2 MCP Transport (client): invoking an agent over mcp, the client translates the
invocation envelope into an MCP tools/call: the tool named by the envelope field that
tool_field names (alone or after tool_namespace: AMB-14), the envelope's input as arguments.
The scenario's MCP server is a route of the scenario world (handler ``woa.client-mcp``), so
the kit reads the JSON-RPC messages the client sends."""

from __future__ import annotations

import json

from conformance.outcomes import clause, untestable, violation
from conformance.woa._client_fixtures import (WELL_KNOWN, WoaClient, WoaScenarios, agent, each, fetched_document,
                                             said)

#: How MCP servers join tool_namespace and a tool name (AMB-14); the bare value counts too.
SEPARATORS = (".", "/", "_", "__", ":", "-")
NAMESPACE = "kit"


def _tool_calls(scenario) -> list[dict]:
    calls = []
    for r in scenario.requests():
        if r.path == "/mcp" and r.method == "POST":
            try:
                message = json.loads(r.body.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                continue
            if isinstance(message, dict) and message.get("method") == "tools/call":
                calls.append(message)
    return calls


def _translation(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: tuple[str, str, str | None, str]) -> None:
    __tracebackhide__ = True
    name, tool_field, operation, value = case
    config = {"server": "https://{host}/mcp", "tool_namespace": NAMESPACE, "tool_field": tool_field}
    ops = [{"name": "default", "description": "Default."}, {"name": "outline", "description": "Outline."}]
    s = woa_scenarios.new(f"mcp-{tool_field}", patch=[{"op": "add", "path": "/transports/mcp", "value": config}],
                          agents=[agent("tooler", transports=["mcp"], operations=ops if tool_field == "operation"
                                        else None)],
                          routes=[{"path": "/mcp", "handler": "woa.client-mcp"}])
    given = {"text": "translate me", "n": 3}
    reply = woa_client.invoke(woa_scenarios, s, "tooler", operation=operation, input=given)
    fetched_document(s, reply)
    calls = _tool_calls(s)
    if not calls:
        sent = [f"{r.method} {r.path}" for r in s.requests()]
        if any(r.path not in ("/mcp", WELL_KNOWN) for r in s.requests()):
            untestable(f"{name}: agent tooler lists only mcp, and the client sent {sent}: not over MCP (see WOA-3-02)")
        violation(f"{name}: agent tooler lists only mcp (server https://{s.host}/mcp, tool_field {tool_field!r}), and "
                  f"the client sent no MCP tools/call (it sent {sent}); {said(reply)}")
    params = calls[0].get("params") if isinstance(calls[0].get("params"), dict) else {}
    forms = [value] + [f"{NAMESPACE}{sep}{value}" for sep in SEPARATORS]
    if params.get("name") not in forms:
        violation(f"{name}: tool_field is {tool_field!r}, whose envelope value is {value!r}, so the tool is {value!r} "
                  f"(or {NAMESPACE}.{value}, AMB-14); the client called tools/call with name "
                  f"{json.dumps(params.get('name'))}")
    if params.get("arguments") != given:
        violation(f"{name}: the envelope's input is {json.dumps(given)}, and the client's tools/call arguments are "
                  f"{json.dumps(params.get('arguments'))[:200]}")


@clause("WOA-4.3.2-06")
def test_4_3_2_client_translates_envelope_to_tools_call(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """When using the MCP transport, the client translates the WoA invocation envelope into
    the appropriate MCP tool invocation as defined by the MCP specification [MCP]. (tools/call
    named by tool_field's value, alone or after tool_namespace, with input as arguments:
    AMB-14.)"""
    woa_client.needs("woa.mcp", "the client does not invoke agents over MCP")
    each([("tool_field agent", "agent", None, "tooler"), ("tool_field operation", "operation", "outline", "outline")],
         lambda case: _translation(woa_client, woa_scenarios, case))
