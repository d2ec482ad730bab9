"""§4.2 JSON Schema Usage (client): given an agent's inputs schema and no input, the client
builds the input itself (the harness's ``woa.invoke`` without ``input``); the kit checks the
input it sends against the schema (JSON Schema 2020-12, ``format`` as an annotation)."""

from __future__ import annotations

import json

from conformance.outcomes import clause, untestable, violation
from conformance.woa._client_fixtures import (BUILD_INPUT, WoaClient, WoaScenarios, agent, conformance_error, each,
                                             envelope_of, fetched_document, input_of, posts, random_core_schema, said)


def _obj(properties: dict, required: list[str], **more) -> dict:
    return {"type": "object", "properties": properties, "required": required, **more}


#: 4.2's minimum: roots with type "object", properties and required only (AMB-18), across the
#: value types a property can have, nesting, and required lists from none to all.
CORE_SCHEMAS = {
    "every-type": _obj({"s": {"type": "string"}, "i": {"type": "integer"}, "n": {"type": "number"},
                        "b": {"type": "boolean"}, "a": {"type": "array"}, "o": {"type": "object"},
                        "z": {"type": "null"}}, ["s", "i", "n", "b", "a", "o", "z"]),
    "nested": _obj({"doc": _obj({"meta": _obj({"title": {"type": "string"}, "pages": {"type": "integer"}},
                                              ["title", "pages"]),
                                 "body": {"type": "string"}}, ["meta", "body"])}, ["doc"]),
    "none-required": _obj({"text": {"type": "string"}, "limit": {"type": "integer"}}, []),
    "some-required": _obj({"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "boolean"}}, ["b"]),
    "array-of-objects": _obj({"items": {"type": "array", "items": _obj({"k": {"type": "string"}}, ["k"])},
                              "flag": {"type": "boolean"}}, ["items", "flag"]),
    # required may name a property that properties does not describe (any value then)
    "required-without-property": _obj({"text": {"type": "string"}}, ["text", "mode"]),
    # property names are keys, never paths: a dot, a space, a slash, letters outside ASCII
    "names-are-keys": _obj({"a.b": {"type": "integer"}, "with space": {"type": "boolean"},
                            "x/y": {"type": "string"}, "\u043a\u043b\u044e\u0447": {"type": "string"}},
                           ["a.b", "with space", "x/y", "\u043a\u043b\u044e\u0447"]),
}

#: 4.2's advanced keywords on a type/properties/required core that still yields a conforming
#: request when they are ignored (AMB-18): format, allOf, oneOf, anyOf, unknown keywords.
ADVANCED_SCHEMAS = {
    "format": _obj({"email": {"type": "string", "format": "email"}, "when": {"type": "string", "format": "date-time"}},
                   ["email"]),
    "allOf": _obj({"text": {"type": "string"}}, ["text"],
                  allOf=[{"required": ["text"]}, {"properties": {"text": {"maxLength": 500}}}]),
    "oneOf": _obj({"text": {"type": "string"}, "url": {"type": "string"}}, ["text"],
                  oneOf=[{"required": ["text"]}, {"required": ["url"]}]),
    "anyOf-in-property": _obj({"text": {"type": "string", "anyOf": [{"minLength": 1}, {"maxLength": 0}]}}, ["text"]),
    "unknown-keywords": _obj({"text": {"type": "string", "x-widget": "textarea", "deprecated": False}}, ["text"],
                             **{"x-ui-order": ["text"], "$comment": "rendered by the host's form builder"}),
}


def _judge_built_input(woa_client: WoaClient, woa_scenarios: WoaScenarios, name: str, schema: dict) -> None:
    """The client is asked to invoke an agent with this inputs schema and no input: it must
    invoke it, with an input the schema accepts."""
    __tracebackhide__ = True
    woa_client.needs(BUILD_INPUT, "4.2 is judged on the input the client builds from the schema (AMB-51)")
    s = woa_scenarios.new(f"schema-{name}", agents=[agent("shaped", schema)])
    reply = woa_client.invoke(woa_scenarios, s, "shaped")
    fetched_document(s, reply)
    sent = [r for r in posts(s) if r.method == "POST"]
    if not sent:
        if reply.get("outcome") == "refused" and not posts(s):
            violation(f"{name}: the client refused to invoke an agent whose inputs is {json.dumps(schema)}; {said(reply)}")
        untestable(f"{name}: the client sent no POST invocation; {said(reply)} (see WOA-3-02, WOA-4.3.1-10)")
    value = input_of(envelope_of(sent[0]))
    if error := conformance_error(schema, value):
        violation(f"{name}: the agent's inputs is {json.dumps(schema)}, and the input the client built, "
                  f"{json.dumps(value)[:200]}, does not conform ({error})")


@clause("WOA-4.2-02")
def test_4_2_client_supports_type_properties_required(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """At minimum, implementations MUST support JSON Schema documents whose root is an object
    with: type of "object", properties object describing named properties, required array
    naming required properties. (The client builds an input that such a schema accepts: every
    required property, each of its type, nested objects included.)"""
    each(CORE_SCHEMAS.items(), lambda case: _judge_built_input(woa_client, woa_scenarios, *case))


@clause("WOA-4.2-02")
def test_4_2_client_supports_generated_core_schemas(woa_client: WoaClient, woa_scenarios: WoaScenarios,
                                                    adck_seed: int) -> None:
    """At minimum, implementations MUST support JSON Schema documents whose root is an object
    with: type of "object", properties object describing named properties, required array
    naming required properties. (Schemas of that core drawn from the run's seed: value types,
    nesting to two levels, any required subset.)"""
    import random

    rng = random.Random(adck_seed)
    cases = [(f"generated schema {n + 1}", random_core_schema(rng)) for n in range(3)]
    each(cases, lambda case: _judge_built_input(woa_client, woa_scenarios, *case))


@clause("WOA-4.2-04")
def test_4_2_client_ignores_advanced_keywords(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """More advanced JSON Schema features such as oneOf, allOf, and format ... SHOULD be
    ignored by clients that do not understand them, as long as the client can still construct
    a conforming request. (Each schema's type/properties/required core alone gives an input the
    whole schema accepts; the client invokes the agent with one, AMB-18.)"""
    each(ADVANCED_SCHEMAS.items(), lambda case: _judge_built_input(woa_client, woa_scenarios, *case))
