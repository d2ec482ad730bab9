"""§5.1 Invocation Envelope (client): the REST request body is an object holding agent (a
string), operation (the one asked for, when the agent has operations) and input (an object
conforming to the selected operation's inputs, or the agent's)."""

from __future__ import annotations

import json

from conformance.outcomes import clause, violation
from conformance.woa._client_fixtures import (BUILD_INPUT, WoaClient, WoaScenarios, agent, body_json,
                                             conformance_error, each, envelope_of, input_of, invocation)


@clause("WOA-5.1-01")
def test_5_1_client_envelope_is_an_object(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """For the REST transport defined in this document, the invocation envelope is an object
    with the following fields: (the body is a JSON object, not an array or a string)."""
    s = woa_scenarios.new("envelope-object")
    reply = woa_client.invoke(woa_scenarios, s, "summarizer", operation="default", input={"text": "hello"})
    body = body_json(invocation(s, reply))
    if not isinstance(body, dict):
        violation(f"the invocation body is a JSON {type(body).__name__}, not an object: {json.dumps(body)[:160]}")


def _agent_field(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: tuple[str, str, str]) -> None:
    __tracebackhide__ = True
    name, agent_id, invoke_path = case
    s = woa_scenarios.new("agent-field", agents=[agent(agent_id)], invoke_path=invoke_path)
    reply = woa_client.invoke(woa_scenarios, s, agent_id, input={"text": "hello"})
    body = envelope_of(invocation(s, reply))
    if "agent" not in body:
        violation(f"{name}: the envelope has no agent member: {json.dumps(body)[:160]}")
    if not isinstance(body["agent"], str):
        violation(f"{name}: the envelope's agent is {json.dumps(body['agent'])[:80]}, not a string")


@clause("WOA-5.1-02")
def test_5_1_client_envelope_has_agent(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """agent (string, REQUIRED): The agent identifier as listed in the WoA document. (Also when
    the URL carries the id: the host's MAY does not release the client, AMB-06.)"""
    each([("{agent_id} in invoke_path", "echo", "/agents/{agent_id}/invoke"),
          ("no {agent_id} in invoke_path", "echo", "/invoke")],
         lambda case: _agent_field(woa_client, woa_scenarios, case))


def _operation_field(woa_client: WoaClient, woa_scenarios: WoaScenarios, asked: str) -> None:
    __tracebackhide__ = True
    s = woa_scenarios.new(f"operation-{asked}")
    reply = woa_client.invoke(woa_scenarios, s, "summarizer", operation=asked, input={"text": "hello"})
    body = envelope_of(invocation(s, reply))
    if "operation" not in body:
        if asked == "default":
            return  # omitted, the implied operation is "default" (5.1, AMB-16)
        violation(f"asked to invoke operation {asked!r} of agent summarizer (operations default, bullets), the "
                  f"client sent no operation: {json.dumps(body)[:160]}")
    if body["operation"] != asked:
        violation(f"asked to invoke operation {asked!r} of agent summarizer (operations default, bullets), the "
                  f"client sent operation {json.dumps(body['operation'])[:80]}")


@clause("WOA-5.1-04")
def test_5_1_client_envelope_operation(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """operation (string, OPTIONAL): The operation name, if the agent defines an operations
    array. (The one the client was asked to invoke; "default" may be left implied, AMB-16.)"""
    each(["bullets", "default"], lambda asked: _operation_field(woa_client, woa_scenarios, asked))


def _input_field(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: tuple[str, dict, dict]) -> None:
    __tracebackhide__ = True
    name, schema, given = case
    s = woa_scenarios.new("input-field", agents=[agent("echo", schema)])
    reply = woa_client.invoke(woa_scenarios, s, "echo", input=given)
    body = envelope_of(invocation(s, reply))
    if "input" not in body:
        violation(f"{name}: asked to send input {json.dumps(given)}, the client sent an envelope without input: "
                  f"{json.dumps(body)[:160]}")
    if not isinstance(body["input"], dict):
        violation(f"{name}: the envelope's input is {json.dumps(body['input'])[:80]}, not an object")


@clause("WOA-5.1-06")
def test_5_1_client_envelope_has_input(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """input (object, REQUIRED): (present and an object, {} when the schema requires nothing)."""
    each([("inputs requiring nothing, input {}", {"type": "object", "properties": {"text": {"type": "string"}}}, {}),
          ("inputs requiring text", {"type": "object", "properties": {"text": {"type": "string"}},
                                     "required": ["text"]}, {"text": "hello"})],
         lambda case: _input_field(woa_client, woa_scenarios, case))


#: An agent whose operations override inputs (outline) or not (plain, default): the client
#: builds the input itself; the kit judges it against the operation it asked for (AMB-50).
AGENT_INPUTS = {"type": "object", "properties": {"text": {"type": "string"}, "lang": {"type": "string"}},
                "required": ["text", "lang"], "additionalProperties": False}
OUTLINE_INPUTS = {"type": "object", "properties": {"text": {"type": "string"}, "style": {"type": "string"}},
                  "required": ["text", "style"], "additionalProperties": False}
OPERATIONS = [{"name": "default", "description": "Summarizes."},
              {"name": "outline", "description": "Outlines.", "inputs": OUTLINE_INPUTS},
              {"name": "plain", "description": "Plain text summary."}]


def _selected_inputs(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: tuple[str | None, dict]) -> None:
    __tracebackhide__ = True
    operation, schema = case
    woa_client.needs(BUILD_INPUT, "5.1's conformance is judged on the input the client builds itself (AMB-51)")
    s = woa_scenarios.new("selected-inputs", agents=[agent("writer", AGENT_INPUTS, operations=OPERATIONS)])
    reply = woa_client.invoke(woa_scenarios, s, "writer", operation=operation)
    request = invocation(s, reply)
    value = input_of(envelope_of(request))
    if error := conformance_error(schema, value):
        whose = "its own inputs" if schema is OUTLINE_INPUTS else "no inputs of its own (the agent's apply)"
        violation(f"operation {operation!r} of agent writer has {whose}, {json.dumps(schema)}, and the client "
                  f"sent input {json.dumps(value)[:160]} ({error})")


@clause("WOA-5.1-07")
def test_5_1_client_input_conforms_to_selected_inputs(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """A JSON object that MUST conform to the JSON Schema specified in the selected
    operation's inputs schema, or to the agent level inputs if there is no per operation
    override. (The client builds the input itself: woa.invoke without input.)"""
    each([("outline", OUTLINE_INPUTS), ("plain", AGENT_INPUTS)],
         lambda case: _selected_inputs(woa_client, woa_scenarios, case))
