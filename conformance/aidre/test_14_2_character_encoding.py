"""§14.2 Character Encoding: the bytes of a document on its own or of the discovery document
(the document role), and of the server's other JSON bodies (the server role, AMB-63)."""

from __future__ import annotations

import re

from conformance.aidre._server_checks import offered_chunk_answers, provoked_errors, vector_spaces
from conformance.aidre._server_fixtures import NOT_JSON, Answer, Probe
from conformance.document import Document
from conformance.outcomes import NotApplicable, Untestable, clause, untestable, violation

_CHARSET = re.compile(r";\s*charset\s*=\s*\"?([^\";\s]+)", re.I)


@clause("AIDRE-14.2-01")
def test_14_2_payload_is_utf8(document: Document) -> None:
    """AIDRE JSON payloads MUST use UTF-8 encoding."""
    if document.utf8_error:
        violation(f"the bytes are not UTF-8: {document.utf8_error}")
    if document.truncated:
        untestable(f"the document is larger than the {len(document.raw)} bytes the kit reads; "
                   "the bytes it read are UTF-8")
    final = document.fetch.final if document.fetch else None
    content_type = final.header("Content-Type") if final else None
    match = _CHARSET.search(content_type or "")
    if match and match.group(1).lower() not in ("utf-8", "utf8"):
        violation(f"the payload is labelled Content-Type: {content_type}, another encoding than UTF-8")


@clause("AIDRE-14.2-01")
def test_14_2_server_payloads_are_utf8(server: Probe, collections_answer: Answer | None) -> None:
    """AIDRE JSON payloads MUST use UTF-8 encoding, judged on the server's own bodies: the
    collections resource, successful searches, the errors the run provokes and chunks (where
    chunk retrieval is offered, AMB-31). A JSON body in another encoding (ISO-8859-1, UTF-16,
    ...) or one labelled with another charset fails here, and only here: the clauses about the
    members such a body holds are untestable, naming this clause, since the kit cannot read them
    (AMB-63). A body that is no JSON in any encoding is no JSON payload (AIDRE-10-01, AIDRE-16.1-01
    judge it). The discovery document is judged by the document test of this clause."""
    answers: list[tuple[str, Answer]] = []
    if collections_answer is not None:
        answers.append(("the collections resource", collections_answer))
        server.used.append(collections_answer)
    answers.append(("a text search", server.search(server.text_body())))
    spaces = vector_spaces(server)
    if spaces:
        answers.append(("a vector search", server.search(server.vector_body(spaces[0], seed=1))))
    answers += provoked_errors(server)
    try:  # a chunk needs a result id, which an unreadable search does not give
        answers += [(f"chunk {cid!r}", a) for cid, a in offered_chunk_answers(server, 1)]
    except (NotApplicable, Untestable):
        pass
    judged = [(w, a) for w, a in answers if a.status is not None and a.final is not None and a.final.body
              and (a.value is not NOT_JSON or a.foreign_encoding)]
    if not judged:
        untestable("no JSON body came back to judge (see AIDRE-5.2-01)")
    problems = []
    for what, a in judged:
        if a.foreign_encoding:
            problems.append(f"{what} was answered {a.status} with {a.foreign_encoding}")
        elif a.charset and a.charset.lower() not in ("utf-8", "utf8"):
            problems.append(f"{what} was answered {a.status} labelled charset={a.charset}, another encoding than UTF-8")
    if problems:
        violation(f"{len(problems)} of {len(judged)} JSON bodies were not UTF-8: " + "; ".join(problems[:4]),
                  readings=("AMB-63",))
