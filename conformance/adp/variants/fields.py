"""Broken ADP clients: unknown fields (4.1) and unknown score components (6.3)."""

from __future__ import annotations

from typing import Any

from conformance.adp._kinds import CANDIDATE_FIELDS, EXAMPLE_FIELDS, METADATA_FIELDS
from conformance.adp.reference_client import Need, ReferenceAdpClient

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


class RejectsUnknownMetadataFields(ReferenceAdpClient):
    """4.1: validates agent metadata strictly: a record with a top-level member the 4.1 table
    does not name is not used."""

    def metadata(self, base: str, need: Need) -> list[dict]:
        found = [m for m in super().metadata(base, need) if set(m) <= set(METADATA_FIELDS)]
        if not found:
            raise LookupError("no agent metadata valid under the 4.1 table")
        return found


class RejectsUnknownCandidateMembers(ReferenceAdpClient):
    """4.1: a candidate with a member the 6.2 table does not name is dropped."""

    def candidates_in(self, value: Any) -> list[dict]:
        return [c for c in super().candidates_in(value) if set(c) <= set(CANDIDATE_FIELDS)]


class RejectsUnknownExampleMembers(ReferenceAdpClient):
    """4.1: a candidate or record whose examples (published or matched) hold a member the 4.4
    table does not name (score aside) is not usable."""

    def usable(self, candidate: Any) -> bool:
        if isinstance(candidate, dict):
            for member in ("examples", "matched_examples"):
                items = candidate.get(member)
                if isinstance(items, list) and any(isinstance(e, dict) and not set(e) <= {*EXAMPLE_FIELDS, "score"}
                                                   for e in items):
                    return False
        return super().usable(candidate)


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


def _rank_by(candidates: list[dict], name: str, fold) -> list[dict]:
    def key(c: dict) -> float:
        comps = c.get("score_components") if isinstance(c.get("score_components"), dict) else {}
        folded = {fold(k): v for k, v in comps.items() if isinstance(k, str)}
        value = folded.get(name)
        return -float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0

    return sorted(candidates, key=key)


class FoldsComponentNameCase(ReferenceAdpClient):
    """6.3: re-ranks a service's candidates by the tag component, its name compared without
    case (TAG is taken for tag)."""

    def order(self, candidates: list[dict]) -> list[dict]:
        return _rank_by(candidates, "tag", str.lower)


class TrimsComponentNames(ReferenceAdpClient):
    """6.3: re-ranks a service's candidates by the example component, its name compared without
    surrounding white space ("example " is taken for example)."""

    def order(self, candidates: list[dict]) -> list[dict]:
        return _rank_by(candidates, "example", str.strip)


VARIANTS = {
    "rejects-unknown-binding-members": RejectsUnknownBindingMembers,
    "rejects-unknown-response-members": RejectsUnknownResponseMembers,
    "rejects-unknown-metadata-fields": RejectsUnknownMetadataFields,
    "rejects-unknown-candidate-members": RejectsUnknownCandidateMembers,
    "rejects-unknown-example-members": RejectsUnknownExampleMembers,
    "sums-score-components": SumsScoreComponents,
    "rejects-non-numeric-components": RejectsNonNumericComponents,
    "folds-component-name-case": FoldsComponentNameCase,
    "trims-component-names": TrimsComponentNames,
}
