"""§8 Chunk Retrieval: GET /chunks/{id} for result ids (AMB-12)."""

from __future__ import annotations

from conformance.aidre._server_checks import chunk_answers, fail_all
from conformance.aidre._server_fixtures import Probe
from conformance.outcomes import clause


@clause("AIDRE-8-01")
def test_8_chunk_retrieval(server: Probe) -> None:
    """Servers SHOULD support: GET /chunks/{id}: for result ids of successful searches, the chunk
    resource (endpoints.chunk, {id} percent-encoded) answers 200 with a JSON object."""
    answers = chunk_answers(server)
    problems = []
    for cid, answer in answers:
        if answer.status != 200 or not isinstance(answer.value, dict):
            problems.append(f"GET of chunk {cid!r} was answered {answer.describe()}")
    fail_all(problems, len(answers), "result ids did not dereference to a chunk")
