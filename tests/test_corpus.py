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
    report = quiet_run("aiendpoint@all", str(path)).report
    failing = sorted(r.clause for r in report.results if r.outcome in ("fail", "error"))
    assert report.roles == ["document"]
    assert not report.summary.must_unverified
    assert (report.summary.level, failing) == (EXPECTED[name]["level"], EXPECTED[name]["failing"])
    # judged under every revision from the one read: each revision's verdict is the one recorded for
    # it (docs/corpus-verdicts.md: -01 changed no document sentence, so none differs yet)
    recorded = EXPECTED[name].get("revisions", {})
    for entry in report.revisions:
        expected = recorded.get(entry["name"], EXPECTED[name])
        assert (entry["level"], sorted(entry["not_passed"])) == (expected["level"], expected["failing"]), entry["label"]
        assert not [d for d in entry["differs"] if d["outcome"] != "not-applicable"], entry["differs"]


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


@pytest.mark.parametrize("revision, title, nxt, verdict", [
    ("00", "8.1. Minimal Conformant Response", "8.2.", ("conformant", ["AIE-3.4-07"])),
    ("00", "8.2. Full-Featured Response", "8.3.", ("full", [])),
    ("00", "8.3. Service with No Authentication", "9. References", ("full", [])),
    # -01's examples are section 9 (the new section 6 moved them), the same documents
    ("01", "9.1. Minimal Conformant Response", "9.2.", ("conformant", ["AIE-3.4-07"])),
    ("01", "9.2. Full-Featured Response", "9.3.", ("full", [])),
    ("01", "9.3. Service with No Authentication", "10. References", ("full", [])),
])
def test_the_drafts_own_examples(revision: str, title: str, nxt: str, verdict: tuple, specs_dir: Path,
                                 tmp_path: Path) -> None:
    """The examples of each revision fail no MUST of it: a guard against false fails ('minimal'
    has no auth object, which 3.4 RECOMMENDS)."""
    from conformance import revisions

    spec = next(r for r in revisions.revisions("aiendpoint") if r.name == revision).spec_file
    # the -01 text is paginated: its page breaks fall inside the JSON, dropped with the furniture
    text = revisions.draft_text((specs_dir / spec).read_text("utf-8"))
    start = text.rindex(title) + len(title)  # rindex: the table of contents names the sections too
    document = json.loads(text[start:text.index(nxt, start)])
    path = tmp_path / "example.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    report = quiet_run(f"aiendpoint@{revision}", str(path)).report
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
