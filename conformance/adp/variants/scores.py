"""Broken ADP clients: scores from different services (6.3)."""

from __future__ import annotations

from conformance.adp.reference_client import Chosen, Need, ReferenceAdpClient


def _score(candidate: dict) -> float:
    s = candidate.get("score")
    return float(s) if isinstance(s, (int, float)) and not isinstance(s, bool) else 0.0


class _Pooling(ReferenceAdpClient):
    """Collects every service's candidates, then chooses among them with ``pick``."""

    def pick(self, pools: list[tuple[str, list[dict]]]) -> list[tuple[str, dict]]:
        raise NotImplementedError

    def discover(self, need: Need) -> Chosen:
        if len(need.services) < 2:
            return super().discover(need)
        pools = []
        for base in need.services:
            try:
                pools.append((base, self.order(self.candidates_of(base, need))))
            except LookupError:
                continue
        return self.select(self.pick(pools), need)


class MergesByRawScore(_Pooling):
    """6.3: merges the candidates of every service and takes the highest raw score."""

    def pick(self, pools):
        merged = [(base, c) for base, items in pools for c in items]
        return sorted(merged, key=lambda bc: -_score(bc[1]))


class PrefersHigherMeanService(_Pooling):
    """6.3: prefers the service whose candidates' mean raw score is highest, then its order."""

    def pick(self, pools):
        def mean(items):
            return sum(map(_score, items)) / len(items) if items else 0.0

        return [(base, c) for base, items in sorted(pools, key=lambda p: -mean(p[1])) for c in items]


class MergesByScoreShare(_Pooling):
    """6.3: normalises each service's scores by their sum (each candidate's share of its
    service's total), merges the services and takes the highest share."""

    def pick(self, pools):
        merged = []
        for base, items in pools:
            total = sum(map(_score, items)) or 1.0
            merged += [(base, c, _score(c) / total) for c in items]
        return [(base, c) for base, c, _ in sorted(merged, key=lambda x: -x[2])]


VARIANTS = {
    "merges-by-raw-score": MergesByRawScore,
    "prefers-higher-mean-service": PrefersHigherMeanService,
    "merges-by-score-share": MergesByScoreShare,
}
