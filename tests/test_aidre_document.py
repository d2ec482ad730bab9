"""Properties of the aidre document-role suite (the discovery document), over generated
documents, and the draft's own examples.

A valid document fails nothing; a document broken one named way for one clause fails that
clause and no other; every document-role MUST and SHOULD the suite tests has such breaks; the
kit's JSON Schema agrees with the suite on the MUST-level structure; and the discovery
documents the draft itself shows (3.4, 24.1) fail no MUST.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import catalog
from conformance.aidre.oracle import document_tests, explain, failing, judge
from conformance.aidre.strategies import (BYTE_MUTATIONS, IMPLIED, MUTATIONS, documents, error_objects, named_breaks,
                                         search_responses, serialized)
from conformance.document import Document
from conformance.resources import fixtures_dir, profile_dir
from tests.conftest import named_ways, schema_validator

DRAFT = "aidre"
PROFILE = catalog.load(DRAFT)
REFERENCE = fixtures_dir(DRAFT) / "document.json"
SCHEMA = profile_dir(DRAFT) / "schemas" / "discovery-document.schema.json"

PROPERTY = settings(deadline=None, database=None, max_examples=200,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PER_WAY = settings(PROPERTY, max_examples=25)

WAYS = named_ways(MUTATIONS)
BYTE_WAYS = named_ways(BYTE_MUTATIONS)

#: MUST clauses whose value breaks the schema must reject (all of them: presence only).
SCHEMA_REJECTS = ("AIDRE-23.1-01", "AIDRE-19.1-02", "AIDRE-19.1-03", "AIDRE-19.1-04")


def validator() -> jsonschema.Draft202012Validator:
    return schema_validator(SCHEMA)



# ------------------------------------------------------------------ the mutation tables
def test_every_tested_must_and_should_of_the_document_has_a_break() -> None:
    # clauses with a test of a document on its own (some are judged on a server's answers only)
    tested = {cid for cid in document_tests() if PROFILE.clause(cid).level in ("MUST", "SHOULD")}
    assert tested == MUTATIONS.keys() | BYTE_MUTATIONS.keys(), (
        f"no break for {sorted(tested - MUTATIONS.keys() - BYTE_MUTATIONS.keys())}; breaks for clauses not "
        f"tested at MUST/SHOULD: {sorted((MUTATIONS.keys() | BYTE_MUTATIONS.keys()) - tested)}")
    assert all(IMPLIED[c] <= tested and c[0] not in IMPLIED[c] for c in IMPLIED)
    breaks = named_breaks()
    for cid in tested:
        ways = list(MUTATIONS.get(cid, {})) + list(BYTE_MUTATIONS.get(cid, {}))
        assert breaks[cid] == tuple(ways) and len(set(ways)) == len(ways) >= 2, (cid, ways)


# ------------------------------------------------------------------ valid documents
def test_reference_document_fails_nothing() -> None:
    verdict = judge(REFERENCE.read_bytes())
    # every discovery-document clause passes; those of search responses and error objects do not apply
    assert {c for c, o in verdict.items() if o != "pass"} == OTHER_KINDS, verdict
    assert set(verdict.values()) == {"pass", "not-applicable"}
    assert not list(validator().iter_errors(json.loads(REFERENCE.read_text("utf-8"))))


@PROPERTY
@given(documents())
def test_valid_documents_fail_nothing(doc: dict[str, Any]) -> None:
    verdict = judge(doc)
    assert set(verdict.values()) <= {"pass", "not-applicable"}, explain(doc)
    assert validator().is_valid(doc)


#: Document clauses of search responses and error objects (AMB-30).
OTHER_KINDS = {"AIDRE-7.1-01", "AIDRE-16.1-01", "AIDRE-16.1-03", "AIDRE-16.1-04", "AIDRE-16.1-05",
               "AIDRE-17.1-04", "AIDRE-17.1-05", "AIDRE-17.1-06"}


@PROPERTY
@given(st.one_of(search_responses(), error_objects()))
def test_valid_search_responses_and_error_objects_fail_nothing(doc: dict[str, Any]) -> None:
    """A search response or an error object on its own is judged as one (AMB-30): a valid one
    fails nothing, and the discovery-document clauses do not apply to it."""
    verdict = judge(doc)
    assert set(verdict.values()) <= {"pass", "not-applicable"}, explain(doc)
    assert verdict["AIDRE-23.1-01"] == "not-applicable"


@settings(PROPERTY, max_examples=30)
@given(st.data())
def test_valid_documents_fail_nothing_in_any_json_spelling(data: st.DataObject) -> None:
    """White space, escaped non-ASCII and a UTF-8 byte order mark change nothing."""
    doc = data.draw(documents(), label="document")
    body = data.draw(serialized(doc), label="serialized").encode("utf-8")
    if data.draw(st.booleans(), label="byte order mark"):
        body = b"\xef\xbb\xbf" + body
    assert failing(body) == set(), explain(body)


@pytest.mark.parametrize("value", [{}, {"id": 1}], ids=["empty-object", "object-of-spaces"])
def test_embedding_spaces_not_an_array_is_not_applicable(value: Any) -> None:
    """embedding_spaces of another type than an array advertises nothing the kit reads (AMB-25)."""
    verdict = judge({"version": "1", "embedding_spaces": value})
    assert {verdict[c] for c in ("AIDRE-19.1-02", "AIDRE-19.1-03", "AIDRE-19.1-04")} == {"not-applicable"}


def test_a_space_that_is_not_an_object_includes_nothing() -> None:
    verdict = judge({"version": "1", "embedding_spaces": ["openai:text-embedding-3-large:3072:cosine:v1"]})
    assert {c for c, o in verdict.items() if o == "fail"} == {f"AIDRE-19.1-0{n}" for n in (2, 3, 4, 6, 7, 8, 9)}
    assert not validator().is_valid({"version": "1", "embedding_spaces": ["x"]})


def test_cut_at_the_read_cap_is_not_an_encoding_failure() -> None:
    body = REFERENCE.read_bytes()
    cut = body.index("ü".encode("utf-8")) + 1  # inside the two bytes of ü
    verdict = judge(Document(raw=body[:cut], source="<cut>", truncated=True))
    assert "fail" not in verdict.values(), verdict
    assert verdict["AIDRE-14.2-01"] == "untestable"


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
    if clause_id in SCHEMA_REJECTS:
        assert not validator().is_valid(mutated)


@pytest.mark.mutants
@pytest.mark.parametrize(("clause_id", "way"), BYTE_WAYS, ids=[f"{c}-{n}" for c, n in BYTE_WAYS])
@PER_WAY
@given(data=st.data())
def test_byte_mutation_fails_exactly_its_clause(clause_id: str, way: str, data: st.DataObject) -> None:
    doc = data.draw(documents(), label="valid")
    mutated = data.draw(BYTE_MUTATIONS[clause_id][way](doc), label="mutated")
    assert isinstance(mutated, bytes)
    assert failing(mutated) == {clause_id} | IMPLIED.get((clause_id, way), set()), explain(mutated)


# ------------------------------------------------------------------ the draft's own examples
def _object_at(text: str, start: int) -> tuple[Any, int] | None:
    """The JSON object whose "{" is at ``start`` and the index after its "}", or None."""
    depth, in_string, escaped = 0, False, False
    for i in range(start, len(text)):
        c = text[i]
        if in_string:
            escaped = c == "\\" and not escaped
            if c == '"' and not escaped:
                in_string = False
            continue
        if c == '"':
            in_string = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                try:
                    return json.loads(text[start:i + 1]), i + 1
                except ValueError:
                    return None
    return None


def _json_after(text: str, anchor: str) -> Any:
    """The JSON object that starts at the first "{" after ``anchor`` in the draft's text."""
    found = _object_at(text, text.index("{", text.index(anchor)))
    assert found is not None, f"no complete JSON object after {anchor!r}"
    return found[0]


#: The discovery documents the draft shows, where they start, and the SHOULDs each misses
#: (AMB-24: the 24.1 space has no provider, model or revision; 3.4 advertises no space).
EXAMPLES = {
    "3.4": ("3.4. Example", set()),
    "24.1": ('ETag: "disc-v1-9f2a"', {"AIDRE-19.1-07", "AIDRE-19.1-08", "AIDRE-19.1-09"}),
}


@pytest.mark.parametrize("section", sorted(EXAMPLES))
def test_the_drafts_discovery_examples_fail_no_must(section: str, specs_dir: Path) -> None:
    text = catalog.normalize_text((specs_dir / PROFILE.spec_file).read_text("utf-8"))
    anchor, should_misses = EXAMPLES[section]
    example = _json_after(text, anchor)
    assert "version" in example and "endpoints" in example, f"§{section}: not the discovery example"
    verdict = judge(example)
    failed = {c for c, o in verdict.items() if o == "fail"}
    assert not {c for c in failed if PROFILE.clause(c).level == "MUST"}, explain(example)
    assert failed == should_misses, explain(example)
    assert "untestable" not in verdict.values(), explain(example)
    assert validator().is_valid(example)


def _all_json_objects(text: str) -> list[Any]:
    """Every outermost JSON object of the draft's text, in order."""
    found, i = [], text.find("{")
    while i != -1:
        parsed = _object_at(text, i)
        if parsed is None:
            i = text.find("{", i + 1)
            continue
        found.append(parsed[0])
        i = text.find("{", parsed[1])
    return found


def test_the_draft_shows_exactly_the_two_discovery_examples(specs_dir: Path) -> None:
    """The examples of the draft are 14 JSON objects (AMB-24 lists them); those with a version
    member are the two discovery documents checked above (the others are requests, search
    responses and error objects, AMB-25)."""
    text = catalog.normalize_text((specs_dir / PROFILE.spec_file).read_text("utf-8"))
    objects = _all_json_objects(text)
    assert len(objects) == 14, [list(o) for o in objects]
    discovery = [o for o in objects if "version" in o]
    assert [sorted(o) for o in discovery] == [sorted(_json_after(text, a)) for a, _ in EXAMPLES.values()]


def test_the_drafts_search_responses_and_errors_fail_no_must(specs_dir: Path) -> None:
    """The draft's search responses (7.2, 16.2, 18.3, 24.2) and error objects (10, 17.2, 19.5,
    24.3), each judged on its own as its kind (AMB-30), fail no MUST; the SHOULD members they
    miss are those AMB-24 lists."""
    text = catalog.normalize_text((specs_dir / PROFILE.spec_file).read_text("utf-8"))
    objects = [o for o in _all_json_objects(text) if "version" not in o and ("results" in o or "error" in o)]
    assert len(objects) == 8, [sorted(o) for o in objects]
    misses: set[str] = set()
    for example in objects:
        verdict = judge(example)
        failed = {c for c, o in verdict.items() if o == "fail"}
        assert not {c for c in failed if PROFILE.clause(c).level == "MUST"}, explain(example)
        assert "untestable" not in verdict.values(), explain(example)
        misses |= failed
    # AMB-24: the 7.2 response has no request_id, collection or meta; the 10 and 19.5 errors no
    # request_id, and the 10 error no details
    assert misses == {"AIDRE-16.1-03", "AIDRE-16.1-04", "AIDRE-16.1-05", "AIDRE-17.1-05", "AIDRE-17.1-06"}
