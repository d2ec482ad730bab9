"""§15 HTTP Usage: methods (15.1), response headers (15.3) and status codes (15.4)."""

from __future__ import annotations

import json

from conformance.aidre._server_checks import (chunk_answers, chunks_offered, chunks_or_skip, fail_all,
                                               offered_chunk_answers, search_reached, spaces_or_skip, unreadable_left,
                                               vector_spaces)
from conformance.aidre._server_fixtures import MEDIA, METHOD_REFUSED, NOT_JSON, Answer, Endpoints, Probe
from conformance.fetch import Fetch
from conformance.outcomes import clause, not_applicable, untestable, violation


# ---------------------------------------------------------------- 15.1 Methods

@clause("AIDRE-15.1-01")
def test_15_1_discovery_and_collections_support_get(discovery_fetch: Fetch, endpoints: Endpoints,
                                                      collections_answer: Answer | None, server: Probe) -> None:
    """The discovery and collection resources MUST support HTTP GET: each answers a GET with
    200 and a JSON object or array, not 405 or 501 (AMB-11). A 200 whose body is JSON in another
    encoding than UTF-8 is AIDRE-14.2-01's failure: the kit cannot read it (AMB-63)."""
    answers = [("/.well-known/ai-discovery", Answer(discovery_fetch))]
    if collections_answer is not None:  # its 405 or 501 is this clause's own case
        answers.append((endpoints.collections, collections_answer))
        server.used.append(collections_answer)
    problems, skipped = [], []
    for where, answer in answers:
        if answer.status is None:
            untestable(f"GET {where}: {answer.describe()}")
        if answer.status == 200 and answer.value is NOT_JSON and answer.foreign_encoding:
            skipped.append(f"GET {where}: {answer.foreign_encoding}")
        elif answer.status in METHOD_REFUSED or (answer.status == 200 and not isinstance(answer.value, (dict, list))):
            problems.append(f"GET {where} was answered {answer.describe()}")
    fail_all(problems, len(answers), "resources did not support GET")
    unreadable_left(skipped)


@clause("AIDRE-15.1-02")
def test_15_1_search_supports_post(server: Probe) -> None:
    """The search resource MUST support HTTP POST: a POST of a text query is not answered 405
    or 501 (whether it succeeds is AIDRE-5.2-01)."""
    answer = server.search(server.text_body(), method_refusal=True)
    if answer.status is None:
        untestable(f"POST {server.endpoints.search}: {answer.describe()}")
    if answer.status in METHOD_REFUSED:
        allow = answer.final.header("allow") if answer.final else None
        violation(f"POST {server.endpoints.search} was answered {answer.status}"
                  + (f" (Allow: {allow})" if allow else ""))


@clause("AIDRE-15.1-03")
def test_15_1_chunk_supports_get(server: Probe) -> None:
    """The chunk dereference resource MUST support HTTP GET: GET of a result's id there is not
    answered 405 or 501 (not applicable when the target does not offer chunk retrieval: the
    document names no endpoints.chunk and /chunks/{id} serves no real result's chunk, AMB-31)."""
    chunks_or_skip(server)
    answers = chunk_answers(server, method_refusal=True)
    refused = [f"GET of chunk {cid!r} was answered {a.status}" for cid, a in answers if a.status in METHOD_REFUSED]
    fail_all(refused, len(answers), "chunk GETs were refused as a method")


# ---------------------------------------------------------------- 15.3 Response Headers

@clause("AIDRE-15.3-01")
def test_15_3_successful_responses_labelled_aidre_json(server: Probe, collections_answer: Answer | None) -> None:
    """Servers SHOULD include a Content-Type response header set to application/aidre+json
    for successful AIDRE responses (collections, search and chunk; AMB-02)."""
    answers: list[tuple[str, Answer]] = []
    if collections_answer is not None and collections_answer.ok:
        answers.append(("the collections resource", collections_answer))
        server.used.append(collections_answer)
    text = server.search(server.text_body())
    search_reached(text, "a text search")
    answers.append(("a successful search", text))
    answers += [(f"chunk {cid!r}", a) for cid, a in offered_chunk_answers(server, 1)]
    # an AIDRE body is JSON: a body that is not is another clause's failure (AIDRE-8-01, AIDRE-16.1-01);
    # JSON in another encoding is still JSON, labelled as it is (its encoding is AIDRE-14.2-01's)
    judged = [(w, a) for w, a in answers if a.ok and (a.value is not NOT_JSON or a.foreign_encoding)]
    if not judged:
        untestable("no successful answer to judge (see AIDRE-5.2-01)")
    problems = [f"{w} came as {a.media_type or 'no Content-Type'}" for w, a in judged if a.media_type != MEDIA]
    fail_all(problems, len(judged), f"successful answers were not labelled {MEDIA}")


# ---------------------------------------------------------------- 15.4 Status Codes

def _statuses(cases: list[tuple[str, Answer]], expected: tuple[int, ...]) -> None:
    __tracebackhide__ = True
    problems = []
    for what, answer in cases:
        if answer.status is None:
            untestable(f"{what}: {answer.describe()}")
        if answer.status not in expected:
            problems.append(f"{what} was answered {answer.status}, not {' or '.join(map(str, expected))}")
    fail_all(problems, len(cases), "answers used another status code")


@clause("AIDRE-15.4-02")
def test_15_4_200_for_successful_requests(server: Probe, discovery_fetch: Fetch) -> None:
    """200 OK: successful request (not another 2xx such as 203 or 204)."""
    cases = [("GET /.well-known/ai-discovery", Answer(discovery_fetch)),
             ("a text search", server.search(server.text_body()))]
    spaces = vector_spaces(server)
    if spaces:
        cases.append(("a vector search", server.search(server.vector_body(spaces[0], seed=1))))
    cases += [(f"GET of chunk {cid!r}", a) for cid, a in offered_chunk_answers(server, 1)]
    successful = [(w, a) for w, a in cases if a.ok]
    if not successful:
        untestable("no request succeeded (see AIDRE-5.2-01)")
    _statuses(successful, (200,))


@clause("AIDRE-15.4-04")
def test_15_4_400_for_syntactically_invalid_requests(server: Probe) -> None:
    """400 Bad Request: syntactically invalid request: a search body cut short, a bare word,
    an object left open. A request that is JSON but breaks a rule of the draft (a non-positive
    top_k, 18.1; neither query nor query_vector, 5.1) fits this row and the 422 row alike: where
    the server refuses it (any 4xx is a refusal: AIDRE-18.1-03, AIDRE-5.1-02), with 400 or 422
    (AMB-03)."""
    cases = [(f"a search whose body is {raw!r}", server.search(None, raw=raw))
             for raw in (b'{"query": "cut', b"invoice", b'{"query": "x",}')]
    _statuses(cases, (400,))
    semantic = [(f"a search with top_k {n}", server.search(server.text_body(top_k=n))) for n in (0, -1)]
    semantic.append(("a search with neither query nor query_vector (an empty object)", server.search({})))
    refused = [(w, a) for w, a in semantic if a.refused]  # else 18.1-03's or 5.1-02's case
    problems = [f"{w} was refused {a.status}, neither 400 nor 422" for w, a in refused if a.status not in (400, 422)]
    if problems:
        violation(f"{len(problems)} of {len(refused)} refusals of requests that break a rule of the draft: "
                  + "; ".join(problems), readings=("AMB-03",))


@clause("AIDRE-15.4-05")
def test_15_4_401_when_authentication_required(server: Probe) -> None:
    """401 Unauthorized: authentication required or failed: a search of a protected collection
    without credentials (AMB-22; not applicable when nothing requires authentication; sent
    without the user's credentials, --header, on purpose)."""
    protected = server.protected_collections()
    if not protected:
        not_applicable("the collections resource lists no protected collection (AMB-22)")
    answers = [(f"a search of {name!r} without credentials",
                server.search({"query": "runbook escalation on-call platform", "collection": name, "top_k": 5},
                              credentials=False))
               for name in protected]
    refused = [(w, a) for w, a in answers if not a.ok]
    if not refused:
        not_applicable("the protected collections answered searches without credentials (see AIDRE-11.6-01)")
    _statuses(refused, (401,))


@clause("AIDRE-15.4-07")
def test_15_4_404_for_unknown_identifiers(server: Probe) -> None:
    """404 Not Found: resource identifier not found: GET of a chunk id no result carried is
    answered 404 (where chunk retrieval is offered, AMB-31). A search of a collection the server
    does not list is an unknown identifier only where the server refuses it: the draft never
    says that naming such a collection is an error (AMB-11), so a successful search (with no
    results, or the collection read as a filter) is not this row's case; a refusal is 404 (422
    accepted, AMB-03)."""
    cases = []
    if chunks_offered(server):
        for cid in ("adck-no-such-chunk-7f3a", "doc_999999#chunk_999"):
            cases.append((f"GET of unknown chunk {cid!r}", server.get(server.endpoints.chunk_url(cid)), (404,)))
    unknown = server.search({"query": "invoice", "collection": "adck-no-such-collection"})
    if not unknown.ok:  # a 2xx searched it: no identifier was found missing
        cases.append(("a search of a collection the server does not list", unknown, (404, 422)))
    if not cases:
        not_applicable("the target offers no chunk retrieval (§8 SHOULD) and answers a search of a collection it "
                       "does not list as a search, not as an unknown identifier (AMB-03)")
    problems = []
    for what, answer, expected in cases:
        if answer.status is None:
            untestable(f"{what}: {answer.describe()}")
        if answer.status not in expected:
            problems.append(f"{what} was answered {answer.status}, not {' or '.join(map(str, expected))}")
    if problems:
        violation(f"{len(problems)} of {len(cases)} unknown identifiers were not answered 404: " + "; ".join(problems),
                  readings=("AMB-03",))


@clause("AIDRE-15.4-09")
def test_15_4_415_for_unsupported_content_type(server: Probe) -> None:
    """415 Unsupported Media Type: unsupported Content-Type. The same search body sent as
    text/plain, as form data, as application/json and with no Content-Type: where the server
    refuses it while the body sent as application/aidre+json succeeds, it refused the type, and
    with 415. A type the server answers is one it supports: clients MUST send
    application/aidre+json (14.1), but nothing obliges a server to refuse another type
    (14.1 lets it accept application/json), so accepting one is never this row's failure (AMB-03)."""
    body = server.text_body()
    plain = server.search(body)
    search_reached(plain, "the same search sent as application/aidre+json")
    if not plain.successful_search:
        untestable(f"the same search sent as {MEDIA} was answered {plain.describe()} (see AIDRE-5.2-01)")
    raw = json.dumps(body, ensure_ascii=False).encode("utf-8")
    sent = [(f"a search sent as {ct or 'no Content-Type'}", server.search(None, raw=raw, content_type=ct))
            for ct in ("text/plain", "application/x-www-form-urlencoded", "application/json", None)]
    for what, answer in sent:
        if answer.status is None:
            untestable(f"{what}: {answer.describe()}")
    refused = [(w, a) for w, a in sent if not a.ok]  # a 2xx: the type is supported
    if not refused:
        not_applicable("the server answers the search in every Content-Type the kit sent (text/plain, form data, "
                       "application/json, none): it supports them, and 415 is for an unsupported one (AMB-03)")
    problems = [f"{w} was answered {a.status}, not 415" for w, a in refused if a.status != 415]
    if problems:
        violation(f"{len(problems)} of {len(refused)} searches refused for their Content-Type: " + "; ".join(problems),
                  readings=("AMB-03",))


@clause("AIDRE-15.4-10")
def test_15_4_422_for_semantically_invalid_requests(server: Probe, discovery) -> None:
    """422 Unprocessable Entity: semantically invalid request, such as unsupported embedding
    dimensionality (other semantic errors may be 400: AMB-03); not applicable where the target
    does not offer vector queries (AMB-32)."""
    space = spaces_or_skip(server)[0]
    cases = [(f"a {n}-number query_vector in {space['id']!r}",
              server.search(server.vector_body(space, vector=[0.25] * n)))
             for n in sorted({space["dimensions"] + 1, 1} - {space["dimensions"]})]
    _statuses(cases, (422,))


@clause("AIDRE-15.4-11", judges_rate_limits=True)
def test_15_4_429_when_rate_limit_exceeded(server: Probe) -> None:
    """429 Too Many Requests: rate limit exceeded. Observed without provoking it (AMB-07): a
    text search of each public collection; an answer that says the limit is exceeded (error
    rate_limited, or RateLimit-Remaining: 0 on a refusal) must be a 429."""
    public = [c for c in server.collections if isinstance(c, dict) and c.get("visibility", "public") == "public"]
    names = [c.get("id", c.get("name")) for c in public]
    names = [n for n in names if isinstance(n, str) and n] or [None]
    limited = []
    own = [(f"a search of {name!r}" if name else "a search", server.search(server.text_body("rate limit quota",
                                                                                          collection=name)))
           for name in names]
    # and every search answer the run met before (the kit sends no burst: AMB-07)
    seen = [("a search of the run", a) for a in server.searches_seen() if all(a is not b for _, b in own)]
    for label, answer in own + seen:
        if answer.status is None or answer.ok:
            continue
        remaining = answer.final.header("ratelimit-remaining") if answer.final else None
        said = isinstance(answer.value, dict) and answer.value.get("error") == "rate_limited"
        if said or (remaining or "").strip() == "0":
            if all(answer is not b for _, b in own):
                server.used.append(answer)  # evidence
            limited.append((label, answer))
    if not limited:
        not_applicable("no answer of the run said the rate limit was exceeded (the kit sends no burst, AMB-07)")
    _statuses(limited, (429,))
