"""§19.4 Normalization, client role: unit vectors for a space that declares normalized=true."""

from __future__ import annotations

import math

from conformance.aidre._client_fixtures import COSINE, DOT_UNIT, TEXT, body_of, raw_vector, said
from conformance.outcomes import clause, untestable, violation


@clause("AIDRE-19.4-01")
def test_19_4_client_sends_unit_vectors(aidre_client, aidre_scenarios) -> None:
    """"If an embedding space declares normalized=true, clients SHOULD send normalized
    vectors." The user gives a vector of Euclidean norm well above 1 for a space declaring
    normalized true, once with distance cosine and once with distance dot; every query_vector
    the client sends there has a Euclidean norm within 1e-6 relative of 1 (AMB-21). For a
    space without normalized true the sentence asks nothing (AMB-55)."""
    aidre_client.needs("aidre.vector", "it sends no vector queries")
    checked = 0
    for space in (COSINE, DOT_UNIT):
        scenario = aidre_scenarios.new(f"normalized-{space.split(':')[2]}", spaces=(space,))
        vector = raw_vector(TEXT, 64)
        reply = aidre_client.search(scenario, vector=vector, space=space, pages=2)
        for index, body in enumerate(map(body_of, scenario.searches())):
            sent = body.get("query_vector") if isinstance(body, dict) else None
            if not isinstance(sent, list) or not all(isinstance(x, (int, float)) for x in sent):
                continue
            checked += 1
            norm = math.sqrt(math.fsum(float(x) ** 2 for x in sent))
            if abs(norm - 1) > 1e-6:
                violation(f"the space {space} declares normalized true (distance "
                          f"{scenario.document['embedding_spaces'][0]['distance']}); search request {index + 1} "
                          f"sent a query_vector of Euclidean norm {norm:.9g} (the user's vector had "
                          f"{math.sqrt(math.fsum(x * x for x in vector)):.6g}); {said(reply)}")
    if not checked:
        untestable("asked for vector searches in two spaces, the client sent no query_vector (see AIDRE-5.1-01)")
