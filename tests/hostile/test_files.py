"""Hostile files the kit reads back (issue #21, points 4 and 7).

* ``adck baseline --from`` writes its baseline with a TOML serializer: a report whose target
  holds a newline and whose message holds ``'''`` plants nothing in it;
* report.json (``compare``, ``baseline --from``), baseline files and ``adck check``'s documents
  are checked before use: too big, nested too deep or off the schema is exit 2 and one line;
* ``compare``'s index.md renders nothing of a report (no HTML, image, heading or javascript:
  link), and no ESC or BEL of a file or folder name reaches the terminal.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import tomllib
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from conformance import cli
from conformance.reports import baseline as bl
from conformance.reports import inputs
from tests.conftest import quiet_run

DEEP = 200_000
PLANT = "x\n[[expected]]\nclause = \"AIE-PLANTED\"\nreason = \"planted\"\n"
HOSTILE = ("<img src=x onerror=alert(1)> <script>alert(1)</script> ![i](https://evil.example/i.png) "
           "[click](javascript:alert(1)) <a href=\"javascript:alert(1)\">a</a>\n# Heading\n")
ESCAPES = "\x1b[31mred\x07"


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _one_line_exit_2(code: int, out: str, err: str) -> str:
    assert code == 2, (code, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out, err
    assert "\x1b" not in err + out and "\x07" not in err + out
    return err


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A real report.json of a run that fails a MUST."""
    folder = tmp_path_factory.mktemp("files")
    result = quiet_run("aiendpoint", "builtin:status-203", report_dir=folder, formats=["json"], seed=3)
    assert result.exit_code == 1
    return json.loads((folder / "report.json").read_text("utf-8"))


def _write(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data), "utf-8")
    return path


def test_a_crafted_report_plants_nothing_in_the_baseline(report: dict, tmp_path: Path) -> None:
    rep = copy.deepcopy(report)
    rep["target"]["spec"] = PLANT
    rep["started_at"] = PLANT
    failing = [r for r in rep["results"] if r["outcome"] in ("fail", "error")]
    assert failing
    for r in failing:
        r["message"] = "'''\n" + PLANT + "'''\n\"\"\"" + PLANT
        r["keyword"] = "MUST\n" + PLANT
    src = _write(tmp_path / "report.json", rep)
    out = tmp_path / "baseline.toml"
    code, said, err = _cli("baseline", "--from", str(src), "-o", str(out), "--reason", "because\n[[expected]]")
    assert code == 0, err
    data = tomllib.loads(out.read_text("utf-8"))
    expected = [r["clause"] for r in rep["results"] if r["level"] != "MAY" and (
        r["outcome"] in ("fail", "error")
        or (r["outcome"] == "untestable" and r["untestable_reason"] == "prerequisite"))]
    assert set(data) == {"version", "draft", "expected"} and data["draft"] == rep["draft"]["short"]
    assert [e["clause"] for e in data["expected"]] == expected
    assert all(set(e) == {"clause", "reason"} and e["reason"] == "because\n[[expected]]" for e in data["expected"])
    assert "AIE-PLANTED" not in [e["clause"] for e in data["expected"]]
    assert f"{len(expected)} entr" in said


def _deep_json() -> str:
    return '{"draft": {"short": "aiendpoint"}, "results": ' + "[" * DEEP + "]" * DEEP + "}"


@pytest.mark.parametrize("command", ["compare", "baseline"])
def test_a_deeply_nested_report_is_exit_2_and_one_line(command: str, tmp_path: Path) -> None:
    src = tmp_path / "report.json"
    src.write_text(_deep_json(), "utf-8")
    argv = ["compare", str(src), "-o", str(tmp_path / "out")] if command == "compare" else ["baseline", "--from", str(src)]
    err = _one_line_exit_2(*_cli(*argv))
    assert "nested deeper" in err


@pytest.mark.parametrize("command", ["compare", "baseline"])
@pytest.mark.parametrize("bad", ["{", '"a string"', '{"draft": 1, "target": {}, "results": {}, "summary": []}',
                                 '{"draft": {"short": "x"}, "target": {}, "summary": {}, "results": [{"clause": 5}]}',
                                 '{"draft": {"short": "x"}, "target": {}, "summary": {}, "results": [1, 2]}'])
def test_a_malformed_report_is_exit_2_and_one_line(command: str, bad: str, tmp_path: Path) -> None:
    src = tmp_path / "report.json"
    src.write_text(bad, "utf-8")
    argv = ["compare", str(src), "-o", str(tmp_path / "out")] if command == "compare" else ["baseline", "--from", str(src)]
    _one_line_exit_2(*_cli(*argv))


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_deeply_nested_baseline_is_refused_in_one_line(suffix: str, tmp_path: Path) -> None:
    path = tmp_path / f"deep{suffix}"
    if suffix == ".toml":
        path.write_text("version = 1\nx = " + "[" * DEEP + "]" * DEEP + "\n", "utf-8")
    else:
        path.write_text('{"expected": ' + "[" * DEEP + "]" * DEEP + "}", "utf-8")
    with pytest.raises(bl.BaselineError) as caught:
        bl.load(path)
    assert "\n" not in str(caught.value) and "nested deeper" in str(caught.value)


def test_adck_run_with_a_deep_baseline_is_exit_2_and_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * DEEP + "]" * DEEP + "\n", "utf-8")
    err = _one_line_exit_2(*_cli("run", "aiendpoint", "--target", "builtin:status-203", "--baseline", str(path),
                                 "--report-dir", str(tmp_path / "r")))
    assert "nested deeper" in err


def test_an_oversized_file_is_refused_before_it_is_read(report: dict, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    sparse = tmp_path / "big.json"
    with open(sparse, "wb") as fh:  # a sparse file: above the limit, no disk used
        fh.truncate(inputs.MAX_BYTES + 1)
    limit = f"{inputs.MAX_BYTES // (1024 * 1024)} MiB"
    for argv in (["compare", str(sparse), "-o", str(tmp_path / "out")], ["baseline", "--from", str(sparse)]):
        err = _one_line_exit_2(*_cli(*argv))
        assert "limit" in err and limit in err
    with pytest.raises(bl.BaselineError, match=f"limit of {bl.MAX_BYTES // (1024 * 1024)} MiB"):
        bl.load(sparse)
    well_known = tmp_path / ".well-known"
    well_known.mkdir()
    with open(well_known / "ai", "wb") as fh:
        fh.truncate(inputs.MAX_BYTES + 1)
    err = _one_line_exit_2(*_cli("check", str(well_known / "ai")))
    assert limit in err
    # a real report above a lowered limit: the same one line
    src = _write(tmp_path / "report.json", report)
    monkeypatch.setattr(inputs, "MAX_BYTES", 1024)
    err = _one_line_exit_2(*_cli("baseline", "--from", str(src)))
    assert "limit of 0.0009765" in err or "limit" in err


def _tokens(md: str) -> list:
    out = []
    for t in MarkdownIt("commonmark").parse(md):
        out.append(t)
        out.extend(t.children or ())
    return out


def test_compare_renders_nothing_of_a_report(report: dict, tmp_path: Path) -> None:
    rep = copy.deepcopy(report)
    rep["target"]["spec"] = rep["target"]["description"] = HOSTILE
    rep["ambiguities"] = [{"id": HOSTILE, "title": HOSTILE, "interpretation": HOSTILE, "clauses": []}]
    for r in rep["results"]:
        for key in ("clause", "section", "keyword", "role", "text", "message"):
            r[key] = f"{r[key]} {HOSTILE}" if key in ("text", "message") else HOSTILE + r[key]
        r["ambiguities"] = [HOSTILE]
    rep["results"][0]["outcome"] = "pass"
    rep["results"][1]["outcome"] = "fail"
    for r in rep["results"][:2]:
        r["replay"], r["untestable_reason"] = f"adck run {HOSTILE}", None
    other = copy.deepcopy(rep)
    other["results"][0]["outcome"], other["results"][1]["outcome"] = "fail", "pass"  # disagreement
    a, b = _write(tmp_path / "a.json", rep), _write(tmp_path / "b.json", other)
    out = tmp_path / "out"
    code, said, err = _cli("compare", str(a), str(b), "-o", str(out))
    assert code == 0, err
    md = (out / "index.md").read_text("utf-8")
    tokens = _tokens(md)
    kinds = {t.type for t in tokens}
    assert not kinds & {"html_inline", "html_block", "image"}, kinds & {"html_inline", "html_block", "image"}
    hrefs = [t.attrGet("href") or "" for t in tokens if t.type == "link_open"]
    assert not [h for h in hrefs if h.lower().startswith("javascript:")] and not hrefs
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert not [h for h in headings if "Heading" in h and "`" not in h]
    assert sum(1 for t in tokens if t.type == "heading_open" and t.tag == "h1") == 1
    page = (out / "matrix.html").read_text("utf-8")
    assert "<img" not in page and "<script>" not in page and 'href="javascript' not in page


def test_check_escapes_control_bytes_in_file_names(tmp_path: Path) -> None:
    hostile = tmp_path / f"{ESCAPES}.adp.json"
    hostile.write_text("{}", "utf-8")
    code, out, err = _cli("check", str(hostile))
    assert code in (1, 2) and out + err
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "\\x1b[31mred\\x07" in out + err
    # a missing file, an unknown name, a report folder: the one error line escapes them too
    for argv in (["check", str(tmp_path / f"missing{ESCAPES}.adp.json")],
                 ["check", str(tmp_path / f"{ESCAPES}.txt")]):
        (tmp_path / f"{ESCAPES}.txt").write_text("{}", "utf-8")
        _one_line_exit_2(*_cli(*argv))
    blocker = tmp_path / f"out{ESCAPES}"
    blocker.write_text("a file", "utf-8")
    for argv in (["compare", str(hostile), "-o", str(blocker)],
                 ["run", "aiendpoint", "--target", "builtin", "--report-dir", str(blocker / "sub")]):
        err = _one_line_exit_2(*_cli(*argv))
        assert "\\x1b" in err


# ------------------------------------------------------------------ memory bounded by totals (point 6)

def _values(v: object) -> int:
    if isinstance(v, dict):
        return 1 + sum(1 + _values(x) for x in v.values())
    if isinstance(v, list):
        return 1 + sum(_values(x) for x in v)
    return 1


@pytest.mark.parametrize("raw", [b"1", b"[]", b"[1, 2]", b'{"a": 1}', b'{"a": "x,:[{", "b": [{}]}',
                                 b'["a\\"b,", "c"]', b'"\\\\"', b'[[], [[]], {"k": {}}]', b'[' + b'{},' * 50 + b'{}]'])
def test_values_are_counted_without_decoding(raw: bytes) -> None:
    """The count bounds every value the decoder makes (objects, arrays, keys, scalars) from
    above, within one per empty array or object: the text is never decoded nor copied to count it."""
    made = _values(json.loads(raw))
    assert made <= inputs.count_values(raw) <= made + raw.count(b"[]") + raw.count(b"{}")


@pytest.mark.parametrize("command", ["compare", "baseline"])
def test_a_report_of_too_many_values_is_refused_before_it_is_decoded(command: str, tmp_path: Path) -> None:
    src = tmp_path / "report.json"
    src.write_bytes(b'{"draft": {"short": "aiendpoint"}, "results": [' + b"{}," * inputs.MAX_VALUES + b"{}]}")
    assert src.stat().st_size < inputs.MAX_BYTES, "the value count, not the size, refuses it"
    argv = ["compare", str(src), "-o", str(tmp_path / "out")] if command == "compare" else ["baseline", "--from", str(src)]
    err = _one_line_exit_2(*_cli(*argv))
    assert f"more than {inputs.MAX_VALUES} JSON values" in err


def test_compare_holds_the_files_to_totals(report: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file is under the limits, the files together are not: the one that passes the total
    is named, and nothing is written."""
    paths = [str(_write(tmp_path / f"{n}.json", report)) for n in "abc"]
    size = Path(paths[0]).stat().st_size
    monkeypatch.setattr(inputs, "MAX_TOTAL_BYTES", 2 * size + 10)  # two files fit, the third does not
    err = _one_line_exit_2(*_cli("compare", *paths, "-o", str(tmp_path / "out")))
    assert "c.json" in err and "in all" in err and not (tmp_path / "out").exists()
    monkeypatch.setattr(inputs, "MAX_TOTAL_BYTES", 3 * size)
    code, _, err = _cli("compare", *paths, "-o", str(tmp_path / "out"))
    assert code == 0, err


def test_compare_keeps_what_the_matrix_uses_only(report: dict) -> None:
    """Evidence and messages are let go as each report is read (the matrix's memory, not every
    report's)."""
    from conformance.reports import compare

    slim = compare._slim(report)
    assert set(slim["results"][0]) <= set(compare._KEPT_RESULT)
    assert "evidence" not in json.dumps(slim) and len(json.dumps(slim)) < len(json.dumps(report))
    assert compare.build([slim]).rows and compare.build([slim]).rows[0].cells == [report["results"][0]["outcome"]]
