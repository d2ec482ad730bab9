"""§5.3 Vector Query, client role: a query_vector names its embedding_space."""

from __future__ import annotations

from conformance.aidre._client_fixtures import COSINE, L2, TEXT, body_of, raw_vector, said
from conformance.outcomes import clause, untestable, violation


@clause("AIDRE-5.3-02")
def test_5_3_client_names_the_embedding_space(aidre_client, aidre_scenarios) -> None:
    """"If used, clients MUST specify embedding_space." Every search request holding a
    query_vector, in a cosine and in an l2 space, first and next pages alike (AMB-53), also
    holds embedding_space naming one of the spaces the discovery document declares (the
    space the user's vector belongs to)."""
    aidre_client.needs("aidre.vector", "it sends no vector queries")
    scenario = aidre_scenarios.new("vector-space", spaces=(COSINE, L2))
    replies = [aidre_client.search(scenario, vector=raw_vector(TEXT, 64), space=COSINE, pages=2),
               aidre_client.search(scenario, vector=raw_vector(TEXT, 48), space=L2, pages=2)]
    declared = {s["id"] for s in scenario.document["embedding_spaces"]}
    vectors = [(i, b) for i, b in enumerate(body_of(r) for r in scenario.searches())
               if isinstance(b, dict) and "query_vector" in b]
    if not vectors:
        untestable(f"asked for two vector searches, the client sent no request with a query_vector; "
                   f"{'; '.join(said(r) for r in replies)} (see AIDRE-5.1-01)")
    wrong = [(i, b) for i, b in vectors if b.get("embedding_space") not in declared]
    if wrong:
        shown = "; ".join(f"search request {i + 1} has "
                          + (f"embedding_space {b['embedding_space']!r}" if "embedding_space" in b
                             else "no embedding_space") + f" (members {sorted(b)})" for i, b in wrong[:4])
        violation(f"{len(wrong)} of the {len(vectors)} requests with a query_vector do not name one of the declared "
                  f"embedding spaces {sorted(declared)}: {shown}")
