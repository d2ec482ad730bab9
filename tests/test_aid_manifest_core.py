"""The aid manifest's own clauses (2.2.1, 2.2.2): each mutant of mutants-manifest.toml fails
exactly its clause, on the builtin provider and as a manifest file; the reference manifest,
and a variant of it exercising every optional member, pass them all."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from conformance import catalog
from conformance.resources import fixtures_dir
from conformance.world.site import apply_patch, load_mutants
from tests.conftest import failing, outcomes, quiet_run
from tests.test_aid_suite import assert_verdict_names_its_failures

FIXTURES = fixtures_dir("aid")
MANIFEST = json.loads((FIXTURES / "aid.json").read_text("utf-8"))
NAMES = sorted(tomllib.loads((FIXTURES / "mutants-manifest.toml").read_text("utf-8"))["mutants"])
MUTANTS = load_mutants("aid")
PROFILE = catalog.load("aid")
#: The clauses the two modules test.
MODULES = ("test_2_2_1_core_manifest", "test_2_2_2_implementation_object")
OURS = {cid for cid, c in PROFILE.coverage().items() if any(t.split("::")[0] in MODULES for t in c.tests)}

#: Every optional member of 2.2.1 and 2.2.2 present and conforming, so no clause is left
#: not-applicable: status, a per-implementation revocationURL, a digest, platformOverrides,
#: a secret setting, and a remote mtls implementation with an enrollment certificate.
EVERYTHING = [
    {"op": "add", "path": "/implementations/0/status", "value": "active"},
    {"op": "add", "path": "/implementations/0/revocationURL", "value": "https://provider.adck.test/agent/status"},
    {"op": "add", "path": "/implementations/1/status", "value": "deprecated"},
    {"op": "add", "path": "/implementations/1/package/digest", "value": "sha256:" + "0" * 64},
    {"op": "add", "path": "/implementations/1/execution/platformOverrides",
     "value": {"windows": {"command": "docker.exe"}, "macos": {"args": ["run", "--rm", "-i", "${package.identifier}"]},
               "linux": {}}},
    {"op": "add", "path": "/implementations/1/configuration/-",
     "value": {"key": "VERBOSE", "description": "Verbose output", "type": "boolean", "defaultValue": False,
               "secret": False}},
    {"op": "add", "path": "/implementations/1/requiredPaths/0/type", "value": "file"},
    {"op": "add", "path": "/implementations/-",
     "value": {"name": "Cloud (mTLS)", "type": "remote", "protocol": "a2a", "uri": "https://api.provider.adck.test/a2a",
               "tags": [], "authentication": {"scheme": "mtls", "description": "A client certificate."},
               "certificate": {"source": "enrollment", "enrollmentEndpoint": "https://provider.adck.test/enroll"}}},
]




def our_clauses() -> set[str]:
    return {m.clause for n, m in MUTANTS.items() if n in NAMES}


def _file(tmp_path: Path, document) -> str:
    path = tmp_path / "aid.json"
    path.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    return str(path)


@pytest.mark.mutants
@pytest.mark.parametrize("name", NAMES)
def test_manifest_mutant_fails_exactly_its_clause(name: str) -> None:
    mutant = MUTANTS[name]
    report = quiet_run("aid@v1", f"builtin:{name}").report
    assert failing(report) == {mutant.clause} | set(mutant.also_fails), [
        (r.clause, r.message) for r in report.results if r.outcome in ("fail", "error")]


@pytest.mark.mutants
@pytest.mark.parametrize("name", NAMES)
def test_manifest_mutant_as_file_fails_exactly_its_clause(name: str, tmp_path: Path) -> None:
    """The same break, as a manifest on its own (document role only): no provider clause can
    hide in the result, and the failure message names the JSON path."""
    mutant = MUTANTS[name]
    report = quiet_run("aid@v1", _file(tmp_path, apply_patch(MANIFEST, mutant.patch))).report
    document_also = {c for c in mutant.also_fails if PROFILE.clauses[c].role == "document"}
    assert failing(report) == {mutant.clause} | document_also
    assert_verdict_names_its_failures(report)
    message = next(r.message for r in report.results if r.clause == mutant.clause)
    assert message and ("implementations" in message or "manifest" in message or "metadata" in message
                        or "schemaVersion" in message or "name" in message), message


def test_every_clause_of_ours_has_a_clean_mutant() -> None:
    clean = {MUTANTS[n].clause for n in NAMES if not MUTANTS[n].also_fails}
    assert len(OURS) == 38 and clean == our_clauses() == OURS
    assert all(MUTANTS[n].patch and not MUTANTS[n].dns for n in NAMES)


def test_reference_provider_passes_our_clauses() -> None:
    report = quiet_run("aid@v1", "builtin").report
    seen = outcomes(report)
    assert {c: seen.get(c) for c in our_clauses() if seen.get(c) not in ("pass", "not-applicable")} == {}


def test_reference_manifest_file_passes_our_clauses() -> None:
    report = quiet_run("aid@v1", str(FIXTURES / "aid.json")).report
    seen = outcomes(report)
    assert report.roles == ["document"] and failing(report) == set()
    assert {c: seen.get(c) for c in our_clauses() if seen.get(c) not in ("pass", "not-applicable")} == {}


def test_manifest_with_every_optional_member_passes_our_clauses(tmp_path: Path) -> None:
    """Guards against false fails: with every optional member present, each clause passes
    (none is left not-applicable), and nothing else fails."""
    report = quiet_run("aid@v1", _file(tmp_path, apply_patch(MANIFEST, EVERYTHING))).report
    seen = outcomes(report)
    assert failing(report) == set(), [(r.clause, r.message) for r in report.results if r.outcome == "fail"]
    assert {c: seen.get(c) for c in our_clauses() if seen.get(c) != "pass"} == {}
