"""JSON Schema validation of schemas a target gave the kit, with nothing fetched.

A WoA agent's ``inputs``/``outputs`` (and any schema a document carries) come from the target:
a ``$ref`` in them may name any URL. ``jsonschema``'s validators, built the plain way, would
retrieve such a reference over the network (with a deprecation warning) — a request the user
never asked for, to an address a hostile document chose. Every validator the kit builds over
a target's schema comes from :func:`offline_validator`: the 2020-12 meta-schemas are known,
references inside the schema resolve, and any other reference fails as unresolvable.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import jsonschema_specifications
from referencing.exceptions import Unresolvable

__all__ = ["Unresolvable", "offline_validator", "SchemaUnusable"]


class SchemaUnusable(ValueError):
    """The schema cannot be used to validate: it is no schema, or a $ref in it does not resolve offline."""


def offline_validator(schema: Any) -> jsonschema.Draft202012Validator:
    """A 2020-12 validator for ``schema`` that never retrieves a remote ``$ref``."""
    return jsonschema.Draft202012Validator(schema, registry=jsonschema_specifications.REGISTRY)


def errors(schema: Any, instance: Any) -> list[jsonschema.ValidationError]:
    """The validation errors of ``instance`` against ``schema``, first by path;
    :class:`SchemaUnusable` when a ``$ref`` does not resolve offline or the schema is broken."""
    try:
        return sorted(offline_validator(schema).iter_errors(instance), key=lambda e: list(e.absolute_path))
    except (Unresolvable, jsonschema.exceptions._WrappedReferencingError) as exc:  # type: ignore[attr-defined]
        raise SchemaUnusable(f"a $ref does not resolve without fetching it: {exc}") from None
    except (jsonschema.exceptions.SchemaError, RecursionError, TypeError) as exc:
        raise SchemaUnusable(f"the schema cannot be used: {exc}") from None
