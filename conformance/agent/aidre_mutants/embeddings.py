"""Broken AIDRE clients: distance (19.3) and normalisation (19.4)."""

from __future__ import annotations

import math

from conformance.agent.aidre_client import ReferenceAidreClient


class RanksHigherScoreFirst(ReferenceAidreClient):
    """19.3: ranks vector results by descending score whatever the declared distance (an l2
    distance read as a cosine similarity)."""

    def better(self, declared: dict | None) -> str | None:
        return "higher" if declared is not None else None


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


VARIANTS = {
    "ranks-higher-score-first": RanksHigherScoreFirst,
    "drops-scores-outside-cosine-range": DropsScoresOutsideCosineRange,
    "normalizes-every-vector": NormalizesEveryVector,
    "sends-raw-vector": SendsRawVector,
    "normalizes-cosine-spaces-only": NormalizesCosineSpacesOnly,
    "normalizes-with-l1-norm": NormalizesWithL1Norm,
}
