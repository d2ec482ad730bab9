"""Inputs for a WoA agent, built from its own ``inputs`` JSON Schema (4.2, 5.1).

The kit invokes a host's agents with inputs it builds from the schema the host published,
so that a rejection can only be the host's fault. The API is small and pure (no network,
no pytest), so the host role, the MCP transport and the client role share it:

* ``valid_inputs(schema, seed, n)``: up to ``n`` distinct JSON objects that the schema
  accepts: the smallest one (required members at their lower bounds) first, then one with
  every known member at its upper bounds, then random ones. Every value is checked with
  ``jsonschema``'s Draft 2020-12 validator before it is returned, so an input the kit cannot
  prove valid is never offered as valid.
* ``invalid_inputs(schema, seed, n)``: up to ``n`` ``(way, value)`` pairs that the schema
  rejects, one per way: a required member missing, a member of the wrong type, a value out
  of range (below ``minimum``, above ``maximum``, at an exclusive bound, a string too short or
  too long, a value outside ``enum``, an array with too few or too many items). Each is
  checked to be rejected by the validator.
* ``why_not(schema)``: why no valid input could be built (or None), for an *untestable* reason.

Understood keywords (the subset 4.2 requires clients to support, and the common value types):
``type`` (one or a list), ``properties``, ``required``, ``additionalProperties: false``,
``enum``, ``const``, ``default``, ``examples``, ``minLength``/``maxLength``,
``minimum``/``maximum``/``exclusiveMinimum``/``exclusiveMaximum``/``multipleOf``,
``items``/``minItems``/``maxItems``, nested objects and arrays. Other keywords (``format``,
``pattern``, ``oneOf``, ``$ref``, ...) are ignored while building, as 4.2 tells clients to do
with keywords they do not understand; the validator then keeps only the values the whole
schema accepts. Everything is driven by ``random.Random(seed)``: the same seed gives the
same inputs (a report's seed replays them). ``strategy(schema)`` wraps ``valid_inputs`` as a
hypothesis strategy for property tests.
"""

from __future__ import annotations

import copy
import json
import math
import random
from typing import Any

__all__ = ["valid_inputs", "invalid_inputs", "why_not", "validator", "accepts", "strategy"]

_TYPES = ("string", "integer", "number", "boolean", "null", "array", "object")
_WORDS = ("alpha", "beta", "gamma", "delta", "IETF", "agent", "résumé", "数据", "x")
#: How deep the builder follows nested schemas.
_DEPTH = 6
#: The longest string and the most array items the kit builds: a hostile schema may ask for
#: minLength 10**12; such a value is not built (the input is one the kit cannot make).
MAX_STRING = 64 * 1024
MAX_ITEMS = 1000


def validator(schema: Any):
    """A Draft 2020-12 validator of ``schema`` (format is an annotation, not asserted) that
    never fetches a remote ``$ref`` (:mod:`conformance.schemas`): the schema is the target's."""
    from conformance.schemas import offline_validator

    return offline_validator(schema)


def accepts(schema: Any, value: Any) -> bool:
    """Does ``schema`` accept ``value`` (False when the schema is unusable)?"""
    return _accepts(schema, value)


def _accepts(schema: Any, value: Any) -> bool:
    try:
        return validator(schema).is_valid(value)
    except Exception:  # noqa: BLE001 - a schema the validator cannot use proves nothing
        return False


def _rejects(schema: Any, value: Any) -> bool:
    """Is ``value`` proven invalid (False when the validator cannot say: a pattern the kit does
    not run, an unusable schema)?"""
    try:
        return not validator(schema).is_valid(value)
    except Exception:  # noqa: BLE001 - a schema the validator cannot use proves nothing
        return False


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _types(schema: dict) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind] if kind in _TYPES else []
    if isinstance(kind, list):
        return [k for k in kind if k in _TYPES]
    if isinstance(schema.get("properties"), dict) or isinstance(schema.get("required"), list):
        return ["object"]
    if "items" in schema or "minItems" in schema:
        return ["array"]
    if "minLength" in schema or "maxLength" in schema:
        return ["string"]
    if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")):
        return ["number"]
    return ["string", "integer", "boolean"]


def _num(schema: dict, name: str) -> float | None:
    value = schema.get(name)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) else None


def _bounds(schema: dict, integer: bool) -> tuple[float, float]:
    lo, hi = _num(schema, "minimum"), _num(schema, "maximum")
    xlo, xhi = _num(schema, "exclusiveMinimum"), _num(schema, "exclusiveMaximum")
    step = 1 if integer else 0.5
    if xlo is not None:
        lo = max(lo, xlo + step) if lo is not None else xlo + step
    if xhi is not None:
        hi = min(hi, xhi - step) if hi is not None else xhi - step
    if integer:
        lo = math.ceil(lo) if lo is not None else None
        hi = math.floor(hi) if hi is not None else None
    lo = lo if lo is not None else (hi - 100 if hi is not None else -1000)
    hi = hi if hi is not None else lo + 1000
    return lo, hi


def _number(schema: dict, rng: random.Random, integer: bool, mode: str) -> Any:
    lo, hi = _bounds(schema, integer)
    if mode == "low":
        value = lo
    elif mode == "high":
        value = hi
    else:
        value = rng.randint(int(lo), int(hi)) if integer and hi - lo < 1e12 else rng.uniform(lo, hi)
    multiple = _num(schema, "multipleOf")
    if multiple and multiple > 0:
        value = math.ceil(lo / multiple) * multiple if mode == "low" else math.floor(value / multiple) * multiple
    return int(value) if integer else float(value)


def _string(schema: dict, rng: random.Random, mode: str) -> str:
    lo = schema.get("minLength") if isinstance(schema.get("minLength"), int) else 0
    hi = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else max(lo, 40)
    lo, hi = max(lo, 0), min(max(hi, 0), MAX_STRING)
    lo = min(lo, MAX_STRING)  # past the cap the value does not validate, and the input is not sent
    if mode == "low":
        size = lo if lo > 0 else min(1, hi)
    elif mode == "high":
        size = min(hi, max(lo, 200))
    else:
        size = rng.randint(lo, min(hi, lo + 60))
    text = ""
    while len(text) < size:
        text += rng.choice(_WORDS) + " "
    return text[:size]


def _build(schema: Any, rng: random.Random, mode: str, depth: int = 0) -> Any:
    """One value for ``schema`` (``mode``: "low", "high" or "random"); may not validate."""
    if schema is True or not isinstance(schema, dict):
        return rng.choice(["x", 1, True]) if mode == "random" else "x"
    if "const" in schema:
        return copy.deepcopy(schema["const"])
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        choices = schema["enum"]
        pick = choices[0] if mode == "low" else choices[-1] if mode == "high" else rng.choice(choices)
        return copy.deepcopy(pick)
    if mode == "low" and "default" in schema:
        return copy.deepcopy(schema["default"])
    if mode == "high" and isinstance(schema.get("examples"), list) and schema["examples"]:
        return copy.deepcopy(schema["examples"][0])
    types = [t for t in _types(schema) if t != "null"] or _types(schema) or ["string"]
    kind = types[0] if mode != "random" else rng.choice(types)
    if depth > _DEPTH and kind in ("object", "array"):
        kind = "null" if "null" in _types(schema) else kind
    if kind == "object":
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        required = [r for r in schema.get("required", []) if isinstance(r, str)] \
            if isinstance(schema.get("required"), list) else []
        names = list(required)
        optional = [p for p in props if p not in required]
        if mode == "high":
            names += optional
        elif mode == "random":
            names += [p for p in optional if rng.random() < 0.5]
        return {name: _build(props.get(name, {}), rng, mode, depth + 1) for name in names}
    if kind == "array":
        lo = schema.get("minItems") if isinstance(schema.get("minItems"), int) else 0
        hi = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else max(lo, 4)
        lo, hi = min(max(lo, 0), MAX_ITEMS), min(max(hi, 0), MAX_ITEMS)
        size = lo if mode == "low" else min(hi, max(lo, 4)) if mode == "high" else rng.randint(lo, max(lo, min(hi, lo + 4)))
        items = schema.get("items", {})
        return [_build(items, rng, mode, depth + 1) for _ in range(max(size, 0))]
    if kind == "string":
        return _string(schema, rng, mode)
    if kind in ("integer", "number"):
        return _number(schema, rng, kind == "integer", mode)
    if kind == "boolean":
        return mode != "low" if mode != "random" else rng.random() < 0.5
    return None


def why_not(schema: Any) -> str | None:
    """Why the kit cannot build an input for ``schema`` (None when it can)."""
    if not isinstance(schema, dict):
        return f"the inputs schema is a JSON {type(schema).__name__}, not an object"
    from conformance.schemas import NOT_CHECKED, check_schema, unchecked_patterns

    try:
        check_schema(schema)  # format: regex by RE2, never a target's pattern compiled with re
    except Exception as exc:  # noqa: BLE001
        return f"the inputs schema is not a valid JSON Schema ({str(exc).splitlines()[0][:200]})"
    if found := unchecked_patterns(schema):
        return f"{NOT_CHECKED} (pattern {found[0][:120]!r})"
    if not valid_inputs(schema, 0, 1):
        return ("no JSON object the kit built from the schema's type, properties, required and value "
                "keywords is accepted by the whole schema (it uses keywords the kit ignores)")
    return None


def valid_inputs(schema: Any, seed: int, n: int = 3) -> list[dict]:
    """Up to ``n`` distinct JSON objects ``schema`` accepts, each proven by the validator."""
    if not isinstance(schema, dict) or n <= 0:
        return []
    rng = random.Random(seed)
    found: dict[str, dict] = {}
    for attempt in range(20 * n + 2):
        mode = "low" if attempt == 0 else "high" if attempt == 1 else "random"
        value = _build(schema, rng, mode)
        if isinstance(value, dict) and _key(value) not in found and _accepts(schema, value):
            found[_key(value)] = value
            if len(found) == n:
                break
    return list(found.values())


_NO_VALUE = object()


def _wrong_type(schema: dict) -> Any:
    """A value of a type ``schema``'s ``type`` does not allow (``_NO_VALUE`` when it has no type
    or allows every type)."""
    allowed = set(_types(schema)) if "type" in schema else set()
    if not allowed:
        return _NO_VALUE
    for kind, value in (("string", "text"), ("integer", 7), ("boolean", False), ("array", [1]),
                        ("object", {"k": 1}), ("null", None), ("number", 7.5)):
        if kind in allowed or (kind == "integer" and "number" in allowed):
            continue
        return value
    return _NO_VALUE


def _out_of_range(schema: dict) -> list[tuple[str, Any]]:
    """Values just outside the schema's bounds, each with what it breaks."""
    out: list[tuple[str, Any]] = []
    kinds = set(_types(schema))
    integer = "integer" in kinds and "number" not in kinds
    step = 1 if integer else 0.5
    for name, delta, label in (("minimum", -step, "below minimum"), ("maximum", step, "above maximum")):
        bound = _num(schema, name)
        if bound is not None:
            out.append((f"{label} {bound}", (int(bound) if integer and bound == int(bound) else bound) + delta))
    for name, label in (("exclusiveMinimum", "at exclusiveMinimum"), ("exclusiveMaximum", "at exclusiveMaximum")):
        bound = _num(schema, name)
        if bound is not None:
            out.append((f"{label} {bound}", int(bound) if integer and bound == int(bound) else bound))
    if isinstance(schema.get("minLength"), int) and 0 < schema["minLength"] <= MAX_STRING:
        out.append((f"shorter than minLength {schema['minLength']}", "x" * (schema["minLength"] - 1)))
    if isinstance(schema.get("maxLength"), int) and 0 <= schema["maxLength"] < MAX_STRING:
        out.append((f"longer than maxLength {schema['maxLength']}", "y" * (schema["maxLength"] + 1)))
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        out.append(("outside enum", "zz-not-in-enum" if all(e != "zz-not-in-enum" for e in schema["enum"]) else 0))
    if "const" in schema:
        out.append(("not the const", "zz-not-the-const" if schema["const"] != "zz-not-the-const" else 0))
    items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
    if isinstance(schema.get("minItems"), int) and schema["minItems"] > 0:
        out.append((f"fewer than minItems {schema['minItems']}", []))
    if isinstance(schema.get("maxItems"), int) and 0 <= schema["maxItems"] < MAX_ITEMS:
        filler = valid_value(items, 0)
        out.append((f"more than maxItems {schema['maxItems']}", [filler] * (schema["maxItems"] + 1)))
    return out


def valid_value(schema: Any, seed: int) -> Any:
    """A single value ``schema`` accepts (any JSON type), or None when the kit finds none."""
    rng = random.Random(seed)
    for attempt in range(12):
        value = _build(schema, rng, "low" if attempt == 0 else "random")
        if _accepts(schema if isinstance(schema, (dict, bool)) else {}, value):
            return value
    return None


def invalid_inputs(schema: Any, seed: int, n: int = 3) -> list[tuple[str, dict]]:
    """Up to ``n`` ``(way, value)`` pairs the schema rejects: a valid input changed in one
    place (a required member removed, a member of the wrong type, a value out of range),
    each proven invalid by the validator. Ways are spread: one of each kind first."""
    bases = valid_inputs(schema, seed, 2)
    if not bases or n <= 0:
        return []
    base = bases[-1]  # every known member present: the most places to break
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = [r for r in schema.get("required", []) if isinstance(r, str)] \
        if isinstance(schema.get("required"), list) else []
    by_kind: dict[str, list[tuple[str, dict]]] = {"missing": [], "type": [], "range": []}
    for name in required:
        if name in base:
            value = {k: v for k, v in base.items() if k != name}
            by_kind["missing"].append((f"required member {name!r} missing", value))
    for name, sub in props.items():
        if not isinstance(sub, dict):
            continue
        wrong = _wrong_type(sub)
        if wrong is not _NO_VALUE:
            by_kind["type"].append((f"member {name!r} of the wrong type ({type(wrong).__name__})",
                                    {**base, name: wrong}))
        for label, value in _out_of_range(sub):
            by_kind["range"].append((f"member {name!r} {label}", {**base, name: value}))
    if schema.get("additionalProperties") is False:
        extra = "zz_not_declared"
        if extra not in props:
            by_kind["range"].append(("a member additionalProperties false forbids", {**base, extra: 1}))
    rng = random.Random(seed)
    for ways in by_kind.values():
        rng.shuffle(ways)
    out: list[tuple[str, dict]] = []
    seen: set[str] = set()
    while len(out) < n and any(by_kind.values()):
        for kind in ("missing", "type", "range"):
            while by_kind[kind]:
                way, value = by_kind[kind].pop()
                if _key(value) in seen or not _rejects(schema, value):
                    continue
                seen.add(_key(value))
                out.append((way, value))
                break
            if len(out) == n:
                break
    return out


def strategy(schema: Any):
    """A hypothesis strategy of inputs ``schema`` accepts (each one validated), for property
    tests: a seed is drawn and ``valid_inputs`` builds from it."""
    from hypothesis import strategies as st

    return st.integers(0, 2**32 - 1).map(lambda s: valid_inputs(schema, s, 1)).filter(bool).map(lambda v: v[0])
