"""§5 Query Model: exactly one of query and query_vector; text queries MUST be supported,
vector queries SHOULD be."""

from __future__ import annotations

from conformance.aidre._server_checks import fail_all, must_reject, search_reached, vector_spaces
from conformance.aidre._server_fixtures import METHOD_REFUSED, Probe
from conformance.document import Document
from conformance.outcomes import clause, untestable, violation

#: Text queries across the space a client may send: one word, several, non-ASCII, none matching.
TEXT_QUERIES = ("single sign-on certificate", "invoice", "Zürich – naïve café 日本語 ✓", "zzqxv wqpzz")


@clause("AIDRE-5.1-02")
def test_5_1_request_with_both_or_neither_query_member_is_rejected(server: Probe, discovery: Document) -> None:
    """A request MUST include exactly one of: query, query_vector. A server SHOULD refuse a
    request holding both or neither (a 4xx; 400 or 422 is AIDRE-15.4-04's, the error object
    AIDRE-10-01's: AMB-03, AMB-05, AMB-28). The body
    holding both only where the target offers vector queries: a text-only server may refuse
    any query_vector as not implemented (AMB-32)."""
    spaces = vector_spaces(server)
    cases = {"both query and query_vector": server.text_body() | server.vector_body(spaces[0])} if spaces else {}
    cases |= {
        "neither (an empty object)": {},
        "neither (only collection and top_k)": {k: v for k, v in server.text_body(top_k=3).items() if k != "query"},
        "neither (Query: member names are case-sensitive, AMB-23)": {"Query": "invoice"},
    }
    problems = []
    for what, body in cases.items():
        answer = server.search(body)
        search_reached(answer, what)
        why = must_reject(answer, f"a search with {what}")
        if why:
            problems.append(why)
    fail_all(problems, len(cases), "requests breaking 5.1 were not refused")


@clause("AIDRE-5.2-01")
def test_5_2_text_queries_are_supported(server: Probe) -> None:
    """Servers MUST support text queries: each text search (one word, several, non-ASCII, one
    that matches nothing) ends in a successful search response."""
    problems = []
    for query in TEXT_QUERIES:
        answer = server.search(server.text_body(query))
        search_reached(answer, f"a text search for {query!r}")
        if not answer.successful_search:
            problems.append(f"{{\"query\": {query!r}}} was answered {answer.describe()}")
    fail_all(problems, len(TEXT_QUERIES), "text searches did not succeed")


@clause("AIDRE-5.3-01")
def test_5_3_vector_queries_are_supported(server: Probe, discovery: Document) -> None:
    """Servers SHOULD support vector queries: a query_vector of each advertised space's
    declared dimensions, with that space's id, ends in a successful search (AMB-10). A server
    that says it does not support them (capabilities.query_vector false) or advertises no
    embedding space a vector query could name does not meet the SHOULD (AMB-09, AMB-32): this
    clause fails it, while the clauses that judge how vector queries are answered do not apply."""
    if server.search(server.text_body(), method_refusal=True).status in METHOD_REFUSED:
        untestable("the search resource refuses POST itself (see AIDRE-15.1-02)")
    if server.capabilities.get("query_vector") is False:
        violation("the discovery document says the server does not support vector queries "
                  "(capabilities.query_vector false)")
    spaces = server.usable_spaces()
    advertised = discovery.value().get("embedding_spaces")
    if not spaces and advertised not in (None, []):
        untestable("the discovery document advertises embedding_spaces, but none with an id and positive integer "
                   "dimensions in an array, so the kit cannot build a query_vector for one (AMB-10, AMB-25)")
    if not spaces:
        violation("the server advertises no embedding space (embedding_spaces), and a vector query must name one "
                  "(5.3: embedding_space), so it supports no vector query")
    problems = []
    for space in spaces:
        answer = server.search(server.vector_body(space, seed=1), method_refusal=True)  # 501: no vector queries
        search_reached(answer, f"a vector search in {space['id']!r}")
        if not answer.successful_search:
            problems.append(f"a {space['dimensions']}-number query_vector in {space['id']!r} was answered {answer.describe()}")
    fail_all(problems, len(spaces), "vector searches did not succeed")
