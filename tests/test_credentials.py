"""Credentials given to a run (``-H``, ``--header-env``, ``--header-origin``:
``conformance/credentials.py``): malformed ones are refused before any request, they go to the
origins the user named and nowhere else (redirects included), no report, terminal line, replay
command or badge holds a value, a 401 or 403 to a request sent without them is *untestable*
("needs credentials (--header)"), never failed, and with them the built-in token-protected
services are judged whole: conforming ones pass, broken ones fail exactly their clause, and a
401 answered *with* the right token stays the service's own fault.

Nothing here leaves loopback.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from conformance import catalog, cli, credentials, redact
from conformance.fetch import Fetcher, HttpConfig
from conformance.world import https, tls
from conformance.world.site import TEST_TOKEN, load_mutants, load_reference, mutate
from tests.conftest import TOKEN_ENV, failing, outcomes, quiet_run, token_in_env
from tests.test_operator_mistakes import DOC, RECORD, no_requests, refused  # noqa: F401 - a fixture

ADCK = str(Path(sys.executable).with_name("adck"))
#: The drafts whose server role a service may protect, and their token-protected variants.
DRAFTS = ("woa", "aidre", "adp")
PROTECTED = {d: {n: m for n, m in load_mutants(d).items() if m.credentials} for d in DRAFTS}
CONFORMING = {d: {n: m for n, m in load_mutants(d, "conforming").items() if m.credentials} for d in DRAFTS}


# ------------------------------------------------------------------ 1. malformed options: exit 2


@pytest.mark.parametrize(("args", "words"), [
    (["-H", "Authorization Bearer sk_live_0123456789abcdef"], "-H: expected 'Name: value' (no colon"),
    (["-H", ": Bearer x"], "-H: the header name is empty"),
    (["-H", "Auth orization: Bearer x"], "is not an HTTP header name"),
    (["-H", "Authorization: Bearer x\r\nX-Evil: 1"], "holds a line break"),
    (["-H", "Authorization: Bearer x\ny"], "holds a line break"),
    (["-H", "Authorization:   "], "the value is empty"),
    (["-H", "Host: other.example"], "the kit sets Host itself"),
    (["-H", "X-A: 1", "-H", "x-a: 2"], "given twice"),
    (["--header-env", "Authorization"], "expected Name=ENVVAR"),
    (["--header-env", "Authorization=ADCK_NO_SUCH_VARIABLE_SET"], "ADCK_NO_SUCH_VARIABLE_SET is not set"),
    (["--header-env", "Authorization=1BAD"], "is not an environment variable name"),
    (["--header-origin", "https://api.adck.test"], "--header-origin names where the headers"),
    (["-H", "X-A: 1", "--header-origin", "https://api.adck.test/v1"], "an origin has no user, path"),
    (["-H", "X-A: 1", "--header-origin", "ftp://api.adck.test"], "not an http(s) origin"),
])
def test_a_malformed_credential_is_one_line_naming_the_fix(args, words, capsys, tmp_path, no_requests) -> None:
    os.environ.pop("ADCK_NO_SUCH_VARIABLE_SET", None)
    line = refused(capsys, ["run", "woa", "--target", "builtin", *args, "--report-dir", str(tmp_path / "r")], words)
    assert "sk_live_0123456789abcdef" not in line and "Bearer x" not in line, "a refusal never repeats a value"
    assert not (tmp_path / "r").exists() and no_requests == []


def test_an_env_var_that_holds_a_line_break_is_refused_naming_the_variable(capsys, tmp_path, no_requests,
                                                                         monkeypatch) -> None:
    monkeypatch.setenv("ADCK_TOKEN_BROKEN", "Bearer abc\r\nX-Evil: 1")
    line = refused(capsys, ["run", "woa", "--target", "builtin", "--header-env", "Authorization=ADCK_TOKEN_BROKEN",
                            "--report-dir", str(tmp_path / "r")], "--header-env Authorization=ADCK_TOKEN_BROKEN")
    assert "line break" in line and "abc" not in line


@pytest.mark.parametrize(("argv", "words"), [
    (["woa", "--target", str(Path(DOC).parents[1] / "woa" / "document.json")], "-H does not apply to a document on its own"),
    (["aid", "--target", RECORD], "-H does not apply to a record on its own (txt:)"),
    (["woa", "--role", "client", "--target", "builtin"], "-H does not apply to the built-in client of woa"),
    (["aidre", "--role", "client", "--target", "builtin"], "the kit plays the server for a client"),
    (["aiendpoint", "--target", "builtin"], "none of the aiendpoint clauses checked here sends a request a service may protect"),
    (["aid", "--target", "builtin"], "-H does not apply to the built-in provider of aid"),
])
def test_a_header_where_the_kit_sends_no_request_it_could_open_is_refused(argv, words, capsys, tmp_path,
                                                                         no_requests) -> None:
    refused(capsys, ["run", *argv, "-H", "Authorization: Bearer secret-value-1", "--report-dir", str(tmp_path / "r")],
            words)
    assert not (tmp_path / "r").exists() and no_requests == []


def test_the_plain_pytest_route_refuses_the_same(capsys, tmp_path, no_requests) -> None:
    code = pytest.main(["--pyargs", "conformance.woa", "-p", "no:cacheprovider", "-q",
                        "--adck-target", "builtin", "--adck-header", "Authorization Bearer x",
                        "--adck-report-dir", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code == pytest.ExitCode.USAGE_ERROR and "ERROR: -H: expected 'Name: value'" in err
    code = pytest.main(["--pyargs", "conformance.aiendpoint", "-p", "no:cacheprovider", "-q",
                        "--adck-target", "builtin", "--adck-header", "Authorization: Bearer x",
                        "--adck-report-dir", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code == pytest.ExitCode.USAGE_ERROR and "-H does not apply to the built-in publisher of aiendpoint" in err
    assert not (tmp_path / "r").exists() and no_requests == []


def test_parsing() -> None:
    h = credentials.parse_header("Authorization:  Bearer abc.def ")
    assert (h.name, h.value, h.env) == ("Authorization", "Bearer abc.def", None)
    assert "abc" not in repr(h)
    e = credentials.parse_header_env("X-Api-Key=K", {"K": "v-123"})
    assert (e.name, e.value, e.env) == ("X-Api-Key", "v-123", "K")
    assert credentials.parse_origin("https://API.adck.test") == ("https", "api.adck.test", 443)
    assert credentials.parse_origin("http://api.adck.test:8080/") == ("http", "api.adck.test", 8080)
    given = credentials.from_options(["X-A: 1"], origins=["https://b.adck.test"]).bound("https://a.adck.test")
    assert given.for_url("https://a.adck.test/x?y") == {"X-A": "1"}
    assert given.for_url("https://a.adck.test:443/") == {"X-A": "1"}
    assert given.for_url("https://b.adck.test/z") == {"X-A": "1"}
    for other in ("http://a.adck.test/", "https://a.adck.test:8443/", "https://x.a.adck.test/", "https://c.adck.test/"):
        assert given.for_url(other) == {}, other
    assert credentials.from_options() is None


# ------------------------------------------------------------------ 2. only to the origins named


@pytest.fixture
def two_origins():
    """Two origins on loopback (two ports: two origins), each recording the headers it got."""
    servers, seen = [], {}
    for name in ("a", "b"):
        server = HTTPServer(host="127.0.0.1", port=0)
        seen[name] = []

        def handler(request: Request, name=name) -> Response:
            seen[name].append((request.path, dict(request.headers)))
            if request.path.startswith("/to/"):  # /to/b/x: a redirect to the other origin's /x
                other, rest = request.path[4:].split("/", 1)
                port = servers[0 if other == "a" else 1].port
                return Response(status=302, headers={"Location": f"http://127.0.0.1:{port}/{rest}"})
            if request.path.startswith("/host/"):  # the same port under another name: another origin
                return Response(status=307, headers={"Location": f"http://localhost:{servers[0].port}/renamed"})
            return Response(b'{"ok": true}', status=200, content_type="application/json")

        server.expect_request(re.compile(".*")).respond_with_handler(handler)
        server.start()
        servers.append(server)
    try:
        yield {"a": f"http://127.0.0.1:{servers[0].port}", "b": f"http://127.0.0.1:{servers[1].port}"}, seen
    finally:
        for server in servers:
            server.stop()


def _fetcher(origin: str, extra_origins=()) -> Fetcher:
    given = credentials.from_options(["X-Adck-Key: k-1"], ["Authorization=ADCK_FETCH_TOKEN"], extra_origins,
                                     environ={"ADCK_FETCH_TOKEN": "Bearer t-1"})
    return Fetcher(HttpConfig(credentials=given.bound(origin)))


def test_the_headers_reach_the_named_origin_and_no_other_after_a_redirect(two_origins) -> None:
    urls, seen = two_origins
    with _fetcher(urls["a"]) as fetcher:
        same = fetcher.fetch(urls["a"] + "/to/a/end")
        away = fetcher.fetch(urls["a"] + "/to/b/end")
        renamed = fetcher.fetch(urls["a"] + "/host/x")
        direct = fetcher.fetch(urls["b"] + "/named-by-a-document")
    got = {(name, path): h for name, entries in seen.items() for path, h in entries}
    assert got[("a", "/to/a/end")].get("Authorization") == "Bearer t-1"
    assert got[("a", "/end")].get("X-Adck-Key") == "k-1", "a redirect within the origin keeps them"
    assert got[("a", "/to/b/end")].get("Authorization") == "Bearer t-1"
    assert "Authorization" not in got[("b", "/end")] and "X-Adck-Key" not in got[("b", "/end")], \
        "a redirect to another origin must not carry the credentials"
    assert "Authorization" not in got[("b", "/named-by-a-document")]
    assert [e.credentials for e in same.exchanges] == ["sent", "sent"]
    assert [e.credentials for e in away.exchanges] == ["sent", ""]
    assert [e.credentials for e in renamed.exchanges] == ["sent", ""] and renamed.exchanges[1].url.startswith("http://localhost")
    assert "Authorization" not in got[("a", "/renamed")], "the same port under another host name is another origin"
    assert direct.exchanges[0].credentials == ""
    with _fetcher(urls["a"]) as fetcher:
        withheld = fetcher.fetch(urls["a"] + "/without", credentials=False)
    assert withheld.exchanges[0].credentials == "withheld" and "Authorization" not in seen["a"][-1][1]


def test_an_origin_the_user_names_gets_them_too(two_origins) -> None:
    urls, seen = two_origins
    with _fetcher(urls["a"], extra_origins=[urls["b"]]) as fetcher:
        fetcher.fetch(urls["a"] + "/to/b/end")
    assert seen["b"][-1][1].get("Authorization") == "Bearer t-1"


def test_evidence_names_the_header_and_masks_its_value(two_origins) -> None:
    from conformance.reports.model import exchange_evidence

    urls, _ = two_origins
    with _fetcher(urls["a"]) as fetcher:
        ex = fetcher.fetch(urls["a"] + "/x").exchanges[0]
    shown = exchange_evidence(ex)["request"]
    assert shown["credentials"] == "sent"
    assert shown["headers"]["authorization"] == redact.REDACTED and shown["headers"]["x-adck-key"] == redact.REDACTED
    assert "t-1" not in json.dumps(shown) and "k-1" not in json.dumps(shown)


def test_the_run_secrets_are_masked_in_any_shape() -> None:
    plain = secrets.token_hex(12)
    redact.add_secrets(credentials.secret_forms([f"Bearer {plain}+/x", "k=" + plain]))
    try:
        for text in (f"echo {plain}+/x", f"got Bearer {plain}+/x back", f"https://x.test/?q={plain}%2B%2Fx",
                     f"https://x.test/?q={plain}+%2Fx", json.dumps({"k": f"k={plain}"}), f"<{plain}+/x>"):
            assert plain not in redact.text(text), text
        assert plain not in redact.url(f"https://x.test/cb?state={plain}%2B%2Fx")
        cut = redact.body_excerpt(("-" * 2040 + f"k={plain}").encode(), limit=2048)
        assert plain[:6] not in cut, "a secret across the excerpt's cut leaves no first half"
    finally:
        redact.clear_secrets()
    assert redact.text(plain) == plain, "the secrets of a run are forgotten after it"
    # a replay names the variable of --header-env, which is no secret even when the header's name says so
    assert redact.text("adck run x --header-env X-Api-Key=API_KEY --seed 1") == "adck run x --header-env X-Api-Key=API_KEY --seed 1"
    assert redact.text("api_key=hunter2") == f"api_key={redact.REDACTED}"


# ------------------------------------------------------------------ 3. could not judge is not failed


def _needs(report) -> set[str]:
    return {r.clause for r in report.results if r.outcome == "untestable" and r.untestable_reason == "credentials"}


@pytest.mark.parametrize("draft", DRAFTS)
def test_without_credentials_a_protected_service_is_partial_and_fails_nothing(draft: str) -> None:
    result = quiet_run(draft, "builtin:token-required", seed=3, credentials=False)
    report = result.report
    assert failing(report) == set(), [(r.clause, r.message) for r in report.failing()]
    needs = _needs(report)
    assert needs and report.summary.level == "partial" and result.exit_code == 1
    assert not any(r.level == "MUST" and r.outcome == "fail" for r in report.results)
    assert all(r.message.startswith("needs credentials (--header)") and r.evidence
               for r in report.results if r.clause in needs)
    assert any("could not be checked without credentials" in why for why in report.summary.partial_reasons)
    assert not set(report.summary.must_unverified) & needs, "needing credentials is no failed prerequisite"
    assert not _behind_needs(report), "a clause whose prerequisite needs credentials needs them too"


def _behind_needs(report) -> list[tuple[str, str]]:
    """Clauses untestable for a prerequisite that names (``see CLAUSE``) one that needs credentials."""
    needs = _needs(report)
    return [(r.clause, r.message) for r in report.results
            if r.outcome == "untestable" and r.untestable_reason == "prerequisite"
            and any(c in needs for c in re.findall(r"see ([A-Z]+-[\d.]+-\d+)", r.message))]


#: The MCP server a WoA host names lives on another origin: the token goes there with --header-origin.
MCP_ORIGIN = "https://mcp.adck.test"


def test_a_protected_mcp_server_needs_the_token_sent_to_its_own_origin() -> None:
    """Without credentials, and with credentials sent to the host's origin only, the MCP clauses
    are "needs credentials" (the second naming the --header-origin that fixes it), never failed;
    with the token sent there too the host is judged whole."""
    without = quiet_run("woa", "builtin:mcp-token-required", seed=3, credentials=False)
    assert failing(without.report) == set() and without.exit_code == 1
    assert {"WOA-4.3.2-01", "WOA-4.1-26"} <= _needs(without.report)
    assert not _behind_needs(without.report)
    with token_in_env():
        host_only = quiet_run("woa", "builtin:mcp-token-required", seed=3, header_env=[f"Authorization={TOKEN_ENV}"])
    assert failing(host_only.report) == set()
    assert f"add --header-origin {MCP_ORIGIN}" in outcomes_message(host_only.report, "WOA-4.3.2-01")
    whole = quiet_run("woa", "builtin:mcp-token-required", seed=3)  # the variant's header_origins
    assert whole.exit_code == 0 and whole.report.summary.level == "full" and not _needs(whole.report)
    assert f"--header-origin {MCP_ORIGIN}" in whole.report.command


@pytest.mark.parametrize("draft", DRAFTS)
def test_with_the_token_a_protected_service_is_judged_whole(draft: str) -> None:
    result = quiet_run(draft, "builtin:token-required", seed=3)  # --header-env Authorization=ADCK_TEST_TOKEN
    report = result.report
    assert result.exit_code == 0 and report.summary.level == CONFORMING[draft]["token-required"].expect, \
        (report.summary, [(r.clause, r.message) for r in report.failing()])
    assert not _needs(report)
    assert f"--header-env Authorization={TOKEN_ENV}" in report.command
    if draft == "adp":
        assert report.summary.draft_level == "D2"


@pytest.mark.mutants
@pytest.mark.parametrize(("draft", "name"), [(d, n) for d in DRAFTS for n in sorted(PROTECTED[d])])
def test_a_broken_protected_service_fails_exactly_its_clause_with_the_token(draft: str, name: str) -> None:
    """--header hides nothing: with the token each fault is judged (a 401 answered to the right
    token included: the service's own answer, never 'needs credentials')."""
    variant = PROTECTED[draft][name]
    result = quiet_run(draft, f"builtin:{name}", seed=3)
    report = result.report
    assert failing(report) == {variant.clause} | set(variant.also_fails), \
        [(r.clause, r.message) for r in report.failing()]
    assert not _needs(report), "a 401 to the right credentials is never 'needs credentials'"
    level = catalog.load(draft).clause(variant.clause).level
    assert result.exit_code == (1 if level == "MUST" else result.exit_code)


def test_a_401_to_the_right_token_stays_a_failure() -> None:
    report = quiet_run("woa", "builtin:token-refused", seed=3).report
    assert "WOA-5.2-04" in failing(report) and "401" in outcomes_message(report, "WOA-5.2-04")
    assert not _needs(report)


def outcomes_message(report, clause: str) -> str:
    return next(r.message for r in report.results if r.clause == clause)


def test_a_clause_that_judges_the_unauthenticated_answer_withholds_the_credentials(monkeypatch) -> None:
    """AIDRE-11.6-01 and 15.4-05 judge searches of protected collections *without* credentials:
    given credentials must not make a service that refuses them look as if it did not."""
    sent = []
    original = Fetcher._send

    def spy(self, *args, **kwargs):
        exchange = original(self, *args, **kwargs)
        sent.append(exchange)
        return exchange

    monkeypatch.setattr(Fetcher, "_send", spy)
    report = quiet_run("aidre", "builtin:token-required", seed=3, clauses=["AIDRE-11.6-01", "AIDRE-15.4-05"]).report
    got = outcomes(report)
    assert got["AIDRE-11.6-01"] == "pass" and got["AIDRE-15.4-05"] == "pass"
    posts = [(json.loads(e.request_body).get("collection"), e) for e in sent if e.method == "POST"]
    protected = [e for collection, e in posts if collection == "internal"]  # aidre.reference.COLLECTIONS
    assert len(protected) == 2 and all(e.credentials == "withheld" and "authorization" not in e.request_headers
                                       for e in protected)
    assert all(e.credentials == "sent" for collection, e in posts if collection != "internal")


# ------------------------------------------------------------------ 4. no secret anywhere


def _hostile_site(secret_token: str):
    """The WoA host requiring a bearer token, whose 401s send every request header back."""
    variant = load_mutants("woa", "conforming")["token-required"]
    site = mutate(load_reference("woa"), variant)
    doc = json.loads(json.dumps(site.document))
    doc["agents"] = [a for a in doc["agents"] if "rest" in a.get("transports", [])]
    doc["transports"].pop("mcp", None)
    return replace(site, document=doc, mcp={}, auth={**site.auth, "echo": True, "token": secret_token})


def test_no_report_format_terminal_line_or_replay_holds_a_credential(tmp_path: Path) -> None:
    """A token-shaped secret (-H) and a plain random one (--header-env) go to a host that echoes
    every request header back; every file written (json, junit, md, html, badge, shields, sarif),
    stdout and stderr are searched for them, whole and in their encoded forms."""
    live = "sk_live_" + secrets.token_hex(16)
    plain = secrets.token_hex(20)
    wrong = secrets.token_urlsafe(24)  # the token the host takes: the run's is refused, and echoed back
    origin = https.serve(_hostile_site(wrong))
    reports = tmp_path / "reports"
    env = {**os.environ, "ADCK_PLAIN_PROBE": plain}
    env.pop("CI", None)
    try:
        proc = subprocess.run(
            [ADCK, "run", "woa", "--target", "https://host.adck.test", "--connect-to",
             f"host.adck.test:443:127.0.0.1:{origin.port}", "--ca-bundle", str(tls.ca_bundle()), "--invoke",
             "-H", f"Authorization: Bearer {live}", "--header-env", "X-Adck-Probe=ADCK_PLAIN_PROBE",
             "--format", "json,junit,md,html,badge,shields,sarif", "--report-dir", str(reports), "-v"],
            capture_output=True, text=True, env=env, timeout=600)
    finally:
        origin.stop()
    assert proc.returncode == 1, proc.stderr[-2000:]
    written = sorted(p for p in reports.rglob("*") if p.is_file())
    assert {p.name for p in written} >= {"report.json", "junit.xml", "report.md", "report.html", "badge.svg",
                                         "badge.json", "report.sarif"}, written
    from urllib.parse import quote

    forms = {live, plain, quote(live, safe=""), quote(plain, safe="")}
    for where, text in [("stdout", proc.stdout), ("stderr", proc.stderr)] + [
            (str(p), p.read_text("utf-8", errors="replace")) for p in written]:
        leaked = [f for f in forms if f in text]
        assert not leaked, f"{where} holds a credential"
        assert live[:12] not in text and plain[:12] not in text, f"{where} holds the start of a value"
    report = json.loads((reports / "report.json").read_text("utf-8"))
    # the host echoed both headers: the evidence shows the echo, masked
    bodies = " ".join(ev.get("response", {}).get("body_excerpt", "") for r in report["results"]
                      for ev in r["evidence"])
    assert "you_sent" in bodies and "X-Adck-Probe" in bodies
    sent = [ev["request"] for r in report["results"] for ev in r["evidence"] if "request" in ev]
    assert any(s.get("credentials") == "sent" and s["headers"].get("authorization") == redact.REDACTED for s in sent)
    # a 401 answered to the credentials given stays the service's answer: failed, not "needs credentials"
    assert not [r for r in report["results"] if r["untestable_reason"] == "credentials"]
    # the replay names the header without its value, and the variable as it was given
    assert "--header-env X-Adck-Probe=ADCK_PLAIN_PROBE" in report["command"]
    assert f"-H 'Authorization: {credentials.PLACEHOLDER}'" in report["command"]
    assert any("pass the value again" in n for n in report["target"]["notes"])


def test_api_run_takes_the_same_and_masks_what_pytest_says() -> None:
    plain = secrets.token_hex(10)
    with token_in_env(f"Bearer {TEST_TOKEN}"):
        result = quiet_run("woa", "builtin:token-required", seed=3, clauses=["WOA-5.2-06"],
                           header_env=[f"Authorization={TOKEN_ENV}"], headers=[f"X-Adck-Probe: {plain}"])
    assert result.report.summary.passed and plain not in result.report.command
    assert f"--header-env Authorization={TOKEN_ENV}" in result.report.command
    assert redact.text(plain) == plain, "the run's secrets are forgotten when it ends"
