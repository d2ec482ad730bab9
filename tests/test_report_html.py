"""report.html: the verdict first, then the counts, the failures with their evidence and replay
commands, then every clause by section; safe with hostile target text; and, in a real headless
Chromium, readable at desktop and phone width with failures before passes and nothing wider
than the screen.

The browser is Debian's Chromium (``/usr/bin/chromium``, apt package ``chromium``; or
``$ADCK_CHROMIUM``) driven by Playwright for Python, never a browser Playwright downloads. Where
either is missing the browser tests skip, saying which; with ``$CI`` set they fail instead (the
kit's CI must never pass by skipping them). ``ADCK_UPDATE_SCREENSHOTS=1`` writes the screenshots
to ``docs/screenshots/`` as well as to the test's temporary folder.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import os
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conformance.reports import html as report_html
from conformance.reports.safe import sanitize
from conformance.reports.verdict import traffic
from tests.conftest import quiet_run

CHROMIUM = os.environ.get("ADCK_CHROMIUM", "/usr/bin/chromium")
#: Headless, and nothing of Chromium's own reaching out (this machine's network is closed).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"]
WIDTHS = {"desktop": 1280, "phone": 390}
SCREENSHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


# ------------------------------------------------------------------ the reports, built once
@pytest.fixture(scope="session")
def failing_report():
    """AID, a provider publishing v=aid2: MUST failures, Markdown table quotes, DNS evidence."""
    report = quiet_run("aid@v1", "builtin:v-aid2").report
    assert report.summary.level == "non-conformant"
    return report


@pytest.fixture(scope="session")
def passing_report():
    """ADP's reference service: D2 full."""
    report = quiet_run("adp", "builtin").report
    assert report.summary.level == "full" and report.summary.draft_level == "D2"
    return report


@pytest.fixture(scope="session")
def pages(failing_report, passing_report, tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("report-html")
    out = {}
    for name, report in (("failing", failing_report), ("passing", passing_report)):
        out[name] = folder / f"{name}.html"
        out[name].write_text(report_html.to_html(report), "utf-8")
    return out


# ------------------------------------------------------------------ the page's markup, no browser
class _Tags(HTMLParser):
    """Every start tag and its attributes, and the text of each script and style."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline: dict[str, list[str]] = {"script": [], "style": []}
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in = tag if tag in self.inline else None
        if self._in:
            self.inline[tag].append("")

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in:
            self.inline[self._in][-1] += data


def parsed(page: str) -> _Tags:
    p = _Tags()
    p.feed(page)
    return p


#: The elements the templates write; anything else came from somewhere it should not have.
ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "main", "footer", "section", "article",
                "h1", "h2", "h3", "h4", "p", "span", "strong", "em", "code", "pre", "a", "br", "dl", "dt", "dd", "div",
                "time", "table", "caption", "thead", "tbody", "tr", "th", "td", "blockquote", "details", "summary",
                "ol", "ul", "li", "button", "form", "fieldset", "legend", "label", "input", "script"}
HOSTILE = ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[click](javascript:alert(1))",
           '"><svg onload=alert(1)>', "javascript:alert(1)", "</pre></details><iframe src=//evil.test>",
           "{{ 7*7 }}", "<style>body{display:none}</style>")


def hostile(report, payload: str):
    """The report with the payload wherever target text lands, and in a quote of the draft."""
    bad = copy.deepcopy(report)
    failed = next(r for r in bad.results if r.outcome == "fail")
    failed.message = f"observed {payload} here"
    failed.text = f"A quote with **bold** and {payload}"
    failed.replay = f"{failed.replay} {payload}"
    failed.evidence = [*failed.evidence,
                       {"request": {"method": "GET", "url": f"https://x.test/{payload}", "headers": {"x-up": payload}},
                        "response": {"status": 200, "reason": payload, "headers": [["x", payload]],
                                     "body_bytes": 1, "body_truncated": False, "body_excerpt": payload},
                        "error": {"kind": payload, "detail": payload}},
                       {"dns": {"query": f"{payload} TXT", "status": payload, "ttl": 1, "records": [[payload]],
                                "dnssec": payload, "detail": payload}},
                       {"harness": {"request": {"operation": payload, "params": {"domain": payload}},
                                    "reply": {"outcome": payload}, "error": payload}}]
    bad.target["description"] = f"origin {payload}"
    bad.target["spec"] = payload
    bad.target["notes"] = [payload]
    bad.command = f"adck run {payload}"
    return sanitize(bad)


@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_target_text_stays_text(failing_report, payload: str) -> None:
    page = report_html.to_html(hostile(failing_report, payload))
    p = parsed(page)
    assert {tag for tag, _ in p.tags} <= ALLOWED_TAGS, {tag for tag, _ in p.tags} - ALLOWED_TAGS
    for tag, attrs in p.tags:
        assert not [a for a in attrs if a.startswith("on")], (tag, attrs)
        href = attrs.get("href")
        if href is not None:
            assert href.startswith(("#", "https://datatracker.ietf.org/doc/html/")), href
    assert len(p.inline["script"]) == 1 and len(p.inline["style"]) == 1, "a target's text became a script or style"
    assert "A quote with <strong>bold</strong> and " in page, "the quote's Markdown is rendered"
    if "{{" in payload:
        assert "observed {{ 7*7 }} here" in page, "target text went through the template engine"


def test_page_loads_nothing_and_allows_only_its_own_style_and_script(passing_report) -> None:
    page = report_html.to_html(passing_report)
    p = parsed(page)
    csp = next(a["content"] for t, a in p.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    assert "default-src 'none'" in csp
    assert f"script-src {digest(p.inline['script'][0])}" in csp and f"style-src {digest(p.inline['style'][0])}" in csp
    for tag, attrs in p.tags:
        assert "src" not in attrs and tag != "link", (tag, attrs)
        assert "style" not in attrs, f"an inline style attribute on <{tag}> would be blocked by the policy"


def test_quotes_render_their_markdown_and_nothing_more() -> None:
    assert str(report_html.quote("Clients **SHOULD** display this as a *link*.")) == (
        "Clients <strong>SHOULD</strong> display this as a <em>link</em>.")
    row = str(report_html.quote(r'| **`status`** | `"active"`\|`"deprecated"` | No |'))
    assert row.startswith('<table class="row"><tr><td><strong><code>status</code></strong></td>')
    assert "<td><code>&quot;active&quot;</code>|<code>&quot;deprecated&quot;</code></td><td>No</td>" in row
    partial_row = str(report_html.quote("| **uri** | Required *iff* at least one remote implementation exists"))
    assert partial_row == ('<table class="row"><tr><td><strong>uri</strong></td><td>Required <em>iff</em> at least one '
                           "remote implementation exists</td></tr></table>")
    plain = 'agent-id = 1*( ALPHA / DIGIT / "-" / "_" ) * query * query_vector'
    assert str(report_html.quote(plain, markdown=False)) == plain.replace('"', "&#34;"), "an IETF text is no Markdown"
    inert = str(report_html.quote("[x](javascript:alert(1)) <img src=x onerror=alert(1)> <https://evil.test> "
                                  "![p](https://evil.test/p.png) [r]\n\n[r]: javascript:alert(1)"))
    assert "<a" not in inert and "<img" not in inert and "&lt;img src=x onerror=alert(1)&gt;" in inert


def test_sections_link_to_the_draft_on_the_datatracker() -> None:
    url = report_html.section_url
    assert url("draft-xu-efficient-agent-discovery-profile-00", "4.1") == (
        "https://datatracker.ietf.org/doc/html/draft-xu-efficient-agent-discovery-profile-00#section-4.1")
    assert url("draft-gaikwad-woa-00", "A.2").endswith("draft-gaikwad-woa-00#appendix-A.2")
    assert url("aid-v1-2025-06-19", "2.1") is None, "AID is no Internet-Draft: no datatracker link"
    assert report_html.revision("draft-gaikwad-woa-00") == "00" and report_html.revision("aid-v1-2025-06-19") is None


def test_the_page_reads_verdict_first_then_failures_then_everything(failing_report, passing_report) -> None:
    page = report_html.to_html(failing_report)
    h1 = page.index("<h1>")
    assert "aid v1: <span class=\"level\">non-conformant</span>" in page[h1:h1 + 200]
    assert h1 < page.index('id="counts"') < page.index('id="failures"') < page.index('id="clauses"')
    failures = page[page.index('id="failures"'):page.index('id="clauses"')]
    for r in failing_report.failing():
        assert f'id="f-{r.clause}"' in failures and (r.replay or "") in failures
    assert 'class="copy" data-copy="cmd-AID-2.1-09" hidden' in failures, "copy buttons show only with JS"
    assert "DNS _agent.provider.adck.test TXT -&gt; ok" in failures, "the DNS answer is the evidence"
    assert "Seed" in page and str(failing_report.seed) in page and failing_report.started_at in page
    assert failing_report.kit["version"] in page and failing_report.draft["id"] in page
    good = report_html.to_html(passing_report)
    assert '<h1>adp-00: <span class="level">D2 full</span>' in good and "No clause failed" in good
    quotes = good[good.index('id="clauses"'):]
    assert "<em>" not in quotes and "<strong>" not in quotes, "the plain-text draft's asterisks became emphasis"
    assert '<table class="row"><tr><td>D0</td><td>Metadata</td>' in good, "ADP's table rows are rows"
    plain = copy.deepcopy(passing_report)
    plain.results[0].text = "Accept: */* and *any* media type"
    assert "Accept: */* and *any* media type" in report_html.to_html(plain), "an IETF draft's text is no Markdown"
    assert 'href="https://datatracker.ietf.org/doc/html/draft-xu-efficient-agent-discovery-profile-00#section-' in good


def test_a_partial_run_says_partial_and_never_full(passing_report) -> None:
    report = copy.deepcopy(passing_report)
    s = report.summary
    s.partial, s.level, s.conformant, s.partial_reasons = True, "partial", False, ["--clause: only ADP-3.1-01 checked"]
    page = report_html.to_html(report)
    head = page[:page.index("<main>")]
    assert "partial run" in head and "--clause: only ADP-3.1-01 checked" in head and "tone-partial" in head
    assert ">full<" not in page and "D2 full" not in page and ">conformant<" not in page


def test_a_client_run_counts_harness_steps_never_zero_requests(failing_report) -> None:
    report = copy.deepcopy(failing_report)
    report.requests_sent = 0
    report.target.pop("dns_queries", None)
    report.target["adapter"] = {"spec": "builtin", "protocol": "adck-harness/1", "client": {}, "steps": 12,
                                "client_requests": 1}
    assert traffic(report) == "12 harness steps, 1 request from the client"
    page = report_html.to_html(report)
    assert "12 harness steps, 1 request from the client" in page and "0 requests" not in page


# ------------------------------------------------------------------ in a real browser
@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium through Playwright (each launch gets a fresh user-data dir of its own)."""
    missing = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "Playwright for Python is not installed (pip install -e '.[test]')"
    if missing is None and not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        missing = f"no Chromium at {CHROMIUM} (apt-get install chromium, or set $ADCK_CHROMIUM)"
    if missing:
        from tests.conftest import absent

        absent(missing)  # skipped and counted at the session's end; under CI, failed
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield b
        b.close()


def _open(browser, path: Path, width: int, **options):
    context = browser.new_context(viewport={"width": width, "height": 900}, **options)
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(path.as_uri())
    return context, page, asked, errors


def _layout(page) -> dict:
    return page.evaluate("""() => {
      const pos = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().top + scrollY : null; };
      const inScroller = (e) => !!e.closest('.scroll');
      return {
        scrollWidth: document.scrollingElement.scrollWidth, innerWidth: innerWidth,
        wider: [...document.querySelectorAll('body *')].filter(e => !inScroller(e))
                 .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
                 .map(e => e.tagName + '.' + e.className).slice(0, 5),
        // a clause id never breaks at its hyphens ("AIE-2.1-" / "01"), wherever it stands
        wrappedIds: [...document.querySelectorAll('.id')].filter(e => e.getClientRects().length > 1
                 || getComputedStyle(e).whiteSpace !== 'nowrap').map(e => e.textContent).slice(0, 5),
        ids: document.querySelectorAll('.id').length,
        firstFail: pos('[data-outcome=fail]'), firstPass: pos('[data-outcome=pass]'),
        failures: pos('#failures'), clauses: pos('#clauses'), verdict: pos('header.verdict h1'),
        height: document.scrollingElement.scrollHeight,
      };
    }""")


@pytest.mark.parametrize("width", list(WIDTHS), ids=list(WIDTHS))
@pytest.mark.parametrize("name", ["failing", "passing"])
def test_in_chromium_failures_come_first_and_nothing_overflows(browser, pages, name: str, width: str,
                                                               tmp_path: Path) -> None:
    context, page, asked, errors = _open(browser, pages[name], WIDTHS[width])
    try:
        got = _layout(page)
        assert got["scrollWidth"] <= got["innerWidth"], f"the page scrolls sideways at {width} width: {got}"
        assert got["wider"] == [], f"elements wider than the screen at {width} width: {got['wider']}"
        assert got["ids"] > 50 and got["wrappedIds"] == [], f"clause ids may wrap: {got['wrappedIds']}"
        assert got["verdict"] < got["failures"] < got["clauses"]
        assert got["firstPass"] is not None
        if name == "failing":
            assert got["firstFail"] is not None and got["firstFail"] < got["firstPass"], "a pass is shown before the failures"
        else:
            assert got["firstFail"] is None
        assert asked == [pages[name].as_uri()], f"the page asked for more than itself: {asked}"
        assert errors == [], errors
        shot = tmp_path / f"report-{name}-{width}.png"
        # the part a reader sees first: the verdict, the counts, the failures and the first clauses
        height = min(got["height"], got["clauses"] + (700 if width == "desktop" else 900),
                     2600 if width == "desktop" else 4200)
        page.screenshot(path=str(shot), full_page=True, clip={"x": 0, "y": 0, "width": WIDTHS[width], "height": height})
        assert shot.stat().st_size > 10_000
        if os.environ.get("ADCK_UPDATE_SCREENSHOTS") == "1":
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(shot, SCREENSHOTS / shot.name)
    finally:
        context.close()


def test_in_chromium_the_filters_narrow_the_clauses(browser, pages, failing_report) -> None:
    context, page, _, _ = _open(browser, pages["failing"], WIDTHS["desktop"])
    try:
        total = len(failing_report.results)
        assert page.locator("form.filters").is_visible()
        assert page.locator("form.filters .shown").text_content() == f"showing {total} of {total} clauses"
        for box in page.locator("form.filters input[name=outcome]").all():
            if box.get_attribute("value") != "fail":
                box.uncheck()
        fails = sum(r.outcome == "fail" for r in failing_report.results)
        visible = page.locator("li.clause:visible")
        assert visible.count() == fails and {visible.nth(i).get_attribute("data-outcome") for i in range(fails)} == {"fail"}
        assert page.locator("form.filters .shown").text_content() == f"showing {fails} of {total} clauses"
        shown_sections = page.locator("section.sec:visible").count()
        assert shown_sections == len({r.section for r in failing_report.results if r.outcome == "fail"})
        page.locator("form.filters input[value=MUST]").uncheck()
        musts = sum(r.outcome == "fail" and r.level == "MUST" for r in failing_report.results)
        assert page.locator("li.clause:visible").count() == fails - musts
    finally:
        context.close()


def test_in_chromium_the_copy_button_copies_the_replay_command(browser, pages, failing_report) -> None:
    context, page, _, _ = _open(browser, pages["failing"], WIDTHS["desktop"])
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        failed = failing_report.failing()[0]
        button = page.locator(f"button[data-copy='cmd-{failed.clause}']")
        assert button.is_visible()
        button.click()
        page.wait_for_function("b => b.textContent !== 'copy'", arg=button.element_handle(), timeout=3000)
        assert button.text_content() == "copied"
        assert page.evaluate("() => navigator.clipboard.readText()") == failed.replay
    finally:
        context.close()


def test_without_javascript_everything_is_shown_and_nothing_is_broken(browser, pages, failing_report) -> None:
    context, page, _, _ = _open(browser, pages["failing"], WIDTHS["phone"], java_script_enabled=False)
    try:
        assert not page.locator("button.copy").first.is_visible(), "a copy button that cannot work is shown"
        assert not page.locator("form.filters").is_visible()
        assert page.locator("li.clause:visible").count() == len(failing_report.results)
        failed = failing_report.failing()[0]
        assert page.get_by_text(failed.replay or "").first.is_visible()
    finally:
        context.close()
