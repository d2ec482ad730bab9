"""``adck compare``: the matrix over hand-built report dicts (no run): disagreement, ambiguity
marks, clauses nobody passes, clauses a report did not check, escaping of target text."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conformance import cli
from conformance.reports import compare

HOSTILE = "<script>alert(1)</script> | `x` [l](https://evil.test)"


def _result(clause: str, outcome: str, level: str = "MUST", ambiguities: list[str] | None = None) -> dict:
    return {"clause": clause, "section": clause.split("-")[1], "level": level, "keyword": level, "role": "document",
            "text": f"The {clause} sentence MUST hold.", "outcome": outcome, "message": "",
            "ambiguities": ambiguities or []}


def _report(description: str, results: list[dict], draft: str = "woa", level: str = "conformant") -> dict:
    return {"draft": {"short": draft, "id": f"draft-{draft}-00", "title": draft},
            "target": {"spec": description, "kind": "document", "description": description, "notes": []},
            "roles": ["document"], "summary": {"level": level, "partial": False}, "results": results,
            "ambiguities": [{"id": "AMB-01", "title": "a gap", "interpretation": "the kit reads it so"}]}


@pytest.fixture
def reports() -> list[dict]:
    return [
        _report("impl A", [_result("WOA-1-01", "pass"), _result("WOA-1-02", "fail", ambiguities=["AMB-01"]),
                           _result("WOA-1-03", "fail"), _result("WOA-1-04", "untestable")]),
        _report("impl B", [_result("WOA-1-01", "fail"), _result("WOA-1-02", "fail", ambiguities=["AMB-01"]),
                           _result("WOA-1-03", "not-applicable"), _result("WOA-1-04", "pass")]),
        _report(HOSTILE, [_result("AIE-3-01", "pass")], draft="aiendpoint", level="full"),
    ]


def test_matrix_marks_disagreement_ambiguity_and_nobody_passes(reports):
    m = compare.build(reports)
    rows = {r.clause: r for r in m.rows}
    assert [c.label for c in m.columns][:2] == ["impl A (document)", "impl B (document)"]
    assert rows["WOA-1-01"].cells == ["pass", "fail", None]  # None: the report did not check it
    assert rows["WOA-1-01"].disagree
    assert not rows["WOA-1-02"].disagree and rows["WOA-1-02"].nobody_passes
    assert rows["WOA-1-02"].ambiguities == ["AMB-01"]
    assert rows["WOA-1-03"].nobody_passes and not rows["WOA-1-03"].disagree  # fail vs n/a: no verdict vs one
    assert not rows["WOA-1-04"].disagree and not rows["WOA-1-04"].nobody_passes  # untestable is no fail
    assert [r.draft for r in m.rows] == ["woa"] * 4 + ["aiendpoint"]  # grouped by draft


def test_markdown_lists_and_escapes(reports):
    md = compare.to_markdown(compare.build(reports))
    disagree = md.split("## Where implementations disagree (1)")[1].split("##")[0]
    assert "WOA-1-01" in disagree and "WOA-1-02" not in disagree
    nobody = md.split("## Clauses nobody passes (2)")[1].split("##")[0]
    assert "WOA-1-02" in nobody and "WOA-1-03" in nobody and "WOA-1-01" not in nobody
    row = next(line for line in md.splitlines() if line.startswith("| WOA-1-02 |"))
    assert "reading AMB-01" in row and "| FAIL | FAIL | · |" in row
    assert "| WOA-1-01 |" in md and "**disagree**" in next(line for line in md.splitlines() if line.startswith("| WOA-1-01 |"))
    # the hostile description sits in a code span whose pipe cannot split the table
    target_row = next(line for line in md.splitlines() if line.startswith("| 3 |"))
    assert "<script>" not in target_row.replace("`<script>", "") and "\\|" in target_row
    assert target_row.count(" | ") == 6  # still seven cells
    assert "woa:AMB-01" in md and "the kit reads it so" in md


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.disagree: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        a = dict(attrs)
        if tag == "tr" and a.get("class") == "disagree":
            self.disagree.append(a.get("id", ""))


def test_html_is_self_contained_escaped_and_highlights(reports):
    page = compare.to_html(compare.build(reports))
    parsed = _Text()
    parsed.feed(page)
    assert "script" not in parsed.tags  # the hostile description is text, not a tag
    assert "&lt;script&gt;" in page
    assert parsed.disagree == ["woa-WOA-1-01"]
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing fetched from a network
    assert "reading AMB-01" in page and 'id="nobody"' in page and 'href="#woa-WOA-1-01"' in page


def test_cli_compare_writes_both_files_and_refuses_a_non_report(reports, tmp_path, capsys):
    paths = []
    for i, rep in enumerate(reports):
        p = tmp_path / f"r{i}" / "report.json"
        p.parent.mkdir()
        p.write_text(json.dumps(rep), "utf-8")
        paths.append(str(p))
    out = tmp_path / "out"
    assert cli.main(["compare", *paths, "-o", str(out)]) == 0
    assert (out / "index.md").read_text("utf-8").startswith("# adck: implementations compared")
    assert "WOA-1-01" in (out / "matrix.html").read_text("utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a report"}', "utf-8")
    assert cli.main(["compare", str(bad), "-o", str(out)]) == 2
    assert "not an adck report.json" in capsys.readouterr().err


def test_committed_matrix_covers_builtin_and_aid_discovery():
    """docs/compare/ holds the matrix over the aid builtin targets and the aid-discovery report."""
    root = Path(__file__).resolve().parent.parent / "docs" / "compare"
    md = (root / "index.md").read_text("utf-8")
    for needle in ("`builtin`", "client aid-discovery (aid_py) 2.1.1", "Where implementations disagree",
                   "Clauses nobody passes"):
        assert needle in md, needle
    sources = re.findall(r"`([^`]*report\.json)`", md)
    assert sources and all((root / s).is_file() for s in sources)
    m = compare.build([compare.load(root / s) for s in sources], sources)
    assert compare.to_markdown(m) in md  # the committed matrix is what its inputs give


#: Characters every common font draws (WGL4's text repertoire, in short): ASCII, Latin-1, the
#: dashes, quotes, bullet and ellipsis of General Punctuation, arrows, and the few mathematical
#: signs of WGL4 (the drafts write <= as "≤"). No emoji, no dingbat or miscellaneous symbol, no
#: variation selector: Debian's Chromium without an emoji font draws those as empty boxes.
_SAFE = (set(map(chr, range(0x20, 0x7F))) | set("\n\t") | set(map(chr, range(0xA0, 0x100)))
         | set(map(chr, range(0x2010, 0x2028))) | set(map(chr, range(0x2030, 0x203B)))
         | set(map(chr, range(0x2190, 0x2196))) | set("−∕∙√∞∟∩∫≈≠≡≤≥"))


def _unsafe(text: str) -> list[str]:
    return sorted({f"{ch!r} U+{ord(ch):04X}" for ch in text if ch not in _SAFE})


def test_the_matrix_uses_no_character_a_font_may_lack(reports, tmp_path):
    """The matrix's own marks are words and Latin-1 (pass, FAIL, n/a, ·, disagree, reading
    AMB-01): in files built from ASCII reports every character is Latin-1; the committed
    docs/compare/ (the drafts' own sentences included) holds nothing outside the safe set."""
    plain = [r for r in reports if r["target"]["spec"] != HOSTILE] + [
        _report("impl C", [_result("WOA-1-01", o) for o in ("error",)]),
        _report("impl D", [_result("WOA-1-01", "not-applicable")])]
    for path in compare.write(compare.build(plain), tmp_path):
        text = path.read_text("utf-8")
        assert not [ch for ch in text if ord(ch) > 0xFF], f"{path.name}: {_unsafe(text) or 'non-Latin-1 marks'}"
        for word in ("pass", "FAIL", "ERROR", "n/a", "untestable", "·", "disagree", "reading AMB-01"):
            assert word in text, f"{path.name} lacks {word!r}"
    root = Path(__file__).resolve().parent.parent / "docs" / "compare"
    for name in ("index.md", "matrix.html"):
        assert not _unsafe((root / name).read_text("utf-8")), f"docs/compare/{name}: {_unsafe((root / name).read_text('utf-8'))}"
