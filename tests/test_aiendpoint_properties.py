"""Properties of the aiendpoint document-role suite, over generated documents.

A valid document fails nothing; a document broken for one clause fails that clause and no
other (but the ones a break cannot help breaking, IMPLIED); every document-role MUST and
SHOULD the suite tests has such a break; and the kit's JSON Schema of the document agrees
with the suite on the MUST-level structure.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import catalog
from conformance.aiendpoint.oracle import explain, failing, judge
from conformance.aiendpoint.strategies import (
    BYTE_MUTATIONS, IMPLIED, MUTATIONS, SIZE_LIMIT, documents, named_breaks, serialized,
)
from conformance.resources import fixtures_dir, profile_dir
from tests.conftest import named_ways, schema_validator

DRAFT = "aiendpoint"
PROFILE = catalog.load(DRAFT)
REFERENCE = fixtures_dir(DRAFT) / "document.json"
SCHEMA = profile_dir(DRAFT) / "schemas" / "ai-discovery-document.schema.json"

#: Generation of whole documents is the slow part; these keep the file near 30 s on 2 cores.
PROPERTY = settings(deadline=None, database=None, max_examples=150,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PER_CLAUSE = settings(PROPERTY, max_examples=25)
#: Each named way of breaking a clause is run on its own (about 150 of them).
PER_WAY = settings(PROPERTY, max_examples=10)

WAYS = named_ways(MUTATIONS)
BYTE_WAYS = named_ways(BYTE_MUTATIONS)
FEW = settings(PROPERTY, max_examples=20)

#: Breaks the schema must reject: MUST clauses whose every generated break is structural
#: (a missing member, a wrong type, a length, a pattern, an enum, a closed set). Left out:
#: SHOULDs, and MUSTs a schema cannot fully say (unique ids, real dates, http(s) URIs with a
#: host, credentials, "none" with write methods).
SCHEMA_REJECTS = (
    "AIE-3.1-01", "AIE-3.1-02", "AIE-3.1-03", "AIE-3.1-04", "AIE-3.1-06", "AIE-3.1-07", "AIE-3.1-08",
    "AIE-3.1-09", "AIE-3.1-10", "AIE-3.1-12", "AIE-3.2-01", "AIE-3.2-02", "AIE-3.2-04", "AIE-3.2-05", "AIE-3.2-07",
    "AIE-3.2-10", "AIE-3.2-14", "AIE-3.2-15", "AIE-3.2-16", "AIE-3.2-17", "AIE-3.2-18", "AIE-3.3-01",
    "AIE-3.3-04", "AIE-3.3-05", "AIE-3.3-07", "AIE-3.3-08", "AIE-3.3-10", "AIE-3.3-11", "AIE-3.3-13",
    "AIE-3.3-14", "AIE-3.3-16", "AIE-3.3-17", "AIE-3.3-19", "AIE-3.3-21", "AIE-3.3-22", "AIE-3.4-01",
    "AIE-3.4-02", "AIE-3.4-03", "AIE-3.5-01", "AIE-3.6-01", "AIE-3.6-02", "AIE-3.6-04",
)


def validator() -> jsonschema.Draft202012Validator:
    return schema_validator(SCHEMA)


def reference() -> dict[str, Any]:
    return json.loads(REFERENCE.read_text("utf-8"))



# ------------------------------------------------------------------ the mutation tables
def test_every_tested_must_and_should_of_the_document_has_a_break() -> None:
    bound = catalog.suite_bindings(PROFILE.suite)
    tested = {cid for cid, c in PROFILE.clauses.items()
              if c.role == "document" and c.level in ("MUST", "SHOULD") and bound.get(cid)}
    assert not MUTATIONS.keys() & BYTE_MUTATIONS.keys()
    assert tested == MUTATIONS.keys() | BYTE_MUTATIONS.keys(), (
        f"no break for {sorted(tested - MUTATIONS.keys() - BYTE_MUTATIONS.keys())}; "
        f"breaks for clauses the suite does not test at MUST/SHOULD: {sorted((MUTATIONS.keys() | BYTE_MUTATIONS.keys()) - tested)}")
    assert all(IMPLIED[c] <= tested and c[0] not in IMPLIED[c] for c in IMPLIED)
    assert all(name in MUTATIONS.get(cid, {}) for cid, name in IMPLIED)
    assert named_breaks() == {cid: tuple(ways) for cid, ways in {**MUTATIONS, **BYTE_MUTATIONS}.items()}


# ------------------------------------------------------------------ valid documents
def test_reference_document_fails_nothing() -> None:
    verdict = judge(REFERENCE.read_bytes())
    assert {c for c, o in verdict.items() if o in ("fail", "untestable")} == set(), explain(REFERENCE.read_bytes())
    assert not list(validator().iter_errors(reference()))


@PROPERTY
@given(documents())
def test_valid_documents_fail_nothing(doc: dict[str, Any]) -> None:
    verdict = judge(doc)
    assert set(verdict.values()) <= {"pass", "not-applicable"}, explain(doc)


@FEW
@given(st.data())
def test_valid_documents_fail_nothing_in_any_json_spelling(data: st.DataObject) -> None:
    """White space, escaped non-ASCII and a size of exactly 64 KiB change nothing."""
    doc = data.draw(documents(), label="document")
    body = data.draw(serialized(doc), label="serialized").encode("utf-8")
    if data.draw(st.booleans(), label="byte order mark"):  # still UTF-8 (RFC 8259 8.1: may be ignored)
        body = b"\xef\xbb\xbf" + body
    if data.draw(st.booleans(), label="pad to 64 KiB"):
        body += b" " * (SIZE_LIMIT - len(body))
    assert failing(body) == set(), explain(body)


@PROPERTY
@given(documents())
def test_schema_accepts_valid_documents(doc: dict[str, Any]) -> None:
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator().iter_errors(doc)]
    assert not errors, errors


# ------------------------------------------------------------------ single-clause breaks
@pytest.mark.mutants
@pytest.mark.parametrize(("clause_id", "way"), WAYS, ids=[f"{c}-{n}" for c, n in WAYS])
@PER_WAY
@given(data=st.data())
def test_mutation_fails_exactly_its_clause(clause_id: str, way: str, data: st.DataObject) -> None:
    doc = data.draw(documents(), label="valid")
    original = copy.deepcopy(doc)
    mutated = data.draw(MUTATIONS[clause_id][way](doc), label="mutated")
    assert doc == original, "a mutation must not change the document it is given"
    assert failing(mutated) == {clause_id} | IMPLIED.get((clause_id, way), set()), explain(mutated)


@pytest.mark.mutants
@pytest.mark.parametrize(("clause_id", "way"), BYTE_WAYS, ids=[f"{c}-{n}" for c, n in BYTE_WAYS])
@settings(PROPERTY, max_examples=15)
@given(data=st.data())
def test_byte_mutation_fails_exactly_its_clause(clause_id: str, way: str, data: st.DataObject) -> None:
    doc = data.draw(documents(), label="valid")
    mutated = data.draw(BYTE_MUTATIONS[clause_id][way](doc), label="mutated")
    assert isinstance(mutated, bytes)
    assert failing(mutated) == {clause_id} | IMPLIED.get((clause_id, way), set()), explain(mutated)


@pytest.mark.mutants
@pytest.mark.parametrize("clause_id", SCHEMA_REJECTS)
@settings(PROPERTY, max_examples=8)
@given(data=st.data())
def test_schema_rejects_structural_breaks(clause_id: str, data: st.DataObject) -> None:
    doc = data.draw(documents(), label="valid")
    way = data.draw(st.sampled_from(sorted(MUTATIONS[clause_id])), label="way")
    mutated = data.draw(MUTATIONS[clause_id][way](doc), label="mutated")
    assert not validator().is_valid(mutated)


def _patched(path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    doc = reference()
    node = doc
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return doc


@pytest.mark.parametrize(("doc", "expected"), [
    # the lower bound of 1..300 is not the upper one: an empty description is under 200
    (_patched(("service", "description"), ""), {"AIE-3.2-07"}),
    # the empty id matches no pattern and is shorter than 1
    (_patched(("capabilities", 0, "id"), ""), {"AIE-3.3-07", "AIE-3.3-08"}),
    # a credential as a member of auth is also a member the draft does not define there
    (_patched(("auth", "api_key"), "adck-fake-credential-0000"), {"AIE-6.2-01", "AIE-3.1-11"}),
    # a custom member of token_hints is also not a boolean
    (_patched(("token_hints", "x_cache"), "yes"), {"AIE-3.1-11", "AIE-3.5-01"}),
], ids=["empty-description", "empty-id", "credential-member", "custom-token-hint"])
def test_breaks_with_known_companions(doc: dict[str, Any], expected: set[str]) -> None:
    assert failing(doc) == expected, explain(doc)


# ------------------------------------------------------------------ beyond what the kit reads (AMB-33)
def _with_raw_member(path: tuple[str, str], literal: str) -> bytes:
    """The reference document with the member at path set to a JSON literal, as bytes."""
    doc = _patched(path, "@@literal@@")
    return json.dumps(doc, ensure_ascii=False).replace('"@@literal@@"', literal).encode("utf-8")


@pytest.mark.parametrize(("path", "literal", "expected"), [
    (("meta", "x_serial"), "9" + "0" * 4999, set()),
    (("meta", "x_serial"), "-" + "1" * 6000, set()),
    (("rate_limits", "requests_per_minute"), "6" * 5000, set()),
    (("rate_limits", "requests_per_minute"), "-" + "6" * 5000, {"AIE-3.6-02"}),
], ids=["5000-digits-in-meta", "negative-6000-digits-in-meta", "5000-digit-rate-limit", "negative-5000-digit-rate-limit"])
def test_integers_of_any_length_are_json(path: tuple[str, str], literal: str, expected: set[str]) -> None:
    body = _with_raw_member(path, literal)
    assert failing(body) == expected, explain(body)


@pytest.mark.parametrize("cut", [1, 2, 3], ids=["after-1-of-4-bytes", "after-2-of-4-bytes", "after-3-of-4-bytes"])
def test_document_cut_at_the_read_cap_is_judged_by_its_size(cut: int) -> None:
    """A document larger than the kit reads fails AIE-4.5-01, never AIE-2.4-01 because the cap
    cut a character in two; its content clauses are untestable, not failed."""
    from conformance.document import Document

    body = _with_raw_member(("meta", "x_notes"), json.dumps("\U0001F642" * 20_000, ensure_ascii=False))
    start = body.index("\U0001F642".encode("utf-8"))
    cap = start + 4 * 10 + cut  # inside the 11th four-byte character
    verdict = judge(Document(raw=body[:cap], source="<cut>", truncated=True))
    assert {c for c, o in verdict.items() if o == "fail"} == {"AIE-4.5-01"}, verdict
    assert verdict["AIE-2.4-01"] == "pass"


def test_invalid_utf8_before_the_cut_is_still_failed() -> None:
    from conformance.document import Document

    body = REFERENCE.read_bytes().replace("Zürich".encode("utf-8"), b"Z\xfcrich")
    verdict = judge(Document(raw=body[:-10], source="<cut>", truncated=True))
    assert verdict["AIE-2.4-01"] == "fail"
