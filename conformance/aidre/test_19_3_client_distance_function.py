"""§19.3 Distance Function, client role: no cosine assumed where the space declares another."""

from __future__ import annotations

import math

from conformance.aidre._client_fixtures import DOT, L2, TEXT, body_of, ids, raw_vector, said
from conformance.outcomes import clause, untestable, violation

QUERY = TEXT + " saml identity provider"


def _normalised_copy(sent: object, given: list[float]) -> bool:
    """``sent`` is ``given`` scaled to unit Euclidean length (and ``given`` was not)."""
    if not isinstance(sent, list) or len(sent) != len(given):
        return False
    norm = math.sqrt(math.fsum(x * x for x in given))
    if not norm or abs(norm - 1) < 1e-3:
        return False
    try:
        return all(abs(float(s) - g / norm) <= 1e-6 for s, g in zip(sent, given))
    except (TypeError, ValueError):
        return False


@clause("AIDRE-19.3-02")
def test_19_3_client_uses_the_declared_distance(aidre_client, aidre_scenarios) -> None:
    """"Clients MUST NOT assume cosine similarity unless the embedding space declaration says
    so." Two spaces that declare another distance: l2 (lower scores are better, scores above
    1, normalized false), over two pages, and dot (higher is better, scores above 1). The
    reply's results are the client's ranking, best first: its best result must be the one the
    declared distance makes best among those served, its order must never put a worse result
    (by the declared distance) before a better one, it must not drop results for scores no
    cosine can have, and in the l2 space it must send the user's vector as given, not scaled
    to unit length as if only its direction counted (AMB-54). A client that keeps the server's
    order passes; a client that says it cannot use a distance (an error) is not judged there."""
    aidre_client.needs("aidre.vector", "it sends no vector queries, and ranks no vector results")
    judged = 0
    for space, lower_better, pages in ((L2, True, 2), (DOT, False, 1)):
        scenario = aidre_scenarios.new(f"distance-{space.split(':')[2]}", spaces=(space,), top_k=4)
        vector = raw_vector(QUERY, 48)
        reply = aidre_client.search(scenario, vector=vector, space=space, pages=pages)
        distance = "l2 (lower is better)" if lower_better else "dot (higher is better)"
        first = next((b for b in map(body_of, scenario.searches()) if isinstance(b, dict)), None)
        if lower_better and first is not None and _normalised_copy(first.get("query_vector"), vector):
            violation(f"in the space {space}, distance {distance}, normalized false, the client sent the user's "
                      f"vector scaled to unit length (norm {math.sqrt(math.fsum(x * x for x in vector)):.3f} before), "
                      f"as if only its direction counted (cosine)")
        if reply.get("outcome") != "results":
            continue
        scores = {cid: score for answer in scenario.served() for cid, score in answer.results}
        if not scores:
            continue
        judged += 1
        best = (min if lower_better else max)(scores.values())
        ranked = [cid for cid in ids(reply) if cid in scores]
        if not ranked:
            violation(f"in the space {space}, distance {distance}, the server served {len(scores)} results "
                      f"(best score {best}); the client reports {len(ids(reply))} of them: {said(reply)}")
        if scores[ranked[0]] != best:
            top = next(cid for cid, s in scores.items() if s == best)
            violation(f"in the space {space}, distance {distance}, the client ranks {ranked[0]!r} (score "
                      f"{scores[ranked[0]]}) first; the best served result is {top!r} (score {best})"
                      + ("" if top in ranked else ", which the client does not report at all"))
        for a, b in zip(ranked, ranked[1:]):
            if (scores[a] > scores[b]) if lower_better else (scores[a] < scores[b]):
                violation(f"in the space {space}, distance {distance}, the client ranks {a!r} (score {scores[a]}) "
                          f"before {b!r} (score {scores[b]})")
    if not judged:
        untestable("the client reported no results for vector queries in an l2 and a dot space, so nothing shows "
                   "how it ranks them (see AIDRE-5.3-02)")
