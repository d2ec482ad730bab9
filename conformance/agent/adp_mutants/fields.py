"""Broken ADP clients: unknown fields (4.1) and unknown score components (6.3)."""

from __future__ import annotations

from typing import Any

from conformance.agent.adp_client import ReferenceAdpClient

BINDING = {"protocol", "endpoint", "media_types", "interaction_model", "priority"}
RESPONSE = {"request_id", "generated_at", "applied_filters", "candidates", "warnings", "next_page_token",
            "partial", "errors"}


class RejectsUnknownBindingMembers(ReferenceAdpClient):
    """4.1: a binding with members the draft does not define is not used."""

    def bindings(self, candidate: dict) -> list[dict]:
        return [b for b in super().bindings(candidate) if set(b) <= BINDING]


class RejectsUnknownResponseMembers(ReferenceAdpClient):
    """4.1: a Discovery Response with top-level members the draft does not define is refused."""

    def candidates_in(self, value: Any) -> list[dict]:
        if isinstance(value, dict) and not set(value) <= RESPONSE:
            raise LookupError(f"unknown members {sorted(set(value) - RESPONSE)}")
        return super().candidates_in(value)


def _numbers(components: Any) -> list[float]:
    if not isinstance(components, dict):
        return []
    return [v for v in components.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]


class SumsScoreComponents(ReferenceAdpClient):
    """6.3: re-ranks a service's candidates by the sum of every numeric score component, the
    ones it does not know included."""

    def order(self, candidates: list[dict]) -> list[dict]:
        return sorted(candidates, key=lambda c: -sum(_numbers(c.get("score_components"))))


class RejectsNonNumericComponents(ReferenceAdpClient):
    """6.3: a candidate with a score component that is not a number is not usable."""

    def usable(self, candidate: Any) -> bool:
        comps = candidate.get("score_components") if isinstance(candidate, dict) else None
        if isinstance(comps, dict) and len(_numbers(comps)) != len(comps):
            return False
        return super().usable(candidate)


VARIANTS = {
    "rejects-unknown-binding-members": RejectsUnknownBindingMembers,
    "rejects-unknown-response-members": RejectsUnknownResponseMembers,
    "sums-score-components": SumsScoreComponents,
    "rejects-non-numeric-components": RejectsNonNumericComponents,
}
