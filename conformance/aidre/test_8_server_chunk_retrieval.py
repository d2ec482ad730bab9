"""§8 Chunk Retrieval: GET /chunks/{id} for result ids (AMB-12)."""

from __future__ import annotations

from conformance.aidre._server_checks import chunk_answers, fail_all, unreadable_left
from conformance.aidre._server_fixtures import Probe
from conformance.outcomes import clause


@clause("AIDRE-8-01")
def test_8_chunk_retrieval(server: Probe) -> None:
    """Servers SHOULD support: GET /chunks/{id}: for result ids of successful searches, the chunk
    resource (endpoints.chunk, {id} percent-encoded) answers 200 with a JSON object. Where the
    document names no chunk endpoint, GET of /chunks/{id} on its origin (AMB-12), where a 405 or
    501 is no chunk either: a server without chunk retrieval fails this SHOULD, and only this
    one (AMB-31)."""
    # a named chunk resource refusing GET is AIDRE-15.1-03's case
    answers = chunk_answers(server, method_refusal=not server.endpoints.chunk_named)
    problems, skipped = [], []
    for cid, answer in answers:
        if answer.status == 200 and answer.foreign_encoding and not isinstance(answer.value, dict):
            skipped.append(f"chunk {cid!r}: {answer.foreign_encoding}")  # AIDRE-14.2-01's (AMB-63)
        elif answer.status != 200 or not isinstance(answer.value, dict):
            problems.append(f"GET of chunk {cid!r} was answered {answer.describe()}")
    fail_all(problems, len(answers), "result ids did not dereference to a chunk")
    unreadable_left(skipped)
