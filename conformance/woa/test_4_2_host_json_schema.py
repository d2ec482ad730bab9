"""§4.2 JSON Schema usage (host role): the schemas a host publishes are accurate."""

from __future__ import annotations

from typing import Any

from conformance.outcomes import clause, violation
from conformance.woa._host_fixtures import Call, Invocations, each_case, selections

#: Keywords beyond type/properties/required that 4.2 names as "more advanced".
ADVANCED = ("oneOf", "anyOf", "allOf", "not", "if", "format", "$ref", "$defs", "patternProperties")


def _keywords(schema: Any, found: set[str], depth: int = 0) -> None:
    if depth > 50:
        return
    if isinstance(schema, dict):
        found.update(k for k in schema if k in ADVANCED)
        for value in schema.values():
            _keywords(value, found, depth + 1)
    elif isinstance(schema, list):
        for value in schema:
            _keywords(value, found, depth + 1)


@clause("WOA-4.2-03")
def test_4_2_host_may_use_advanced_schema_features(host_value: dict) -> None:
    """More advanced JSON Schema features such as oneOf, allOf, and format MAY be used by
    hosts. (A MAY: the kit reports which it found, and fails none.)"""
    found: set[str] = set()
    for s in selections(host_value):
        _keywords(s.inputs, found)
        _keywords(s.outputs, found)
    print("advanced JSON Schema keywords used: " + (", ".join(sorted(found)) if found else "none"))


@clause("WOA-4.2-05")
def test_4_2_host_inputs_schema_is_accurate(invocations: Invocations) -> None:
    """Hosts SHOULD provide concise and accurate JSON Schema documents to enable static
    validation and tooling. (Accurate inputs: an invocation whose input the published inputs
    schema accepts, built from that schema and validated before sending (the smallest, the
    largest, one at random, for each agent and operation), is not rejected as malformed
    (400 or 422): AMB-28. The outputs side is WOA-5.2-06; "concise" has no measure.)"""
    calls = invocations.judge(invocations.valid())

    def check(call: Call) -> None:
        final = call.answer()
        if final.status in (400, 422):
            detail = final.body[:160].decode("utf-8", "replace")
            violation(f"{call.what}: rejected with {final.status} {final.reason} ({detail!r}), though the "
                      "published inputs schema accepts it")
    each_case(calls, check)
    invocations.whole("valid")
