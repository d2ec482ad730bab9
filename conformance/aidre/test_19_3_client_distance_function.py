"""§19.3 Distance Function, client role: no cosine assumed where the space declares another.

The draft gives score no direction and results no order (AMB-06), so an order of results by
score, either way, shows nothing about cosine. What assuming cosine does show (AMB-59): a query
vector scaled to unit length for a space that declares l2 and normalized false, results
dropped (or their scores clamped) for lying outside [-1, 1], where no cosine can be, and a
ranking by the cosine similarity of the query and the results' vectors where the declared
distance ranks them otherwise. Each scenario here has a collection of its own, chosen so that
each of these changes what the client reports: the cosine order of the served results is
neither the server's order nor the reverse; the l2 distances all lie above 1 (the nearest at
1.044), and the dot scores straddle 1 (2.5, 1.5, 1.04, 1.0, 0.96, 0.3, -0.2, -0.6).
"""

from __future__ import annotations

import math

from conformance.aidre._client_fixtures import DOT, L2, body_of, ids, said
from conformance.aidre.scenario_server import SCENARIO_SPACES, distance_of
from conformance.outcomes import clause, untestable, violation

#: The user's query vector: norm 5, in the plane of the collections' vectors (48 dimensions).
QUERY_VECTOR = [3.0, 4.0] + [0.0] * 46


def _vector(along: float, across: float) -> list[float]:
    """A vector ``along`` the query's direction and ``across`` it (in the query's plane): its
    dot score is 5 x along, its cosine along / |v|, its l2 distance |(5 - along, across)|."""
    return [round(0.6 * along - 0.8 * across, 4), round(0.8 * along + 0.6 * across, 4)] + [0.0] * 46


#: (along, across) of each vector of a scenario's collection, in the order of its ids. Served
#: two pages of four: by l2, ascending distance 1.044 1.5 1.921 2.002 3.0 3.007 3.905 4.0,
#: whose cosine order is 6 1 4 0 3 2 5 7 (by position in the l2 order: 5 3 7 0 2 1 4 6); by dot,
#: descending 2.5 1.5 1.04 1.0 0.96 0.3 -0.2 -0.6, whose cosine order is 5 3 1 4 0 2 6 7.
PLANES = {
    "l2": [(4, 0.3), (3, 0.1), (5, 1.5), (6.5, 1.2), (1, 0.05), (5, 3), (8, 0.2), (2, 2.5), (0, 6), (9, 5)],
    "dot": [(0.5, 2), (0.3, 0.1), (0.208, 1), (0.2, 0.05), (0.192, 0.5), (0.06, 0.01), (-0.04, 0.3),
            (-0.12, 0.1), (-0.2, 0.01), (-0.3, 2)],
}
#: Ids of the reference corpus (their metadata is served), one per vector.
IDS = {"l2": [f"doc_1#chunk_{i}" for i in range(1, 7)] + [f"doc_2#chunk_{i}" for i in range(1, 5)],
       "dot": [f"doc_3#chunk_{i}" for i in range(1, 7)] + [f"doc_4#chunk_{i}" for i in range(1, 5)]}


def collection(distance: str) -> list[tuple[str, list[float]]]:
    return [(cid, _vector(*plane)) for cid, plane in zip(IDS[distance], PLANES[distance])]


def _scaled_to_unit(sent: object, given: list[float]) -> float | None:
    """The norm of ``sent`` when it is ``given`` scaled to (about) unit length: the same
    direction, a norm within 1e-3 of 1 where ``given``'s is not (so rounded or float32
    normalisations are found too); None otherwise."""
    if not isinstance(sent, list) or len(sent) != len(given):
        return None
    try:
        values = [float(x) for x in sent]
    except (TypeError, ValueError):
        return None
    norm = math.sqrt(math.fsum(x * x for x in values))
    if abs(math.sqrt(math.fsum(g * g for g in given)) - 1) < 0.01 or abs(norm - 1) > 1e-3:
        return None
    return norm if distance_of(given, values, "cosine") > 1 - 1e-6 else None


def _monotone(values: list[float]) -> bool:
    return all(a >= b for a, b in zip(values, values[1:])) or all(a <= b for a, b in zip(values, values[1:]))


def _shown(cids: list[str], scores: dict[str, float], cosines: dict[str, float]) -> str:
    return ", ".join(f"{cid} (score {scores[cid]}, cosine {cosines[cid]:.4f})" for cid in cids)


@clause("AIDRE-19.3-02")
def test_19_3_client_assumes_no_cosine(aidre_client, aidre_scenarios) -> None:
    """"Clients MUST NOT assume cosine similarity unless the embedding space declaration says
    so." Two spaces declaring another distance, each searched over two pages of four with a
    query vector of norm 5: l2 (normalized false; every distance above 1) and dot (scores from
    2.5 to -0.6, three above 1). Score has no stated direction (AMB-06), so the kit judges only
    what assuming cosine shows (AMB-59): in the l2 space, no search request sends the user's
    vector scaled to unit length (AMB-55); the client does not drop exactly the results whose
    score lies outside [-1, 1], nor report such a score clamped to -1 or 1; and it does not rank
    the results by the cosine similarity of the query and the results' vectors (each result
    carries its vector), which orders them differently from the server and from either order
    of score. The server's order, and any order monotone in score (either direction), pass; a
    client that says it cannot use a distance (an error) is not judged in that space."""
    aidre_client.needs("aidre.vector", "it sends no vector queries, and ranks no vector results")
    judged = 0
    for space in (L2, DOT):
        distance = SCENARIO_SPACES[space][1]
        own = collection(distance)
        cosines = {cid: distance_of(QUERY_VECTOR, vector, "cosine") for cid, vector in own}
        scenario = aidre_scenarios.new(f"distance-{distance}", spaces=(space,), top_k=4, vectors=own)
        reply = aidre_client.search(scenario, vector=QUERY_VECTOR, space=space, pages=2)
        where = f"in the space {space} (distance {distance}, normalized false)"
        if distance == "l2":
            for index, body in enumerate(map(body_of, scenario.searches())):
                norm = _scaled_to_unit(body.get("query_vector") if isinstance(body, dict) else None, QUERY_VECTOR)
                if norm is not None:
                    violation(f"{where}, search request {index + 1} sent the user's vector (norm 5) scaled to "
                              f"unit length (norm {norm:.6f}), as if only its direction counted (cosine)",
                              readings=("AMB-59", "AMB-55"))
        if reply.get("outcome") != "results":
            continue
        served = [(cid, score) for answer in scenario.served() for cid, score in answer.results]
        if not served:
            continue
        judged += 1
        scores = dict(served)
        order = [cid for cid, _ in served]
        reported = list(dict.fromkeys(cid for cid in ids(reply) if cid in scores))
        outside = {cid for cid, score in served if abs(score) > 1}
        omitted = [cid for cid in order if cid not in reported]
        if omitted and set(omitted) <= outside and not outside & set(reported):
            violation(f"{where}, the server served {len(served)} results; the client reports "
                      f"{len(reported)} of them, leaving out exactly the {len(omitted)} whose score lies outside "
                      f"[-1, 1], where no cosine similarity can be: "
                      + ", ".join(f"{cid} ({scores[cid]})" for cid in omitted), readings=("AMB-59",))
        clamped = [(item["id"], scores[item["id"]], item.get("score")) for item in reply.get("results") or []
                   if isinstance(item, dict) and item.get("id") in outside
                   and item.get("score") == max(-1.0, min(1.0, scores[item["id"]]))]
        if clamped:
            violation(f"{where}, the client reports {len(clamped)} scores clamped to cosine's range [-1, 1]: "
                      + ", ".join(f"{cid} served {was}, reported {now}" for cid, was, now in clamped[:4]),
                      readings=("AMB-59",))
        positions = [order.index(cid) for cid in reported]
        if len(reported) < 2 or positions == sorted(positions) or _monotone([scores[c] for c in reported]):
            continue  # the server's order, or an order by score either way (AMB-06)
        moved = [(a, b) for i, a in enumerate(reported) for b in reported[i + 1:] if order.index(a) > order.index(b)]
        if moved and all(cosines[a] > cosines[b] for a, b in moved):
            by_cosine = sorted(reported, key=lambda c: -cosines[c])
            violation(f"{where}, the client ranks the results by their cosine similarity to the query (computed "
                      f"from the vectors they carry), not by the declared distance: it reports "
                      f"{_shown(reported, scores, cosines)}; every one of its {len(moved)} departures from the "
                      f"server's order ({', '.join(order)}) puts the higher cosine first"
                      + (" (its whole order is the cosine order)" if by_cosine == reported else ""),
                      readings=("AMB-59", "AMB-06"))
    if not judged:
        untestable(f"the client reported no results for vector queries in an l2 and a dot space, so nothing shows "
                   f"how it treats their scores (see AIDRE-5.3-02); {said(reply)}")
