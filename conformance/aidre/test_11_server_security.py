"""§11 Security Considerations, as far as a client can see them: no vectors by default
(11.2), input validation (11.5), protected collections (11.6)."""

from __future__ import annotations

from conformance.aidre._server_checks import (chunks_offered, fail_all, must_reject, no_vectors_by_default,
                                               search_reached, vector_spaces)
from conformance.aidre._server_fixtures import Probe
from conformance.outcomes import clause, not_applicable, violation


@clause("AIDRE-11.2-02")
def test_11_2_no_vectors_by_default(server: Probe) -> None:
    """Servers SHOULD NOT return vectors by default (7.3 says it first: the same observation, AMB-13)."""
    no_vectors_by_default(server)


@clause("AIDRE-11.5-01")
def test_11_5_input_is_validated(server: Probe) -> None:
    """Servers SHOULD validate input size, dimensionality, and request shape: requests of a
    wrong shape, and oversized ones, are refused with an error object (4xx), AMB-05, AMB-21; the
    vector ones where the target offers vector queries (AMB-32)."""
    spaces = vector_spaces(server)
    space = spaces[0] if spaces else None
    cases = {
        "a body that is a JSON array": [{"query": "invoice"}],
        "a query that is a number": server.text_body() | {"query": 42},
        "a query that is an object": server.text_body() | {"query": {"text": "invoice"}},
        "a top_k that is a string": server.text_body(top_k="5"),
        "a top_k that is a fraction": server.text_body(top_k=2.5),
        "a query of 1 MiB": server.text_body("invoice " * (131072)),
    }
    if space is not None:
        dims = space["dimensions"]
        cases |= {
            "a query_vector without embedding_space": {"query_vector": [0.1] * dims},
            "a query_vector holding strings": server.vector_body(space, vector=["0.1"] * dims),
            "a query_vector of 100,000 numbers": server.vector_body(space, vector=[0.001] * 100_000),
        }
    problems = []
    for what, body in cases.items():
        answer = server.search(body)
        search_reached(answer, what)
        why = must_reject(answer, f"a search with {what}", statuses=tuple(range(400, 500)))
        if why:
            problems.append(why)
    fail_all(problems, len(cases), "invalid requests were not refused")


@clause("AIDRE-11.6-01")
def test_11_6_protected_collections_need_authorization(server: Probe) -> None:
    """Private or tenant-scoped collections MUST be protected by appropriate authorization
    controls: without credentials, text and vector searches naming one are refused (any 4xx:
    401, 403, a 404 or 422 that hides it as unknown; which code is the 401 row's, AIDRE-15.4-05)
    or return none of its content, and the chunks of any result they leak are refused too; a 5xx
    is a failure, no control (AMB-22). Vector searches where the target offers vector queries (AMB-32), chunks where it
    offers chunk retrieval (AMB-31). Sent without the user's credentials (--header) on purpose:
    what a service answers to them is what the clause judges."""
    protected = server.protected_collections()
    if not protected:
        not_applicable("the collections resource lists no collection with a visibility other than public (AMB-22)")
    spaces = vector_spaces(server)
    problems, asked = [], 0
    for name in protected:
        bodies = [{"query": "runbook escalation on-call platform", "collection": name, "top_k": 5}]
        if spaces:
            bodies.append(server.vector_body(spaces[0], seed=3) | {"collection": name})
        for body in bodies:
            asked += 1
            kind = "vector" if "query_vector" in body else "text"
            answer = server.search(body, credentials=False)
            search_reached(answer, f"a {kind} search of {name!r}")
            if answer.ok and answer.results:
                problems.append(f"a {kind} search of protected collection {name!r} without credentials was "
                                f"answered {answer.describe()}")
                for r in answer.results[:2]:
                    cid = r.get("id") if isinstance(r, dict) else None
                    if isinstance(cid, str) and chunks_offered(server):
                        chunk = server.get(server.endpoints.chunk_url(cid), credentials=False)
                        if chunk.ok:
                            problems.append(f"its chunk {cid!r} was served without credentials")
            elif not answer.ok and not answer.refused:
                problems.append(f"a {kind} search of protected collection {name!r} without credentials was "
                                f"answered {answer.describe()}, no refusal (a 4xx) by an authorization control")
    if problems:
        violation(f"{len(problems)} of {asked} searches of protected collections were not refused: "
                  + "; ".join(problems[:4]), readings=("AMB-22",))
