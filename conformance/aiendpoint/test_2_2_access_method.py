"""§2.2 Access Method."""

from __future__ import annotations

from conformance.aiendpoint.conftest import (EXPLAINED_STATUS, Client, OtherMethod, Scenarios, each, redirect_chain,
                                              response, said)
from conformance.document import loads
from conformance.fetch import Fetch
from conformance.outcomes import clause, untestable, violation

RESPONSE_TIME_LIMIT = 3.0


@clause("AIE-2.2-01")
def test_2_2_accessible_via_get(well_known: Fetch, other_method: OtherMethod) -> None:
    """The AI Discovery Document MUST be accessible via an HTTP GET request. (A GET that does
    not yield it fails when the server refuses the method, or when another method yields the
    document at the same URI: AMB-30.)"""
    final = response(well_known)
    if 200 <= final.status < 300:
        return
    if final.status in (405, 501):
        allow = final.header("allow")
        violation(f"GET {final.url} answered {final.status} {final.reason}" + (f" (Allow: {allow})" if allow else ""),
                  readings=("AMB-30",))
    if other_method.yields:
        violation(f"GET {final.url} answered {final.status} {final.reason}, while POST to the same URI yields "
                  f"the document ({other_method.fetch.final.status})", readings=("AMB-30",))
    clause_id = EXPLAINED_STATUS.get(final.status, "AIE-2.1-01")
    untestable(f"GET {final.url} answered {final.status} {final.reason} and no request yielded a document "
               f"there (see {clause_id})")


@clause("AIE-2.2-02")
def test_2_2_no_authentication_required(well_known: Fetch) -> None:
    """The server MUST NOT require authentication to access the AI Discovery Document itself."""
    final = response(well_known)
    if final.status in (401, 403, 407):
        challenge = final.header("www-authenticate") or final.header("proxy-authenticate")
        violation(f"a GET without credentials was answered {final.status} {final.reason}"
                  + (f" with a challenge ({challenge})" if challenge else ""))


@clause("AIE-2.2-03")
def test_2_2_responds_within_3_seconds(well_known: Fetch) -> None:
    """The server SHOULD respond to requests within 3 seconds under normal operating conditions."""
    for ex in well_known.exchanges:
        if ex.elapsed_headers is not None and ex.elapsed_headers > RESPONSE_TIME_LIMIT:
            violation(f"{ex.method} {ex.url} took {ex.elapsed_headers:.2f} s to answer")
        if ex.elapsed_headers is None and ex.error and ex.error[0] == "timeout":
            violation(f"{ex.method} {ex.url} had no answer within the kit's {ex.elapsed_total:.1f} s")
    response(well_known)


@clause("AIE-2.2-05")
def test_2_2_status_200_when_available(well_known: Fetch, other_method: OtherMethod) -> None:
    """The server MUST respond with HTTP status code 200 (OK) when the AI Discovery Document
    is available and the request is valid."""
    final = response(well_known)
    if final.status == 200:
        return
    if final.status in EXPLAINED_STATUS:
        untestable(f"answered {final.status}, which {EXPLAINED_STATUS[final.status]} reports")
    if not 200 <= final.status < 300:
        # the document is not available to GET at all: 2.1-01 or 2.2-01 says why (AMB-30)
        untestable(f"GET {final.url} answered {final.status} {final.reason}, not the document "
                   f"(see {'AIE-2.2-01' if other_method.yields else 'AIE-2.1-01'})")
    violation(f"GET {final.url} (a valid request: no credentials, Accept: application/json) "
              f"answered {final.status} {final.reason} with the document", readings=("AMB-14", "AMB-30"))


def _decodable_encodings() -> list[str]:
    """Accept-Encoding values the kit can decode (never one it cannot: a body it cannot read
    is not the server's fault)."""
    try:
        from httpx._decoders import SUPPORTED_DECODERS
        codings = [c for c in SUPPORTED_DECODERS if c != "identity"]
    except ImportError:  # pragma: no cover - httpx moved it
        codings = ["gzip", "deflate"]
    return ["identity", *codings, ", ".join(codings)]


def _same_document(plain: object, other: object) -> bool:
    """Is ``other`` the document ``plain`` is, up to what content negotiation may change
    (AMB-31): the same top-level members and version; text in another language is fine."""
    if not isinstance(plain, dict) or not isinstance(other, dict):
        return plain == other
    return plain.keys() == other.keys() and plain.get("aiendpoint") == other.get("aiendpoint")


def _valid_request_headers():
    """Headers of valid GETs: no credentials, an Accept that admits application/json (AMB-14)."""
    from hypothesis import strategies as st

    accept = st.sampled_from([
        None, "application/json", "*/*", "application/*", "application/json, text/plain;q=0.5",
        "text/html;q=0.9, application/json", "application/json;q=1.0, */*;q=0.1", "APPLICATION/JSON",
    ])
    agent = st.sampled_from(["adck", "ExampleAgent/1.0 (+https://agent.example)", "python-httpx/0.28",
                             "Mozilla/5.0 (compatible; AIAgent/2.1)"])
    language = st.sampled_from([None, "en", "ko-KR, en;q=0.8", "*", "de-CH, de;q=0.9, en;q=0.5"])
    encoding = st.sampled_from([None, *_decodable_encodings()])
    return st.fixed_dictionaries({}, optional={
        "Accept": accept, "User-Agent": agent, "Accept-Language": language, "Accept-Encoding": encoding,
    }).map(lambda d: {k: v for k, v in d.items() if v is not None})


@clause("AIE-2.2-05")
def test_2_2_status_200_for_varied_valid_requests(well_known: Fetch, adck_fetcher, adck_seed: int) -> None:
    """The server MUST respond with HTTP status code 200 (OK) when the AI Discovery Document
    is available and the request is valid. Hypothesis varies the valid request (Accept,
    User-Agent, Accept-Language, Accept-Encoding: only codings the kit decodes); a few
    requests, replayable with the seed. Each must be answered 200 with the document (decoded;
    another language is fine: AMB-31)."""
    from hypothesis import HealthCheck, Phase, example, given, seed, settings

    primary = response(well_known)
    if primary.status != 200:
        untestable(f"the plain GET already answered {primary.status} (see the other test of this clause)")
    try:
        expected = loads(primary.body)
    except ValueError:
        untestable("the document is not JSON, so answers cannot be compared (see AIE-3.1-01)")

    # no shrinking against a live target, and no request after the first one that got no
    # answer: a publisher that times out costs one timeout, not one per generated request
    no_answer: list[str] = []

    @settings(max_examples=4, deadline=None, database=None, derandomize=False, report_multiple_bugs=False,
              suppress_health_check=list(HealthCheck), phases=(Phase.explicit, Phase.generate))
    @seed(adck_seed)
    @given(headers=_valid_request_headers())
    @example(headers={"Accept": "*/*", "Accept-Language": "de-CH, de;q=0.9, en;q=0.5", "Accept-Encoding": "identity"})
    @example(headers={"Accept": "application/json, text/plain;q=0.5", "Accept-Language": "ko-KR, en;q=0.8",
                      "Accept-Encoding": ", ".join(_decodable_encodings()[1:-1])})
    def check(headers: dict[str, str]) -> None:
        if no_answer:
            violation(no_answer[0])
        fetch = adck_fetcher.fetch(well_known.url, headers=headers)
        final = fetch.final
        shown = ", ".join(f"{k}: {v}" for k, v in headers.items()) or "no extra headers"
        if fetch.error or final is None:
            no_answer.append(f"GET with {shown} got no answer: {fetch.describe_error()}")
            violation(no_answer[0])
        if final.status != 200:
            violation(f"GET with {shown} answered {final.status} {final.reason}", readings=("AMB-14",))
        try:
            same = _same_document(expected, loads(final.body))
        except ValueError:
            same = False
        if not same:
            violation(f"GET with {shown} answered 200 with another body than the plain GET (not the document)")

    check()


# ------------------------------------------------------------------ agent role


@clause("AIE-2.2-07")
def test_2_2_agent_concludes_no_document_on_404(client: Client, scenarios: Scenarios) -> None:
    """An AI agent receiving a 404 response MUST conclude that the service does not publish an
    AI Discovery Document. (A 404 with a text body, an empty body, and one whose body is a
    valid document served as application/json: the status decides, not the body. /ai serving
    a document after the 404 is 4.1-04's, AMB-18.)"""
    text = {"status": 404, "body": "text", "headers": {"Content-Type": "text/plain"}, "remove_headers": ["Cache-Control"]}
    cases = {
        "a text body": text | {"text": "not found"},
        "an empty body": text | {"text": ""},
        "a valid document as its body": {"status": 404, "body": "document"},
    }

    def check(item: tuple[str, dict]) -> None:
        name, route = item
        s = scenarios.new("not-found", routes=[{"path": "/.well-known/ai", **route}])
        reply = client.discover(s)
        if reply["outcome"] != "none":
            violation(f"/.well-known/ai answered 404 with {name} and {said(reply)}, not 'none' (no document published)")

    each(cases.items(), check)


@clause("AIE-2.2-09")
def test_2_2_agent_follows_five_redirects(client: Client, scenarios: Scenarios) -> None:
    """An AI agent MUST follow redirects up to a maximum of 5 consecutive redirections. (One
    to five redirects, with each redirect status of RFC 9110 that keeps GET.)"""

    def check(case: tuple[int, int]) -> None:
        count, status = case
        routes = redirect_chain(count)
        for route in routes[:-1]:
            route["status"] = status
        s = scenarios.new("redirects", routes=routes)
        reply = client.discover(s)
        reached = [r.path for r in s.requests()]
        if reply["outcome"] != "document":
            violation(f"after {count} redirect(s) ({status}) the document was there, but {said(reply)} "
                      f"(requests: {', '.join(reached)})")

    each([(5, 302), (5, 301), (1, 307), (3, 308), (2, 303)], check)


@clause("AIE-2.2-10")
def test_2_2_agent_refuses_https_to_http_redirect(client: Client, scenarios: Scenarios) -> None:
    """The agent MUST NOT follow redirects that change the scheme from "https" to "http". (Each
    redirect status, at the first hop or after an https hop, to the same path or another.)"""

    def check(case: tuple[int, bool]) -> None:
        status, after_a_hop = case
        start = "/.well-known/ai"
        routes = []
        if after_a_hop:
            routes.append({"path": start, "status": 302, "body": "empty", "headers": {"Location": "/moved/ai"},
                           "remove_headers": ["Content-Type", "Cache-Control"]})
            start = "/moved/ai"
        routes.append({"path": start, "status": status, "body": "empty",
                       "headers": {"Location": "http://{host}/.well-known/ai"},
                       "remove_headers": ["Content-Type", "Cache-Control"]})
        s = scenarios.new("redirect-to-http", routes=routes)
        client.discover(s)
        sent = s.requests()
        if not sent or sent[0].listener == "http":
            untestable("the client did not start over https, so no https-to-http redirect was met (see AIE-6.4-01)")
        plain = [r for r in sent if r.listener == "http"]
        if plain:
            violation(f"after an https {status} redirect to http{' (second hop)' if after_a_hop else ''} the client "
                      f"sent {plain[0].method} http://{s.host}{plain[0].path}")

    each([(302, False), (301, False), (307, False), (308, False), (301, True)], check)


@clause("AIE-2.2-09")
def test_2_2_agent_stops_after_five_redirects(client: Client, scenarios: Scenarios) -> None:
    """An AI agent MUST follow redirects up to a maximum of 5 consecutive redirections.
    (A sixth redirect is not followed.)"""
    s = scenarios.new("six-redirects", routes=redirect_chain(6))
    reply = client.discover(s)
    beyond = [r for r in s.requests() if r.path == "/hop/6"]
    if beyond:
        violation(f"the client followed a 6th consecutive redirect (to /hop/6) and {said(reply)}")
