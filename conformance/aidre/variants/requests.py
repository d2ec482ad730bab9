"""Broken AIDRE clients: discovery (3.3), the request (5.1, 5.3, 6.1), its headers and
encoding (14.1, 14.2, 15.2)."""

from __future__ import annotations

import json

from conformance.aidre.reference_client import MEDIA, Query, ReferenceAidreClient, Refused


class RequiresSrvRecord(ReferenceAidreClient):
    """3.3: looks for an _aidre._tcp SRV record first and, finding none (no DNS at all),
    gives up before sending anything."""

    def discover(self, authority: str) -> tuple[dict, str]:
        raise Refused("no-srv-record", f"no _aidre._tcp SRV record for {authority}: cannot discover the service")


class RefusesWithoutSrvConfirmation(ReferenceAidreClient):
    """3.3: fetches the discovery document, then refuses to use it because no SRV record
    confirms the origin."""

    def discover(self, authority: str) -> tuple[dict, str]:
        super().discover(authority)
        raise Refused("unconfirmed-origin", "the discovery document is not confirmed by an SRV record", "none")


class SendsEmptyVectorWithText(ReferenceAidreClient):
    """5.1: serialises every member of its request type, so a text query also carries an
    empty query_vector."""

    def first_body(self, query: Query, declared: dict | None) -> dict:
        body = super().first_body(query, declared)
        if "query" in body:
            body["query_vector"] = []
        return body


class DropsQueryOnNextPages(ReferenceAidreClient):
    """5.1: asks for the next pages with the cursor alone (neither query nor query_vector)."""

    def next_body(self, first: dict, cursor: str, member: str) -> dict:
        body = {k: v for k, v in super().next_body(first, cursor, member).items()
                if k not in ("query", "query_vector", "embedding_space")}
        return body


class OmitsEmbeddingSpace(ReferenceAidreClient):
    """5.3: sends query_vector without embedding_space (the server is left to guess)."""

    def first_body(self, query: Query, declared: dict | None) -> dict:
        body = super().first_body(query, declared)
        body.pop("embedding_space", None)
        return body


class DropsSpaceOnNextPages(ReferenceAidreClient):
    """5.3: names the embedding space on the first page only; the next pages carry the
    query_vector without it."""

    def next_body(self, first: dict, cursor: str, member: str) -> dict:
        body = super().next_body(first, cursor, member)
        body.pop("embedding_space", None)
        return body


class SearchesWithGetBody(ReferenceAidreClient):
    """6.1: sends the search as a GET with the JSON body (Elasticsearch style)."""

    def method(self) -> str:
        return "GET"


class SearchesWithQueryMethod(ReferenceAidreClient):
    """6.1: sends the search with the safe QUERY method (draft-ietf-httpbis-safe-method-w-body)."""

    def method(self) -> str:
        return "QUERY"


class ContentTypeApplicationJson(ReferenceAidreClient):
    """14.1, 15.2: labels request bodies application/json."""

    def content_type(self) -> str:
        return "application/json"


class NoContentType(ReferenceAidreClient):
    """15.2, 14.1: sends request bodies without a Content-Type."""

    def search_headers(self, follow_up: bool) -> dict[str, str]:
        headers = super().search_headers(follow_up)
        del headers["Content-Type"]
        return headers


class ContentTypeJsonOnNextPages(ReferenceAidreClient):
    """14.1, 15.2: application/aidre+json on the first page, application/json on the next."""

    def search_headers(self, follow_up: bool) -> dict[str, str]:
        headers = super().search_headers(follow_up)
        if follow_up:
            headers["Content-Type"] = "application/json; charset=utf-8"
        return headers


class AcceptsApplicationJsonOnly(ReferenceAidreClient):
    """14.1, 15.2: Accept: application/json on every request."""

    def accept(self) -> str:
        return "application/json"


class AcceptsAidreWithQZero(ReferenceAidreClient):
    """15.2, 14.1: lists application/aidre+json in Accept, with q=0 (not acceptable)."""

    def accept(self) -> str:
        return f"{MEDIA};q=0, application/json"


class AcceptsAnythingForDiscovery(ReferenceAidreClient):
    """14.1, 15.2: the discovery request says Accept: */*; only searches list application/aidre+json."""

    def discovery_headers(self) -> dict[str, str]:
        return {"Accept": "*/*"}


def _cesu8(text: str) -> bytes:
    """CESU-8 (Java's "modified UTF-8" without its NUL rule): a character outside the BMP as
    its two UTF-16 surrogates, each encoded alone: not UTF-8."""
    out = bytearray()
    for ch in text:
        if ord(ch) > 0xFFFF:
            v = ord(ch) - 0x10000
            for unit in (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)):
                out += chr(unit).encode("utf-8", "surrogatepass")
        else:
            out += ch.encode("utf-8")
    return bytes(out)


class EncodesLatin1(ReferenceAidreClient):
    """14.2: encodes request bodies as ISO-8859-1 (characters outside it become '?')."""

    def encode(self, body: dict) -> bytes:
        return json.dumps(body, ensure_ascii=False).encode("latin-1", errors="replace")


class EncodesCesu8(ReferenceAidreClient):
    """14.2: encodes characters outside the BMP as CESU-8 surrogate pairs (not UTF-8)."""

    def encode(self, body: dict) -> bytes:
        return _cesu8(json.dumps(body, ensure_ascii=False))


VARIANTS = {
    "requires-srv-record": RequiresSrvRecord,
    "refuses-without-srv-confirmation": RefusesWithoutSrvConfirmation,
    "sends-empty-vector-with-text": SendsEmptyVectorWithText,
    "drops-query-on-next-pages": DropsQueryOnNextPages,
    "omits-embedding-space": OmitsEmbeddingSpace,
    "drops-space-on-next-pages": DropsSpaceOnNextPages,
    "searches-with-get-body": SearchesWithGetBody,
    "searches-with-query-method": SearchesWithQueryMethod,
    "content-type-application-json": ContentTypeApplicationJson,
    "no-content-type": NoContentType,
    "content-type-json-on-next-pages": ContentTypeJsonOnNextPages,
    "accepts-application-json-only": AcceptsApplicationJsonOnly,
    "accepts-aidre-with-q-zero": AcceptsAidreWithQZero,
    "accepts-anything-for-discovery": AcceptsAnythingForDiscovery,
    "encodes-latin-1": EncodesLatin1,
    "encodes-cesu-8": EncodesCesu8,
}
