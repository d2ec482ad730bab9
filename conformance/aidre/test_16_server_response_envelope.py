"""§16 Request and Response Envelope: the successful search response and request identifiers,
judged on the answers the server gives."""

from __future__ import annotations

from conformance.aidre._server_checks import (chunks_offered, fail_all, search_reached,
                                               successful_searches_have_results, vector_spaces)
from conformance.aidre._server_fixtures import Probe
from conformance.outcomes import clause, untestable


@clause("AIDRE-16.1-01")
def test_16_1_successful_search_response_has_results_array(server: Probe) -> None:
    """A successful search response MUST be a JSON object containing a results member whose
    value is an array (7.1 says it again: the same observation, AMB-13)."""
    successful_searches_have_results(server)


def _successful(server: Probe) -> list:
    __tracebackhide__ = True
    bodies = [server.text_body(), server.text_body("invoice", top_k=2)]
    spaces = vector_spaces(server)  # AMB-32
    if spaces:
        bodies.append(server.vector_body(spaces[0], seed=1))
    answers = []
    for body in bodies:
        answer = server.search(body)
        search_reached(answer, "a search")
        if answer.successful_search:
            answers.append((body, answer))
    if not answers:
        untestable("no search succeeded (see AIDRE-5.2-01)")
    return answers


def _member(server: Probe, member: str) -> None:
    __tracebackhide__ = True
    answers = _successful(server)
    lacking = [f"{'vector' if 'query_vector' in body else 'text'} search answered without {member}"
               for body, answer in answers if member not in answer.value]
    fail_all(lacking, len(answers), f"successful search responses had no {member}")


@clause("AIDRE-16.1-03")
def test_16_1_successful_response_contains_request_id(server: Probe) -> None:
    """A successful response SHOULD also contain: request_id."""
    _member(server, "request_id")


@clause("AIDRE-16.1-04")
def test_16_1_successful_response_contains_collection(server: Probe) -> None:
    """A successful response SHOULD also contain: collection."""
    _member(server, "collection")


@clause("AIDRE-16.1-05")
def test_16_1_successful_response_contains_meta(server: Probe) -> None:
    """A successful response SHOULD also contain: meta."""
    _member(server, "meta")


def _error_answers(server: Probe) -> list:
    """Errors the run provokes anyway: non-positive top_k, no query member, an unknown chunk id
    (where chunk retrieval is offered, AMB-31)."""
    answers = [server.search(server.text_body(top_k=0)), server.search({})]
    if chunks_offered(server):
        answers.append(server.get(server.endpoints.chunk_url("adck-no-such-chunk-7f3a")))
    return [a for a in answers if a.is_error and isinstance(a.value, dict)]


@clause("AIDRE-16.3-01")
def test_16_3_request_identifier_for_each_request(server: Probe) -> None:
    """Servers SHOULD generate a request identifier for each request: successful search
    responses and error objects carry request_id (16.1, 17.1)."""
    answers = [a for _, a in _successful(server)] + _error_answers(server)
    lacking = [a.describe() for a in answers if not isinstance(a.value, dict) or "request_id" not in a.value]
    fail_all([f"{d} had no request_id" for d in lacking], len(answers), "answers carried no request identifier")


@clause("AIDRE-16.3-02")
def test_16_3_request_identifiers_are_unique(server: Probe) -> None:
    """A request identifier SHOULD be unique within operationally relevant scope: two requests
    of one run, identical ones included, get different request_id values."""
    body = server.text_body("webhook signature", top_k=2)
    first, second = server.search(body), server.search(body, fresh="again")
    answers = [a for _, a in _successful(server)] + [first, second] + _error_answers(server)
    ids = [a.value["request_id"] for a in answers if isinstance(a.value, dict) and "request_id" in a.value]
    if len(ids) < 2:
        untestable("fewer than two answers carried a request_id (see AIDRE-16.3-01)")
    repeated = sorted({i for i in ids if ids.count(i) > 1}, key=str)
    if repeated:
        fail_all([f"request_id {r!r} was given to {ids.count(r)} requests" for r in repeated], len(ids),
                 "request identifiers were reused")
