"""§5.2 REST Invocation (client): the POST body is the invocation envelope itself, whose agent
is the intended agent's id."""

from __future__ import annotations

import json

from conformance.outcomes import clause, untestable, violation
from conformance.woa._client_fixtures import (GIVEN_INPUT, GIVEN_SCHEMA, WoaClient, WoaScenarios, agent, body_json,
                                             conformance_error, difference, each, envelope_of, invocation)


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


@clause("WOA-5.2-01")
def test_5_2_client_sends_the_given_input_as_it_is(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """When using the REST transport, the client ... sends an HTTP POST request with ... a
    request body containing the invocation envelope. (The envelope of the invocation asked
    for: given an input to send as it is (the harness's woa.invoke input), which its agent's
    inputs schema accepts, the envelope's input is that JSON value: no member dropped or
    added, no value clamped, rounded, normalised or reordered. The input holds values at the
    schema's bounds, a float, arrays out of order and with a repeated item, a null, an empty
    string, a member the schema does not declare, text in NFD and outside the BMP: AMB-55.)"""
    s = woa_scenarios.new("given-input", agents=[agent("keeper", GIVEN_SCHEMA)])
    assert conformance_error(GIVEN_SCHEMA, GIVEN_INPUT) is None
    reply = woa_client.invoke(woa_scenarios, s, "keeper", input=GIVEN_INPUT)
    body = envelope_of(invocation(s, reply))
    if not isinstance(body.get("input"), dict):
        untestable(f"the envelope's input is {json.dumps(body.get('input'))[:80]}, not an object (see WOA-5.1-06)")
    changed = difference(GIVEN_INPUT, body["input"])
    if changed:
        violation(f"asked to send the input {json.dumps(GIVEN_INPUT, ensure_ascii=True)[:200]} as it is (its "
                  f"agent's inputs accept it), the client sent another: {changed}", readings=("AMB-55",))
