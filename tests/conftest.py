"""Shared fixtures of the kit's own tests (the self-tests)."""

from __future__ import annotations

import contextlib
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
