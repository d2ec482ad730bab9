"""Broken AIDRE clients: distance (19.3), normalisation (19.4), the embedding space named (5.3)."""

from __future__ import annotations

import math

from conformance.aidre.reference_client import Found, Query, ReferenceAidreClient


def _cosine(a: list[float], b: list[float]) -> float:
    norms = math.sqrt(math.fsum(x * x for x in a)) * math.sqrt(math.fsum(y * y for y in b))
    return math.fsum(x * y for x, y in zip(a, b)) / norms if norms else 0.0


class RanksByCosineOfReturnedVectors(ReferenceAidreClient):
    """19.3: where results carry their vectors, ranks them by the cosine similarity of the
    query and each vector, whatever distance the space declares."""

    def search(self, authority: str, query: Query) -> Found:
        self._query, self._vectors = query.vector, {}
        return super().search(authority, query)

    def entry(self, item: dict) -> dict:
        vector = item.get("vectors")
        if isinstance(vector, list) and all(isinstance(x, (int, float)) for x in vector):
            self._vectors[item["id"]] = [float(x) for x in vector]
        return super().entry(item)

    def rank(self, results: list[dict], declared: dict | None) -> list[dict]:
        if declared is None or not self._query or not results or any(r["id"] not in self._vectors for r in results):
            return super().rank(results, declared)
        return sorted(results, key=lambda r: -_cosine(self._query, self._vectors[r["id"]]))


class ClampsScoresToCosineRange(ReferenceAidreClient):
    """19.3: takes every vector result's score for a cosine similarity and clamps it to
    [-1, 1] (the score it reports, and ranks by)."""

    def rank(self, results: list[dict], declared: dict | None) -> list[dict]:
        if declared is not None:
            results = [{**r, "score": max(-1.0, min(1.0, r["score"])) if r["score"] is not None else None}
                       for r in results]
        return super().rank(results, declared)


class DropsScoresOutsideCosineRange(ReferenceAidreClient):
    """19.3: drops vector results whose score lies outside [-1, 1], as no cosine similarity can."""

    def rank(self, results: list[dict], declared: dict | None) -> list[dict]:
        if declared is not None:
            results = [r for r in results if r["score"] is None or -1.0 <= r["score"] <= 1.0]
        return super().rank(results, declared)


class NormalizesEveryVector(ReferenceAidreClient):
    """19.3: normalises every query vector, as if only its direction counted (cosine), in
    spaces that declare another distance and normalized false too."""

    def query_vector(self, vector: list[float], declared: dict) -> list[float]:
        return self.normalise(vector)


class SendsRawVector(ReferenceAidreClient):
    """19.4: sends the vector as the user gave it, even where the space declares normalized=true."""

    def query_vector(self, vector: list[float], declared: dict) -> list[float]:
        return list(vector)


class NormalizesCosineSpacesOnly(ReferenceAidreClient):
    """19.4: normalises only for cosine spaces, not for a dot space that declares normalized=true."""

    def query_vector(self, vector: list[float], declared: dict) -> list[float]:
        return self.normalise(vector) if declared.get("distance") == "cosine" else list(vector)


class NormalizesWithL1Norm(ReferenceAidreClient):
    """19.4: "normalises" by the sum of absolute values (L1), not to unit Euclidean length."""

    def normalise(self, vector: list[float]) -> list[float]:
        total = math.fsum(abs(x) for x in vector)
        return [x / total for x in vector] if total else list(vector)


class LowerCasesSpaceId(ReferenceAidreClient):
    """5.3: sends the embedding space's id lower-cased (a case-insensitive registry of spaces)."""

    def first_body(self, query: Query, declared: dict | None) -> dict:
        body = super().first_body(query, declared)
        if isinstance(body.get("embedding_space"), str):
            body["embedding_space"] = body["embedding_space"].lower()
        return body


class PicksSpaceByDimension(ReferenceAidreClient):
    """5.3: names the first declared embedding space of the vector's length, not the one the
    vector belongs to."""

    def search(self, authority: str, query: Query) -> Found:
        self._length = len(query.vector) if query.vector is not None else None
        return super().search(authority, query)

    def space(self, document: dict, space_id: str | None) -> dict:
        for item in document.get("embedding_spaces") or []:
            if isinstance(item, dict) and item.get("dimensions") == self._length:
                return item
        return super().space(document, space_id)


VARIANTS = {
    "ranks-by-cosine-of-returned-vectors": RanksByCosineOfReturnedVectors,
    "clamps-scores-to-cosine-range": ClampsScoresToCosineRange,
    "lower-cases-space-id": LowerCasesSpaceId,
    "picks-space-by-dimension": PicksSpaceByDimension,
    "drops-scores-outside-cosine-range": DropsScoresOutsideCosineRange,
    "normalizes-every-vector": NormalizesEveryVector,
    "sends-raw-vector": SendsRawVector,
    "normalizes-cosine-spaces-only": NormalizesCosineSpacesOnly,
    "normalizes-with-l1-norm": NormalizesWithL1Norm,
}
