"""The WoA host role over HTTP and the REST transport: the reference host passes at level full
with the requests it sends counted, each broken host (fixtures/woa/mutants.toml) fails exactly
its clause, conforming variants reach their level, a live-style origin is invoked only with
--invoke and within --invoke-budget, a hostile invocation endpoint gives failing clauses and
no crash, and the inputs the kit builds are proven valid (or invalid) before they are sent."""

from __future__ import annotations

import contextlib
import copy
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import catalog
from conformance.fetch import Fetcher
from conformance.resources import fixtures_dir
from conformance.woa.inputs import invalid_inputs, valid_inputs, validator, why_not
from conformance.world import https, tls
from conformance.world.site import Mutant, load_mutants, load_reference, mutate
from tests.conftest import ends, failing, outcomes, quiet_run

DRAFT = "woa"
PROFILE = catalog.load(DRAFT)
_FILE = tomllib.loads((fixtures_dir(DRAFT) / "mutants.toml").read_text("utf-8"))
#: This file's variants only (mutants.toml; the MCP transport's are in mutants-mcp.toml).
MUTANTS = {n: m for n, m in load_mutants(DRAFT).items() if n in _FILE.get("mutants", {})}
CONFORMING = {n: m for n, m in load_mutants(DRAFT, "conforming").items() if n in _FILE.get("conforming", {})}
#: The host clauses of the REST transport that need an invocation.
INVOKING = ("WOA-4.2-05", "WOA-4.3.1-12", "WOA-4.3.1-13", "WOA-4.3.1-14", "WOA-5.1-05", "WOA-5.2-03",
            "WOA-5.2-04", "WOA-5.2-05", "WOA-5.2-06", "WOA-5.2-07")
HOST_HTTP = ("WOA-3-01", "WOA-4.2-03", "WOA-4.2-05", "WOA-4.3.1-04", "WOA-4.3.1-12", "WOA-4.3.1-13",
             "WOA-4.3.1-14", "WOA-4.3.3-01", "WOA-5.1-05", "WOA-5.2-03", "WOA-5.2-04", "WOA-5.2-05",
             "WOA-5.2-06", "WOA-5.2-07", "WOA-7-01", "WOA-8.1-01", "WOA-8.1-02", "WOA-8.1-04", "WOA-9.2-01")


@contextlib.contextmanager
def requests_to(host: str):
    """The (method, path) of every request the kit sends to ``host`` during the block."""
    sent: list[tuple[str, str]] = []
    original = Fetcher._send

    def spy(self, method, url, headers, content=None, guard=False, **kwargs):
        if url.host == host:
            sent.append((method, url.path))
        return original(self, method, url, headers, content, guard, **kwargs)

    Fetcher._send = spy  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        Fetcher._send = original  # type: ignore[method-assign]


def test_reference_host_passes_at_level_full_with_its_requests_counted() -> None:
    with requests_to("host.adck.test") as sent:
        result = quiet_run(DRAFT, "builtin", seed=11)
    report = result.report
    assert result.exit_code == 0 and report.summary.level == "full", report.summary
    assert failing(report) == set()
    got = outcomes(report)
    assert {c: got.get(c) for c in HOST_HTTP if got.get(c) != "pass"} == {}
    assert "document" in report.roles and "host" in report.roles
    assert got["WOA-4-01"] == "pass", "the served document is judged by the document role"
    gets = [p for m, p in sent if m == "GET"]
    posts = [p for m, p in sent if m == "POST"]
    # one GET of the document shared by every clause, one conditional GET (WOA-7-01)
    assert gets == ["/.well-known/woa.json"] * 2
    # 25 invocations in all, each kind once per run: 9 valid (3 per agent and operation), 9 that must
    # fail (3 invalid inputs per agent, 1 only the operation's inputs override rejects, a body that is not
    # JSON, an unknown operation), 4 mismatched
    # agents, 1 without agent, 1 without operation, 1 with a charset parameter; well inside the budget
    assert len(posts) == 25 and all(p.startswith("/agents/") and p.endswith("/invoke") for p in posts)
    assert len(posts) < 50 / 1.5


def test_reference_run_is_reproducible_from_its_seed() -> None:
    with requests_to("host.adck.test") as first:
        quiet_run(DRAFT, "builtin", seed=5, clauses=["WOA-5.2-06"])
    with requests_to("host.adck.test") as second:
        quiet_run(DRAFT, "builtin", seed=5, clauses=["WOA-5.2-06"])
    assert first == second and len(first) == 1 + 9


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_broken_host_fails_exactly_its_clause(name: str) -> None:
    mutant = MUTANTS[name]
    result = quiet_run(DRAFT, f"builtin:{name}", seed=3)
    report = result.report
    assert report is not None
    expected = {mutant.clause} | set(mutant.also_fails)
    assert failing(report) == expected, (
        f"{name} should fail {sorted(expected)}; failed {sorted(failing(report))}: "
        + "; ".join(f"{r.clause}: {r.message}" for r in report.results if r.outcome in ("fail", "error")))
    must_failed = any(PROFILE.clause(c).level == "MUST" for c in expected)
    assert result.exit_code == 1 if must_failed else result.exit_code in (0, 1)
    if must_failed:
        assert report.summary.level == "non-conformant"
    result_of = {r.clause: r for r in report.results}[mutant.clause]
    assert result_of.message, "a failure says what was observed"
    assert result_of.replay and f"--clause {mutant.clause}" in result_of.replay


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CONFORMING))
def test_conforming_host_reaches_its_level(name: str) -> None:
    variant = CONFORMING[name]
    report = quiet_run(DRAFT, f"builtin:{name}", seed=3).report
    assert failing(report) == set(), [(r.clause, r.message) for r in report.failing()]
    assert report.summary.level == variant.expect
    assert not report.summary.must_unverified


def test_without_agent_id_the_mismatch_rule_is_not_applicable() -> None:
    got = outcomes(quiet_run(DRAFT, "builtin:no-agent-id-in-path", seed=3).report)
    assert got["WOA-5.2-04"] == got["WOA-5.2-05"] == got["WOA-5.2-03"] == "not-applicable"
    assert got["WOA-5.2-06"] == "pass"


# ------------------------------------------------------------------ live-style origins


def _rest_only_site(site=None):
    """The reference host without its MCP transport (a live-style run here serves the origin only)."""
    site = site or load_reference(DRAFT)
    doc = copy.deepcopy(site.document)
    doc["agents"] = [a for a in doc["agents"] if "rest" in a.get("transports", [])]
    doc["transports"].pop("mcp", None)
    return replace(site, document=doc, mcp={})


@contextlib.contextmanager
def live(site):
    origin = https.serve(site)
    try:
        yield dict(connect_to=[f"host.adck.test:443:127.0.0.1:{origin.port}"], ca_bundle=str(tls.ca_bundle()))
    finally:
        origin.stop()


def test_live_host_is_not_invoked_without_opting_in() -> None:
    with live(_rest_only_site()) as reach, requests_to("host.adck.test") as sent:
        result = quiet_run(DRAFT, "https://host.adck.test", seed=3, **reach)
    report = result.report
    got = outcomes(report)
    assert {c: got[c] for c in INVOKING} == {c: "untestable" for c in INVOKING}
    assert all("--invoke" in r.message for r in report.results if r.clause in INVOKING)
    assert [m for m, _ in sent] == ["GET", "GET"], "no POST without --invoke"
    assert report.summary.partial or report.summary.level != "full"
    assert result.exit_code == 1 and failing(report) == set()
    for c in ("WOA-3-01", "WOA-7-01", "WOA-8.1-01", "WOA-8.1-02", "WOA-9.2-01", "WOA-4-01"):
        assert got[c] == "pass", c


def test_live_host_invocations_stay_within_the_budget() -> None:
    with live(_rest_only_site()) as reach, requests_to("host.adck.test") as sent:
        report = quiet_run(DRAFT, "https://host.adck.test", seed=3, invoke=True, invoke_budget=1, **reach).report
    assert [m for m, _ in sent].count("POST") == 1
    assert failing(report) == set()
    # the one invocation is judged where it can fail, but no clause passes on a part of its space
    spent = [r for r in report.results if r.clause in INVOKING]
    assert all(r.outcome == "untestable" and "budget" in r.message for r in spent), \
        [(r.clause, r.outcome, r.message) for r in spent]
    assert report.summary.must_unverified


def test_live_host_with_invoke_reaches_level_full() -> None:
    with live(_rest_only_site()) as reach, requests_to("host.adck.test") as sent:
        result = quiet_run(DRAFT, "https://host.adck.test", seed=3, invoke=True, **reach)
    assert result.report.summary.level == "full" and result.exit_code == 0
    assert [m for m, _ in sent].count("POST") == 25


@pytest.mark.parametrize(("routes", "fails"), [
    ((), {"WOA-8.1-04"}),
    (({"path": "/.well-known/woa.json", "method": "GET", "status": 301, "body": "empty",
       "headers": {"Location": "http://host.adck.test/woa.json"}},
      {"path": "/woa.json", "method": "GET", "body": "document", "headers": {"Content-Type": "application/woa+json"}}),
     {"WOA-8.1-04"}),
    (({"path": "/.well-known/woa.json", "method": "GET", "status": 301, "body": "empty",
       "headers": {"Location": "https://host.adck.test/.well-known/woa.json"}},), set()),
    (({"path": "/.well-known/woa.json", "method": "GET", "status": 200, "body": "text",
       "text": "<html><body>This site is served over https://host.adck.test only.</body></html>",
       "headers": {"Content-Type": "text/html"}},), set()),
], ids=["serves-the-document", "redirects-to-the-document-over-plain-http", "redirects-to-https", "page-pointing-to-https"])
def test_plain_http_beside_https_is_probed_on_the_open_internet(routes: tuple, fails: set) -> None:
    """The one way to break WOA-8.1-04 alone: a plain-HTTP listener serving the document beside the
    HTTPS one (the built-in world has one listener per host: mutant-floor-host.toml), directly or
    at the end of plain-HTTP redirects; a page that is not the document (a notice pointing to
    https) is not the document served over plain HTTP (AMB-35)."""
    site = _rest_only_site()
    plain = mutate(replace(site, scheme="http"), Mutant(name="plain", clause=None, summary="plain", routes=routes))
    with live(site) as reach:
        listener = https.serve(plain)
        try:
            with requests_to("host.adck.test") as sent:
                report = quiet_run(DRAFT, "https://host.adck.test", seed=3,
                                   connect_to=reach["connect_to"] + [f"host.adck.test:80:127.0.0.1:{listener.port}"],
                                   ca_bundle=reach["ca_bundle"]).report
        finally:
            listener.stop()
    assert failing(report) == fails, [(r.clause, r.message) for r in report.failing()]
    assert ("GET", "/.well-known/woa.json") in sent
    if fails:
        assert "plain HTTP" in {r.clause: r for r in report.results}["WOA-8.1-04"].message


@pytest.mark.parametrize(("document_tls", "rest_tls", "rest_name", "fails"), [
    (None, "TLSv1.2", None, {"WOA-4.3.1-04"}),
    ("TLSv1.2", None, None, {"WOA-8.1-02"}),
    (None, None, "other.adck.test", {"WOA-8.1-01"}),
    (None, None, None, set()),
], ids=["rest-server-without-1.3", "document-server-without-1.3", "rest-server-wrong-certificate", "both-1.3"])
def test_tls_13_is_judged_per_server(document_tls, rest_tls, rest_name, fails: set) -> None:
    """With the REST base on another origin, each TLS 1.3 sentence can be broken alone (the built-in
    host serves both from one server: mutant-floor-host.toml); the base's server is reached with
    one GET, no invocation."""
    site = _rest_only_site()
    doc = copy.deepcopy(site.document)
    doc["transports"]["rest"]["base"] = "https://api.adck.test"
    host = replace(site, document=doc, tls_max=document_tls)
    api = replace(site, hostname="api.adck.test", document=doc, tls_max=rest_tls, certificate_hostname=rest_name)
    with live(host) as reach:
        other = https.serve(api)
        try:
            with requests_to("api.adck.test") as sent:
                report = quiet_run(DRAFT, "https://host.adck.test", seed=3, ca_bundle=reach["ca_bundle"],
                                   connect_to=reach["connect_to"] + [f"api.adck.test:443:127.0.0.1:{other.port}"]).report
        finally:
            other.stop()
    assert failing(report) == fails, [(r.clause, r.message) for r in report.failing()]
    assert sent == [("GET", "/")]


def test_private_names_are_not_on_the_open_internet() -> None:
    from conformance.woa.test_8_1_host_https import on_open_internet

    assert on_open_internet("api.example.com") and on_open_internet("host.adck.test") and on_open_internet("8.8.8.8")
    for host in ("localhost", "printer.local", "10.0.0.7", "127.0.0.1", "[::1]", "db.internal", "intranet",
                 "router.home.arpa", "fd00::1"):
        assert not on_open_internet(host), host


def _hostile(route: dict) -> object:
    return mutate(_rest_only_site(), Mutant(name="hostile", clause=None, summary="hostile",
                                           routes=({"path": "/agents/{agent_id}/invoke", "handler": None,
                                                    **route},)))


@pytest.mark.parametrize(("route", "clause", "timeout"), [
    ({"body": "text", "text": "<html>", "pad_bytes": 3_000_000, "headers": {"Content-Type": "text/html"}},
     "WOA-4.3.1-13", None),
    ({"body": "text", "text": "done!", "headers": {"Content-Type": "text/plain"}}, "WOA-4.3.1-13", None),
], ids=["huge", "not-json"])
def test_hostile_invocation_endpoint_fails_clauses_without_crashing(route: dict, clause: str, timeout) -> None:
    with live(_hostile(route)) as reach:
        result = ends(quiet_run, DRAFT, "https://host.adck.test", seed=3, invoke=True, timeout=timeout, **reach)
    report = result.report
    assert report is not None and result.exit_code == 1
    got = outcomes(report)
    assert got[clause] == "fail", [(r.clause, r.outcome, r.message) for r in report.results if r.role == "host"]
    assert not any(r.outcome == "error" for r in report.results)


def test_an_agent_slower_than_the_timeout_is_not_judged_on_it() -> None:
    """The draft sets no time limit on an invocation: a conforming host whose agents answer after
    the kit's --timeout leaves WOA-4.3.1-12 (and every clause that judges an answer) unjudged,
    naming --timeout, never failed (AMB-29); the silent endpoint costs one timeout, not one per
    invocation."""
    slow = mutate(_rest_only_site(), Mutant(name="slow", clause=None, summary="slow", routes=(
        {"path": "/agents/{agent_id}/invoke", "delay": 3.0},)))
    with live(slow) as reach, requests_to("host.adck.test") as sent:
        result = ends(quiet_run, DRAFT, "https://host.adck.test", seed=3, invoke=True, timeout=1.0, **reach)
    report = result.report
    assert report is not None
    assert [(r.clause, r.message) for r in report.results if r.outcome in ("fail", "error")] == []
    result_of = {r.clause: r for r in report.results}["WOA-4.3.1-12"]
    assert result_of.outcome == "untestable", result_of.message
    assert "no answer within the kit's --timeout of 1 s; raise --timeout to judge it" in result_of.message
    assert [m for m, _ in sent].count("POST") == 1, "a silent endpoint costs one timeout, not one per invocation"
    assert report.summary.level == "partial"


def test_one_case_cut_short_by_the_timeout_is_never_a_pass() -> None:
    """A host that answers every invocation but one in time: the one the kit's --timeout cut
    short (the envelope sent with a charset parameter) leaves each clause whose space holds it
    untestable, naming --timeout, though every other case passed (never a pass on part of the
    space); the rest of the run is judged as usual."""
    slow = mutate(_rest_only_site(), Mutant(name="slow-charset", clause=None, summary="slow", routes=(
        {"path": "/agents/{agent_id}/invoke", "options": {"slow_seconds": 3.0, "slow_content_type": "charset"}},)))
    with live(slow) as reach:
        result = ends(quiet_run, DRAFT, "https://host.adck.test", seed=3, invoke=True, timeout=1.0,
                      clauses=["WOA-4.3.1-12", "WOA-4.3.1-13"], **reach)
    report = result.report
    assert report is not None
    assert [(r.clause, r.message) for r in report.results if r.outcome in ("fail", "error")] == []
    for cid in ("WOA-4.3.1-12", "WOA-4.3.1-13"):
        result_of = {r.clause: r for r in report.results}[cid]
        assert result_of.outcome == "untestable", (cid, result_of.message)
        assert "--timeout of 1 s; raise --timeout to judge it" in result_of.message, (cid, result_of.message)
        assert "the others passed" in result_of.message, (cid, result_of.message)


@pytest.mark.parametrize("way", ["garbage", "refused"])
def test_an_invocation_endpoint_that_breaks_the_connection_fails(way: str) -> None:
    """No HTTP answer that is not the kit's time limit fails WOA-4.3.1-12: a REST server that answers
    something that is not HTTP, or whose port refuses the connection."""
    from tests import hostile

    site = _rest_only_site()
    doc = copy.deepcopy(site.document)
    doc["transports"]["rest"]["base"] = "https://api.adck.test"
    with contextlib.ExitStack() as stack:
        if way == "garbage":
            port = stack.enter_context(hostile.Garbage(ssl_context=tls.server_context("api.adck.test"))).port
        else:
            sock, port = hostile.refused_port()
            stack.callback(sock.close)
        reach = stack.enter_context(live(replace(site, document=doc)))
        result = ends(quiet_run, DRAFT, "https://host.adck.test", seed=3, invoke=True, ca_bundle=reach["ca_bundle"],
                      connect_to=reach["connect_to"] + [f"api.adck.test:443:127.0.0.1:{port}"])
    report = result.report
    assert report is not None and result.exit_code == 1
    result_of = {r.clause: r for r in report.results}["WOA-4.3.1-12"]
    assert result_of.outcome == "fail", result_of.message
    assert ("protocol: " if way == "garbage" else "connect: ") in result_of.message, result_of.message
    assert not any(r.outcome == "error" for r in report.results)


# ------------------------------------------------------------------ inputs built from schemas

_LEAF = st.one_of(
    st.builds(lambda lo, n: {"type": "string", "minLength": lo, "maxLength": lo + n}, st.integers(0, 5),
              st.integers(0, 10)),
    st.builds(lambda lo, n: {"type": "integer", "minimum": lo, "maximum": lo + n}, st.integers(-50, 50),
              st.integers(0, 100)),
    st.builds(lambda lo: {"type": "number", "exclusiveMinimum": lo, "exclusiveMaximum": lo + 2},
              st.integers(-10, 10)),
    st.just({"type": "boolean"}), st.just({"type": "null"}), st.just({"type": ["string", "null"]}),
    st.lists(st.text("abc", min_size=1, max_size=3), min_size=1, max_size=3, unique=True).map(
        lambda xs: {"type": "string", "enum": xs}),
    st.just({"const": "fixed"}), st.just({"type": "string", "format": "email", "x-vendor": 1}),
)


def _objects(children):
    return st.builds(
        lambda props, req, closed: {"type": "object", "properties": props,
                                    "required": sorted(set(req) & set(props)),
                                    **({"additionalProperties": False} if closed else {})},
        st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), children, min_size=1, max_size=4),
        st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=4), st.booleans())


_SCHEMAS = st.recursive(_LEAF, lambda children: st.one_of(
    _objects(children),
    st.builds(lambda items, lo: {"type": "array", "items": items, "minItems": lo, "maxItems": lo + 2},
              children, st.integers(0, 2))), max_leaves=8).filter(lambda s: s.get("type") == "object")


@settings(max_examples=60, deadline=None)
@given(schema=_SCHEMAS, seed=st.integers(0, 2**32 - 1))
def test_inputs_are_proven_valid_or_invalid_and_reproducible(schema: dict, seed: int) -> None:
    check = validator(schema)
    valid = valid_inputs(schema, seed, 3)
    assert valid and why_not(schema) is None, schema
    assert all(check.is_valid(v) for v in valid)
    assert len({repr(v) for v in valid}) == len(valid)
    assert valid_inputs(schema, seed, 3) == valid, "the same seed builds the same inputs"
    for way, value in invalid_inputs(schema, seed, 5):
        assert not check.is_valid(value), (way, value)


def test_inputs_of_the_reference_host_cover_each_way() -> None:
    doc = load_reference(DRAFT).document
    summarizer = next(a for a in doc["agents"] if a["id"] == "summarizer")
    ways = [w for w, _ in invalid_inputs(summarizer["inputs"], 1, 3)]
    assert any("missing" in w for w in ways) and any("wrong type" in w for w in ways) \
        and any("minimum" in w or "maximum" in w for w in ways)
    low, high = valid_inputs(summarizer["inputs"], 1, 2)
    assert set(low) == {"text"} and high["max_words"] == 500, "the smallest input first, then every member at its top"


def test_an_input_the_kit_cannot_build_is_said_not_guessed() -> None:
    schema = {"type": "object", "required": ["zip"], "properties": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}}}
    assert valid_inputs(schema, 1, 3) == []
    assert "keywords the kit ignores" in (why_not(schema) or "")
    assert "not a valid JSON Schema" in (why_not({"type": 5}) or "")


def test_mutants_file_names_only_host_clauses() -> None:
    for name, m in MUTANTS.items():
        assert PROFILE.clause(m.clause).role == "host", name
    assert Path(fixtures_dir(DRAFT) / "mutants.toml").exists()
