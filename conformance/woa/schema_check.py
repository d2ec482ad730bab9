"""Is a JSON value a valid JSON Schema 2020-12 document? (WOA-4.2-01, AMB-18, AMB-25)

Offline only: the 2020-12 meta-schemas come with the ``jsonschema`` package; nothing is
fetched. A schema fails when the meta-schema rejects it (``Draft202012Validator.check_schema``;
format assertions, which 2020-12 makes annotations only, are not held against it), when its
``$schema`` names another dialect, or when a ``$ref`` that points inside the document (a
fragment, or a resource it embeds with ``$id``) does not resolve. A ``$ref`` to any other
resource is not fetched and not failed (AMB-25).
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import Any, Iterator
from urllib.parse import urljoin, urldefrag

import jsonschema
import jsonschema_specifications
from referencing.exceptions import InvalidAnchor, NoSuchAnchor, PointerToNowhere, Unresolvable
from referencing.jsonschema import DRAFT202012

from conformance.schemas import check_schema, meta_validator

DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: Where a schema without an $id is taken to live (never fetched).
ROOT = "urn:adck:woa:schema"

_ONE = ("additionalProperties", "contains", "contentSchema", "else", "if", "items", "not",
        "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties")
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems")
_MAP = ("$defs", "definitions", "dependentSchemas", "patternProperties", "properties")


@cache
def _meta_validator() -> jsonschema.Draft202012Validator:
    # format: regex judged by RE2, never by compiling a target's pattern with re (issue #21)
    return meta_validator()


def _subschemas(schema: Any, base: str) -> Iterator[tuple[dict, str]]:
    """Every object subschema in a schema position, with its base URI."""
    if not isinstance(schema, dict):
        return
    if isinstance(schema.get("$id"), str):
        base = urljoin(base, schema["$id"])
    yield schema, base
    for key in _ONE:
        yield from _subschemas(schema.get(key), base)
    for key in _MANY:
        if isinstance(schema.get(key), list):
            for s in schema[key]:
                yield from _subschemas(s, base)
    for key in _MAP:
        if isinstance(schema.get(key), dict):
            for s in schema[key].values():
                yield from _subschemas(s, base)


class TooDeep(Exception):
    """The schema is nested deeper than the kit's checkers go: it cannot be judged either way."""


def problems(schema: Any) -> list[str]:
    """Why ``schema`` is not a valid JSON Schema 2020-12 document (empty when it is);
    :class:`TooDeep` when it is nested too deeply to check."""
    try:
        key = json.dumps(schema, sort_keys=True)
    except (RecursionError, ValueError):
        raise TooDeep("the schema is nested too deeply for the kit's JSON Schema checker") from None
    try:
        return list(_cached(key))
    except RecursionError:
        raise TooDeep("the schema is nested too deeply for the kit's JSON Schema checker") from None


@lru_cache(maxsize=4096)
def _cached(key: str) -> tuple[str, ...]:
    """Documents often repeat one schema: each distinct schema is checked once."""
    return tuple(_problems(json.loads(key)))


def _problems(schema: Any) -> list[str]:
    try:
        check_schema(schema)
    except jsonschema.SchemaError:
        errors = sorted(_meta_validator().iter_errors(schema), key=lambda e: list(e.absolute_path))
        if errors:
            e = errors[0]
            where = "/".join(map(str, e.absolute_path)) or "the root"
            return [f"the 2020-12 meta-schema rejects it at {where}: {e.message[:200]}"]
    if not isinstance(schema, dict):
        return []
    found = []
    dialect = schema.get("$schema")
    if isinstance(dialect, str) and dialect.rstrip("#") != DIALECT:
        found.append(f"its $schema is {dialect!r}, another dialect than 2020-12")
    try:
        resource = DRAFT202012.create_resource(schema)
        registry = jsonschema_specifications.REGISTRY.with_resource(ROOT, resource).crawl()
    except Exception as exc:  # an $id the referencing library cannot use
        return found + [f"its $id cannot be used: {exc}"]
    for sub, base in _subschemas(schema, ROOT):
        ref = sub.get("$ref")
        if not isinstance(ref, str):
            continue
        try:
            registry.resolver(base).lookup(ref)
        except (PointerToNowhere, NoSuchAnchor, InvalidAnchor) as exc:
            found.append(f"its $ref {ref!r} resolves to nothing in the document ({type(exc).__name__})")
        except Unresolvable:
            target = urldefrag(urljoin(base, ref))[0]
            if target in (ROOT, urldefrag(base)[0]):
                found.append(f"its $ref {ref!r} resolves to nothing in the document")
            # any other resource is not fetched and not judged (AMB-25)
    return found
