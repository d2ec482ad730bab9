"""§6.1 Method, client role: searches are POSTed."""

from __future__ import annotations

from conformance.aidre._client_fixtures import COSINE, TEXT, raw_vector, searched
from conformance.outcomes import clause, violation


@clause("AIDRE-6.1-01")
def test_6_1_client_searches_with_post(aidre_client, aidre_scenarios) -> None:
    """"Clients MUST use HTTP POST." Under §6 Search Endpoint: every request the client sends
    to the search endpoint, for text and vector queries and for the next pages, uses the
    method POST (AMB-13: the discovery GET is not covered). The scenario's server answers
    any method, so a client is judged by what it sends, not by what a server refused."""
    scenario = aidre_scenarios.new("post")
    reply = aidre_client.search(scenario, query=TEXT, pages=2)
    if aidre_client.vectors:
        aidre_client.search(scenario, vector=raw_vector(TEXT, 64), space=COSINE)
    sent = searched(scenario, reply, "a text and a vector search")
    wrong = [r for r in sent if r.method != "POST"]
    if wrong:
        violation(f"{len(wrong)} of the {len(sent)} requests to {scenario.authority}/search use another method: "
                  + ", ".join(sorted({r.method for r in wrong})))
