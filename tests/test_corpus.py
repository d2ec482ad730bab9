"""The authors' real documents, run as document targets (read from ../shared, never copied)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import quiet_run

EXPECTED = tomllib.loads((Path(__file__).parent / "data" / "aiendpoint_corpus.toml").read_text("utf-8"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_document_verdict(name: str, corpora_dir: Path) -> None:
    path = corpora_dir / "aiendpoint" / name
    if not path.exists():
        pytest.skip(f"{path} is absent")
    report = quiet_run("aiendpoint", str(path)).report
    failing = sorted(r.clause for r in report.results if r.outcome in ("fail", "error"))
    assert report.roles == ["document"]
    assert not report.summary.must_unverified
    assert (report.summary.level, failing) == (EXPECTED[name]["level"], EXPECTED[name]["failing"])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_authors_schema_verdict_is_recorded(name: str, corpora_dir: Path) -> None:
    """Where the authors' schema and the draft's text disagree is a finding (AMB-04), kept on record."""
    folder = corpora_dir / "aiendpoint"
    if not (folder / name).exists():
        pytest.skip("corpus absent")
    validator = jsonschema.Draft202012Validator(json.loads((folder / "schema.json").read_text("utf-8")))
    valid = validator.is_valid(json.loads((folder / name).read_text("utf-8")))
    assert valid == EXPECTED[name]["authors_schema_valid"]


def test_reference_document_is_valid_under_the_authors_schema(corpora_dir: Path) -> None:
    folder = corpora_dir / "aiendpoint"
    reference = Path(__file__).parents[1] / "fixtures" / "aiendpoint" / "document.json"
    validator = jsonschema.Draft202012Validator(json.loads((folder / "schema.json").read_text("utf-8")))
    assert validator.is_valid(json.loads(reference.read_text("utf-8")))
