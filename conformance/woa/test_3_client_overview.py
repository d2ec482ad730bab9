"""§3 Overview (client): a client fetches the WoA document of the origin it is given, selects
the agent, and invokes it over a transport that the agent lists and the client supports."""

from __future__ import annotations

from conformance.outcomes import clause, violation
from conformance.woa._client_fixtures import WELL_KNOWN, WoaClient, WoaScenarios, agent, said

#: Transport configurations beside rest: MCP, and a private transport (4.3.3) no client knows.
OTHER_TRANSPORTS = [
    {"op": "add", "path": "/transports/mcp",
     "value": {"server": "https://{host}/mcp", "tool_namespace": "kit", "tool_field": "agent"}},
    {"op": "add", "path": "/transports/com.example.queue", "value": {"queue": "jobs"}},
]


def _rest_calls(scenario, agent_id: str) -> list:
    return [r for r in scenario.requests() if r.path == f"/agents/{agent_id}/invoke"]


@clause("WOA-3-02")
def test_3_client_fetches_the_document_and_uses_a_listed_transport(woa_client: WoaClient,
                                                                   woa_scenarios: WoaScenarios) -> None:
    """A client fetches the WoA document from a host, selects an agent, chooses a transport
    supported by both client and host, constructs an invocation request according to the
    transport rules, and processes the response. (Read as the client's procedure: AMB-02,
    AMB-08.)"""
    # 1. the document of the origin, at /.well-known/woa.json, then the agent over rest
    s = woa_scenarios.new("overview")
    reply = woa_client.invoke(woa_scenarios, s, "summarizer", operation="default", input={"text": "hello"})
    sent = [f"{r.method} {r.path}" for r in s.requests()]
    if not any(r.method == "GET" and r.path == WELL_KNOWN for r in s.requests()):
        violation(f"asked to invoke agent summarizer of {s.authority}, the client never sent GET {WELL_KNOWN} "
                  f"(it sent {sent or 'nothing'}); {said(reply)}")
    if not _rest_calls(s, "summarizer"):
        violation(f"the document lists agent summarizer with transports [\"rest\"], and the client did not invoke it "
                  f"at {s.authority}/agents/summarizer/invoke (it sent {sent}); {said(reply)}")
    # 2. an agent that lists only mcp and a private transport: never a REST invocation
    s = woa_scenarios.new("mcp-only", patch=OTHER_TRANSPORTS,
                          agents=[agent("tooler", transports=["mcp", "com.example.queue"]), agent("echo")])
    reply = woa_client.invoke(woa_scenarios, s, "tooler", input={"text": "hello"})
    if calls := _rest_calls(s, "tooler"):
        violation(f"agent tooler lists transports [\"mcp\", \"com.example.queue\"], not rest, and the client sent "
                  f"{calls[0].method} {calls[0].path} to the document's rest transport; {said(reply)}")
    # 3. an agent whose transports list is empty: no transport is supported by both, nothing is sent
    idle = agent("idle")
    idle["transports"] = []
    s = woa_scenarios.new("no-transport", patch=OTHER_TRANSPORTS, agents=[idle, agent("echo")])
    reply = woa_client.invoke(woa_scenarios, s, "idle", input={"text": "hello"})
    if sent := [r for r in s.requests() if r.path != WELL_KNOWN]:
        violation(f"agent idle lists no transport (transports []), so no transport is supported by both client and "
                  f"host, and the client sent {sent[0].method} {sent[0].path}; {said(reply)}", readings=("AMB-19",))
    # 4. an unknown transport listed first: skipped, the agent invoked over rest
    s = woa_scenarios.new("unknown-first", patch=OTHER_TRANSPORTS,
                          agents=[agent("mixed", transports=["com.example.queue", "rest"])])
    reply = woa_client.invoke(woa_scenarios, s, "mixed", input={"text": "hello"})
    if not _rest_calls(s, "mixed"):
        violation("agent mixed lists transports [\"com.example.queue\", \"rest\"]: rest is supported by both client "
                  f"and host, and the client did not invoke it over rest (it sent "
                  f"{[f'{r.method} {r.path}' for r in s.requests()]}); {said(reply)}")
