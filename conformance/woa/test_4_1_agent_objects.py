"""§4.1 Agent objects (and their operation objects)."""

from __future__ import annotations

from collections import Counter

from conformance.document import Document, kind_name
from conformance.outcomes import clause, not_applicable, violation
from conformance.woa._checks import (
    AGENT_ID, agent_members, agents, fail_all, operation_members, transports_object, typed,
)


@clause("WOA-4.1-01")
def test_4_1_agents_are_objects(document: Document) -> None:
    """Each element of the agents array is an object with the following fields:"""
    bad = [f"agents[{i}] is a JSON {kind_name(e)}" for i, e in document.items("agents") if not isinstance(e, dict)]
    fail_all(bad)


@clause("WOA-4.1-02")
def test_4_1_id_is_a_string(document: Document) -> None:
    """id (string, REQUIRED):"""
    typed(agent_members(document, "id"), str, required=True, what="a string")


@clause("WOA-4.1-03")
def test_4_1_ids_are_unique(document: Document) -> None:
    """A token that uniquely identifies the agent within the WoA document."""
    ids = [a["id"] for _, a in agents(document) if isinstance(a.get("id"), str)]
    dup = sorted(i for i, n in Counter(ids).items() if n > 1)
    if dup:
        violation("agent ids used by more than one agent (compared exactly, AMB-24): " + ", ".join(map(repr, dup[:5])))


@clause("WOA-4.1-04")
def test_4_1_id_matches_abnf(document: Document) -> None:
    """The value MUST match the following ABNF (using [RFC5234]):¶ agent-id = 1*( ALPHA / DIGIT / "-" / "_" )"""
    bad = [f"agents[{i}].id is {a['id']!r}" for i, a in agents(document)
           if isinstance(a.get("id"), str) and not AGENT_ID.fullmatch(a["id"])]
    fail_all(bad)


@clause("WOA-4.1-05")
def test_4_1_name_is_a_string(document: Document) -> None:
    """name (string, REQUIRED): A short, human readable name for the agent."""
    typed(agent_members(document, "name"), str, required=True, what="a string")


@clause("WOA-4.1-06")
def test_4_1_description_is_a_string(document: Document) -> None:
    """description (string, REQUIRED): A human readable description of what the agent does."""
    typed(agent_members(document, "description"), str, required=True, what="a string")


@clause("WOA-4.1-08")
def test_4_1_version_may_be_given(document: Document) -> None:
    """version (string, OPTIONAL):"""
    if not any(present for _, present, _ in agent_members(document, "version")):
        not_applicable("no agent gives a version")


@clause("WOA-4.1-09")
def test_4_1_version_is_a_string(document: Document) -> None:
    """version (string, OPTIONAL): A version identifier for the agent implementation, such as "1.0.0"."""
    typed(agent_members(document, "version"), str, required=False, what="a string")


@clause("WOA-4.1-10")
def test_4_1_capabilities_may_be_given(document: Document) -> None:
    """capabilities (array of strings, OPTIONAL):"""
    if not any(present for _, present, _ in agent_members(document, "capabilities")):
        not_applicable("no agent lists capabilities")


@clause("WOA-4.1-11")
def test_4_1_capabilities_are_strings(document: Document) -> None:
    """capabilities (array of strings, OPTIONAL): A list of capability identifiers."""
    bad, seen = [], 0
    for where, present, value in agent_members(document, "capabilities"):
        if not present:
            continue
        seen += 1
        if not isinstance(value, list):
            bad.append(f"{where} is a JSON {kind_name(value)}, not an array")
        else:
            bad += [f"{where}[{j}] is a JSON {kind_name(c)}" for j, c in enumerate(value) if not isinstance(c, str)]
    fail_all(bad)
    if not seen:
        not_applicable("no agent lists capabilities")


@clause("WOA-4.1-13")
def test_4_1_inputs_is_an_object(document: Document) -> None:
    """inputs (object, REQUIRED): A JSON Schema document that describes the expected request
    body when invoking the agent."""
    typed(agent_members(document, "inputs"), dict, required=True, what="an object")


@clause("WOA-4.1-14")
def test_4_1_outputs_is_an_object(document: Document) -> None:
    """outputs (object, REQUIRED): A JSON Schema document that describes the successful
    response body produced by the agent."""
    typed(agent_members(document, "outputs"), dict, required=True, what="an object")


@clause("WOA-4.1-15")
def test_4_1_transports_is_an_array_of_strings(document: Document) -> None:
    """transports (array of strings, REQUIRED):"""
    bad = []
    for where, present, value in agent_members(document, "transports"):
        if not present:
            bad.append(f"{where} is absent")
        elif not isinstance(value, list):
            bad.append(f"{where} is a JSON {kind_name(value)}, not an array")
        else:
            bad += [f"{where}[{j}] is a JSON {kind_name(t)}" for j, t in enumerate(value) if not isinstance(t, str)]
    fail_all(bad)


@clause("WOA-4.1-16")
def test_4_1_transports_name_top_level_configurations(document: Document) -> None:
    """Names of transport configurations (keys in the top level transports object) that can be
    used to invoke this agent."""
    listed = [(where, value) for where, _, value in agent_members(document, "transports") if isinstance(value, list)]
    if not any(isinstance(t, str) for _, value in listed for t in value):
        not_applicable("no agent names a transport")
    configured = transports_object(document)
    bad = [f"{where}[{j}] is {t!r}, which the top-level transports object does not configure"
           for where, value in listed for j, t in enumerate(value) if isinstance(t, str) and t not in configured]
    fail_all(bad)


@clause("WOA-4.1-17")
def test_4_1_operations_may_be_given(document: Document) -> None:
    """operations (array of objects, OPTIONAL):"""
    if not any(present for _, present, _ in agent_members(document, "operations")):
        not_applicable("no agent lists operations (each has a single unnamed operation)")


@clause("WOA-4.1-18")
def test_4_1_operations_is_an_array_of_objects(document: Document) -> None:
    """operations (array of objects, OPTIONAL): A list of operation descriptors for agents that
    support multiple logical operations via a single transport endpoint."""
    bad, seen = [], 0
    for where, present, value in agent_members(document, "operations"):
        if not present:
            continue
        seen += 1
        if not isinstance(value, list):
            bad.append(f"{where} is a JSON {kind_name(value)}, not an array")
        else:
            bad += [f"{where}[{j}] is a JSON {kind_name(o)}" for j, o in enumerate(value) if not isinstance(o, dict)]
    fail_all(bad)
    if not seen:
        not_applicable("no agent lists operations")


def _operation_member(document: Document, member: str, kind: type, required: bool, what: str) -> None:
    __tracebackhide__ = True
    entries = list(operation_members(document, member))
    if not entries:
        not_applicable("no agent lists an operation object")
    typed(iter(entries), kind, required=required, what=what)


@clause("WOA-4.1-19")
def test_4_1_operation_name_is_a_string(document: Document) -> None:
    """name (string, REQUIRED): A token naming the operation."""
    _operation_member(document, "name", str, True, "a string")


@clause("WOA-4.1-20")
def test_4_1_operation_description_is_a_string(document: Document) -> None:
    """description (string, REQUIRED): Human readable description of the operation."""
    _operation_member(document, "description", str, True, "a string")


@clause("WOA-4.1-21")
def test_4_1_operation_inputs_may_be_given(document: Document) -> None:
    """inputs (object, OPTIONAL):"""
    if not any(present for _, present, _ in operation_members(document, "inputs")):
        not_applicable("no operation overrides inputs")


@clause("WOA-4.1-22")
def test_4_1_operation_inputs_is_an_object(document: Document) -> None:
    """inputs (object, OPTIONAL): JSON Schema overriding the agent level inputs for this operation."""
    _operation_member(document, "inputs", dict, False, "an object")


@clause("WOA-4.1-23")
def test_4_1_operation_outputs_may_be_given(document: Document) -> None:
    """outputs (object, OPTIONAL):"""
    if not any(present for _, present, _ in operation_members(document, "outputs")):
        not_applicable("no operation overrides outputs")


@clause("WOA-4.1-24")
def test_4_1_operation_outputs_is_an_object(document: Document) -> None:
    """outputs (object, OPTIONAL): JSON Schema overriding the agent level outputs for this operation."""
    _operation_member(document, "outputs", dict, False, "an object")
