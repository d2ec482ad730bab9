"""Helpers shared by the woa document tests: walking agents, operations, transports and the
JSON Schema fields, each turning a failed prerequisite into *untestable*."""

from __future__ import annotations

import re
from typing import Any, Iterator

from conformance.document import Document, kind_name
from conformance.outcomes import not_applicable, untestable, violation

#: agent-id = 1*( ALPHA / DIGIT / "-" / "_" ) (RFC 5234: ALPHA and DIGIT are ASCII only).
AGENT_ID = re.compile(r"[A-Za-z0-9_-]+")
#: The transports the WoA Transport Registry holds (9.3): every other name is private (AMB-10).
REGISTERED = ("rest", "mcp")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
#: A reversed domain name of at least two labels, a dot, and a non-empty rest (AMB-10).
REVERSE_DNS = re.compile(rf"{_LABEL}(?:\.{_LABEL})+\..+", re.DOTALL)


def agents(document: Document) -> list[tuple[int, dict]]:
    """(index, agent) of every agent that is an object (WOA-4-04, WOA-4.1-01 judge the rest)."""
    return document.objects("agents")


def operations(document: Document) -> list[tuple[str, dict]]:
    """(where, operation) of every operation object of every agent."""
    found = []
    for i, agent in agents(document):
        ops = agent.get("operations")
        if isinstance(ops, list):
            found += [(f"agents[{i}].operations[{j}]", op) for j, op in enumerate(ops) if isinstance(op, dict)]
    return found


def agent_members(document: Document, member: str) -> Iterator[tuple[str, bool, Any]]:
    """(where, present, value) of ``member`` in every agent object."""
    for i, agent in agents(document):
        yield f"agents[{i}].{member}", member in agent, agent.get(member)


def operation_members(document: Document, member: str) -> Iterator[tuple[str, bool, Any]]:
    for where, op in operations(document):
        yield f"{where}.{member}", member in op, op.get(member)


def typed(entries: Iterator[tuple[str, bool, Any]], kind: type, *, required: bool, what: str) -> None:
    """Fail when a required member is absent or any present one has another JSON type;
    *not-applicable* when an optional member appears nowhere."""
    __tracebackhide__ = True
    bad, seen = [], 0
    for where, present, value in entries:
        if not present:
            if required:
                bad.append(f"{where} is absent")
            continue
        seen += 1
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            bad.append(f"{where} is a JSON {kind_name(value)}, not {what}")
    if bad:
        violation("; ".join(bad[:5]) + (f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""))
    if not required and not seen:
        not_applicable("no object holds this optional member")


def transports_object(document: Document) -> dict:
    """The top-level transports object, or *untestable* (WOA-4-05 judges it)."""
    value = document.member("transports")
    if not isinstance(value, dict):
        untestable(f"transports is a JSON {kind_name(value)}, not an object (see WOA-4-05)")
    return value


def transport(document: Document, name: str) -> dict:
    """The configuration of transport ``name``: *not-applicable* when the document has none."""
    configs = transports_object(document)
    if name not in configs:
        not_applicable(f"the document configures no {name} transport")
    config = configs[name]
    if not isinstance(config, dict):
        untestable(f"transports.{name} is a JSON {kind_name(config)}, not an object (see WOA-4-05)")
    return config


def fail_all(bad: list[str]) -> None:
    __tracebackhide__ = True
    if bad:
        violation("; ".join(bad[:5]) + (f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""))
