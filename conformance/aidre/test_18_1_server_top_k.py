"""§18.1 top_k Semantics: a maximum, a documented default, non-positive values rejected, values
above the maximum rejected or clamped."""

from __future__ import annotations

from conformance.aidre._server_checks import fail_all, must_reject, search_reached
from conformance.aidre._server_fixtures import Answer, Probe
from conformance.outcomes import clause, untestable, violation


def _meta_top_k(answer: Answer) -> int | None:
    value = answer.value
    meta = value.get("meta") if isinstance(value, dict) else None
    top = meta.get("top_k") if isinstance(meta, dict) else None
    return top if isinstance(top, int) and not isinstance(top, bool) else None


@clause("AIDRE-18.1-01")
def test_18_1_top_k_is_the_maximum_number_of_results(server: Probe) -> None:
    """The top_k member requests the maximum number of results returned: a search asked with
    top_k n returns at most n results, for n = 1, 2, 5 and 7, text and vector queries alike."""
    bodies = [server.text_body("northwind settings", top_k=n) for n in (1, 2, 5, 7)]
    spaces = server.usable_spaces()
    if spaces:
        bodies += [server.vector_body(spaces[0], seed=4, top_k=n) for n in (1, 3)]
    problems, judged = [], 0
    for body in bodies:
        answer = server.search(body)
        search_reached(answer, f"a search with top_k {body['top_k']}")
        if not answer.successful_search:
            continue
        judged += 1
        if len(answer.results) > body["top_k"]:
            kind = "vector" if "query_vector" in body else "text"
            problems.append(f"a {kind} search with top_k {body['top_k']} returned {len(answer.results)} results")
    if not judged:
        untestable("no search with top_k succeeded (see AIDRE-5.2-01)")
    fail_all(problems, judged, "searches returned more results than top_k")


@clause("AIDRE-18.1-02")
def test_18_1_default_top_k_applied(server: Probe) -> None:
    """If top_k is omitted, the server MUST apply a documented default: a search without top_k
    succeeds, and returns no more results than meta.top_k says when it says (AMB-15)."""
    bodies = [server.text_body("northwind settings", top_k=None), server.text_body("invoice tax", top_k=None)]
    if not server.search(server.text_body("northwind settings", top_k=3)).successful_search:
        untestable("a text search with top_k did not succeed either (see AIDRE-5.2-01)")
    spaces = server.usable_spaces()
    if spaces and server.search(server.vector_body(spaces[0], seed=5, top_k=3)).successful_search:
        # only where vector queries work (AIDRE-5.3-01)
        bodies.append(server.vector_body(spaces[0], seed=5, top_k=None))
    problems = []
    for body in bodies:
        answer = server.search(body)
        search_reached(answer, "a search without top_k")
        kind = "vector" if "query_vector" in body else "text"
        if not answer.successful_search:
            problems.append(f"a {kind} search without top_k was answered {answer.describe()}")
            continue
        said = _meta_top_k(answer)
        if said is not None and len(answer.results) > said:
            problems.append(f"a {kind} search without top_k returned {len(answer.results)} results while meta.top_k "
                            f"says {said}")
    fail_all(problems, len(bodies), "searches without top_k got no default applied")


@clause("AIDRE-18.1-03")
def test_18_1_non_positive_top_k_rejected(server: Probe) -> None:
    """Servers MUST reject non-positive top_k values: 0, -1 and -2147483648, each refused with
    an error object (400 or 422), text and vector queries alike (AMB-20)."""
    bodies = [server.text_body(top_k=n) for n in (0, -1, -2147483648)]
    spaces = server.usable_spaces()
    if spaces:
        bodies.append(server.vector_body(spaces[0], seed=6, top_k=0))
    problems = []
    for body in bodies:
        answer = server.search(body)
        search_reached(answer, f"a search with top_k {body['top_k']}")
        why = must_reject(answer, f"a search with top_k {body['top_k']}")
        if why:
            problems.append(why)
    fail_all(problems, len(bodies), "non-positive top_k values were not rejected")


@clause("AIDRE-18.1-05")
def test_18_1_top_k_above_maximum_rejected_or_clamped(server: Probe) -> None:
    """If the client requests a top_k larger than the server maximum, the server MUST either
    reject the request with an error or clamp the value according to documented behavior:
    top_k 1,000,000 is refused with an error object, or answered with no more results than
    meta.top_k (at most the request's) says, and the same way both times (AMB-15, AMB-20)."""
    body = server.text_body("northwind", top_k=1_000_000)
    first, second = server.search(body), server.search(body, fresh="again")
    problems = []
    for n, answer in ((1, first), (2, second)):
        search_reached(answer, "a search with top_k 1000000")
        if answer.successful_search:
            said = _meta_top_k(answer)
            if said is not None and (said > 1_000_000 or len(answer.results) > said):
                problems.append(f"answer {n}: {len(answer.results)} results while meta.top_k says {said}")
        elif not answer.rejected:
            problems.append(f"answer {n}: {answer.describe()}, neither a rejection with an error object nor a clamp")
    if first.successful_search != second.successful_search:
        problems.append(f"the same request was {'clamped' if first.successful_search else 'rejected'} once and "
                        f"{'clamped' if second.successful_search else 'rejected'} the other time")
    if problems:
        violation("; ".join(problems))
