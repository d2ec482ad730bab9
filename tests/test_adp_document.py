"""Properties of the adp document-role suite (an Agent Metadata object, Discovery Request,
Discovery Response or error object on its own), over generated objects and the draft's own
examples.

A valid object of each kind fails nothing; an object broken one named way for one clause fails
that clause and no other (besides the declared IMPLIED ones); every document-role MUST and
SHOULD the suite tests has such breaks; the kit's JSON Schemas agree with the suite on the
MUST-level structure (checked with the kit's offline validator); and the objects the draft
itself shows fail no MUST, the D0 example of 9.1 included.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from conformance import catalog, schemas
from conformance.adp._kinds import Kind, kind_of
from conformance.adp.oracle import document_tests, explain, failing, judge
from conformance.adp.strategies import (BYTE_MUTATIONS, IMPLIED, MUTATIONS, VALID, documents, named_breaks,
                                        serialized)
from conformance.document import Document
from conformance.oracle import as_document
from conformance.resources import fixtures_dir, profile_dir
from tests.conftest import named_ways

DRAFT = "adp"
PROFILE = catalog.load(DRAFT)
FIXTURES = fixtures_dir(DRAFT)
REFERENCE = FIXTURES / "document.json"
OTHERS = {"request": FIXTURES / "documents" / "discovery-request.json",
          "response": FIXTURES / "documents" / "discovery-response.json",
          "error": FIXTURES / "documents" / "error.json"}
SCHEMA_FILES: dict[Kind, str] = {"metadata": "agent-metadata", "request": "discovery-request",
                                 "response": "discovery-response", "error": "error"}

PROPERTY = settings(deadline=None, database=None, max_examples=60,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])
#: About 180 named ways, each run on its own: a few examples each.
PER_WAY = settings(PROPERTY, max_examples=6)

WAYS = named_ways(MUTATIONS)
BYTE_WAYS = named_ways(BYTE_MUTATIONS)


def kind_of_clause(clause_id: str) -> Kind:
    """The object a document clause speaks of, by its section (AMB-26)."""
    section = PROFILE.clause(clause_id).section
    return "request" if section.startswith("5") else "response" if section.startswith("6") else \
        "error" if section == "8" else "metadata"


@functools.cache
def _schema(kind: Kind) -> dict:
    path = profile_dir(DRAFT) / "schemas" / f"{SCHEMA_FILES[kind]}.schema.json"
    schema = json.loads(path.read_text("utf-8"))
    Draft202012Validator.check_schema(schema)
    return schema


def schema_ok(kind: Kind, value: Any) -> bool:
    """Does the kit's JSON Schema of ``kind`` accept ``value``? (the offline validator only)"""
    return not schemas.errors(_schema(kind), value)


def _base(clause_id: str) -> st.SearchStrategy[Any]:
    # a mutation of another kind draws its own valid object: no metadata is needed
    return documents() if kind_of_clause(clause_id) == "metadata" else st.none()


# ------------------------------------------------------------------ the mutation tables
def test_every_tested_must_and_should_of_the_document_has_a_break() -> None:
    tested = {cid for cid in document_tests() if PROFILE.clause(cid).level in ("MUST", "SHOULD")}
    assert tested == MUTATIONS.keys() | BYTE_MUTATIONS.keys(), (
        f"no break for {sorted(tested - MUTATIONS.keys() - BYTE_MUTATIONS.keys())}; breaks for clauses not "
        f"tested at MUST/SHOULD: {sorted((MUTATIONS.keys() | BYTE_MUTATIONS.keys()) - tested)}")
    assert all(IMPLIED[c] <= tested and c[0] not in IMPLIED[c] for c in IMPLIED)
    from conformance import proofs

    breaks = named_breaks()
    for cid in tested:
        ways = list(MUTATIONS.get(cid, {})) + list(BYTE_MUTATIONS.get(cid, {}))
        assert breaks[cid] == tuple(ways) and len(set(ways)) == len(ways) >= proofs.floor(PROFILE, cid), (cid, ways)


# ------------------------------------------------------------------ valid objects
def test_reference_document_fails_nothing() -> None:
    verdict = judge(REFERENCE.read_bytes())
    metadata = {c for c in verdict if kind_of_clause(c) == "metadata"}
    assert {c for c in metadata if verdict[c] != "pass"} == set(), explain(REFERENCE.read_bytes())
    assert {verdict[c] for c in verdict.keys() - metadata} == {"not-applicable"}
    assert schema_ok("metadata", json.loads(REFERENCE.read_bytes()))


@pytest.mark.parametrize("kind", sorted(OTHERS))
def test_reference_objects_of_the_other_kinds_fail_nothing(kind: Kind) -> None:
    raw = OTHERS[kind].read_bytes()
    assert kind_of(as_document(raw)) == kind
    verdict = judge(raw)
    own = {c for c in verdict if kind_of_clause(c) == kind}
    assert {c for c in own if verdict[c] != "pass"} == set(), explain(raw)
    assert {verdict[c] for c in verdict.keys() - own} == {"not-applicable"}
    assert schema_ok(kind, json.loads(raw))


def test_a_conforming_but_unusual_metadata_object_fails_nothing() -> None:
    """A registry-local id, an endpoint reference that is no URI, priority 3.0, empty tags and
    examples, an RFC 7231 date in updated_at, a Japanese description: all allowed."""
    raw = (FIXTURES / "documents" / "metadata-unusual.json").read_bytes()
    verdict = judge(raw)
    assert set(verdict.values()) <= {"pass", "not-applicable"}, explain(raw)
    assert verdict["ADP-3.3-01"] == verdict["ADP-4.5-08"] == verdict["ADP-4.3-01"] == "pass"
    assert schema_ok("metadata", json.loads(raw))


#: Conforming documents that settle a reading (fixtures/adp/documents): each is an object the
#: draft allows that an earlier reading failed; the clauses it must pass.
DOCUMENT_READINGS = {
    # an agent card mapped into the profile that kept the card's own Name, a binding's Protocol
    # and an example's Language beside the defined members: unknown members (AMB-28)
    "metadata-card-fields-kept.json": ["ADP-4.1-24", "ADP-4.1-03", "ADP-4.5-01"],
}


@pytest.mark.parametrize("name", sorted(DOCUMENT_READINGS))
def test_a_conforming_reading_document_fails_nothing(name: str) -> None:
    raw = (FIXTURES / "documents" / name).read_bytes()
    verdict = judge(raw)
    assert set(verdict.values()) <= {"pass", "not-applicable"}, explain(raw)
    assert {cid: verdict[cid] for cid in DOCUMENT_READINGS[name]} == dict.fromkeys(DOCUMENT_READINGS[name], "pass")
    assert schema_ok(kind_of(as_document(raw)), json.loads(raw))


@pytest.mark.parametrize("kind", sorted(VALID))
@PROPERTY
@given(data=st.data())
def test_valid_objects_fail_nothing(kind: Kind, data: st.DataObject) -> None:
    doc = data.draw(VALID[kind](), label=kind)
    assert kind_of(as_document(doc)) == kind
    verdict = judge(doc)
    assert set(verdict.values()) <= {"pass", "not-applicable"}, explain(doc)
    assert {verdict[c] for c in verdict if kind_of_clause(c) != kind} <= {"not-applicable"}
    assert schema_ok(kind, doc)


@settings(PROPERTY, max_examples=20)
@given(st.data())
def test_valid_objects_fail_nothing_in_any_json_spelling(data: st.DataObject) -> None:
    """White space, escaped non-ASCII and a UTF-8 byte order mark change nothing (AMB-27)."""
    kind = data.draw(st.sampled_from(sorted(VALID)), label="kind")
    body = data.draw(serialized(data.draw(VALID[kind](), label="object")), label="serialized").encode("utf-8")
    if data.draw(st.booleans(), label="byte order mark"):
        body = b"\xef\xbb\xbf" + body
    assert failing(body) == set(), explain(body)


def test_cut_at_the_read_cap_is_untestable_not_failed() -> None:
    body = REFERENCE.read_bytes()
    verdict = judge(Document(raw=body[: len(body) // 2], source="<cut>", truncated=True))
    assert "fail" not in verdict.values(), verdict
    assert verdict["ADP-4.1-01"] == "untestable"


@pytest.mark.parametrize(("value", "kind"), [
    ({}, "metadata"), ([], "metadata"), ("x", "metadata"), ({"limit": 3}, "request"), ({"warnings": []}, "response"),
    ({"message": "x"}, "error"), ({"query": "x", "candidates": []}, "response"), ({"code": 1, "query": "q"}, "request"),
    ([{"query": "q"}], "request"), ({"name": "x", "limit": 1, "detail": "full"}, "request"),
], ids=str)
def test_classification_by_members(value: Any, kind: Kind) -> None:
    """The rule of AMB-26: markers first, then the most members of one table."""
    assert kind_of(as_document(value)) == kind


# ------------------------------------------------------------------ single-clause breaks
@pytest.mark.mutants
@pytest.mark.parametrize(("clause_id", "way"), WAYS, ids=[f"{c}-{n}" for c, n in WAYS])
@PER_WAY
@given(data=st.data())
def test_mutation_fails_exactly_its_clause(clause_id: str, way: str, data: st.DataObject) -> None:
    doc = data.draw(_base(clause_id), label="valid")
    original = json.dumps(doc, sort_keys=True)
    mutated = data.draw(MUTATIONS[clause_id][way](doc), label="mutated")
    assert json.dumps(doc, sort_keys=True) == original, "a mutation must not change the document it is given"
    assert failing(mutated) == {clause_id} | IMPLIED.get((clause_id, way), set()), explain(mutated)
    # the schemas agree with the suite on MUST-level structure: they reject each MUST break
    # (but case variants, which JSON Schema's open objects cannot see) and accept each SHOULD break
    kind = kind_of_clause(clause_id)
    if PROFILE.clause(clause_id).level == "MUST" and clause_id != "ADP-4.1-24":
        assert not schema_ok(kind, mutated), f"the {kind} schema accepts a break of {clause_id}"
    elif PROFILE.clause(clause_id).level == "SHOULD":
        assert schema_ok(kind, mutated), f"the {kind} schema rejects a SHOULD-level break of {clause_id}"


@pytest.mark.mutants
@pytest.mark.parametrize(("clause_id", "way"), BYTE_WAYS, ids=[f"{c}-{n}" for c, n in BYTE_WAYS])
@PER_WAY
@given(data=st.data())
def test_byte_mutation_fails_exactly_its_clause(clause_id: str, way: str, data: st.DataObject) -> None:
    doc = data.draw(_base(clause_id), label="valid")
    mutated = data.draw(BYTE_MUTATIONS[clause_id][way](doc), label="mutated")
    assert isinstance(mutated, bytes)
    assert failing(mutated) == {clause_id}, explain(mutated)


# ------------------------------------------------------------------ the draft's own examples
def _draft_objects(specs_dir: Path) -> list[Any]:
    """Every outermost JSON object of the draft's text, in order."""
    text = catalog.normalize_text((specs_dir / PROFILE.spec_file).read_text("utf-8"))
    decoder, found, i = json.JSONDecoder(), [], text.find("{")
    while i != -1:
        try:
            value, end = decoder.raw_decode(text, i)
        except ValueError:
            i = text.find("{", i + 1)
            continue
        found.append(value)
        i = text.find("{", end)
    return found


#: The draft's examples, in order (4.10, 5.4, 6.4, 9.1, 9.2, 9.3), their kinds, and the SHOULDs
#: each misses (AMB-29): the 4.10 metadata has no auth; the minimal 9.1 object only the MUSTs.
EXAMPLES: list[tuple[str, Kind, set[str]]] = [
    ("4.10", "metadata", {"ADP-4.1-10"}),
    ("5.4", "request", set()),
    ("6.4", "response", set()),
    ("9.1", "metadata", {"ADP-4.1-05", "ADP-4.1-07", "ADP-4.1-10", "ADP-4.1-14", "ADP-4.1-18", "ADP-4.1-20",
                         "ADP-4.6-01"}),
    ("9.2", "request", set()),
    ("9.3", "request", set()),
]


def test_the_drafts_examples_fail_no_must(specs_dir: Path) -> None:
    objects = _draft_objects(specs_dir)
    assert len(objects) == len(EXAMPLES), [sorted(o) for o in objects]
    for example, (section, kind, should_misses) in zip(objects, EXAMPLES):
        assert kind_of(as_document(example)) == kind, section
        verdict = judge(example)
        failed = {c for c, o in verdict.items() if o == "fail"}
        assert not {c for c in failed if PROFILE.clause(c).level == "MUST"}, (section, explain(example))
        assert failed == should_misses, (section, explain(example))
        assert "untestable" not in verdict.values(), (section, explain(example))
        assert schema_ok(kind, example), section


def test_the_d0_example_is_accepted(specs_dir: Path) -> None:
    """9.1: "An implementation claiming D0 support MUST accept this object as valid metadata":
    the suite passes every metadata MUST on it and the kit's metadata schema accepts it."""
    minimal = _draft_objects(specs_dir)[3]
    assert minimal["name"] == "Minimal Agent"
    verdict = judge(minimal)
    musts = [c for c in verdict if PROFILE.clause(c).level == "MUST" and kind_of_clause(c) == "metadata"]
    assert {verdict[c] for c in musts} <= {"pass", "not-applicable"}, explain(minimal)
    assert verdict["ADP-3.3-01"] == "pass" and verdict["ADP-4.1-01"] == "pass"
    assert schema_ok("metadata", minimal)


# ------------------------------------------------------------------ the heuristics (AMB-31)
@pytest.mark.parametrize(("description", "fails"), [
    ("Answers short factual questions.", set()),
    ("Forwards alerts on a best-effort basis; delivery is not guaranteed.", set()),
    ("Ranks résumés and returns the best match with best practices for HR.", set()),
    ("請求書の合計金額と税額を確認します。", set()),
    ("Weather", {"ADP-4.3-01"}),
    ("Our world-class agent answers tax questions.", {"ADP-4.3-02"}),
    ("Answers tax questions with guaranteed accuracy.", {"ADP-4.3-03"}),
    ("Answers tax questions. Never wrong, always perfect.", {"ADP-4.3-03"}),
    ("Reads payroll from 10.1.2.3 and hr.corp each night.", {"ADP-11-01"}),
    ("Calls the API with token ghp_16C7e42F292c6912E7710c838347Ae178B4a daily.", {"ADP-11-01"}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_description_heuristics(description: str, fails: set[str]) -> None:
    """What the heuristic judges of a description on its own, including the texts it must not flag."""
    doc = {"id": "a", "name": "Tax Desk", "description": description, "tags": [], "examples": [],
           "bindings": [{"protocol": "https", "endpoint": "https://a.example/x"}], "auth": {}, "status": "active",
           "version": "1", "updated_at": "2026-05-08T00:00:00Z"}
    assert failing(doc) == fails, explain(doc)


@pytest.mark.parametrize(("text", "fails"), [
    ("Translate this German invoice into English.", set()),
    ("请把这张发票翻译成英文并核对税额。", set()),
    ("Prüfe die Rechnung vom 2026-05-08 auf fehlende Felder.", set()),
    ("hr, payroll, onboarding", {"ADP-4.4-01"}),
    ("Help me", {"ADP-4.4-13"}),
    ("Payroll", {"ADP-4.4-13"}),
    ("Email the payslip to jane.doe@example.com today.", {"ADP-11-03"}),
    ("Charge card 4111 1111 1111 1111 for the booking.", {"ADP-11-03"}),
    ("Restart the job on build01.internal after deploys.", {"ADP-11-01"}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_example_heuristics(text: str, fails: set[str]) -> None:
    doc = {"id": "a", "name": "Tax Desk", "description": "Answers tax questions for small firms.", "tags": [],
           "examples": [{"id": "e", "text": text}], "bindings": [{"protocol": "https", "endpoint": "x"}],
           "auth": {}, "status": "active", "version": "1", "updated_at": "2026-05-08T00:00:00Z"}
    assert failing(doc) == fails, explain(doc)


class _Reading:
    """A compiled pattern that records the longest text it is asked to read."""

    def __init__(self, pattern: re.Pattern[str], name: str, read: dict[str, int]) -> None:
        self._pattern, self._name, self._read = pattern, name, read

    def __getattr__(self, attr: str) -> Any:
        method = getattr(self._pattern, attr)
        if not callable(method):
            return method

        def reading(*args: Any, **kwargs: Any) -> Any:
            for arg in args:
                if isinstance(arg, str):
                    self._read[self._name] = max(self._read.get(self._name, 0), len(arg))
            return method(*args, **kwargs)
        return reading


#: The word tokenizer of ``_checks.words`` reads the whole text: it counts words in one pass,
#: with no pattern that backtracks (no alternative overlaps another), so it is not under the cap.
_TOKENIZER = {"_WORD", "_UNSPACED"}


@pytest.mark.parametrize("filler", ["a-", "a.", "1 ", "best ", "a://", "password-"])
def test_a_mebibyte_of_hostile_text_is_judged_on_bounded_text(filler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The heuristics read bounded text (AMB-31): every pattern a heuristic applies (those that
    backtrack on long runs could stall a run on a hostile document) reads at most ``MAX_CHARS``
    characters of a text, and nothing past the cap changes the verdict. How long a judgement
    takes is measured in ``benchmarks/limits.py``, not asserted here."""
    from conformance.adp import _checks

    read: dict[str, int] = {}
    patterns = {name: value for name, value in vars(_checks).items()
                if isinstance(value, re.Pattern) and name not in _TOKENIZER}
    for name, pattern in patterns.items():
        monkeypatch.setattr(_checks, name, _Reading(pattern, name, read))

    def document(text: str) -> dict:
        return {"id": "a", "name": "n", "description": text, "examples": [{"id": "e", "text": text}],
                "bindings": [{"protocol": "https", "endpoint": "x"}]}

    text = filler * (2**20 // len(filler))
    verdict = judge(document(text))
    # each family of heuristics ran: marketing, superlatives, internal names, personal data, secrets
    assert {"MARKETING_RE", "_SUPERLATIVE_RE", "_PRIVATE_V4", "_INTERNAL_HOST", "_EMAIL", "_PHONE", "TOKEN_SHAPES",
            "USERINFO", "ASSIGNED_SECRET"} <= set(read), sorted(read)
    over = {name: n for name, n in read.items() if n > _checks.MAX_CHARS}
    assert over == {}, f"patterns read past the cap of {_checks.MAX_CHARS} characters: {over}"
    assert verdict == judge(document(text[:_checks.MAX_CHARS])), "text past the cap changed the verdict"
