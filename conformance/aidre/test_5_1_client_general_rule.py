"""§5.1 General Rule, client role: exactly one of query and query_vector in every request."""

from __future__ import annotations

from conformance.aidre._client_fixtures import COSINE, TEXT, body_of, describe, raw_vector, searched
from conformance.outcomes import clause, untestable, violation


@clause("AIDRE-5.1-01")
def test_5_1_client_sends_exactly_one_query_member(aidre_client, aidre_scenarios) -> None:
    """"A request MUST include exactly one of: * query * query_vector" Every search request
    the client sends, for a text query and for a vector query, the requests for the next
    pages included (AMB-53: a request carrying only a cursor has neither), holds exactly one
    of the members query and query_vector: never both, never neither (AMB-05)."""
    scenario = aidre_scenarios.new("one-query-member")
    replies = [aidre_client.search(scenario, query=TEXT, pages=3)]
    if aidre_client.vectors:
        replies.append(aidre_client.search(scenario, vector=raw_vector(TEXT, 64), space=COSINE, pages=2))
    sent = searched(scenario, replies[0], "a text and a vector search")
    bodies = [(r, body_of(r)) for r in sent]
    judged = [(r, b) for r, b in bodies if isinstance(b, dict)]
    if not judged:
        untestable(f"none of the {len(sent)} search requests has a UTF-8 JSON object body "
                   f"({describe(sent[0])}) (see AIDRE-14.2-02)")
    wrong = [(r, b) for r, b in judged if ("query" in b) + ("query_vector" in b) != 1]
    if wrong:
        shown = "; ".join(f"request {sent.index(r) + 1} ({r.method}) has "
                          f"{' and '.join(m for m in ('query', 'query_vector') if m in b) or 'neither'}"
                          f" (members {sorted(b)})" for r, b in wrong[:4])
        violation(f"{len(wrong)} of the {len(judged)} search requests do not hold exactly one of query and "
                  f"query_vector: {shown}")
