"""Hypothesis on AID manifests in the document role (draft §2.2, §4): a valid manifest fails
no clause; each break fails exactly its clause.

Each example is a whole suite run on a manifest file (~0.25 s), so the example counts are
small; ADCK_AID_MANIFEST_EXAMPLES=<n> runs every property with n examples (a bug hunt).
The strategies and the named breaks are in conformance/aid/manifests.py; every named break
(clause, way) is run on its own below, through the suite's own tests called in-process
(conformance.aid.oracle.judge_manifest: milliseconds an example), and must fail exactly its clause.
"""

from __future__ import annotations

import json
import os
import tomllib
from itertools import count
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from conformance import catalog
from conformance.resources import fixtures_dir
from conformance.world.site import apply_patch, load_mutants
from conformance.aid import strategies
from conformance.aid.manifests import BREAKS, WAYS, broken, broken_by, manifests, manifests_for, shaped_manifests
from conformance.aid.oracle import judge_manifest
from tests.conftest import quiet_run

PROFILE = catalog.load("aid")
FIXTURES = fixtures_dir("aid")
MUTANTS = load_mutants("aid")


def _document(clauses) -> set[str]:
    return {c for c in clauses if PROFILE.clauses[c].role == "document"}


def expected(name: str) -> set[str]:
    """What a mutant fails as a manifest file: its clause and also_fails, in the document role."""
    return _document({MUTANTS[name].clause, *MUTANTS[name].also_fails})


#: The mutants of mutants-manifest.toml and mutants-auth.toml that are a JSON patch of the
#: manifest and nothing else (no DNS, route or site change) and fail a document clause (a
#: provider clause, such as AID-2.4-01, needs the record too).
PATCH_MUTANTS = sorted(
    name for file in ("mutants-manifest.toml", "mutants-auth.toml")
    for name in tomllib.loads((FIXTURES / file).read_text("utf-8"))["mutants"]
    if MUTANTS[name].patch and not (MUTANTS[name].dns or MUTANTS[name].routes or MUTANTS[name].site)
    and expected(name))
#: Mutants whose patch breaks only some shaped manifests: the condition under which it does.
APPLIES = {
    # the patch puts ${auth.api_token} into args[5]: a break only if no credential has that key
    "undeclared-auth-placeholder": lambda m: "api_token" not in {
        c["key"] for c in m["implementations"][1]["authentication"]["credentials"]},
}
#: The document-role clauses of the manifest modules (the ones a manifest file exercises).
MODULES = ("test_2_2_1_core_manifest", "test_2_2_2_implementation_object", "test_2_2_3_variable_substitution",
           "test_2_2_4_authentication", "test_4_manifest_security")
MANIFEST_CLAUSES = {cid for cid, c in PROFILE.coverage().items()
                    if PROFILE.clauses[cid].role == "document" and any(t.split("::")[0] in MODULES for t in c.tests)}
#: Clauses the catalog marks untestable: the only ones a run may leave untestable.
NEVER_TESTABLE = {cid for cid, c in PROFILE.clauses.items() if getattr(c, "untestable", None)}


def _examples(default: int) -> int:
    return int(os.environ.get("ADCK_AID_MANIFEST_EXAMPLES", default))


PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                         HealthCheck.data_too_large])
_files = count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("manifests")


def judge(folder: Path, manifest) -> dict[str, tuple[str, str]]:
    """Clause -> (outcome, message) of a suite run on the manifest as a file."""
    path = folder / f"aid-{next(_files)}.json"
    path.write_text(json.dumps(manifest, ensure_ascii=False, indent=1), "utf-8")
    try:
        report = quiet_run("aid@v1", str(path)).report
    finally:
        path.unlink()
    assert report is not None and report.roles == ["document"]
    return {r.clause: (r.outcome, r.message) for r in report.results}


def failed(results: dict[str, tuple[str, str]]) -> dict[str, str]:
    return {c: msg for c, (o, msg) in results.items() if o in ("fail", "error")}


# ---------------------------------------------------------------- the tables

def test_patch_mutants_break_every_manifest_clause() -> None:
    assert len(PATCH_MUTANTS) >= 60
    assert _document(MUTANTS[n].clause for n in PATCH_MUTANTS) == MANIFEST_CLAUSES


def test_every_manifest_clause_has_a_break() -> None:
    assert len(MANIFEST_CLAUSES) == 60
    assert set(BREAKS) == MANIFEST_CLAUSES, (sorted(MANIFEST_CLAUSES - set(BREAKS)), sorted(set(BREAKS) - MANIFEST_CLAUSES))


# ---------------------------------------------------------------- the properties

@settings(PROPERTY, max_examples=_examples(15))
@given(manifest=st.one_of(manifests(), shaped_manifests()))
def test_valid_manifest_fails_nothing(folder: Path, manifest: dict) -> None:
    results = judge(folder, manifest)
    assert failed(results) == {}
    untestable = {c: msg for c, (o, msg) in results.items() if o == "untestable" and c not in NEVER_TESTABLE}
    assert untestable == {}


@settings(PROPERTY, max_examples=_examples(25))
@given(data=st.data())
def test_mutant_patch_on_a_generated_manifest_fails_exactly_its_clause(folder: Path, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(PATCH_MUTANTS), label="mutant")
    mutant = MUTANTS[name]
    manifest = data.draw(shaped_manifests(), label="manifest")
    assume(APPLIES.get(name, lambda m: True)(manifest))
    patched = apply_patch(manifest, mutant.patch)
    note(f"patched: {json.dumps(patched, ensure_ascii=False)}")
    got = failed(judge(folder, patched))
    assert set(got) == expected(name), got


@settings(PROPERTY, max_examples=_examples(12))
@given(data=st.data())
def test_break_of_a_generated_manifest_fails_exactly_its_clause(folder: Path, data: st.DataObject) -> None:
    clause = data.draw(st.sampled_from(sorted(BREAKS)), label="clause")
    manifest = data.draw(manifests_for(clause), label="manifest")
    bad = broken(manifest, clause, data)
    note(f"broken: {json.dumps(bad, ensure_ascii=False)}")
    results = judge(folder, bad)
    got = failed(results)
    assert set(got) == {clause}, got
    assert judge_manifest(bad) == {c: o for c, (o, _m) in results.items() if c in judge_manifest(bad)}, \
        "the in-process oracle of the named breaks judges as a suite run does"


# ---------------------------------------------------------------- every named way, on its own

PAIRS = [(clause, way) for clause, ways in sorted(WAYS.items()) for way in ways]


def test_named_breaks_are_the_ways() -> None:
    """What conformance.proofs counts is exactly what the next test runs."""
    named = strategies.named_breaks()
    assert {c: named[c] for c in WAYS} == {c: tuple(f"{c}:{w}" for w in ways) for c, ways in WAYS.items()}
    assert all(len(ways) >= 2 for ways in WAYS.values())


def test_the_oracle_agrees_with_a_suite_run(folder: Path) -> None:
    reference = json.loads((FIXTURES / "aid.json").read_text("utf-8"))
    for value in (reference, apply_patch(reference, MUTANTS["manifest-no-name"].patch)):
        run = {c: o for c, (o, _m) in judge(folder, value).items() if c in MANIFEST_CLAUSES}
        assert {c: o for c, o in judge_manifest(value).items() if c in MANIFEST_CLAUSES} == run


@pytest.mark.mutants
@pytest.mark.parametrize(("clause", "way"), PAIRS, ids=[f"{c}:{w}" for c, w in PAIRS])
@settings(PROPERTY, max_examples=_examples(4))
@given(data=st.data())
def test_each_named_break_fails_exactly_its_clause(clause: str, way: str, data: st.DataObject) -> None:
    manifest = data.draw(manifests_for(clause, way), label="manifest")
    bad = broken_by(manifest, clause, way, data)
    note(f"broken: {json.dumps(bad, ensure_ascii=False)}")
    outcomes = judge_manifest(bad)
    assert {c for c, o in outcomes.items() if o == "fail"} == {clause}, outcomes
