"""The woa document-role suite, over the draft's own examples and generated documents.

A valid document fails nothing (the reference document, Appendix A and Appendix B of the
draft, and documents drawn across the space the draft allows); a document broken for one
clause fails that clause and no other; every tested document-role MUST and SHOULD has such
breaks; and the kit's JSON Schema of the document accepts every valid document.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import catalog
from conformance.woa.oracle import explain, failing, judge
from conformance.woa.strategies import BYTE_MUTATIONS, IMPLIED, MUTATIONS, documents, named_breaks, serialized
from conformance.resources import fixtures_dir, profile_dir
from tests.conftest import named_ways, schema_validator

DRAFT = "woa"
PROFILE = catalog.load(DRAFT)
REFERENCE = fixtures_dir(DRAFT) / "document.json"
SCHEMA = profile_dir(DRAFT) / "schemas" / "woa-document.schema.json"

PROPERTY = settings(deadline=None, database=None, max_examples=100,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])
#: Each named way of breaking a clause is run on its own (about 85 of them): a few each.
PER_WAY = settings(PROPERTY, max_examples=10)

WAYS = named_ways(MUTATIONS)
BYTE_WAYS = named_ways(BYTE_MUTATIONS)


def validator() -> jsonschema.Draft202012Validator:
    return schema_validator(SCHEMA)



def appendix_documents(text: str) -> list[dict]:
    """Every WoA document the draft's text shows: each JSON object holding woa_version."""
    found, decoder = [], json.JSONDecoder()
    for match in re.finditer(r'\{\s*"woa_version"', text):
        value, _ = decoder.raw_decode(text, match.start())
        found.append(value)
    return found


# ------------------------------------------------------------------ the mutation tables
def test_every_tested_must_and_should_of_the_document_has_a_break() -> None:
    bound = catalog.suite_bindings(PROFILE.suite)
    tested = {cid for cid, c in PROFILE.clauses.items()
              if c.role == "document" and c.level in ("MUST", "SHOULD") and bound.get(cid)}
    assert not MUTATIONS.keys() & BYTE_MUTATIONS.keys()
    assert tested == MUTATIONS.keys() | BYTE_MUTATIONS.keys(), (
        f"no break for {sorted(tested - MUTATIONS.keys() - BYTE_MUTATIONS.keys())}; "
        f"breaks for clauses not tested at MUST/SHOULD: {sorted((MUTATIONS.keys() | BYTE_MUTATIONS.keys()) - tested)}")
    assert all(len(ways) >= 2 for ways in {**MUTATIONS, **BYTE_MUTATIONS}.values())
    assert all(IMPLIED[c] <= tested and c[0] not in IMPLIED[c] for c in IMPLIED)
    assert named_breaks() == {cid: tuple(ways) for cid, ways in {**MUTATIONS, **BYTE_MUTATIONS}.items()}


# ------------------------------------------------------------------ valid documents
def test_reference_document_fails_nothing() -> None:
    verdict = judge(REFERENCE.read_bytes())
    assert {c for c, o in verdict.items() if o in ("fail", "untestable")} == set(), explain(REFERENCE.read_bytes())
    assert "not-applicable" not in verdict.values(), "the reference document should use every optional member"
    assert not list(validator().iter_errors(json.loads(REFERENCE.read_bytes())))


def test_the_drafts_own_examples_fail_no_must(specs_dir: Path) -> None:
    """Appendix A (with its authz member and elided schemas) and Appendix B (the complete
    example) are the draft's own documents: neither may fail a MUST (AMB-17)."""
    docs = appendix_documents((specs_dir / PROFILE.spec_file).read_text("utf-8"))
    assert len(docs) == 2, f"expected the documents of Appendix A and B, found {len(docs)}"
    assert "authz" in docs[0]["agents"][0] and "operations" in docs[1]["agents"][0]
    for doc in docs:
        verdict = judge(doc)
        musts = {c for c, o in verdict.items() if o in ("fail", "untestable") and PROFILE.clauses[c].level == "MUST"}
        assert musts == set(), explain(doc)
        assert not list(validator().iter_errors(doc))


def test_edge_documents_fail_nothing() -> None:
    """No agents, agents that list no transport, only private transports, one-character ids."""
    edges = [
        {"woa_version": "1", "agents": [], "transports": {}},
        {"woa_version": "1", "agents": [{"id": "-", "name": "", "description": "", "inputs": {}, "outputs": {},
                                         "transports": []}], "transports": {"rest": {"base": "https://a.example",
                                                                                     "invoke_path": "/"}}},
        {"woa_version": "1", "agents": [{"id": "a", "name": "n", "description": "d", "inputs": {}, "outputs": {},
                                         "transports": ["com.example.x"]},
                                        {"id": "A", "name": "n", "description": "d", "inputs": {}, "outputs": {},
                                         "transports": ["com.example.x"]}],
         "transports": {"com.example.x": {}}},
    ]
    for doc in edges:
        assert failing(doc) == set(), explain(doc)


@PROPERTY
@given(documents())
def test_valid_documents_fail_nothing(doc: dict[str, Any]) -> None:
    verdict = judge(doc)
    assert set(verdict.values()) <= {"pass", "not-applicable"}, explain(doc)


@settings(PROPERTY, max_examples=20)
@given(st.data())
def test_valid_documents_fail_nothing_in_any_json_spelling(data: st.DataObject) -> None:
    doc = data.draw(documents(), label="document")
    body = data.draw(serialized(doc), label="serialized").encode("utf-8")
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
@PER_WAY
@given(data=st.data())
def test_byte_mutation_fails_exactly_its_clause(clause_id: str, way: str, data: st.DataObject) -> None:
    doc = data.draw(documents(), label="valid")
    mutated = data.draw(BYTE_MUTATIONS[clause_id][way](doc), label="mutated")
    assert isinstance(mutated, bytes)
    assert failing(mutated) == {clause_id} | IMPLIED.get((clause_id, way), set()), explain(mutated)


# ------------------------------------------------------------------ boundaries, case by case
def _with_agent(**members: Any) -> dict:
    agent = {"id": "a", "name": "n", "description": "d", "inputs": {}, "outputs": {}, "transports": ["rest"]}
    return {"woa_version": "1", "agents": [agent | members],
            "transports": {"rest": {"base": "https://api.example.com", "invoke_path": "/x"}}}


@pytest.mark.parametrize(("agent_id", "ok"), [
    ("a", True), ("Z", True), ("0", True), ("-", True), ("_", True), ("a" * 5000, True), ("A-b_9", True),
    ("", False), ("a.b", False), ("a b", False), ("a/b", False), ("é", False), ("a\n", False),
    ("٣", False), ("ａ", False), ("a" * 5000 + "!", False), ("{agent_id}", False), ("a%20b", False),
])
def test_agent_id_abnf_boundaries(agent_id: str, ok: bool) -> None:
    assert failing(_with_agent(id=agent_id)) == (set() if ok else {"WOA-4.1-04"})


@pytest.mark.parametrize(("schema", "ok"), [
    ({}, True), ({"...": "JSON Schema elided"}, True), (True, None), ({"type": "object"}, True),
    ({"$ref": "#/$defs/x", "$defs": {"x": {}}}, True), ({"$ref": "#/$defs/x"}, False),
    ({"$ref": "#anchor"}, False), ({"$defs": {"x": {"$anchor": "anchor"}}, "$ref": "#anchor"}, True),
    ({"$ref": "https://schemas.example.com/remote.json"}, True),  # not fetched, not failed (AMB-25)
    ({"$ref": "sibling.json#/$defs/x"}, True),  # another resource: not fetched (AMB-25)
    ({"$id": "https://s.example/r.json", "$ref": "r.json#/$defs/none"}, False),
    ({"$ref": "https://json-schema.org/draft/2020-12/schema"}, True),
    ({"$schema": "http://json-schema.org/draft-07/schema#"}, False),
    ({"$schema": "https://json-schema.org/draft/2020-12/schema#"}, True),
    ({"pattern": "\\p{L}+"}, True),  # ECMA-262, not Python: format assertions are not held against it
    ({"type": "objekt"}, False), ({"required": "text"}, False), ({"minimum": "0"}, False),
    ({"items": {"$ref": "#/$defs/gone"}}, False),
    ({"allOf": [{"$ref": "#/properties/a"}], "properties": {"a": {}}}, True),
])
def test_schema_validity_cases(schema: Any, ok: bool | None) -> None:
    """ok None: not an object, which WOA-4.1-13 judges instead (AMB-18)."""
    for where in ("inputs", "outputs", "operation inputs", "operation outputs"):
        if where.startswith("operation"):
            doc = _with_agent(operations=[{"name": "o", "description": "d", where.split()[1]: schema}])
        else:
            doc = _with_agent(**{where: schema})
        expected = {"WOA-4.2-01"} if ok is False else set()
        if ok is None:
            expected = {"WOA-4.1-22" if where == "operation inputs" else "WOA-4.1-24" if where == "operation outputs"
                        else "WOA-4.1-13" if where == "inputs" else "WOA-4.1-14"}
        assert failing(doc) == expected, (where, explain(doc))


@pytest.mark.parametrize(("name", "ok"), [
    ("rest", True), ("mcp", True), ("com.example.mytransport", True), ("COM.EXAMPLE.X", True), ("a.b.c", True),
    ("io.x-y.z_w", True), ("mytransport", False), ("example.transport", False), (".com.example.x", False),
    ("com.example.", False), ("com..example.x", False), ("-com.example.x", False), ("REST", False), ("", False),
])
def test_private_transport_names(name: str, ok: bool) -> None:
    doc = _with_agent()
    doc["transports"][name] = doc["transports"].get(name, {})
    if name == "mcp":
        doc["transports"]["mcp"] = {"server": "https://mcp.example.com", "tool_namespace": "n", "tool_field": "agent"}
    assert failing(doc) == (set() if ok else {"WOA-4.3.3-02"}), explain(doc)
