"""Judgements the server-role tests share: what counts as a rejection, a successful search,
a vector in a result (the ambiguities named beside each)."""

from __future__ import annotations

from typing import Any

from conformance.aidre._server_fixtures import VECTOR_MEMBERS, Answer, Probe
from conformance.document import Document
from conformance.outcomes import not_applicable, untestable, violation


def search_reached(answer: Answer, what: str) -> None:
    """*untestable* when a search got no answer to judge: no response, or a 2xx that is no
    successful search response (AIDRE-16.1-01 reports that; a method refusal is caught by
    :meth:`Probe.search`, for AIDRE-15.1-02)."""
    __tracebackhide__ = True
    if answer.status is None:
        untestable(f"{what}: {answer.describe()}")
    if answer.ok and not answer.successful_search:
        untestable(f"{what} was answered {answer.describe()}, a 2xx that is no successful search response "
                   "(see AIDRE-16.1-01)")


def must_reject(answer: Answer, what: str, statuses: tuple[int, ...] = (400, 422)) -> str | None:
    """Why ``answer`` is not a rejection with one of ``statuses`` (AMB-03), or None. Whether the
    error body is a JSON object is AIDRE-10-01's to judge, not the rejecting clause's."""
    if answer.status is None:
        return f"{what}: {answer.describe()}"
    if answer.status not in statuses:
        wanted = " or ".join(map(str, statuses)) if len(statuses) < 4 else f"{statuses[0]}-{statuses[-1]}"
        return f"{what} was answered {answer.describe()}; expected a rejection, {wanted}"
    return None


def capability(document: Document, name: str) -> Any:
    value = document.value()
    caps = value.get("capabilities") if isinstance(value, dict) else None
    return caps.get(name) if isinstance(caps, dict) else None


def vector_of(result: Any) -> list | None:
    """The vector a result carries (vector, vectors or embedding, at its top level or in its
    metadata, AMB-16), or None."""
    if not isinstance(result, dict):
        return None
    places = [result] + ([result["metadata"]] if isinstance(result.get("metadata"), dict) else [])
    for place in places:
        for name in VECTOR_MEMBERS:
            value = place.get(name)
            if isinstance(value, list) and value and all(
                    isinstance(x, (int, float)) and not isinstance(x, bool) for x in value):
                return value
            if isinstance(value, list) and value and all(isinstance(x, list) for x in value):
                return value[0]
    return None


def spaces_or_skip(server: Probe, document: Document) -> list[dict]:
    """The usable advertised embedding spaces; *not-applicable* without any (or when the
    document says vector queries are not offered, AMB-09)."""
    __tracebackhide__ = True
    if capability(document, "query_vector") is False:
        not_applicable("the discovery document says vector queries are not offered (capabilities.query_vector "
                       "false, AMB-09)")
    spaces = server.usable_spaces()
    if not spaces:
        not_applicable("the server advertises no embedding space with an id and positive integer dimensions (AMB-10)")
    return spaces


def fail_all(problems: list[str], total: int, what: str) -> None:
    __tracebackhide__ = True
    if problems:
        violation(f"{len(problems)} of {total} {what}: " + "; ".join(problems[:4]))


def result_ids(server: Probe, count: int = 3) -> list[str]:
    """Ids of results of two successful searches (a text one and a second text one), at most ``count``."""
    __tracebackhide__ = True
    ids: list[str] = []
    for body in (server.text_body(), server.text_body("invoice", top_k=2)):
        answer = server.search(body)
        search_reached(answer, "a search")
        ids += [r["id"] for r in answer.results if isinstance(r, dict) and isinstance(r.get("id"), str)]
    ids = list(dict.fromkeys(ids))
    if not ids:
        untestable("no successful search returned a result with an id (see AIDRE-5.2-01)")
    return ids[:count]


def chunk_answers(server: Probe, count: int = 3, method_refusal: bool = False) -> list[tuple[str, Answer]]:
    __tracebackhide__ = True
    if server.endpoints.chunk is None:
        untestable("the discovery document names a chunk endpoint that is no {id} template (AMB-12)")
    return [(cid, server.get(server.endpoints.chunk_url(cid), method_refusal=method_refusal))
            for cid in result_ids(server, count)]


def provoked_errors(server: Probe) -> list[tuple[str, object]]:
    """Requests every AIDRE server must refuse or answer with an error, across the resources:
    a non-positive top_k, a body that is not JSON, an unknown chunk id, a vector of the wrong
    length, an embedding space nobody advertises."""
    cases: list[tuple[str, object]] = [
        ("a search with top_k 0", server.search(server.text_body(top_k=0))),
        ("a search whose body is not JSON", server.search(None, raw=b'{"query": "cut')),
        ("a search with an embedding space nobody advertises",
         server.search({"query_vector": [0.1, 0.2], "embedding_space": "adck:no-such-space", "top_k": 5})),
    ]
    spaces = server.usable_spaces()
    if spaces:
        body = server.vector_body(spaces[0], vector=[0.25] * (spaces[0]["dimensions"] + 1))
        cases.append(("a query_vector one number too long", server.search(body)))
    if server.endpoints.chunk is not None:
        url = server.endpoints.chunk_url("adck-no-such-chunk-7f3a")
        cases.append(("GET of an unknown chunk id", server.get(url)))
    return cases


def searches_without_vector_request(server: Probe) -> list:
    """Searches that do not ask for vectors: no return object, and a return object without
    vectors true (AMB-16), as text and (when a space is advertised) vector queries."""
    bodies = [server.text_body(), server.text_body(**{"return": {"text": True, "metadata": True}}),
              server.text_body(**{"return": {"vectors": False}})]
    spaces = server.usable_spaces()
    if spaces:
        bodies.append(server.vector_body(spaces[0], seed=2))
    return bodies


def no_vectors_by_default(server: Probe) -> None:
    __tracebackhide__ = True
    bodies = searches_without_vector_request(server)
    problems, judged = [], 0
    for body in bodies:
        answer = server.search(body)
        search_reached(answer, "a search without return.vectors")
        if not answer.successful_search:
            continue
        judged += 1
        carrying = [r.get("id", "?") for r in answer.results if vector_of(r) is not None]
        if carrying:
            asked = body.get("return", "no return object")
            problems.append(f"a search with {asked} got vectors in {len(carrying)} results (e.g. {carrying[0]!r})")
    if not judged:
        untestable("no search without return.vectors succeeded (see AIDRE-5.2-01)")
    fail_all(problems, judged, "searches that did not ask for vectors got them")


def successful_searches_have_results(server: Probe) -> None:
    __tracebackhide__ = True
    bodies = [server.text_body(), server.text_body("invoice", top_k=2)]
    spaces = server.usable_spaces()
    if spaces:
        bodies.append(server.vector_body(spaces[0], seed=1))
    problems, judged = [], 0
    for body in bodies:
        answer = server.search(body)
        if answer.status is None:
            untestable(f"a search: {answer.describe()}")
        if not answer.ok:
            continue
        judged += 1
        value = answer.value
        if not isinstance(value, dict):
            problems.append(f"a 2xx search answer is {answer.describe()}, not a JSON object")
        elif not isinstance(value.get("results"), list):
            got = "no results member" if "results" not in value else f"results of type {type(value['results']).__name__}"
            problems.append(f"a 2xx search answer has {got} (members: {', '.join(sorted(value)[:6])})")
    if not judged:
        untestable("no search was answered 2xx (see AIDRE-5.2-01)")
    fail_all(problems, judged, "2xx search answers lacked a results array")
