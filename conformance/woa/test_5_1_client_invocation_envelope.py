"""§5.1 Invocation Envelope (client): the REST request body is an object holding agent (a
string), operation (the one asked for, when the agent has operations) and input (an object
conforming to the selected operation's inputs, or the agent's)."""

from __future__ import annotations

import json

from conformance.outcomes import clause, untestable, violation
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
          ("no {agent_id} in invoke_path", "echo", "/invoke"),
          ("an id that reads as a number", "1e3", "/invoke")],
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


#: Operation names one letter, one case or one suffix apart: only the exact name is the one asked.
NEAR_NAMES = [{"name": "outline-v2", "description": "Outline, second form."},
              {"name": "Outline", "description": "Outline in title case."},
              {"name": "outline", "description": "Outline."}]


def _near_operation(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: tuple[str, list[dict] | None, str | None]) -> None:
    __tracebackhide__ = True
    name, operations, asked = case
    s = woa_scenarios.new("operation-near", agents=[agent("writer", operations=operations)])
    reply = woa_client.invoke(woa_scenarios, s, "writer", operation=asked, input={"text": "hello"})
    body = envelope_of(invocation(s, reply))
    if "operation" not in body:
        if asked is None or asked == "default":
            return
        violation(f"{name}: asked to invoke operation {asked!r}, the client sent no operation: {json.dumps(body)[:160]}")
    value = body["operation"]
    if not isinstance(value, str):
        violation(f"{name}: the envelope's operation is {json.dumps(value)}, not a string (operation (string, "
                  "OPTIONAL))", readings=("AMB-16",))
    if operations and asked is not None and value != asked:
        names = [o["name"] for o in operations]
        violation(f"{name}: asked to invoke operation {asked!r} of agent writer (operations {names}), the client "
                  f"sent operation {value!r}")


@clause("WOA-5.1-04")
def test_5_1_client_envelope_operation(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """operation (string, OPTIONAL): The operation name, if the agent defines an operations
    array. (The one the client was asked to invoke; "default" may be left implied, AMB-16.)"""
    each(["bullets", "default"], lambda asked: _operation_field(woa_client, woa_scenarios, asked))


@clause("WOA-5.1-04")
def test_5_1_client_envelope_operation_is_the_exact_name(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """operation (string, OPTIONAL): The operation name, if the agent defines an operations
    array. (Among names one case or one suffix apart, exactly the one asked for; and, for any
    agent, an operation the envelope holds is a string: a client asked for none sends none, or
    a string, never null: AMB-16.)"""
    each([("names one case or suffix apart", NEAR_NAMES, "outline"),
          ("an agent without operations, none asked", None, None),
          ("an agent with operations, none asked", NEAR_NAMES, None)],
         lambda case: _near_operation(woa_client, woa_scenarios, case))


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


#: Inputs schemas whose bounds a built input must keep (AMB-57): a range above the usual
#: default, a negative range, exclusive bounds (a client that takes them as inclusive, or
#: rounds to an integer, lands on one), string lengths and item counts. Every case holds a
#: property of a numeric type, so that a client that does not give properties their type fails
#: WOA-4.2-02 first, and is not judged here.
BOUNDED = {
    "numeric bounds": {"type": "object", "required": ["words", "offset", "ratio", "step"], "properties": {
        "words": {"type": "integer", "minimum": 10, "maximum": 500},
        "offset": {"type": "integer", "minimum": -20, "maximum": -10},
        "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        "step": {"type": "integer", "exclusiveMinimum": 4, "maximum": 6}}},
    "lengths and counts": {"type": "object", "required": ["code", "tags", "count"], "properties": {
        "code": {"type": "string", "minLength": 5, "maxLength": 8},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["red", "blue"]}, "minItems": 2, "maxItems": 3},
        "count": {"type": "integer", "minimum": 2, "maximum": 9}}},
}
#: The keywords of a value's type and presence: failing one of them is WOA-4.2-02's (AMB-57).
_CORE_KEYWORDS = {"type", "required"}


def _bounded_input(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: tuple[str, dict]) -> None:
    __tracebackhide__ = True
    from conformance.schemas import errors

    name, schema = case
    woa_client.needs(BUILD_INPUT, "5.1's conformance is judged on the input the client builds itself (AMB-51)")
    s = woa_scenarios.new("bounded-inputs", agents=[agent("bounded", schema)])
    reply = woa_client.invoke(woa_scenarios, s, "bounded")
    request = invocation(s, reply)
    value = input_of(envelope_of(request))
    found = list(errors(schema, value))
    if any(e.validator in _CORE_KEYWORDS for e in found):
        untestable(f"{name}: the input the client built, {json.dumps(value)[:160]}, misses a required property or "
                   "gives one another type (see WOA-4.2-02)")
    if found:
        where = "/".join(str(p) for p in found[0].absolute_path) or "(root)"
        violation(f"{name}: the agent's inputs is {json.dumps(schema)[:300]}, and the client built the input "
                  f"{json.dumps(value)[:160]}, which breaks its {found[0].validator} at {where}: {found[0].message}",
                  readings=("AMB-57",))


@clause("WOA-5.1-07")
def test_5_1_client_input_keeps_the_schemas_bounds(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """A JSON object that MUST conform to the JSON Schema specified in the selected
    operation's inputs schema, or to the agent level inputs if there is no per operation
    override. (The whole schema, its bounds too: minimum, maximum, their exclusive forms,
    string lengths, item counts. The client builds the input itself; a missing property or a
    value of another type is WOA-4.2-02's: AMB-57.)"""
    each(BOUNDED.items(), lambda case: _bounded_input(woa_client, woa_scenarios, case))
