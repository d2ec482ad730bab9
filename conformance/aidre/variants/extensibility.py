"""Broken AIDRE clients: unknown members (20.3, 23.2), refused or misread instead of ignored."""

from __future__ import annotations

import json
from typing import Any

from conformance.aidre.reference_client import ReferenceAidreClient, Refused
from conformance.fetch import Fetch

#: The members the draft's text and examples give each object (3.4, 7.2, 7.3, 16.2, 18.3, 19.1,
#: 20.1, 24.1, 24.2): what a client written from the draft alone knows.
DOCUMENT = {"version", "service", "organization", "endpoints", "capabilities", "embedding_spaces", "auth"}
ENDPOINTS = {"search", "collections", "chunk"}
CAPABILITIES = {"query_text", "query_vector", "return_text", "return_semantic_payload", "return_vectors", "delta_sync"}
AUTH = {"type"}
SPACE = {"id", "dimensions", "distance", "normalized", "provider", "model", "revision"}
RESULT = {"id", "score", "metadata", "text", "semantic_payload", "source", "vectors"}
META = {"returned", "top_k", "next_cursor"}
ERROR = {"error", "message", "details", "request_id"}


def _unknown(value: dict, known: set[str], what: str) -> None:
    extra = sorted(set(value) - known)
    if extra:
        raise Refused("unknown-members", f"{what} holds members this client does not know: {extra}")


class RejectsUnknownDiscoveryMembers(ReferenceAidreClient):
    """20.3, 23.2: refuses a discovery document with top-level members the draft does not
    define (limits, the kit's reference server's extension, among them)."""

    def discover(self, authority: str) -> tuple[dict, str]:
        document, base = super().discover(authority)
        _unknown(document, DOCUMENT, "the discovery document")
        return document, base


class ValidatesDiscoveryAgainstTheDraft(ReferenceAidreClient):
    """20.3, 23.2: validates the discovery document against a schema of the draft's members
    with no other member allowed at any level (additionalProperties: false in the document,
    endpoints, capabilities, auth and each embedding space), and refuses it when it fails."""

    def discover(self, authority: str) -> tuple[dict, str]:
        document, base = super().discover(authority)
        _unknown(document, DOCUMENT, "the discovery document")
        for member, known in (("endpoints", ENDPOINTS), ("capabilities", CAPABILITIES), ("auth", AUTH)):
            if isinstance(document.get(member), dict):
                _unknown(document[member], known, f"the discovery document's {member}")
        for index, space in enumerate(document.get("embedding_spaces") or []):
            if isinstance(space, dict):
                _unknown(space, SPACE, f"embedding space {index}")
        return document, base


def _folded(value: Any) -> Any:
    """``value`` with every member name lower-cased, a later member overwriting an earlier one
    of the same folded name: how Go's encoding/json fills a struct (case-insensitive names,
    the last match winning)."""
    if isinstance(value, dict):
        folded: dict = {}
        for name, item in value.items():
            folded[name.lower()] = _folded(item)
        return folded
    if isinstance(value, list):
        return [_folded(item) for item in value]
    return value


class ReadsAnswersCaseInsensitively(ReferenceAidreClient):
    """20.3, 23.2: reads search answers as Go's encoding/json does, matching member names
    case-insensitively with the last match winning: an unknown member Results after results
    replaces them."""

    def read_page(self, fetch: Fetch) -> dict:
        return _folded(super().read_page(fetch))


class ReadsDiscoveryCaseInsensitively(ReferenceAidreClient):
    """23.2, 20.3: reads the discovery document as Go's encoding/json does (case-insensitive
    member names, the last match winning): an unknown member Endpoints after endpoints names
    the search endpoint it uses."""

    def discover(self, authority: str) -> tuple[dict, str]:
        document, base = super().discover(authority)
        return _folded(document), base


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
    "validates-discovery-against-the-draft": ValidatesDiscoveryAgainstTheDraft,
    "reads-answers-case-insensitively": ReadsAnswersCaseInsensitively,
    "reads-discovery-case-insensitively": ReadsDiscoveryCaseInsensitively,
    "rejects-unknown-result-members": RejectsUnknownResultMembers,
    "rejects-unknown-space-members": RejectsUnknownSpaceMembers,
    "rejects-unknown-meta-members": RejectsUnknownMetaMembers,
    "rejects-unknown-error-members": RejectsUnknownErrorMembers,
}
