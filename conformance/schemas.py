"""JSON Schema validation of schemas a target gave the kit, with nothing fetched.

A WoA agent's ``inputs``/``outputs`` (and any schema a document carries) come from the target:
a ``$ref`` in them may name any URL. ``jsonschema``'s validators, built the plain way, would
retrieve such a reference over the network (with a deprecation warning) — a request the user
never asked for, to an address a hostile document chose. Every validator the kit builds over
a target's schema comes from :func:`offline_validator`: the 2020-12 meta-schemas are known,
references inside the schema resolve, and any other reference fails as unresolvable. Its
patterns are matched by RE2, never by Python's backtracking ``re`` (see below).
"""

from __future__ import annotations

import re as _re  # only the kit's own fixed patterns: a target's go to RE2 (below)
from functools import lru_cache
from typing import Any

import jsonschema
import jsonschema_specifications
import re2
from referencing.exceptions import Unresolvable

__all__ = ["Unresolvable", "offline_validator", "SchemaUnusable", "PatternNotChecked", "check_schema", "search"]


class SchemaUnusable(ValueError):
    """The schema cannot be used to validate: it is no schema, or a $ref in it does not resolve offline."""


def offline_validator(schema: Any) -> jsonschema.Draft202012Validator:
    """A 2020-12 validator for ``schema`` that never retrieves a remote ``$ref`` and matches every
    pattern in linear time (:data:`LinearValidator`; :class:`PatternNotChecked` from its
    ``iter_errors``/``is_valid`` when a pattern is one the kit does not run)."""
    return LinearValidator(schema, registry=jsonschema_specifications.REGISTRY)


def errors(schema: Any, instance: Any) -> list[jsonschema.ValidationError]:
    """The validation errors of ``instance`` against ``schema``, first by path;
    :class:`SchemaUnusable` when a ``$ref`` does not resolve offline or the schema is broken."""
    try:
        return sorted(offline_validator(schema).iter_errors(instance), key=lambda e: list(e.absolute_path))
    except (Unresolvable, jsonschema.exceptions._WrappedReferencingError) as exc:  # type: ignore[attr-defined]
        raise SchemaUnusable(f"a $ref does not resolve without fetching it: {exc}") from None
    except (jsonschema.exceptions.SchemaError, RecursionError, TypeError) as exc:
        raise SchemaUnusable(f"the schema cannot be used: {exc}") from None


# --- a target's regular expressions, matched in linear time (issue #21) ----------------------
#
# A target's ``pattern``/``patternProperties`` (ECMA-262 syntax) matched with Python's ``re``
# backtracks: ``^(a+)+$`` against "aaaa…!" holds the interpreter, and the run's watchdog never
# runs. Every such pattern is matched by RE2 (linear time) after a small ECMA-262 → RE2
# translation; a pattern RE2 cannot run (lookaround, backreference) is never run with ``re``:
# the check that needed it raises :class:`PatternNotChecked` (the clause is untestable).

NOT_CHECKED = ("the pattern uses a construct (lookahead/backreference) the kit matches only in linear "
               "time: not checked")


class PatternNotChecked(SchemaUnusable):
    """A target's pattern the kit does not run: RE2 cannot compile it (or the string cannot be matched)."""

    def __init__(self, pattern: str, why: str = NOT_CHECKED) -> None:
        super().__init__(f"{why} (pattern {pattern[:120]!r})")
        self.pattern = pattern


#: ECMA-262's WhiteSpace and LineTerminator code points (\s); RE2's \s is ASCII only.
_SPACE = r"\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}"
_UNICODE_ESCAPE = _re.compile(r"\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{4})")
_OPTIONS = re2.Options()
_OPTIONS.log_errors = False
#: RE2 errors that say the pattern is malformed (in ECMA-262 as well), not merely beyond RE2.
_MALFORMED = ("missing )", "missing ]", "unexpected )", "no argument for repetition", "trailing \\")


def translate(pattern: str) -> str:
    """``pattern`` (ECMA-262) in RE2 syntax: \\s as ECMA's white space, \\uXXXX / \\u{X} as
    \\x{X}, \\cX as a control character, ``(?<name>`` as ``(?P<name>``, ``[]``/``[^]`` as the
    empty/full class. Lookarounds and backreferences are left as they are (RE2 refuses them)."""
    out: list[str] = []
    i, n, in_class = 0, len(pattern), False
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            d = pattern[i + 1]
            if d == "s":
                out.append(_SPACE if in_class else f"[{_SPACE}]")
                i += 2
                continue
            if d == "S" and not in_class:
                out.append(f"[^{_SPACE}]")
                i += 2
                continue
            if d == "u":
                m = _UNICODE_ESCAPE.match(pattern, i + 2)
                if m:
                    out.append("\\x{%s}" % (m.group(1) or m.group(2)))
                    i = m.end()
                    continue
            if d == "c" and i + 2 < n and pattern[i + 2].isascii() and pattern[i + 2].isalpha():
                out.append("\\x{%x}" % (ord(pattern[i + 2]) % 32))
                i += 3
                continue
            if d == "/":
                out.append("/")
                i += 2
                continue
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            negated = pattern.startswith("^", i + 1)
            if pattern.startswith("]", i + 1 + negated):  # ECMA: [] matches nothing, [^] anything
                out.append(r"[\x{0}-\x{10ffff}]" if negated else r"[^\x{0}-\x{10ffff}]")
                i += 2 + negated
                continue
            in_class = True
            out.append("[^" if negated else "[")
            i += 1 + negated
            continue
        elif pattern.startswith("(?<", i) and not pattern.startswith(("(?<=", "(?<!"), i):
            out.append("(?P<")
            i += 3
            continue
        out.append(c)
        i += 1
    return "".join(out)


@lru_cache(maxsize=1024)
def _compiled(pattern: str) -> Any:
    """The RE2 program of ``pattern``, or the RE2 error message (a str) when it cannot compile."""
    try:
        return re2.compile(translate(pattern), _OPTIONS)
    except (re2.error, UnicodeEncodeError, ValueError, TypeError) as exc:
        return str(exc.args[0] if exc.args else exc).removeprefix("b'").removesuffix("'") or "error"


def compiles(pattern: str) -> bool:
    """Can the kit run ``pattern`` (in linear time)?"""
    return not isinstance(_compiled(pattern), str)


def malformed(pattern: str) -> str | None:
    """Why ``pattern`` is no regular expression at all (None when it is one, or when RE2 merely
    cannot run it: a lookaround or backreference is not judged)."""
    program = _compiled(pattern)
    if isinstance(program, str) and any(m in program for m in _MALFORMED):
        return program
    return None


def search(pattern: str, text: str) -> bool:
    """Does ``pattern`` (a target's, ECMA-262) match somewhere in ``text``? Linear time;
    :class:`PatternNotChecked` when RE2 cannot run the pattern."""
    program = _compiled(pattern)
    if isinstance(program, str):
        raise PatternNotChecked(pattern)
    try:
        return program.search(text) is not None
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 for RE2 to match
        raise PatternNotChecked(pattern, "the string holds a lone surrogate, which the kit's linear-time "
                                         "matcher cannot read: not checked") from None


def unchecked_patterns(schema: Any, _depth: int = 0) -> list[str]:
    """The patterns (``pattern``, ``patternProperties`` names) anywhere in ``schema`` that the
    kit cannot run in linear time."""
    found: list[str] = []
    if _depth > 200:
        return found
    if isinstance(schema, dict):
        if isinstance(schema.get("pattern"), str) and not compiles(schema["pattern"]):
            found.append(schema["pattern"])
        if isinstance(schema.get("patternProperties"), dict):
            found += [p for p in schema["patternProperties"] if isinstance(p, str) and not compiles(p)]
        for value in schema.values():
            found += unchecked_patterns(value, _depth + 1)
    elif isinstance(schema, list):
        for value in schema:
            found += unchecked_patterns(value, _depth + 1)
    return found


def _pattern(validator: Any, patrn: Any, instance: Any, schema: Any) -> Any:
    if validator.is_type(instance, "string") and isinstance(patrn, str) and not search(patrn, instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {patrn!r}")


def _pattern_properties(validator: Any, patternProperties: Any, instance: Any, schema: Any) -> Any:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patternProperties.items():
        for k, v in instance.items():
            if search(pattern, k):
                yield from validator.descend(v, subschema, path=k, schema_path=pattern)


def _matches_any(schema: Any, key: str) -> bool:
    return any(search(p, key) for p in schema.get("patternProperties", {}))


def _additional_properties(validator: Any, aP: Any, instance: Any, schema: Any) -> Any:
    if not validator.is_type(instance, "object"):
        return
    properties = schema.get("properties", {})
    extras = {k for k in instance if k not in properties and not _matches_any(schema, k)}
    if validator.is_type(aP, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], aP, path=extra)
    elif not aP and extras:
        shown = ", ".join(repr(each) for each in sorted(extras))
        if "patternProperties" in schema:
            patterns = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
            yield jsonschema.ValidationError(f"{shown} do(es) not match any of the regexes: {patterns}")
        else:
            yield jsonschema.ValidationError(f"Additional properties are not allowed ({shown} unexpected)")


def _evaluated_keys(validator: Any, instance: Any, schema: Any) -> list:
    """jsonschema's ``find_evaluated_property_keys_by_schema``, its patterns matched by RE2."""
    if validator.is_type(schema, "boolean"):
        return []
    keys: list = []
    for keyword in ("$ref", "$dynamicRef"):
        ref = schema.get(keyword)
        if ref is not None:
            resolved = validator._resolver.lookup(ref)
            keys += _evaluated_keys(validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
                                    instance, resolved.contents)
    properties = schema.get("properties")
    if validator.is_type(properties, "object"):
        keys += properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if (subschema := schema.get(keyword)) is not None:
            keys += (k for k, v in instance.items() if next(validator.descend(v, subschema), None) is None)
    if "patternProperties" in schema:
        keys += (k for k in instance if _matches_any(schema, k))
    if "dependentSchemas" in schema:
        for name, subschema in schema["dependentSchemas"].items():
            if name in instance:
                keys += _evaluated_keys(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if next(validator.descend(instance, subschema), None) is None:
                keys += _evaluated_keys(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys += _evaluated_keys(validator, instance, schema["if"])
            if "then" in schema:
                keys += _evaluated_keys(validator, instance, schema["then"])
        elif "else" in schema:
            keys += _evaluated_keys(validator, instance, schema["else"])
    return keys


def _unevaluated_properties(validator: Any, unevaluated: Any, instance: Any, schema: Any) -> Any:
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    bad = [k for k in instance if k not in evaluated
           and next(validator.descend(instance[k], unevaluated, path=k, schema_path=k), None) is not None]
    if bad:
        if unevaluated is False:
            yield jsonschema.ValidationError("Unevaluated properties are not allowed "
                                             f"({', '.join(map(repr, sorted(bad, key=str)))} unexpected)")
        else:
            yield jsonschema.ValidationError("Unevaluated properties are not valid under the given schema "
                                             f"({', '.join(map(repr, sorted(bad, key=str)))})")


#: Draft 2020-12, every keyword that matches a regular expression doing so with RE2.
LinearValidator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
    "unevaluatedProperties": _unevaluated_properties,
})

#: The 2020-12 format checker, its ``regex`` format judged without compiling the pattern with ``re``.
_META_FORMATS = jsonschema.FormatChecker(formats=())
_META_FORMATS.checkers = dict(jsonschema.Draft202012Validator.FORMAT_CHECKER.checkers)


@_META_FORMATS.checks("regex")
def _is_regex(instance: Any) -> bool:
    return not isinstance(instance, str) or malformed(instance) is None


def meta_validator() -> Any:
    """The 2020-12 meta-schema's validator, format asserted as ``check_schema`` does, ``regex`` by RE2."""
    return jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA, format_checker=_META_FORMATS)


def check_schema(schema: Any) -> None:
    """``Draft202012Validator.check_schema`` without ``re``: :class:`jsonschema.SchemaError` when
    the meta-schema rejects ``schema``."""
    error = jsonschema.exceptions.best_match(meta_validator().iter_errors(schema))
    if error is not None:
        raise jsonschema.SchemaError.create_from(error)
