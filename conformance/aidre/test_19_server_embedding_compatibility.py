"""§19 Embedding Compatibility Rules, server side: 422 on a dimension mismatch (19.2) and
query vectors evaluated by the declared distance function (19.3, judged by a metamorphic
relation: docs/aidre-metamorphic.md)."""

from __future__ import annotations

import math
import random
from typing import Any

from conformance.aidre._server_checks import must_reject, search_reached, spaces_or_skip, vector_of
from conformance.aidre._server_fixtures import Probe
from conformance.document import Document
from conformance.outcomes import clause, untestable, violation

#: Distance names the kit knows (AMB-10), by the function it computes.
DISTANCES = {"cosine": "cosine", "dot": "dot", "dot_product": "dot", "inner_product": "dot",
             "euclidean": "l2", "l2": "l2"}
#: Relative slack when comparing scores with distances (servers round, use float32).
TOLERANCE = 1e-4


@clause("AIDRE-19.2-01")
def test_19_2_dimension_mismatch_is_422(server: Probe, discovery: Document) -> None:
    """If a query_vector length does not match the dimensions declared for the requested
    embedding space, the server MUST reject the request with 422 Unprocessable Entity: lengths
    1, d-1, d+1 and 2d, for every advertised space (AMB-10); not applicable where the target
    does not offer vector queries (AMB-32). An empty array (length 0) is of the wrong length and
    no vector at all: malformed, 15.4's 400 row, as well as 19.2's case; two sentences apply,
    and a rejection either allows, 400 or 422, passes (AMB-03)."""
    spaces = spaces_or_skip(server, discovery)
    problems, asked = [], 0
    for space in spaces:
        d = space["dimensions"]
        lengths = sorted({0, 1, d - 1, d + 1, 2 * d} - {d})
        for n in lengths:
            asked += 1
            answer = server.search(server.vector_body(space, vector=[0.25] * n))
            search_reached(answer, f"a {n}-number query_vector")
            wanted = (400, 422) if n == 0 else (422,)
            why = must_reject(answer, f"a {n}-number query_vector in {space['id']!r} ({d} dimensions)", wanted)
            if why:
                problems.append(why)
    if problems:
        violation(f"{len(problems)} of {asked} dimension mismatches were not answered 422: " + "; ".join(problems[:4]),
                  readings=("AMB-03",))


def distance(kind: str, a: list[float], b: list[float]) -> float:
    """The declared function between two vectors: cosine similarity, dot product, or l2 distance."""
    if kind == "dot":
        return sum(x * y for x, y in zip(a, b))
    if kind == "cosine":
        na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
        return sum(x * y for x, y in zip(a, b)) / (na * nb) if na and nb else 0.0
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def monotone_breaks(pairs: list[tuple[float, float]]) -> list[str]:
    """Where scores fail to be a monotone function of the computed values (either direction,
    AMB-06): pairs ordered by value must have scores all non-increasing or all non-decreasing."""
    ordered = sorted(pairs)
    def breaks(sign: int) -> list[str]:
        out = []
        for (v1, s1), (v2, s2) in zip(ordered, ordered[1:]):
            if v2 - v1 <= TOLERANCE * max(1.0, abs(v1), abs(v2)):
                continue  # equal values may carry any scores
            if sign * (s2 - s1) < -TOLERANCE * max(1.0, abs(s1), abs(s2)):
                out.append(f"value {v1:.6g} has score {s1:.6g} but value {v2:.6g} has score {s2:.6g}")
        return out
    up, down = breaks(1), breaks(-1)
    return [] if not up or not down else (up if len(up) <= len(down) else down)


def probe_queries(server: Probe, space: dict, kind: str, seed: int) -> list[list[float]]:
    """Query vectors for the relation: built from vectors the server returned (so that they lie
    among its data), scaled and mixed so that cosine, dot and l2 rank the neighbours
    differently where the space is not normalised."""
    rng = random.Random(seed)
    first = server.search(server.vector_body(space, seed=seed, top_k=8, **{"return": {"vectors": True}}))
    search_reached(first, "a vector search asking for vectors")
    known = [v for v in (vector_of(r) for r in first.results) if v is not None and len(v) == space["dimensions"]]
    if len(known) < 2:
        return []
    queries = []
    for n in range(3):
        a, b = rng.sample(known, 2)
        w = rng.uniform(0.2, 0.8)
        scale = [0.5, 2.5, 6.0][n]
        queries.append([round(scale * (w * x + (1 - w) * y) + rng.uniform(-0.05, 0.05), 6) for x, y in zip(a, b)])
    return queries


#: The declaration (profile.toml [declarations]) of 19.4's documented normalisation on receipt.
NORMALIZES = "normalizes-query-vectors"


def unit(vector: list[float]) -> list[float]:
    """``vector`` scaled to length 1 (as a server that normalises on receipt does, 19.4)."""
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm else list(vector)


@clause("AIDRE-19.3-01")
def test_19_3_vectors_evaluated_by_declared_distance(server: Probe, discovery: Document, adck_seed: int,
                                                      adck_declarations: dict[str, Any]) -> None:
    """The server MUST evaluate query vectors according to the distance function declared by
    the embedding space: in each answer that returns vectors, the results' scores are a
    monotone function of the declared distance between the query and each result's vector
    (AMB-06: any direction, any order of results). 19.4 lets a server normalise vectors on
    receipt, and two sentences that both apply accept what either allows: undeclared, the scores
    may follow the distance from the query as sent or, in every answer alike, from the query
    scaled to unit length. A server declared to normalise (``--declare normalizes-query-vectors``,
    19.4's documentation) is judged on the unit-length query alone (AMB-15)."""
    normalized = NORMALIZES in adck_declarations
    spaces = spaces_or_skip(server, discovery)
    # the readings: the query as sent (undeclared only), the query scaled to unit length (19.4)
    readings = {"unit": "query scaled to unit length (normalizes-query-vectors declared)"} if normalized else \
        {"sent": "query", "unit": "query scaled to unit length, as a server that normalises on receipt (19.4) "
                                  "evaluates it"}
    broken_by: dict[str, list[str]] = {name: [] for name in readings}
    judged, unknown = 0, []
    for i, space in enumerate(spaces):
        kind = DISTANCES.get(str(space.get("distance", "")).lower())
        if kind is None:
            unknown.append(f"{space['id']!r} declares distance {space.get('distance')!r}")
            continue
        for query in probe_queries(server, space, kind, adck_seed % 1000 + i):
            answer = server.search(server.vector_body(space, vector=query, top_k=8, **{"return": {"vectors": True}}))
            search_reached(answer, "a vector search asking for vectors")
            scored = []
            for r in answer.results:
                v = vector_of(r)
                score = r.get("score") if isinstance(r, dict) else None
                if v is None or len(v) != len(query) or not isinstance(score, (int, float)) or isinstance(score, bool):
                    continue
                scored.append((v, float(score)))
            if len(scored) < 3:
                continue
            judged += 1
            for name, what in readings.items():
                q = unit(query) if name == "unit" else query
                broken = monotone_breaks([(distance(kind, q, v), score) for v, score in scored])
                if broken:
                    broken_by[name].append(f"in {space['id']!r} (distance {space['distance']}): scores are not a "
                                           f"monotone function of the declared {kind} between the {what} and the "
                                           "returned vectors: " + broken[0])
    if not judged:
        why = "; ".join(unknown) if unknown else "the server returned no vectors with scores when asked (return.vectors true)"
        untestable(f"{why}: the kit cannot compute the declared distance (AMB-06, AMB-16)")
    if all(broken_by.values()):  # no reading the draft allows holds in every answer
        first = broken_by["unit" if normalized else "sent"]
        also = "" if normalized else f"; nor from the {readings['unit'].split(',')[0]}: {broken_by['unit'][0]}"
        violation(f"{len(first)} of {judged} answers: " + "; ".join(first[:2]) + also,
                  readings=("AMB-15",) if normalized else ())
