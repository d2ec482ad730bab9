"""Reports are safe to publish: whatever a target says, every format stays well-formed, nothing
in it renders as markup or reaches the terminal as an escape sequence, and no secret survives.

The strings are put where target text lands in a real report (the observation, the evidence,
the target's description and notes); the report then goes through the same path as a run's:
:func:`conformance.reports.safe.sanitize`, then every renderer.
"""

from __future__ import annotations

import copy
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from rich.console import Console

from conformance import cli
from conformance.reports import render
from conformance.reports.safe import MAX_STRING, sanitize
from tests.conftest import quiet_run

SECRETS = ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
           "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefgh123")
HOSTILE = (
    "<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "![pixel](https://evil.test/p.png)",
    "[click](javascript:alert(1))", "\n# Heading\n", "@octocat", "``` fence", "`", "|cell|",
    "\x1b]52;c;ZXZpbA==\x07", "\x1b[2J", "\x1b]8;;https://evil.test\x1b\\link\x1b]8;;\x1b\\", "\x9b31m",
    "\ud800", "\udfff", "\x00", "\x0b", "\ufeff", "[/x]", "[bold]", "\u202e", "https://u:p@evil.test/?api_key=s3cret",
)


@pytest.fixture(scope="module")
def base_report():
    return quiet_run("aiendpoint", "builtin:status-203", seed=5).report


def hostile(report, payload: str, number: float = 1.0):
    """The report with the payload wherever target text lands."""
    bad = copy.deepcopy(report)
    failed = next(r for r in bad.results if r.outcome == "fail")
    failed.message = f"observed {payload} here"
    failed.evidence = [*failed.evidence, {"request": {"method": "GET", "url": f"https://x.test/{payload}",
                                                      "headers": {"X-Upstream": payload}},
                                          "response": {"status": 200, "reason": payload, "headers": [["x", payload]],
                                                       "body_bytes": 1, "body_truncated": False,
                                                       "body_excerpt": payload, "odd_number": number}}]
    bad.target["description"] = f"origin {payload}"
    bad.target["notes"] = [payload]
    return sanitize(bad)


def rendered(report, folder: Path) -> dict[str, str]:
    paths = render.write(report, folder, list(render.FORMATS))
    out = {p.name: p.read_text("utf-8") for p in paths}
    console = io.StringIO()
    cli._print_summary(report, Console(file=console, force_terminal=False, width=200, highlight=False))
    out["terminal"] = console.getvalue()
    return out


payloads = st.lists(st.one_of(st.sampled_from(HOSTILE + SECRETS), st.text(max_size=12)), min_size=1, max_size=6).map("".join)


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(payload=payloads, number=st.sampled_from([1.5, float("inf"), float("-inf"), float("nan")]))
# found by a run of the README's test command: a URL glued to a token kept its userinfo
@example(payload="ghp_abcdefghijklmnopqrstuvwxyz0123456789https://u:p@evil.test/?api_key=s3cret", number=1.5)
def test_every_format_stays_well_formed_and_inert(base_report, tmp_path: Path, payload: str, number: float) -> None:
    out = rendered(hostile(base_report, payload, number), tmp_path)
    json.loads(out["report.json"], parse_constant=lambda c: pytest.fail(f"report.json holds {c}"))
    ET.fromstring(out["junit.xml"].encode("utf-8"))
    for name, text in out.items():
        for secret in SECRETS + ("s3cret", "u:p@"):
            assert secret not in text, f"{secret} reached {name}"
        for bad in ("\x1b", "\x07", "\x9b", "\x00", "\ud800"):
            assert bad not in text, f"{bad!r} reached {name}"
    html = MarkdownIt("commonmark").enable("table").render(out["report.md"])
    assert not any(tag in _outside_code(html) for tag in ("<img", "<script", "href=", "@octocat")), payload
    headings = [ln for ln in html.splitlines() if ln.startswith(("<h1", "<h2", "<h3"))]
    assert all("adck:" in h or "Failures" in h or "All clauses" in h or "AIE-" in h for h in headings), headings


def _outside_code(html: str) -> str:
    """The rendered Markdown with every code span and block taken out."""
    import re

    return re.sub(r"<code(?: [^>]*)?>.*?</code>", "", html, flags=re.S)  # fenced blocks carry class="language-text"


def test_long_target_text_is_cut_with_a_marker(base_report) -> None:
    report = hostile(base_report, "A" * (MAX_STRING * 3))
    failed = next(r for r in report.results if r.outcome == "fail")
    assert len(failed.message) < MAX_STRING + 100 and "[cut: " in failed.message


def test_writes_replace_planted_symlinks_and_leave_no_stale_reports(base_report, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "report.json").symlink_to(victim)
    (folder / "badge.svg").write_text("<svg>full</svg>")  # an earlier run's verdict
    render.write(base_report, folder, ["json", "md"])
    assert victim.read_text() == "keep me", "the report was written through a planted symlink"
    assert not (folder / "report.json").is_symlink()
    assert not (folder / "badge.svg").exists(), "a stale badge of an earlier run stayed beside this one"
    assert sorted(p.name for p in folder.iterdir()) == ["report.json", "report.md"]


@pytest.mark.parametrize("where", [
    "https://u:p@evil.test/", "https://x.test/https://u:p@evil.test/?q=1", "see ftp://u:p@h.test/f, then",
    "https://x.test/?next=https://u:p@evil.test/",
])
def test_userinfo_is_dropped_wherever_a_url_stands(where: str) -> None:
    from conformance.reports.safe import text

    assert "u:p@" not in text(where)


@pytest.mark.parametrize("said", ["error: password=hunter2 rejected", "export API_KEY='hunter2'", "DB_PASSWORD = hunter2,",
                                  "login failed (token=hunter2)"])
def test_a_value_assigned_to_a_secret_name_is_masked_in_free_text(said: str) -> None:
    from conformance.reports.safe import text

    assert "hunter2" not in text(said)


def test_no_quoted_sentence_of_any_draft_is_changed_by_the_sanitiser() -> None:
    """Redaction must not mangle what the kit quotes: the drafts' sentences reach reports as written."""
    from conformance import catalog
    from conformance.reports.safe import text

    changed = [c.id for d in catalog.available() for c in catalog.load(d).clauses.values() if text(c.text) != c.text]
    changed += [f"{d}:{a.id}" for d in catalog.available() for a in catalog.load(d).ambiguities
                if text(a.interpretation) != a.interpretation]
    assert changed == []
