"""Judgements the server-role tests share: what counts as a rejection, a successful search,
a vector in a result (the ambiguities named beside each)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from conformance.aidre._server_fixtures import METHOD_REFUSED, NOT_JSON, VECTOR_MEMBERS, Answer, Probe
from conformance.document import Document
from conformance.outcomes import not_applicable, untestable, violation


def search_reached(answer: Answer, what: str) -> None:
    """*untestable* when a search got no answer to judge: no response, or a 2xx that is no
    successful search response (AIDRE-16.1-01 reports that; a method refusal is caught by
    :meth:`Probe.search`, for AIDRE-15.1-02)."""
    __tracebackhide__ = True
    if answer.status is None:
        untestable(f"{what}: {answer.describe()}")
    if answer.ok and not answer.successful_search and answer.foreign_encoding:
        untestable(f"{what} was answered {answer.describe()}, which the kit cannot read (see AIDRE-14.2-01)")
    if answer.ok and not answer.successful_search:
        untestable(f"{what} was answered {answer.describe()}, a 2xx that is no successful search response "
                   "(see AIDRE-16.1-01)")


def unreadable_left(skipped: list[str]) -> None:
    """*untestable* when the clause found nothing wrong in what it could read, but some bodies it
    had to read are JSON in another encoding than UTF-8: that is AIDRE-14.2-01's failure, and
    the members they hold are unknown (AMB-63)."""
    __tracebackhide__ = True
    if skipped:
        untestable(f"{len(skipped)} of the bodies this clause reads are not UTF-8, so the kit cannot read them: "
                   f"{skipped[0]} (see AIDRE-14.2-01)")


#: Every 4xx status: a refusal, whatever its code (which code is 15.4's rows', AMB-03, AMB-28).
REFUSALS = tuple(range(400, 500))


def must_reject(answer: Answer, what: str, statuses: tuple[int, ...] = REFUSALS) -> str | None:
    """Why ``answer`` is not a rejection with one of ``statuses`` (any 4xx unless the sentence
    names a code: which 4xx is the 15.4 rows', AIDRE-15.4-04, AMB-03), or None. Whether the
    error body is a JSON object is AIDRE-10-01's to judge, not the rejecting clause's (AMB-28)."""
    if answer.status is None:
        return f"{what}: {answer.describe()}"
    if answer.status not in statuses:
        wanted = " or ".join(map(str, statuses)) if len(statuses) < 4 else f"{statuses[0]}-{statuses[-1]}"
        return f"{what} was answered {answer.describe()}; expected a rejection, {wanted}"
    return None


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


#: Why a clause that judges only vector queries does not apply (AMB-32).
NO_VECTORS = "the target does not offer vector queries (§5.3 SHOULD)"
#: Why a clause that judges only chunk retrieval does not apply (AMB-31).
NO_CHUNKS = "the target does not offer chunk retrieval (§8 SHOULD; see AIDRE-8-01)"


def vector_offer(server: Probe) -> tuple[bool | None, str]:
    """Whether the target offers vector queries (AMB-32): (True, "") when the discovery document
    does not set capabilities.query_vector to false, it advertises an embedding space the kit
    can build a vector for (AMB-10), and a query_vector of that space's declared dimensions is
    not refused; (False, why) when one of these fails (any 4xx or 5xx refuses: a 400, a 422, a
    501; a 2xx that is no successful search is offered, and 16.1's to judge); (None, why) when
    the kit could not tell: no answer, a 429 (the kit's own refusal), or a search resource that
    refuses POST itself (AIDRE-15.1-02). Every test that sends vector queries asks this one
    question, so a text-only server is judged on text alone."""
    __tracebackhide__ = True
    if server.capabilities.get("query_vector") is False:
        return False, "the discovery document says so (capabilities.query_vector false, AMB-09)"
    spaces = server.usable_spaces()
    if not spaces:
        return False, "it advertises no embedding space with an id and positive integer dimensions (AMB-10)"
    space = spaces[0]
    answer = server.search(server.vector_body(space, seed=1), method_refusal=True)
    what = f"a {space['dimensions']}-number query_vector in {space['id']!r}"
    if answer.ok:
        return True, ""
    if answer.status is None or answer.status == 429:
        return None, f"{what}: {answer.describe()}"
    if answer.status in METHOD_REFUSED and \
            server.search(server.text_body(), method_refusal=True).status in METHOD_REFUSED:
        return None, "the search resource refuses POST itself (see AIDRE-15.1-02)"
    return False, f"{what} was answered {answer.describe()}"


def vector_spaces(server: Probe) -> list[dict]:
    """The usable advertised embedding spaces when the target offers vector queries, else []:
    a clause that mixes text and vector cases leaves its vector cases out where they are not
    offered, or the kit could not tell (AMB-32)."""
    __tracebackhide__ = True
    return server.usable_spaces() if vector_offer(server)[0] is True else []


def spaces_or_skip(server: Probe, document: Document | None = None) -> list[dict]:
    """The usable advertised embedding spaces, for a clause that judges vector queries alone;
    *not-applicable* when the target does not offer vector queries (AMB-09, AMB-32),
    *untestable* when the kit could not tell."""
    __tracebackhide__ = True
    _offered_or_skip(vector_offer(server), NO_VECTORS)
    return server.usable_spaces()


def _result_ids_seen(server: Probe) -> list[str]:
    """Ids of results of the two searches :func:`result_ids` sends, none when they fail."""
    ids: list[str] = []
    for body in (server.text_body(), server.text_body("invoice", top_k=2)):
        answer = server.search(body)
        if answer.successful_search:
            ids += [r["id"] for r in answer.results if isinstance(r, dict) and isinstance(r.get("id"), str)]
    return list(dict.fromkeys(ids))


def chunk_offer(server: Probe) -> tuple[bool | None, str]:
    """Whether the target offers chunk retrieval (AMB-31): (True, "") when the discovery
    document names endpoints.chunk; when it names none, (True, "") only if GET of /chunks/{id}
    (the path 8 names, AMB-12) for the id of a real search result answers 200 with a JSON
    object, else (False, why); (None, why) when no search returned an id to try, or that GET
    got no answer or a 429 (the kit's own refusal)."""
    __tracebackhide__ = True
    endpoints = server.endpoints
    if endpoints.chunk is None:
        return False, "the discovery document's endpoints.chunk is no {id} template (AMB-12)"
    if endpoints.chunk_named:
        return True, ""
    ids = _result_ids_seen(server)
    if not ids:
        return None, ("no successful search returned a result with an id, to look for chunks at /chunks/{id} "
                      "(see AIDRE-5.2-01)")
    url = endpoints.chunk_url(ids[0])
    answer = server.get(url, method_refusal=True)
    if answer.status == 200 and (isinstance(answer.value, dict) or answer.foreign_encoding):
        return True, ""  # JSON in another encoding is a chunk all the same (AIDRE-14.2-01's, AMB-63)
    if answer.status is None or answer.status == 429:  # the kit could not tell
        return None, f"GET {url} (the path 8 names; the discovery document names no endpoints.chunk): {answer.describe()}"
    return False, (f"the discovery document names no endpoints.chunk, and GET {url} (the path 8 names) was "
                   f"answered {answer.describe()}")


def chunks_offered(server: Probe) -> bool:
    """True when the target offers chunk retrieval: a clause that mixes chunk cases with others
    leaves them out otherwise (AMB-31)."""
    __tracebackhide__ = True
    return chunk_offer(server)[0] is True


def chunks_or_skip(server: Probe) -> None:
    """For a clause that judges chunk retrieval alone: *not-applicable* when the target does not
    offer it, *untestable* when the kit could not tell (AMB-31)."""
    __tracebackhide__ = True
    _offered_or_skip(chunk_offer(server), NO_CHUNKS)


def _offered_or_skip(offer: tuple[bool | None, str], not_offered: str) -> None:
    """An optional feature's offer (``vector_offer``, ``chunk_offer``) for a clause that judges it
    alone: *not-applicable* when not offered, *untestable* when the kit could not tell."""
    __tracebackhide__ = True
    offered, why = offer
    if offered is False:
        not_applicable(f"{not_offered}: {why}")
    if offered is None:
        untestable(why)


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
    """GETs of the chunk resource for result ids, whether or not the target offers chunk
    retrieval: AIDRE-8-01's own observation (the other clauses use :func:`offered_chunk_answers`)."""
    __tracebackhide__ = True
    if server.endpoints.chunk is None:
        untestable("the discovery document names a chunk endpoint that is no {id} template (AMB-12)")
    return [(cid, server.get(server.endpoints.chunk_url(cid), method_refusal=method_refusal))
            for cid in result_ids(server, count)]


def offered_chunk_answers(server: Probe, count: int = 3) -> list[tuple[str, Answer]]:
    """:func:`chunk_answers` where the target offers chunk retrieval, none where it does not
    (AMB-31)."""
    __tracebackhide__ = True
    return chunk_answers(server, count) if chunks_offered(server) else []


def provoked_errors(server: Probe) -> list[tuple[str, Answer]]:
    """Requests every AIDRE server must refuse or answer with an error, across the resources:
    a non-positive top_k, a body that is not JSON; where the target offers vector queries, a
    vector of the wrong length and an embedding space nobody advertises; where it offers chunk
    retrieval, an unknown chunk id (AMB-31, AMB-32: an optional feature's refusal is no error
    the kit judges)."""
    cases: list[tuple[str, Answer]] = [
        ("a search with top_k 0", server.search(server.text_body(top_k=0))),
        ("a search whose body is not JSON", server.search(None, raw=b'{"query": "cut')),
        # an error only where the server rejects it rather than clamping (18.1): its body is
        # this list's to judge, not AIDRE-18.1-05's (AMB-28)
        ("a search with top_k 1000000", server.search(server.text_body("northwind", top_k=1_000_000))),
    ]
    spaces = vector_spaces(server)
    if spaces:
        cases.append(("a search with an embedding space nobody advertises",
                      server.search({"query_vector": [0.1, 0.2], "embedding_space": "adck:no-such-space", "top_k": 5})))
        body = server.vector_body(spaces[0], vector=[0.25] * (spaces[0]["dimensions"] + 1))
        cases.append(("a query_vector one number too long", server.search(body)))
    if chunks_offered(server):
        url = server.endpoints.chunk_url("adck-no-such-chunk-7f3a")
        cases.append(("GET of an unknown chunk id", server.get(url)))
    return cases


def searches_without_vector_request(server: Probe) -> list:
    """Searches that do not ask for vectors: no return object, and a return object without
    vectors true (AMB-16), as text and (when vector queries are offered, AMB-32) vector queries."""
    bodies = [server.text_body(), server.text_body(**{"return": {"text": True, "metadata": True}}),
              server.text_body(**{"return": {"vectors": False}})]
    spaces = vector_spaces(server)
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
    spaces = vector_spaces(server)
    if spaces:
        bodies.append(server.vector_body(spaces[0], seed=1))
    problems, judged, skipped = [], 0, []
    for body in bodies:
        answer = server.search(body)
        if answer.status is None:
            untestable(f"a search: {answer.describe()}")
        if not answer.ok:
            continue
        if answer.value is NOT_JSON and answer.foreign_encoding:  # AIDRE-14.2-01's (AMB-63)
            skipped.append(f"a 2xx search answer: {answer.foreign_encoding}")
            continue
        judged += 1
        value = answer.value
        if not isinstance(value, dict):
            problems.append(f"a 2xx search answer is {answer.describe()}, not a JSON object")
        elif not isinstance(value.get("results"), list):
            got = "no results member" if "results" not in value else f"results of type {type(value['results']).__name__}"
            problems.append(f"a 2xx search answer has {got} (members: {', '.join(sorted(value)[:6])})")
    fail_all(problems, judged, "2xx search answers lacked a results array")
    unreadable_left(skipped)
    if not judged:
        untestable("no search was answered 2xx (see AIDRE-5.2-01)")


def error_objects_of(answers: list[tuple[str, Answer]]) -> tuple[list[tuple[str, Answer]], list[str]]:
    """The error answers (4xx, 5xx) among ``answers``, and why those whose body is JSON in
    another encoding than UTF-8 were left out (AMB-63)."""
    errors, skipped = [], []
    for what, answer in answers:
        if not answer.is_error:
            continue
        if answer.value is NOT_JSON and answer.foreign_encoding:
            skipped.append(f"{what}: {answer.foreign_encoding}")
        else:
            errors.append((what, answer))
    return errors, skipped


# ---------------------------------------------------------------- error values (17.3, AMB-04)

def machine_readable(value: Any) -> bool:
    """A machine-readable error value (17.3, AMB-04): a token a program can compare, in any
    spelling the draft never fixes: a string holding a letter or digit and no white space or
    control character (invalid_request, invalid-request, InvalidRequest, E.TOPK_0), or an
    integer code. Prose ("Invalid request!"), an empty string, null, a list or an object is none."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, str) and any(c.isalnum() for c in value) and \
        not any(c.isspace() or unicodedata.category(c).startswith("C") for c in value)


#: The suggested values of 17.3.
SUGGESTED = ("invalid_request", "unsupported_embedding_space", "invalid_embedding_dimension",
             "unsupported_return_field", "unauthorized", "forbidden", "not_found", "rate_limited", "internal_error")


def spelled(value: Any) -> str | None:
    """The suggested value ``value`` spells, in whatever case and separators (InvalidRequest,
    invalid-request, INVALID_REQUEST are invalid_request), or None (AMB-04)."""
    if not isinstance(value, str):
        return None
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", value.strip())
    name = re.sub(r"[-.\s]+", "_", words).lower()
    return name if name in SUGGESTED else None


def names_describing(what: set[str], status: int | None) -> set[str]:
    """The suggested values that describe the error a request the kit got wrong on purpose
    met: ``what`` (the names of the request's own fault) and invalid_request (every such request
    is an invalid one, whatever status it got: a 5xx is the status's fault, another clause's),
    internal_error for a 5xx, unauthorized and forbidden with 401 and 403; rate_limited is
    AIDRE-15.4-11's to judge (an answer that says so must be a 429) and is never a misuse here."""
    names = set(what) | {"rate_limited", "invalid_request"}
    if status is not None and status >= 500:
        names.add("internal_error")
    if status in (401, 403):
        names |= {"unauthorized", "forbidden"}
    return names
