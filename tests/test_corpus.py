"""The authors' real documents, run as document targets (read from ../shared, never copied)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import absent, quiet_run

EXPECTED = tomllib.loads((Path(__file__).parent / "data" / "aiendpoint_corpus.toml").read_text("utf-8"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_document_verdict(name: str, corpora_dir: Path) -> None:
    path = corpora_dir / "aiendpoint" / name
    if not path.exists():
        absent(f"{path} is absent")
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
        absent(f"{folder / name} is absent")
    validator = jsonschema.Draft202012Validator(json.loads((folder / "schema.json").read_text("utf-8")))
    valid = validator.is_valid(json.loads((folder / name).read_text("utf-8")))
    assert valid == EXPECTED[name]["authors_schema_valid"]


def test_reference_document_is_valid_under_the_authors_schema(corpora_dir: Path) -> None:
    folder = corpora_dir / "aiendpoint"
    reference = Path(__file__).parents[1] / "fixtures" / "aiendpoint" / "document.json"
    validator = jsonschema.Draft202012Validator(json.loads((folder / "schema.json").read_text("utf-8")))
    assert validator.is_valid(json.loads(reference.read_text("utf-8")))


@pytest.mark.parametrize("title, nxt, verdict", [
    ("8.1. Minimal Conformant Response", "8.2.", ("conformant", ["AIE-3.4-07"])),
    ("8.2. Full-Featured Response", "8.3.", ("full", [])),
    ("8.3. Service with No Authentication", "9. References", ("full", [])),
])
def test_the_drafts_own_examples(title: str, nxt: str, verdict: tuple, specs_dir: Path, tmp_path: Path) -> None:
    """The examples of section 8 fail no MUST: a guard against false fails (8.1, 'minimal',
    has no auth object, which 3.4 RECOMMENDS)."""
    text = (specs_dir / "aiendpoint-ai-discovery-00.txt").read_text("utf-8")
    start = text.rindex(title) + len(title)  # rindex: the table of contents names the sections too
    document = json.loads(" ".join(text[start:text.index(nxt, start)].split()))  # the text was re-wrapped
    path = tmp_path / "example.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    report = quiet_run("aiendpoint", str(path)).report
    failing = sorted(r.clause for r in report.results if r.outcome in ("fail", "error"))
    assert (report.summary.level, failing) == verdict


def test_a_document_over_the_read_cap_fails_only_its_size(tmp_path: Path) -> None:
    """A document file larger than --max-body, cut inside a four-byte character, fails
    AIE-4.5-01 (too large) and not AIE-2.4-01; its content clauses are untestable (AMB-33)."""
    reference = json.loads((Path(__file__).parents[1] / "fixtures" / "aiendpoint" / "document.json").read_text("utf-8"))
    reference["meta"]["x_notes"] = "\U0001F642" * 1000
    body = json.dumps(reference, ensure_ascii=False).encode("utf-8")
    cap = body.index("\U0001F642".encode("utf-8")) + 4 * 10 + 2
    path = tmp_path / "big.json"
    path.write_bytes(body)
    report = quiet_run("aiendpoint", str(path), max_body=cap).report
    outcomes = {r.clause: r.outcome for r in report.results}
    assert sorted(c for c, o in outcomes.items() if o in ("fail", "error")) == ["AIE-4.5-01"]
    assert outcomes["AIE-2.4-01"] == "pass"
    assert report.summary.must_unverified


def test_an_integer_of_5000_digits_is_json(tmp_path: Path) -> None:
    text = (Path(__file__).parents[1] / "fixtures" / "aiendpoint" / "document.json").read_text("utf-8")
    path = tmp_path / "big-integer.json"
    path.write_text(text.replace('"meta": {', '"meta": {\n    "x_serial": ' + "7" * 5000 + ","), encoding="utf-8")
    report = quiet_run("aiendpoint", str(path)).report
    assert report.summary.level == "full", [(r.clause, r.message) for r in report.results if r.outcome != "pass"]
