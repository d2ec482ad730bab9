"""Draft revisions as data (issue #23): ``DRAFT@REV``, each revision's catalog, ``adck revisions``
and ``adck diff``; the mechanism is the same for every draft (``conformance/revisions.py``).

* every sentence a revision's catalog quotes is in that revision's text, and every key word of
  the text is quoted by some entry of its catalog (as ``tests/test_catalog.py`` asks of the
  first revision), so a later revision's catalog is complete and exact;
* an unchanged sentence keeps its id in every revision; a changed one gets a new id and names
  the one it replaces; a removed one is listed with what became of it;
* ``docs/revisions/aiendpoint-00-01.md`` is what ``adck diff aiendpoint@00 aiendpoint@01``
  writes, ``docs/revisions/aid-v1-v1.2.md`` what ``adck diff aid@v1 aid@v1.2`` writes
  (regenerate each with its command and ``-o``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import catalog, cli, revisions
from conformance.reports import render
from conformance.catalog import CatalogError
from tests.test_catalog import uncovered_keywords

ROOT = Path(__file__).resolve().parents[1]
LATER = [(d, r.name) for d in catalog.available() for r in revisions.revisions(d)[1:]]


@pytest.mark.parametrize("draft, name", LATER)
def test_a_later_revisions_catalog_is_exact_and_complete(draft: str, name: str, specs_dir: Path) -> None:
    revision = next(r for r in revisions.revisions(draft) if r.name == name)
    text = revisions.draft_text((specs_dir / revision.spec_file).read_text("utf-8"))
    cat = revisions.catalog_of(draft, name)
    missing = [c.id for c in cat.clauses.values() if c.text not in text]
    assert not missing, f"quotes of {revision.label} not in {revision.spec_file}: {missing}"
    uncovered = uncovered_keywords(text, [c.text for c in cat.clauses.values()])
    assert not uncovered, f"key words of {revision.label} no entry quotes:\n" + "\n".join(uncovered)


@pytest.mark.parametrize("draft, name", LATER)
def test_ids_are_kept_replaced_or_removed_never_reused(draft: str, name: str) -> None:
    first = revisions.catalog_of(draft, revisions.revisions(draft)[0].name)
    cat = revisions.catalog_of(draft, name)
    for cid, clause in cat.clauses.items():
        if cid in first.clauses:  # an unchanged sentence: the same id, the same words
            assert clause.text == first.clauses[cid].text and clause.keyword == first.clauses[cid].keyword
    assert set(first.clauses) <= set(cat.clauses) | set(cat.removed)
    assert not set(cat.removed) & set(cat.clauses)
    assert set(cat.replaces.values()) <= set(cat.removed)
    published = {line.split()[0] for line in (ROOT / "profiles" / draft / "published-ids.txt").read_text().splitlines()
                 if line.strip() and not line.startswith("#")}
    new = set(cat.clauses) - set(first.clauses)
    assert not new & published, f"a new sentence of {draft}@{name} reuses a published id: {sorted(new & published)}"


def test_aiendpoint_01_changes_what_its_text_changes() -> None:
    """Spot checks against the two texts (read by hand): the /ai alias becomes NOT RECOMMENDED, a
    served alias MUST be identical, agents MUST NOT use a response from another path, the 404
    fallback to /ai is withdrawn, and sections 6-9 are renumbered 7-10."""
    d = revisions.diff("aiendpoint", "00", "01")
    added = {c.id: c.keyword for c in d.added}
    assert added == {"AIE-2.1-06": "NOT RECOMMENDED", "AIE-4.1-07": "SHOULD NOT", "AIE-6-02": "MUST"}
    changed = {x.old.id: (x.new.id, x.new.keyword) for x in d.changed}
    assert changed == {"AIE-2.1-02": ("AIE-2.1-07", "MAY"), "AIE-2.1-03": ("AIE-2.1-08", "MUST"),
                       "AIE-2.1-04": ("AIE-2.1-09", "MUST NOT"), "AIE-4.1-03": ("AIE-4.1-06", "SHOULD")}
    assert [c.id for c, _ in d.removed] == ["AIE-4.1-04"]
    assert {(old, new) for _, old, new in d.moved} == {(f"6{s}", f"7{s}") for s in ("", ".1", ".2", ".3", ".4", ".5")}
    assert {x.old.id for x in d.changed if x.level_changed} == {"AIE-4.1-03"}  # MAY -> SHOULD
    assert "AIE-2.1-03" in d.tests and d.tests["AIE-2.1-03"], "the tests a change touches are named"


@pytest.mark.parametrize("a, b, doc, changed", [("aiendpoint@00", "aiendpoint@01", "aiendpoint-00-01.md", 4),
                                                 ("aid@v1", "aid@v1.2", "aid-v1-v1.2.md", 33),
                                                 ("aid@v1.2", "aid@v2.1", "aid-v1.2-v2.1.md", 60),
                                                 ("aid@v1", "aid@v2.1", "aid-v1-v2.1.md", 28)])
def test_the_diff_document_is_what_adck_diff_writes(a: str, b: str, doc: str, changed: int, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "d.md"
    assert cli.main(["diff", a, b, "-o", str(out)]) == 0
    assert out.read_text("utf-8") == (ROOT / "docs/revisions" / doc).read_text("utf-8"), \
        f"docs/revisions/{doc} is stale: adck diff {a} {b} -o it"
    assert cli.main(["diff", a, b, "--json"]) == 0
    data = json.loads(capsys.readouterr().out.split("\n", 1)[1])  # after the "written:" line
    assert data["from"]["revision"] == a.split("@")[1] and data["to"]["revision"] == b.split("@")[1]
    assert len(data["changed"]) == changed


@pytest.mark.parametrize("spec, expected", [("aiendpoint", ["01"]), ("aiendpoint@00", ["00"]),
                                            ("aiendpoint@01", ["01"]), ("aiendpoint@-01", ["01"]),
                                            ("aiendpoint@00,01", ["00", "01"]), ("aiendpoint@all", ["00", "01"]),
                                            ("woa", ["00"]), ("aid@v1", ["v1"])])
def test_draft_at_revision(spec: str, expected: list[str]) -> None:
    assert [r.name for r in revisions.parse(spec)[1]] == expected


@pytest.mark.parametrize("spec", ["aiendpoint@02", "aiendpoint@", "woa@01", "nosuch@00"])
def test_an_unknown_revision_is_one_line_naming_the_known(spec: str) -> None:
    with pytest.raises(CatalogError) as caught:
        revisions.parse(spec)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("argv", [["run", "aiendpoint@09", "--target", "builtin"],
                                  ["run", "aiendpoint@00,09", "--target", "builtin"],
                                  ["targets", "aiendpoint@00,01"], ["clauses", "aiendpoint@all"],
                                  ["run", "aiendpoint", "--target", "builtin", "--clause", "AIE-2.1-03"],
                                  ["diff", "aiendpoint@00", "woa@00"], ["diff", "aiendpoint", "aiendpoint@01"]])
def test_what_is_not_built_is_refused_in_one_line(argv: list[str], capsys: pytest.CaptureFixture) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    if "--clause" in argv:  # a sentence of a revision the run does not judge: the one that holds it
        assert "a clause of aiendpoint@00, which this run (aiendpoint@01) does not judge" in err


def test_a_revision_catalogued_but_not_judged_is_refused_by_every_judging_command(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    """A revision recorded before its tests (``judged = false``) is listed and diffed, never run:
    `adck run`, `pytest --adck-draft` and api.run refuse it in one line, and without @ the draft
    means the newest judged one."""
    from dataclasses import replace

    known = revisions.revisions("aiendpoint")
    monkeypatch.setattr(revisions, "revisions", lambda short: tuple(
        replace(r, judged=False) if short == "aiendpoint" and r.name == "01" else r for r in
        (known if short == "aiendpoint" else revisions.revisions.__wrapped__(short))))
    assert revisions.judged("aiendpoint").name == "00"
    assert cli.main(["run", "aiendpoint@01", "--target", "builtin"]) == 2
    assert "does not judge it yet; judge aiendpoint@00" in capsys.readouterr().err
    from conformance import api

    result = api.run("aiendpoint@all", "builtin", report_dir=None)
    assert result.exit_code == 2 and "aiendpoint@01 is catalogued" in str(result.error)
    assert cli.main(["clauses", "aiendpoint@01", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["judged"] is False


def test_revisions_and_clauses_name_the_revision(capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["revisions", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["label"] for r in rows if r["default"]} == {f"{d}@{revisions.judged(d).name}" for d in catalog.available()}
    assert cli.main(["clauses", "aiendpoint@01", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["revision"] == "01" and data["judged"] and data["label"] == "aiendpoint@01"
    by_id = {c["id"]: c for c in data["clauses"]}
    assert by_id["AIE-6.4-03"]["section"] == "7.4" and "AIE-2.1-02" not in by_id and "AIE-2.1-02" in data["removed"]
    assert by_id["AIE-2.1-07"]["replaces"] == "AIE-2.1-02"
    assert by_id["AIE-2.1-08"]["status"] == "tested" and by_id["AIE-2.1-08"]["mutants"] >= 2
    assert cli.main(["clauses", "aiendpoint", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["revision"] == "01", "without @: the newest revision judged"
    assert cli.main(["ambiguities", "aiendpoint@00", "--json"]) == 0
    ids = {a["id"] for a in json.loads(capsys.readouterr().out)["ambiguities"]}
    assert "AMB-18" in ids and "AMB-34" not in ids


def test_the_mechanism_knows_no_draft() -> None:
    """The next draft's revisions are data only: nothing in the mechanism names a draft."""
    source = (ROOT / "conformance" / "revisions.py").read_text("utf-8")
    for draft in catalog.available():
        assert f'"{draft}"' not in source and f"'{draft}'" not in source


def test_several_revisions_are_judged_from_one_set_of_requests() -> None:
    """`adck run aiendpoint@all` on a publisher whose /ai copy differs: -01 fails it (AIE-2.1-08,
    and the alias itself, AIE-2.1-06), -00's judgement (AIE-2.1-03) stands beside it, each the
    verdict a run of that revision alone gives, from no more requests than the larger of those
    two runs: every probe is sent once and judged under both."""
    from tests.conftest import failing, quiet_run

    target = "builtin:alias-names-another-service"
    both = quiet_run("aiendpoint@all", target).report
    alone = {name: quiet_run(f"aiendpoint@{name}", target).report for name in ("00", "01")}
    by = {e["name"]: e for e in both.revisions}
    assert [e["label"] for e in both.revisions] == ["aiendpoint@00", "aiendpoint@01"]
    for name, report in alone.items():
        assert (by[name]["level"], set(by[name]["not_passed"])) == (report.summary.level, failing(report)), name
    assert {"AIE-2.1-06", "AIE-2.1-08"} <= set(by["01"]["not_passed"]) and "AIE-2.1-03" in by["00"]["not_passed"]
    assert both.draft["label"] == "aiendpoint@01" and failing(both) == failing(alone["01"])
    assert render.headline(both).startswith("aiendpoint: -01 non-conformant (1 MUST failed, 1 SHOULD failed); "
                                            "-00 non-conformant (1 MUST failed)"), render.headline(both)
    from conformance.reports import terminal

    shown = [str(t) for t in terminal.summary(both)]
    at = shown.index("aiendpoint@00: FAIL AIE-2.1-03 (§2.1, MUST)")  # the -00 failure, with what was seen
    assert "different document" in shown[at + 1] and "--clause AIE-2.1-03" in shown[at + 2]
    differs = {d["clause"]: d["outcome"] for d in by["01"]["differs"]}
    assert differs["AIE-2.1-08"] == "fail" and "AIE-2.1-03" in {d["clause"] for d in by["00"]["differs"]}
    assert both.requests_sent == max(r.requests_sent for r in alone.values()), \
        (both.requests_sent, {n: r.requests_sent for n, r in alone.items()})
    # every rendering carries each revision's verdict
    from conformance.reports import html, junit, markdown

    md, page, xml = markdown.to_markdown(both), html.to_html(both), junit.to_junit(both)
    assert "## Revisions judged" in md and "| aiendpoint@00 | draft-aiendpoint-ai-discovery-00 | -00 non-conformant" in md
    assert 'class="revisions"' in page and "AIE-2.1-08 (MUST) fail" in page
    assert 'name="verdict_aiendpoint@00" value="-00 non-conformant (1 MUST failed)"' in xml


def test_check_and_targets_take_one_revision(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    """`adck check --draft aiendpoint@00 FILE` judges the file under -00 (its SARIF names it);
    `adck targets aiendpoint@00` lists the variants, a -00-only one with its command under -00."""
    document = ROOT / "fixtures" / "aiendpoint" / "document.json"
    sarif = tmp_path / "out.sarif"
    assert cli.main(["check", "--draft", "aiendpoint@00", str(document), "--sarif", str(sarif)]) == 0
    verdicts = json.loads(sarif.read_text("utf-8"))["runs"][0]["properties"]["verdicts"]
    assert [v["revision"] for v in verdicts] == ["aiendpoint@00"]
    capsys.readouterr()
    assert cli.main(["targets", "aiendpoint@00", "--json"]) == 0
    broken = {v["name"]: v for v in json.loads(capsys.readouterr().out)["broken"]}
    assert broken["alias-differs"]["command"] == "adck run aiendpoint@00 --target builtin:alias-differs"
    assert broken["alias-names-another-service"]["command"].startswith("adck run aiendpoint@01 ")


def test_a_diff_across_several_revisions_follows_each_sentence() -> None:
    """aid@v1 to aid@v2.1 skips v1.2: a v1 sentence that v1.2 changed and v2.1 changed again is one
    change from v1 to v2.1; one that v1.2 changed and v2.1 removed is removed, with v2.1's reason
    (not a change to an id v2.1 no longer holds); the ambiguities v1.2 resolved say how."""
    d = revisions.diff("aid", "v1", "v2.1")
    v12, v21 = revisions.catalog_of("aid", "v1.2"), revisions.catalog_of("aid", "v2.1")
    for x in d.changed:
        assert x.new.id in v21.clauses and x.old.id not in v21.clauses
    via_v12 = {old for new, old in v12.replaces.items() if new in v21.removed}
    removed = {c.id for c, _ in d.removed}
    assert via_v12 and via_v12 <= removed | {x.old.id for x in d.changed}
    assert all(how for _, how in d.resolved), "each resolved ambiguity says how, whichever revision resolved it"

