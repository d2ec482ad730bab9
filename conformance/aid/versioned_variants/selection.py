"""Broken v1.2/v2.1 clients: record selection (v2.1 2.3 steps 5-7)."""

from __future__ import annotations

from conformance.aid import versioned
from conformance.aid.versioned_client import VersionedAidClient


def _first_valid_aid2(texts: list[str]) -> versioned.Selection | None:
    for text in texts:
        reading = versioned.read(text)
        if reading.valid and reading.version == "aid2":
            return versioned.Selection(reading, frozenset(), "the first valid aid2 record")
    return None


class FirstOfSeveral(VersionedAidClient):
    """Uses the first valid record in answer order when several are valid (AID-2.3-55)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return _first_valid_aid2(texts) or super().select(texts)


class LastOfSeveral(VersionedAidClient):
    """Uses the last valid record in answer order when several are valid (AID-2.3-55)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return (len(texts) > 1 and _first_valid_aid2(list(reversed(texts)))) or super().select(texts)


VARIANTS = {"v2-first-of-several": FirstOfSeveral, "v2-last-of-several": LastOfSeveral}
