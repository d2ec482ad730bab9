"""§4.2 JSON Schema usage."""

from __future__ import annotations

from conformance.document import Document
from conformance.outcomes import clause, not_applicable, untestable
from conformance.woa._checks import agent_members, fail_all, operation_members
from conformance.woa.schema_check import TooDeep, problems


@clause("WOA-4.2-01")
def test_4_2_schemas_are_valid_2020_12(document: Document) -> None:
    """The inputs, outputs, and any operation level inputs or outputs fields MUST be valid JSON
    Schema documents compliant with the JSON Schema 2020-12 core and validation specifications"""
    judged, bad, deep = 0, [], []
    for member in ("inputs", "outputs"):
        for where, _, value in [*agent_members(document, member), *operation_members(document, member)]:
            if not isinstance(value, dict):
                continue  # absent or not an object: WOA-4.1-13/14/22/24
            try:
                bad += [f"{where}: {p}" for p in problems(value)]
            except TooDeep as exc:
                deep.append(f"{where}: {exc}")
                continue
            judged += 1
    fail_all(bad)
    if deep:
        untestable("; ".join(deep[:3]))
    if not judged:
        not_applicable("the document holds no inputs or outputs object")
