"""§5.3 Vector Query, client role: a query_vector names its embedding_space."""

from __future__ import annotations

from conformance.aidre._client_fixtures import COSINE, DOT, L2_CASED, TEXT, body_of, raw_vector, said
from conformance.outcomes import clause, untestable, violation


@clause("AIDRE-5.3-02")
def test_5_3_client_names_the_embedding_space(aidre_client, aidre_scenarios) -> None:
    """"If used, clients MUST specify embedding_space." Every search request holding a
    query_vector, first and next pages alike (AMB-53), also holds embedding_space naming the
    space the user's vector belongs to, exactly as the discovery document declares its id
    (AMB-62). The origin declares a cosine space (64 dimensions), a dot space and an l2 space
    of the same 48 dimensions, the l2 one after the dot one and with an id holding capitals
    and a non-ASCII letter (ADCK:Hash-48:L2:Révision-2): a client that names a space by the
    vector's length, or changes the id (case, Unicode normalisation), sends another value."""
    aidre_client.needs("aidre.vector", "it sends no vector queries")
    scenario = aidre_scenarios.new("vector-space", spaces=(COSINE, DOT, L2_CASED))
    steps = [(COSINE, raw_vector(TEXT, 64)), (L2_CASED, raw_vector(TEXT, 48))]
    replies, vectors = [], []
    for space, vector in steps:
        before = len(scenario.searches())
        replies.append(aidre_client.search(scenario, vector=vector, space=space, pages=2))
        vectors += [(before + i, space, b) for i, b in enumerate(body_of(r) for r in scenario.searches()[before:])
                    if isinstance(b, dict) and "query_vector" in b]
    if not vectors:
        untestable(f"asked for two vector searches, the client sent no request with a query_vector; "
                   f"{'; '.join(said(r) for r in replies)} (see AIDRE-5.1-01)")
    wrong = [(i, space, b) for i, space, b in vectors if b.get("embedding_space") != space]
    if wrong:
        shown = "; ".join(f"search request {i + 1}, for a vector of {space!r}, has "
                          + (f"embedding_space {b['embedding_space']!r}" if "embedding_space" in b
                             else "no embedding_space") + f" (members {sorted(b)})" for i, space, b in wrong[:4])
        violation(f"{len(wrong)} of the {len(vectors)} requests with a query_vector do not name the embedding space "
                  f"the vector belongs to as the discovery document declares it (declared: "
                  f"{[s['id'] for s in scenario.document['embedding_spaces']]}): {shown}",
                  readings=("AMB-53", "AMB-62"))
