"""No regular expression from a target runs unbounded (issue #21 point 1).

A target's ``pattern``/``patternProperties`` is matched by RE2 (linear time) after an ECMA-262
→ RE2 translation (:mod:`conformance.schemas`); a pattern RE2 cannot run (lookaround,
backreference) is reported not checked, never run with Python's backtracking ``re``. A WoA
host whose inputs/outputs schema holds ``^(a+)+$`` beside a long "aaaa…!" value ends with a
clean verdict (``tests.conftest.ends`` is the hang detector, not a speed claim).
"""

from __future__ import annotations

import re

import jsonschema
import pytest

from conformance import schemas
from conformance.woa import inputs as woa_inputs
from conformance.woa import schema_check
from conformance.world.site import Mutant, mutate
from tests.conftest import ends, outcomes, quiet_run
from tests.test_woa_host import DRAFT, _rest_only_site, live

EVIL = "^(a+)+$"
LONG = "a" * 50_000 + "!"


# ------------------------------------------------------------------ the translation


@pytest.mark.parametrize("pattern", [
    r"^[a-z]+$", r"^\d{3}-\d{4}$", r"\w+@\w+\.com", r"^(foo|bar)?baz$", r"^[^\s]+$", r"\s", r"^a.c$",
    r"^\S+$", r"(?<year>\d{4})-(?<month>\d{2})", r"colou?r", r"^[A-Z][a-z]*(?: [A-Z][a-z]*)*$", r"x{2,3}",
    r"\bword\b", r"^\u00e9t\u00e9$", r"^[\u0041-\u005A]+$", r"^https?://", r"a|b|c", r"^$",
])
@pytest.mark.parametrize("text", ["", "abc", "ABC", "123-4567", "a@b.com", "foobaz", "baz", "été", "hello world",
                                  "2024-05", "color", "colour", "xxx", "a word here", "http://x", "aXc", " \t"])
def test_patterns_re2_runs_answer_as_re_does(pattern: str, text: str) -> None:
    assert schemas.compiles(pattern), pattern
    expected = re.search(pattern.replace("(?<", "(?P<"), text) is not None
    assert schemas.search(pattern, text) is expected


def test_ecma_escapes_are_translated() -> None:
    assert schemas.search(r"^\s$", "\u00a0") and schemas.search(r"^\s$", "\u2028")  # ECMA white space
    assert not schemas.search(r"^\S$", "\u3000")
    assert schemas.search(r"^\u{1F600}$", "\U0001F600") and schemas.search(r"^\cJ$", "\n")
    assert schemas.search(r"^a\/b$", "a/b")
    assert not schemas.search(r"[]", "anything") and schemas.search(r"^[^]$", "\n")
    assert not schemas.search(r"^a$", "a\n"), "ECMA's $ without m is the end of the text"


@pytest.mark.parametrize("pattern", [r"^(?=a)a+$", r"^(?!b)\w+$", r"(?<=a)b", r"(?<!a)b", r"^(a)\1$",
                                     r"^(?<x>a)\k<x>$"])
def test_lookarounds_and_backreferences_are_not_checked(pattern: str) -> None:
    assert not schemas.compiles(pattern)
    with pytest.raises(schemas.PatternNotChecked, match="not checked"):
        schemas.search(pattern, "aaa")
    validator = schemas.offline_validator({"type": "string", "pattern": pattern})
    with pytest.raises(schemas.PatternNotChecked, match="lookahead/backreference"):
        list(validator.iter_errors("aaa"))
    with pytest.raises(schemas.PatternNotChecked):
        schemas.offline_validator({"patternProperties": {pattern: {"type": "integer"}}}).is_valid({"aaa": 1})
    # a schema with such a pattern is still a valid schema (format regex is not judged by re) ...
    assert schema_check.problems({"type": "string", "pattern": pattern}) == []
    # ... and the kit says why it builds no input for it, instead of guessing
    why = woa_inputs.why_not({"type": "object", "properties": {"q": {"type": "string", "pattern": pattern}}})
    assert why is not None and "not checked" in why


def test_malformed_patterns_still_fail_the_meta_schema() -> None:
    for pattern in ("(a", "[a", "a)", "*a"):
        assert schema_check.problems({"pattern": pattern}), pattern
        with pytest.raises(jsonschema.SchemaError):
            schemas.check_schema({"patternProperties": {pattern: {}}})
    schemas.check_schema({"pattern": EVIL, "patternProperties": {EVIL: {}}})


@pytest.mark.parametrize("pattern", [EVIL, r"^(a|a)+$", r"^(a|aa)+$", r"^(\w+\s?)*$", r"^(a*)*b$", r"(x+x+)+y"])
def test_catastrophic_patterns_over_long_strings_return(pattern: str) -> None:
    text = LONG if "a" in pattern else "x" * 50_000
    ends(schemas.search, pattern, text, within=60)
    schema = {"type": "object", "properties": {"v": {"pattern": pattern}}, "patternProperties": {pattern: {}},
              "additionalProperties": False, "unevaluatedProperties": False}
    ends(lambda: list(schemas.offline_validator(schema).iter_errors({"v": text, text: 1})), within=60)
    assert ends(schemas.search, EVIL, "a" * 50_000, within=60) is True


def test_keywords_keep_their_meaning() -> None:
    schema = {"type": "object", "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": False}
    v = schemas.offline_validator(schema)
    assert v.is_valid({"x-a": 1}) and not v.is_valid({"x-a": "s"}) and not v.is_valid({"y": 1})
    uneval = {"type": "object", "allOf": [{"patternProperties": {"^x-": True}}], "unevaluatedProperties": False}
    v = schemas.offline_validator(uneval)
    assert v.is_valid({"x-a": 1}) and not v.is_valid({"y": 1})
    assert not schemas.offline_validator({"pattern": "^a+$"}).is_valid("b")
    assert schemas.offline_validator({"pattern": "^a+$"}).is_valid(5)


# ------------------------------------------------------------------ a hostile WoA host


def _evil_host(pattern: str, *, outputs: bool = False):
    patch = [{"op": "add", "path": "/agents/0/inputs/properties/text",
              "value": {"type": "string", "pattern": pattern, "default": LONG, "examples": [LONG]}}]
    if outputs:
        patch.append({"op": "add", "path": "/agents/0/outputs/properties/summary",
                      "value": {"type": "string", "pattern": pattern, "default": LONG}})
    return mutate(_rest_only_site(), Mutant(name="evil-regex", clause=None, summary="evil regex", patch=patch))


@pytest.mark.parametrize("invoke", [False, True], ids=["without-invoke", "with-invoke"])
def test_a_catastrophic_pattern_in_a_hosts_schemas_does_not_stall_the_run(invoke: bool) -> None:
    with live(_evil_host(EVIL, outputs=True)) as reach:
        result = ends(quiet_run, DRAFT, "https://host.adck.test", seed=3, invoke=invoke, run_timeout=120, **reach)
    report = result.report
    assert report is not None and result.exit_code in (0, 1)
    assert not any(r.outcome == "error" for r in report.results), \
        [(r.clause, r.message) for r in report.results if r.outcome == "error"]
    assert outcomes(report)["WOA-4-01"] == "pass"


def test_a_lookahead_in_a_hosts_inputs_is_reported_not_checked() -> None:
    with live(_evil_host(r"^(?=a)(a+)+$")) as reach:
        result = ends(quiet_run, DRAFT, "https://host.adck.test", seed=3, invoke=True, run_timeout=120, **reach)
    report = result.report
    assert report is not None and result.exit_code in (0, 1)
    assert not any(r.outcome == "error" for r in report.results)
    said = [r for r in report.results if "only in linear time: not checked" in (r.message or "")]
    assert said, [(r.clause, r.outcome, r.message) for r in report.results if r.role == "host"]
    assert all(r.outcome in ("untestable", "pass") for r in said)


# ------------------------------------------------------------------ the kit's own patterns


@pytest.mark.parametrize("text", ["a" * 200_000 + "!", "a" * 200_000 + "://" + "b" * 50_000,
                                  ("https://" + "a" * 100) * 500, "password" * 6_000, "ghp_" + "A" * 50_000,
                                  "x" * 25_000 + " " + "y" * 25_000 + "@"])
def test_the_kits_redaction_is_linear_on_long_words(text: str) -> None:
    """Every string of a report goes through :func:`conformance.redact.text`, a target's
    50,000-letter value included: its patterns are tried at every position of a word, so none
    may take time quadratic in a word's length: at 200,000 letters a quadratic pattern takes
    minutes, a linear one a fraction of a second (hang detector, not a speed claim)."""
    from conformance import redact

    ends(redact.text, text, within=60)
    ends(redact.url, "https://" + text, within=60)
    assert redact.text("abc0123https://u:p@evil.test/") == "abc0123https://evil.test/"
