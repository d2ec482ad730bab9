"""§14.1 AIDRE JSON Media Type, server side: response bodies labelled application/aidre+json
(the discovery document is held to 3.2 instead, AMB-02)."""

from __future__ import annotations

from conformance.aidre._server_checks import fail_all, search_reached
from conformance.aidre._server_fixtures import MEDIA, NOT_JSON, Answer, Probe
from conformance.aidre._server_checks import chunks_offered, offered_chunk_answers, provoked_errors
from conformance.outcomes import clause, untestable


def _labelled(answers: list[tuple[str, Answer]], what: str) -> None:
    __tracebackhide__ = True
    # an AIDRE body is JSON: a body that is not is another clause's failure (AIDRE-8-01, AIDRE-10-01);
    # JSON in another encoding is still JSON, labelled as it is (its encoding is AIDRE-14.2-01's, AMB-63)
    judged = [(w, a) for w, a in answers if a.status is not None and a.final is not None and a.final.body
              and (a.value is not NOT_JSON or a.foreign_encoding)]
    if not judged:
        untestable(f"no {what} came back to judge")
    problems = [f"{w} came as {a.media_type or 'no Content-Type'}" for w, a in judged if a.media_type != MEDIA]
    fail_all(problems, len(judged), f"{what} were not labelled {MEDIA}")


@clause("AIDRE-14.1-01")
def test_14_1_response_bodies_use_aidre_json(server: Probe) -> None:
    """AIDRE request and response bodies SHOULD use the media type application/aidre+json:
    successful and error answers of the collections, search and chunk resources (the chunk
    resource where chunk retrieval is offered, AMB-31), AMB-02."""
    answers: list[tuple[str, Answer]] = []
    text = server.search(server.text_body())
    search_reached(text, "a text search")
    answers.append(("a successful search", text))
    answers += [(what, a) for what, a in provoked_errors(server) if a.is_error]
    answers += [(f"chunk {cid!r}", a) for cid, a in offered_chunk_answers(server, 1)]
    _labelled(answers, "response bodies")


@clause("AIDRE-14.1-05")
def test_14_1_aidre_json_preferred_when_both_acceptable(server: Probe) -> None:
    """A conformant implementation SHOULD prefer application/aidre+json: asked with Accept:
    application/aidre+json, application/json (equal preference), the search and chunk
    resources answer application/aidre+json (AMB-02)."""
    both = "application/aidre+json, application/json"
    pairs: list[tuple[str, Answer, Answer]] = []
    body = server.text_body("audit log retention")
    text = server.search(body, accept=both)
    search_reached(text, "a text search")
    pairs.append((f"a search asked with Accept: {both}", text, server.search(body)))
    if chunks_offered(server):  # AMB-31
        ids = [r["id"] for r in text.results if isinstance(r, dict) and isinstance(r.get("id"), str)]
        for cid in ids[:1]:
            url = server.endpoints.chunk_url(cid)
            pairs.append((f"chunk {cid!r} asked with Accept: {both}", server.get(url, accept=both), server.get(url)))
    # a resource labelled otherwise even when asked for application/aidre+json alone fails
    # AIDRE-15.3-01; this clause is about the preference between the two
    judged = [(w, a) for w, a, alone in pairs if a.ok and alone.ok and alone.media_type == MEDIA]
    if not judged:
        untestable("no resource answered application/aidre+json when asked for it alone (see AIDRE-15.3-01)")
    _labelled(judged, "answers to requests accepting both types")
