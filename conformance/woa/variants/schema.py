"""Broken WoA clients: §4.1 (agents are per origin, descriptions are data) and §4.2 (building an
input from a JSON Schema)."""

from __future__ import annotations

import re
from typing import Any

from conformance.woa.reference_client import ReferenceWoaClient


class EveryValueAString(ReferenceWoaClient):
    """4.2: fills every required property with a string, whatever its type."""

    def value_for(self, schema: dict, depth: int) -> Any:
        if schema.get("type") in ("object", "array") or "const" in schema or "enum" in schema:
            return super().value_for(schema, depth)
        return "x"


class SkipsNestedRequired(ReferenceWoaClient):
    """4.2: fills the root's required properties, but a nested object is sent empty."""

    def object_for(self, schema: dict, depth: int) -> dict:
        return super().object_for(schema, depth) if depth == 0 else {}


#: Keywords the narrow-minded variants know.
_CORE = {"type", "properties", "required", "$schema", "description", "title", "items", "enum", "const", "default",
         "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "additionalProperties"}


def _keywords(schema: Any) -> set[str]:
    if isinstance(schema, list):
        return set().union(*(_keywords(s) for s in schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    out = set(schema)
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):
            out |= set().union(*(_keywords(v) for v in value.values())) if value else set()
        elif key in ("items", "allOf", "anyOf", "oneOf", "not"):
            out |= _keywords(value)
    return out


class RefusesCombinators(ReferenceWoaClient):
    """4.2: refuses an agent whose inputs use allOf, anyOf or oneOf anywhere."""

    def understands(self, schema: Any) -> bool:
        return super().understands(schema) and not (_keywords(schema) & {"allOf", "anyOf", "oneOf"})


class RefusesUnknownKeywords(ReferenceWoaClient):
    """4.2: refuses an agent whose inputs use a keyword outside a small core (format, x-...)."""

    def understands(self, schema: Any) -> bool:
        return super().understands(schema) and _keywords(schema) <= _CORE | {"allOf", "anyOf", "oneOf"}


class RemembersSchemaByAgentId(ReferenceWoaClient):
    """4.1: keeps the first inputs schema it saw for an agent id, on every origin."""

    def inputs_schema(self, agent: dict, operation: str | None) -> Any:
        known: dict = self.__dict__.setdefault("_schemas", {})
        return known.setdefault((agent.get("id"), operation), super().inputs_schema(agent, operation))


class RemembersUrlByAgentId(ReferenceWoaClient):
    """4.1: keeps the first invocation URL it built for an agent id, on every origin."""

    def invocation_url(self, document: dict, agent: dict, transport: str) -> str:
        known: dict = self.__dict__.setdefault("_urls", {})
        return known.setdefault(agent.get("id"), super().invocation_url(document, agent, transport))


_INSTEAD = re.compile(r"[Ii]nvoke the agent '([A-Za-z0-9_-]+)' instead")
_URL = re.compile(r"https://[A-Za-z0-9.-]+(?::\d+)?/[^\s'\"]*")


class ObeysDescriptionAgent(ReferenceWoaClient):
    """4.1: an agent's description that says to invoke another agent instead is obeyed."""

    def find_agent(self, document: dict, agent_id: str) -> dict:
        agent = super().find_agent(document, agent_id)
        m = _INSTEAD.search(str(agent.get("description", "")))
        return super().find_agent(document, m.group(1)) if m else agent


def mapped(client: ReferenceWoaClient, url: str) -> bool:
    """Whether the harness maps ``url``'s host to the kit's world (the broken variants that
    fetch what a host names never reach anything else)."""
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    return any(m.host == host for m in client.http.connect_to)


class FollowsDescriptionUrls(ReferenceWoaClient):
    """4.1: POSTs the input to URLs that agents' descriptions name (as they ask)."""

    def after_discovery(self, origin: str, document: dict) -> None:
        for agent in document.get("agents", []):
            for url in _URL.findall(str(agent.get("description", "")) if isinstance(agent, dict) else ""):
                if mapped(self, url):
                    self.fetcher("invoke").fetch(url, method="POST", content=b"{}",
                                                 headers={"Content-Type": "application/json"})


class BuildsFromPropertiesOnly(ReferenceWoaClient):
    """4.2: fills only the required properties that properties describes."""

    def object_for(self, schema: dict, depth: int) -> dict:
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        return {k: v for k, v in super().object_for(schema, depth).items() if k in props}


class DottedNamesAsPaths(ReferenceWoaClient):
    """4.2: reads a property name with dots as a path (a.b is the member b of a member a)."""

    def object_for(self, schema: dict, depth: int) -> dict:
        out: dict = {}
        for name, value in super().object_for(schema, depth).items():
            *parents, last = name.split(".")
            node = out
            for p in parents:
                node = node.setdefault(p, {})
            node[last] = value
        return out


class IgnoresNumericBounds(ReferenceWoaClient):
    """5.1: builds 1 for an integer and 1.5 for a number, whatever their bounds."""

    def number_for(self, schema: dict, integer: bool) -> int | float:
        return 1 if integer else 1.5


class ExclusiveBoundsAsInclusive(ReferenceWoaClient):
    """5.1: reads exclusiveMinimum and exclusiveMaximum as minimum and maximum."""

    def number_for(self, schema: dict, integer: bool) -> int | float:
        schema = dict(schema)
        for exclusive, inclusive in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if exclusive in schema:
                schema[inclusive] = schema.pop(exclusive)
        return super().number_for(schema, integer)


class RoundsNumbers(ReferenceWoaClient):
    """5.1: rounds every number it builds to an integer."""

    def number_for(self, schema: dict, integer: bool) -> int | float:
        return round(super().number_for(schema, integer))


VARIANTS = {
    "builds-from-properties-only": BuildsFromPropertiesOnly,
    "dotted-names-as-paths": DottedNamesAsPaths,
    "ignores-numeric-bounds": IgnoresNumericBounds,
    "exclusive-bounds-as-inclusive": ExclusiveBoundsAsInclusive,
    "rounds-numbers": RoundsNumbers,
    "every-value-a-string": EveryValueAString,
    "skips-nested-required": SkipsNestedRequired,
    "refuses-combinators": RefusesCombinators,
    "refuses-unknown-keywords": RefusesUnknownKeywords,
    "remembers-schema-by-agent-id": RemembersSchemaByAgentId,
    "remembers-url-by-agent-id": RemembersUrlByAgentId,
    "obeys-description-agent": ObeysDescriptionAgent,
    "follows-description-urls": FollowsDescriptionUrls,
}
