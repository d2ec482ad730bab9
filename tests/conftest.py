"""Shared fixtures of the kit's own tests (the self-tests)."""

from __future__ import annotations

import contextlib
import functools
import io
import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the properties with a fixed derandomized seed (a red build is then always a change in
# the code, never a new corner found by chance); a developer's run explores with random seeds.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

from conformance import api, resources


@pytest.fixture(scope="session")
def specs_dir() -> Path:
    """The drafts' texts (../shared/specs); the self-tests that need them skip without."""
    folder = resources.specs_dir()
    if folder is None:
        pytest.skip("the drafts' texts (../shared/specs or $ADCK_SPECS) are not here")
    return folder


@pytest.fixture(scope="session")
def corpora_dir() -> Path:
    folder = resources.corpora_dir()
    if folder is None:
        pytest.skip("the authors' corpora (../shared/corpora or $ADCK_CORPORA) are not here")
    return folder


def quiet_run(*args, **kwargs) -> api.RunResult:
    """Run a suite in-process with its pytest output swallowed."""
    kwargs.setdefault("report_dir", None)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return api.run(*args, **kwargs)


def failing(report) -> set[str]:
    """The clauses a report failed or could not evaluate (``Report.failing()``), by id."""
    return {r.clause for r in report.failing()}


def outcomes(report) -> dict[str, str]:
    """Clause id -> outcome of a report."""
    return {r.clause: r.outcome for r in report.results}


def assert_broken_client_fails_exactly_its_clause(draft: str, name: str, role: str) -> None:
    """``builtin:NAME`` in the client role fails its clause (and its declared also_fails) and
    nothing else, exits as its clause's level says, and shows the harness step that failed."""
    __tracebackhide__ = True
    from conformance import catalog
    from conformance.world.site import load_mutants

    profile = catalog.load(draft)
    assert profile.client is not None
    mutant = load_mutants(draft, file=profile.client.mutants)[name]
    result = quiet_run(draft, f"builtin:{name}", roles=[role])
    report = result.report
    assert failing(report) == {mutant.clause} | set(mutant.also_fails), (
        f"{name}: " + "; ".join(f"{r.clause} {r.outcome}: {r.message}" for r in report.results
                                if r.outcome in ("fail", "error")))
    assert result.exit_code == (1 if profile.clause(mutant.clause).level == "MUST" else 0)
    failed = next(r for r in report.results if r.clause == mutant.clause)
    kinds = {next(iter(ev)) for ev in failed.evidence}
    assert "harness" in kinds, "a failing client clause shows the step the kit sent and the reply"


@functools.cache
def schema_validator(path: Path):
    """A profile's JSON Schema, itself checked against the 2020-12 metaschema first."""
    import json

    import jsonschema

    schema = json.loads(path.read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def named_ways(table: dict) -> list[tuple[str, str]]:
    """The (clause, way) pairs of a table of named breaks, in a stable order, for parametrize."""
    return [(cid, name) for cid in sorted(table) for name in table[cid]]
