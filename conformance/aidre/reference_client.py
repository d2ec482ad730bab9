"""The reference AIDRE client of draft-batum-aidre-00, usable as a library.

    client = ReferenceAidreClient(HttpConfig(ca_bundle=..., connect_to=...))
    found = client.search("https://docs.example", Query(text="sso setup", pages=2))
    found.outcome   # "results" | "none" | "error"
    found.results   # [{"id": ..., "score": ...}], best first

It discovers the origin's AIDRE service at ``/.well-known/ai-discovery`` (3.1; no DNS SRV
lookup, 3.3), sends the search to ``endpoints.search`` with POST (6.1), a body of
``application/aidre+json`` in UTF-8 (14.1, 14.2, 15.2) holding exactly one of ``query`` and
``query_vector`` (5.1), the latter with its ``embedding_space`` (5.3) and normalised when the
space declares ``normalized: true`` (19.4); it follows ``meta.next_cursor`` for as many pages as
asked, sending each cursor back unchanged in the request member ``cursor`` (18.2; the draft
names none: AMB-50), ignores members it does not know
(20.3, 23.2), and ranks vector results by the distance the space declares, never assuming
cosine (19.3). It sends no request the draft does not describe.

Each decision is one small method, so that a broken variant
(``conformance.aidre.variants``) overrides exactly one of them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import urljoin, urlsplit

from conformance.fetch import Fetch, Fetcher, HttpConfig

MEDIA = "application/aidre+json"
WELL_KNOWN = "/.well-known/ai-discovery"
#: AIDRE answers are small; a client need not read more.
MAX_BODY = 1024 * 1024
#: Distances whose better results have the higher score, and those whose have the lower.
HIGHER_IS_BETTER = {"cosine", "dot", "dot_product", "inner_product", "ip"}
LOWER_IS_BETTER = {"l2", "euclidean", "euclidean_distance", "l2_distance"}

Outcome = Literal["results", "none", "error"]


@dataclass(frozen=True)
class Query:
    """What the user asks: a text or a vector (of a named embedding space), how many results
    per page, how many pages at most."""

    text: str | None = None
    vector: list[float] | None = None
    space: str | None = None
    collection: str | None = None
    top_k: int | None = None
    pages: int = 1


@dataclass
class Found:
    """What the client concluded (the harness reply's content)."""

    outcome: Outcome
    results: list[dict] = field(default_factory=list)
    cursors: list[str] = field(default_factory=list)
    error_kind: str | None = None
    messages: list[str] = field(default_factory=list)


class Refused(Exception):
    """The client stops: ``kind`` is its short name for why (the reply's ``error_kind``)."""

    def __init__(self, kind: str, message: str, outcome: Outcome = "error") -> None:
        super().__init__(message)
        self.kind, self.outcome = kind, outcome


class ReferenceAidreClient:
    """Discovers an AIDRE service and searches it the way the draft asks a client to."""

    #: What it says it can do (the harness hello's ``features``): send vector queries, follow cursors.
    features: tuple[str, ...] = ("aidre.vector", "aidre.pagination")

    def __init__(self, http: HttpConfig) -> None:
        self.http = replace(http, limits=replace(http.limits, max_body_bytes=MAX_BODY))
        self.fetcher = Fetcher(self.http)

    # ------------------------------------------------------------------ the whole search

    def search(self, authority: str, query: Query) -> Found:
        results: list[dict] = []
        cursors: list[str] = []
        try:
            document, base = self.discover(authority)
            url = self.search_endpoint(document, base)
            declared = self.space(document, query.space) if query.vector is not None else None
            first = self.first_body(query, declared)
            member = self.cursor_member(document)
            body = first
            for page in range(max(query.pages, 1)):
                value = self.read_page(self.post(url, body, follow_up=page > 0))
                results.extend(self.entry(item) for item in self.results_of(value))
                cursor = self.next_cursor(value)
                if cursor is None or page == max(query.pages, 1) - 1:
                    break
                cursors.append(cursor)
                body = self.next_body(first, cursor, member)
        except Refused as why:
            return Found(why.outcome, results=self.rank(results, None), cursors=cursors, error_kind=why.kind,
                         messages=[str(why)])
        return Found("results", results=self.rank(results, declared), cursors=cursors)

    # ------------------------------------------------------------------ discovery (3)

    def discovery_url(self, authority: str) -> str:
        """3.1: https://<origin>/.well-known/ai-discovery; the name alone, no DNS SRV (3.3)."""
        host = urlsplit(authority if "//" in authority else f"https://{authority}").netloc
        return f"https://{host}{WELL_KNOWN}"

    def accept(self) -> str:
        """14.1, 15.2: Accept lists application/aidre+json (and JSON, as 24.1 does)."""
        return f"{MEDIA}, application/json;q=0.9"

    def discovery_headers(self) -> dict[str, str]:
        return {"Accept": self.accept()}

    def discover(self, authority: str) -> tuple[dict, str]:
        """The discovery document (a JSON object with a version member) and its URL."""
        url = self.discovery_url(authority)
        fetch = self.fetcher.fetch(url, headers=self.discovery_headers())
        value = self.json_of(fetch, "discovery")
        if not isinstance(value, dict) or "version" not in value:
            raise Refused("no-discovery-document", f"{url} holds no AIDRE discovery document", "none")
        return value, fetch.final_url

    def json_of(self, fetch: Fetch, what: str) -> Any:
        """The JSON value of a successful answer, or :class:`Refused`."""
        final = fetch.final
        if final is None or fetch.error:
            raise Refused(fetch.error_kind or "transport", f"{what}: {fetch.describe_error()}")
        try:
            value = json.loads(final.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise Refused("invalid-json", f"{what}: {final.status}, not JSON: {exc}") from None
        if not 200 <= final.status < 300:
            code = value.get("error") if isinstance(value, dict) else None
            raise Refused(f"http-{final.status}", f"{what}: {final.status} {code or final.reason}")
        return value

    def search_endpoint(self, document: dict, base: str) -> str:
        endpoints = document.get("endpoints")
        search = endpoints.get("search") if isinstance(endpoints, dict) else None
        if not isinstance(search, str) or not search:
            raise Refused("no-search-endpoint", "the discovery document names no search endpoint", "none")
        return urljoin(base, search)

    def space(self, document: dict, space_id: str | None) -> dict:
        """19.1: the declaration of the embedding space the vector belongs to."""
        for item in document.get("embedding_spaces") or []:
            if isinstance(item, dict) and item.get("id") == space_id:
                return item
        raise Refused("unsupported-embedding-space", f"the server does not declare the embedding space {space_id!r}")

    def cursor_member(self, document: dict) -> str:
        """18.2: the request member that carries a cursor back. The draft names none (AMB-08,
        AMB-50): ``cursor``, the member name of its examples; the client reads no member of the
        discovery document the draft does not define."""
        return "cursor"

    # ------------------------------------------------------------------ the request (5, 6, 14, 15, 19)

    def normalise(self, vector: list[float]) -> list[float]:
        norm = math.sqrt(math.fsum(x * x for x in vector))
        return [x / norm for x in vector] if norm else list(vector)

    def query_vector(self, vector: list[float], declared: dict) -> list[float]:
        """19.4: normalised when the space declares normalized=true, else as the user gave it."""
        return self.normalise(vector) if declared.get("normalized") is True else list(vector)

    def first_body(self, query: Query, declared: dict | None) -> dict:
        """5.1: exactly one of query and query_vector; 5.3: embedding_space with a vector."""
        body: dict[str, Any]
        if query.vector is not None and declared is not None:
            body = {"query_vector": self.query_vector(query.vector, declared), "embedding_space": declared["id"]}
        else:
            body = {"query": query.text or ""}
        if query.collection is not None:
            body["collection"] = query.collection
        if query.top_k is not None:
            body["top_k"] = query.top_k
        return body

    def next_body(self, first: dict, cursor: str, member: str) -> dict:
        """18.2: the same request, with the cursor as received."""
        return {**first, member: cursor}

    def method(self) -> str:
        """6.1: POST."""
        return "POST"

    def content_type(self) -> str:
        return MEDIA

    def search_headers(self, follow_up: bool) -> dict[str, str]:
        """14.1, 15.2: Content-Type application/aidre+json, Accept listing it."""
        return {"Accept": self.accept(), "Content-Type": self.content_type()}

    def encode(self, body: dict) -> bytes:
        """14.2: UTF-8."""
        return json.dumps(body, ensure_ascii=False).encode("utf-8")

    def post(self, url: str, body: dict, follow_up: bool = False) -> Fetch:
        return self.fetcher.fetch(url, method=self.method(), headers=self.search_headers(follow_up),
                                  content=self.encode(body))

    # ------------------------------------------------------------------ the response (7, 16, 18, 20)

    def read_page(self, fetch: Fetch) -> dict:
        value = self.json_of(fetch, "search")
        if not isinstance(value, dict) or not isinstance(value.get("results"), list):
            raise Refused("no-results", "the search answer has no results array")
        return value

    def results_of(self, value: dict) -> list[dict]:
        """7.1: the results; members the client does not know are ignored (20.3)."""
        return [item for item in value["results"] if isinstance(item, dict) and isinstance(item.get("id"), str)]

    def next_cursor(self, value: dict) -> str | None:
        meta = value.get("meta")
        cursor = meta.get("next_cursor") if isinstance(meta, dict) else None
        return cursor if isinstance(cursor, str) else None

    def entry(self, item: dict) -> dict:
        score = item.get("score")
        ok = isinstance(score, (int, float)) and not isinstance(score, bool)
        return {"id": item["id"], "score": score if ok else None}

    def better(self, declared: dict | None) -> str | None:
        """19.3: "higher" or "lower" scores are better, by the declared distance; None when the
        client cannot tell (a text query, an unknown distance): then it keeps the server's order."""
        distance = str(declared.get("distance", "")).lower() if declared else ""
        return "higher" if distance in HIGHER_IS_BETTER else "lower" if distance in LOWER_IS_BETTER else None

    def rank(self, results: list[dict], declared: dict | None) -> list[dict]:
        """The results, best first: merged pages ordered by the declared distance (stable)."""
        direction = self.better(declared)
        if direction is None or any(r["score"] is None for r in results):
            return list(results)
        return sorted(results, key=lambda r: r["score"] if direction == "lower" else -r["score"])
