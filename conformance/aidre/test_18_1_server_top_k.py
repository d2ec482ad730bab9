"""§18.1 top_k Semantics: a maximum, a documented default, non-positive values rejected, values
above the maximum rejected or clamped."""

from __future__ import annotations

from typing import Any

from conformance.aidre._server_checks import fail_all, must_reject, search_reached, vector_spaces
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
    top_k n returns at most n results, for n = 1, 2, 5 and 7, text and vector queries alike
    (vector ones where the target offers them, AMB-32)."""
    bodies = [server.text_body("northwind settings", top_k=n) for n in (1, 2, 5, 7)]
    spaces = vector_spaces(server)
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
def test_18_1_default_top_k_applied(server: Probe, adck_declarations: dict[str, Any]) -> None:
    """If top_k is omitted, the server MUST apply a documented default: a search without top_k
    succeeds, and returns no more results than meta.top_k says when it says (AMB-15). With the
    documented default declared (``--declare default-top-k=N``), it returns as many results as
    the same search with top_k N, never more than N."""
    default = adck_declarations.get(DEFAULT)
    bodies = [server.text_body("northwind settings", top_k=None), server.text_body("invoice tax", top_k=None)]
    with_top_k = server.search(server.text_body("northwind settings", top_k=3))
    search_reached(with_top_k, "a text search with top_k 3")
    if not with_top_k.successful_search:
        untestable("a text search with top_k did not succeed either (see AIDRE-5.2-01)")
    spaces = vector_spaces(server)
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
        elif default is not None:
            with_it = server.search(body | {"top_k": default})
            search_reached(with_it, f"a {kind} search with top_k {default}")
            if len(answer.results) > default:
                problems.append(f"a {kind} search without top_k returned {len(answer.results)} results, more than the "
                                f"declared default {default}")
            elif with_it.successful_search and len(answer.results) != len(with_it.results):
                problems.append(f"a {kind} search without top_k returned {len(answer.results)} results where top_k "
                                f"{default}, the declared default, returns {len(with_it.results)}")
    fail_all(problems, len(bodies), "searches without top_k got no default applied" if default is None else
             f"searches without top_k did not apply the declared default {default} (default-top-k={default})")


@clause("AIDRE-18.1-03")
def test_18_1_non_positive_top_k_rejected(server: Probe) -> None:
    """Servers MUST reject non-positive top_k values: 0, -1 and -2147483648, each refused (a
    4xx: which 4xx is the 15.4 rows', AIDRE-15.4-04 wants 400 or 422; whether the body is an
    error object is AIDRE-10-01's, AMB-03, AMB-28), text and vector queries alike (vector ones
    where the target offers them, AMB-32), AMB-20. A 2xx or a 5xx is no rejection."""
    bodies = [server.text_body(top_k=n) for n in (0, -1, -2147483648)]
    spaces = vector_spaces(server)
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


#: The declarations (profile.toml [declarations]) of 18.1's documented choices.
MAX, ABOVE, DEFAULT = "max-top-k", "top-k-above-max", "default-top-k"
#: The top_k the kit asks when no maximum is declared: above any plausible one.
HUGE = 1_000_000


def _error_object(answer: Answer) -> bool:
    """Rejected with an error: a 4xx (its body is AIDRE-10-01's to judge, and the run's
    oversized top_k is among the errors it judges: AMB-28)."""
    return answer.refused


def _kind(body: dict) -> str:
    return "vector" if "query_vector" in body else "text"


@clause("AIDRE-18.1-05")
def test_18_1_top_k_above_maximum_rejected_or_clamped(server: Probe, adck_declarations: dict[str, Any]) -> None:
    """If the client requests a top_k larger than the server maximum, the server MUST either
    reject the request with an error or clamp the value according to documented behavior:
    top_k 1,000,000 is refused (a 4xx; its body is AIDRE-10-01's), or answered with no more results than
    meta.top_k (at most the request's) says, and the same way both times (AMB-15, AMB-20).
    With the documented choice declared (``--declare max-top-k=N``, ``top-k-above-max=reject|clamp``)
    the kit judges it: a search at the maximum is answered; one above it (N + 1 and 1,000,000,
    text and vector) is refused with a 4xx (reject), or answered with exactly the
    results of top_k = N (clamp; at most N), as declared."""
    if MAX in adck_declarations or ABOVE in adck_declarations:
        _judge_declared(server, adck_declarations.get(MAX), adck_declarations.get(ABOVE))
        return
    body = server.text_body("northwind", top_k=1_000_000)
    first, second = server.search(body), server.search(body, fresh="again")
    problems = []
    for n, answer in ((1, first), (2, second)):
        search_reached(answer, "a search with top_k 1000000")
        if answer.successful_search:
            said = _meta_top_k(answer)
            if said is not None and (said > 1_000_000 or len(answer.results) > said):
                problems.append(f"answer {n}: {len(answer.results)} results while meta.top_k says {said}")
        elif not answer.refused:
            problems.append(f"answer {n}: {answer.describe()}, neither a rejection (4xx) nor a clamp")
    if first.successful_search != second.successful_search:
        problems.append(f"the same request was {'clamped' if first.successful_search else 'rejected'} once and "
                        f"{'clamped' if second.successful_search else 'rejected'} the other time")
    if problems:
        violation("; ".join(problems))


def _judge_declared(server: Probe, maximum: int | None, mode: str | None) -> None:
    """18.1-05 under the server's documented maximum and behaviour above it."""
    __tracebackhide__ = True
    shapes = [lambda n: server.text_body("northwind", top_k=n)]
    spaces = vector_spaces(server)
    if spaces and server.search(server.vector_body(spaces[0], seed=9, top_k=3)).successful_search:
        shapes.append(lambda n: server.vector_body(spaces[0], seed=9, top_k=n))  # ranks the whole collection
    above = sorted({maximum + 1, HUGE} if maximum is not None else {HUGE})
    declared = ", ".join(x for x in (f"max-top-k={maximum}" if maximum is not None else "",
                                     f"top-k-above-max={mode}" if mode else "") if x)
    problems, judged = [], 0
    for shape in shapes:
        at = None
        if maximum is not None:
            at = server.search(shape(maximum))
            search_reached(at, f"a {_kind(shape(maximum))} search with top_k {maximum}")
            if not at.successful_search:
                problems.append(f"a {_kind(shape(maximum))} search with top_k {maximum}, the declared maximum, was "
                                f"answered {at.describe()}")
                at = None
        for n in above:
            body = shape(n)
            label = f"a {_kind(body)} search with top_k {n}"
            first, second = server.search(body), server.search(body, fresh="again")
            for answer in (first, second):
                search_reached(answer, label)
            judged += 1
            if first.successful_search != second.successful_search:
                problems.append(f"{label} was {'clamped' if first.successful_search else 'rejected'} once and "
                                f"{'clamped' if second.successful_search else 'rejected'} the other time")
                continue
            answer = first
            if not answer.successful_search:
                if mode == "clamp":
                    problems.append(f"{label} was answered {answer.describe()}, not clamped")
                elif not _error_object(answer):
                    problems.append(f"{label} was answered {answer.describe()}, not rejected (a 4xx)")
                continue
            if mode == "reject":
                problems.append(f"{label} was answered as a successful search with {len(answer.results)} results, "
                                "not rejected")
                continue
            cap = maximum if maximum is not None else n
            said = _meta_top_k(answer)
            if len(answer.results) > cap:
                problems.append(f"{label} returned {len(answer.results)} results, more than {cap}")
            elif at is not None and len(answer.results) != len(at.results):
                problems.append(f"{label} returned {len(answer.results)} results where top_k {maximum} returns "
                                f"{len(at.results)}: not clamped to the maximum")
            elif said is not None and said > cap:
                problems.append(f"{label} says meta.top_k {said}, above {cap}")
    if not judged:
        untestable("no search above the maximum could be judged")
    if problems:
        violation(f"declared {declared}: " + "; ".join(problems[:4]))
