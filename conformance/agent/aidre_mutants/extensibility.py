"""Broken AIDRE clients: unknown members (20.3, 23.2), refused instead of ignored."""

from __future__ import annotations

import json
from typing import Any

from conformance.agent.aidre_client import ReferenceAidreClient, Refused
from conformance.fetch import Fetch

#: The members the draft's text and examples give each object (3.4, 7.2, 16.2, 18.3, 19.1, 24.1, 24.2).
DOCUMENT = {"version", "service", "organization", "endpoints", "capabilities", "embedding_spaces", "auth", "limits"}
SPACE = {"id", "dimensions", "distance", "normalized", "provider", "model", "revision"}
RESULT = {"id", "score", "metadata", "text", "semantic_payload", "source", "vector", "vectors"}
META = {"returned", "top_k", "next_cursor"}
ERROR = {"error", "message", "details", "request_id"}


def _unknown(value: dict, known: set[str], what: str) -> None:
    extra = sorted(set(value) - known)
    if extra:
        raise Refused("unknown-members", f"{what} holds members this client does not know: {extra}")


class RejectsUnknownDiscoveryMembers(ReferenceAidreClient):
    """20.3, 23.2: refuses a discovery document with top-level members it does not know."""

    def discover(self, authority: str) -> tuple[dict, str]:
        document, base = super().discover(authority)
        _unknown(document, DOCUMENT, "the discovery document")
        return document, base


class RejectsUnknownResultMembers(ReferenceAidreClient):
    """23.2, 20.3: refuses a search answer whose results hold members it does not know."""

    def results_of(self, value: dict) -> list[dict]:
        items = super().results_of(value)
        for item in items:
            _unknown(item, RESULT, f"result {item['id']!r}")
        return items


class RejectsUnknownSpaceMembers(ReferenceAidreClient):
    """20.3, 23.2: takes an embedding space declaration with members it does not know for
    one it cannot use."""

    def space(self, document: dict, space_id: str | None) -> dict:
        declared = super().space(document, space_id)
        _unknown(declared, SPACE, f"the embedding space {space_id!r}")
        return declared


class RejectsUnknownMetaMembers(ReferenceAidreClient):
    """23.2, 20.3: refuses a search answer whose meta holds members it does not know."""

    def next_cursor(self, value: dict) -> str | None:
        if isinstance(value.get("meta"), dict):
            _unknown(value["meta"], META, "the answer's meta")
        return super().next_cursor(value)


class RejectsUnknownErrorMembers(ReferenceAidreClient):
    """20.3, 23.2: an error object with members it does not know is reported as unreadable,
    not as the error the server answered."""

    def json_of(self, fetch: Fetch, what: str) -> Any:
        final = fetch.final
        if final is not None and not 200 <= final.status < 300:
            try:
                value = json.loads(final.body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                value = None
            if isinstance(value, dict):
                _unknown(value, ERROR, f"the {final.status} error object")
        return super().json_of(fetch, what)


VARIANTS = {
    "rejects-unknown-discovery-members": RejectsUnknownDiscoveryMembers,
    "rejects-unknown-result-members": RejectsUnknownResultMembers,
    "rejects-unknown-space-members": RejectsUnknownSpaceMembers,
    "rejects-unknown-meta-members": RejectsUnknownMetaMembers,
    "rejects-unknown-error-members": RejectsUnknownErrorMembers,
}
