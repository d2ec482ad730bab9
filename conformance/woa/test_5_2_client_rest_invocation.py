"""§5.2 REST Invocation (client): the POST body is the invocation envelope itself, whose agent
is the intended agent's id."""

from __future__ import annotations

import json

from conformance.outcomes import clause, untestable, violation
from conformance.woa._client_fixtures import WoaClient, WoaScenarios, agent, body_json, each, envelope_of, invocation


@clause("WOA-5.2-01")
def test_5_2_client_body_is_the_envelope(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """When using the REST transport, the client constructs the invocation URL as described in
    Section 4.3.1 and sends an HTTP POST request with media type application/json and a
    request body containing the invocation envelope. (agent and input at the body's top
    level: not the input alone, not the envelope wrapped in another object.)"""
    s = woa_scenarios.new("body-envelope")
    reply = woa_client.invoke(woa_scenarios, s, "summarizer", operation="default", input={"text": "hello"})
    body = body_json(invocation(s, reply))
    if not isinstance(body, dict):
        untestable(f"the invocation body is a JSON {type(body).__name__}, not an object (see WOA-5.1-01)")
    if "agent" not in body and "input" not in body:
        violation(f"the body holds neither agent nor input at its top level, so it is not the invocation envelope: "
                  f"{json.dumps(body)[:200]}")


def _agent_value(woa_client: WoaClient, woa_scenarios: WoaScenarios, agent_id: str) -> None:
    __tracebackhide__ = True
    s = woa_scenarios.new("agent-value", agents=[agent(agent_id, name="Shown Name"), agent("other")],
                          invoke_path="/invoke")
    reply = woa_client.invoke(woa_scenarios, s, agent_id, input={"text": "hello"})
    body = envelope_of(invocation(s, reply))
    value = body.get("agent")
    if not isinstance(value, str):
        untestable(f"the envelope's agent is {json.dumps(value)}, not a string (see WOA-5.1-02)")
    if value != agent_id:
        violation(f"asked to invoke agent {agent_id!r} (invoke_path /invoke, no {{agent_id}}), the client sent "
                  f"agent {value!r}")


@clause("WOA-5.2-02")
def test_5_2_client_agent_matches_intended_id(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """The agent field in the envelope MUST match the intended agent's id. (Exactly, across
    the id's ABNF: upper case, digits only, one character.)"""
    each(["Translate_v2-beta", "0042", "Q"], lambda agent_id: _agent_value(woa_client, woa_scenarios, agent_id))
