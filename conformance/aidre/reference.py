"""The reference AIDRE server of draft-batum-aidre-00: a small, real retrieval service.

``fixtures/aidre/server.toml`` serves the discovery document and routes the collection,
search and chunk resources to the handlers here (``aidre.collections``, ``aidre.search``,
``aidre.chunk``: names in :data:`conformance.world.handlers.HANDLERS`). The content is
``fixtures/aidre/corpus.jsonl`` (a few hundred chunks of imaginary product documentation).

* Text queries: SQLite FTS5 (the standard library's ``sqlite3``), ranked by BM25; a
  result's score is ``-bm25`` (higher is better).
* Vector queries: numpy over two embedding spaces that the discovery document declares
  honestly, built by feature hashing (no model, no download; the same on every machine):
  ``adck:hash-64:cosine:v1`` (64 dimensions, cosine similarity, vectors normalised) and
  ``adck:hash-48:l2:v1`` (48 dimensions, Euclidean distance: lower is better, not normalised).
  :func:`embed` is public, so a test can compute the vector of any text in either space.
* ``top_k``: default and maximum documented in the discovery document's ``limits`` member
  (an extension member, AMB of the draft: it names no place to document them); above the
  maximum the value is clamped, as documented there.
* Pagination: an opaque cursor (an HMAC-sealed offset bound to the query) in
  ``meta.next_cursor``; the request names it in ``cursor``.
* Vectors only when ``return.vectors`` is true; ``semantic_payload`` is not supported and,
  as documented (``unsupported_return: "ignore"``), ignored.
* Errors are JSON objects ``{error, message, details, request_id}`` with the status codes
  of 15.4; the ``internal`` collection needs a bearer token (11.6).

A broken variant changes one setting of :class:`Options` through a route's ``options``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import json
import math
import re
import sqlite3
import threading
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

import numpy as np
from werkzeug import Request, Response

from conformance.document import loads
from conformance.resources import fixtures_dir
from conformance.world.handlers import request_body
from conformance.world.site import Route, Site, path_parameters

MEDIA = "application/aidre+json"
#: The embedding spaces the reference declares: id -> (dimensions, distance, normalised).
SPACES = {
    "adck:hash-64:cosine:v1": (64, "cosine", True),
    "adck:hash-48:l2:v1": (48, "l2", False),
}
#: The bearer token that opens the private collection (never a real secret).
INTERNAL_TOKEN = "adck-internal-reader"
_TOKEN = re.compile(r"[a-z0-9]+")
_SEAL = b"adck reference cursor key"
_ids = itertools.count(1)
_ids_lock = threading.Lock()


@dataclass(frozen=True)
class Options:
    """How the server behaves; the reference values conform, a broken variant changes one."""

    #: The distance the server really ranks vectors by: "declared" or a fixed one ("cosine", "dot", "l2").
    score_distance: str = "declared"
    #: "best-first", "worst-first" or "interleaved" (the order results are listed in).
    order: str = "best-first"
    #: Results a page shares with the previous page (0: disjoint pages).
    page_overlap: int = 0
    #: Vectors in results even when the request does not ask for them.
    vectors_by_default: bool = False
    #: Status of a query vector whose length differs from the space's dimensions.
    dimension_status: int = 422
    #: "clamp" (as documented) or "reject" a top_k above the maximum; "clamp-lower": clamp
    #: to fewer than the documented maximum.
    over_max: str = "clamp"
    #: Accept a top_k of 0 or below (answering with the default).
    accept_non_positive_top_k: bool = False
    #: Accept a body with both query and query_vector (the text one wins), or with neither.
    accept_both: bool = False
    accept_neither: bool = False
    #: Accept a vector query without embedding_space (the first space is assumed).
    accept_missing_space: bool = False
    #: Reject requests that carry members the server does not know.
    reject_unknown_members: bool = False
    #: Media types accepted for a search body.
    accepted_types: tuple = (MEDIA, "application/json")
    #: Content-Type of successful responses.
    success_type: str = MEDIA
    #: "json" errors as JSON objects; "text" as plain text.
    error_body: str = "json"
    #: Cap on results regardless of top_k (0: none): a server that answers fewer than asked.
    cap_results: int = 0
    #: Serve the private collection without authorization.
    open_private: bool = False
    #: Answer text queries (a server that supports only vectors answers 400).
    text_queries: bool = True

    @classmethod
    def of(cls, route: Route) -> "Options":
        known = {f.name for f in fields(cls)}
        unknown = set(route.options) - known
        if unknown:
            raise ValueError(f"unknown aidre options {sorted(unknown)}; known: {sorted(known)}")
        values = dict(route.options)
        if "accepted_types" in values:
            values["accepted_types"] = tuple(values["accepted_types"])
        return cls(**values)


# ---------------------------------------------------------------- the content and its index

def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def embed(text: str, space: str) -> list[float]:
    """The vector of ``text`` in one of the reference's embedding spaces (feature hashing:
    each word adds ±1 to one dimension picked by a hash; cosine space vectors are normalised)."""
    dims, distance, normalised = SPACES[space]
    vector = np.zeros(dims)
    for token in tokens(text):
        digest = hashlib.blake2b(f"{space}|{token}".encode(), digest_size=8).digest()
        index = int.from_bytes(digest[:4], "big") % dims
        vector[index] += 1.0 if digest[4] & 1 else -1.0
    if normalised:
        norm = float(np.linalg.norm(vector))
        vector = vector / norm if norm else vector
    return [float(x) for x in vector]


@dataclass(frozen=True)
class Corpus:
    chunks: tuple[dict, ...]
    by_id: dict
    matrices: dict  # space -> (ids, matrix)
    db: sqlite3.Connection


@cache
def corpus() -> Corpus:
    """The corpus, its FTS5 index and its vectors, built once per process."""
    lines = (fixtures_dir("aidre") / "corpus.jsonl").read_text("utf-8").splitlines()
    chunks = tuple(json.loads(line) for line in lines if line.strip())
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute("CREATE VIRTUAL TABLE chunks USING fts5(id UNINDEXED, collection UNINDEXED, text)")
    db.executemany("INSERT INTO chunks VALUES (?, ?, ?)", [(c["id"], c["collection"], c["text"]) for c in chunks])
    matrices = {}
    for space in SPACES:
        matrices[space] = np.array([embed(c["text"], space) for c in chunks])
    return Corpus(chunks=chunks, by_id={c["id"]: c for c in chunks}, matrices=matrices, db=db)


_db_lock = threading.Lock()


def text_search(query: str, collection: str) -> list[tuple[str, float]]:
    """(id, score) of chunks matching ``query`` by BM25, best first (score = -bm25)."""
    words = tokens(query)
    if not words:
        return []
    match = " OR ".join(f'"{w}"' for w in words)
    with _db_lock:
        rows = corpus().db.execute(
            "SELECT id, bm25(chunks) FROM chunks WHERE chunks MATCH ? AND collection = ? ORDER BY bm25(chunks), id",
            (match, collection)).fetchall()
    return [(cid, round(-float(score), 6)) for cid, score in rows]


def scores(vector: list[float], space: str, distance: str, collection: str) -> list[tuple[str, float]]:
    """(id, score) of every chunk of ``collection``, best first: cosine and dot similarity
    (higher is better), l2 distance (lower is better); ties broken by id."""
    data = corpus()
    matrix = data.matrices[space]
    q = np.array(vector, dtype=float)
    if distance == "cosine":
        norms = np.linalg.norm(matrix, axis=1) * (np.linalg.norm(q) or 1.0)
        values = (matrix @ q) / np.where(norms == 0, 1.0, norms)
    elif distance == "dot":
        values = matrix @ q
    else:
        values = np.linalg.norm(matrix - q, axis=1)
    ranked = [(c["id"], round(float(v), 9)) for c, v in zip(data.chunks, values) if c["collection"] == collection]
    lower_better = distance == "l2"
    return sorted(ranked, key=lambda p: (p[1] if lower_better else -p[1], p[0]))


# ---------------------------------------------------------------- HTTP

def _request_id() -> str:
    with _ids_lock:
        return f"req_{next(_ids):06d}"


def _json(status: int, value: Any, content_type: str = MEDIA) -> Response:
    response = Response(json.dumps(value, ensure_ascii=False).encode("utf-8"), status=status)
    response.headers["Content-Type"] = content_type
    return response


def error(options: Options, status: int, code: str, message: str, details: dict | None = None) -> Response:
    """An error response: a JSON object with error, message, details and request_id (17.1)."""
    if options.error_body == "text":
        response = Response(f"{code}: {message}\n".encode("utf-8"), status=status)
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
        return response
    body = {"error": code, "message": message, "details": details or {}, "request_id": _request_id()}
    return _json(status, body, MEDIA)


def _limits(site: Site) -> dict:
    limits = site.document.get("limits") if isinstance(site.document, dict) else None
    return limits if isinstance(limits, dict) else {"default_top_k": 5, "max_top_k": 50}


def _authorized(request: Request) -> bool:
    return request.headers.get("Authorization", "") == f"Bearer {INTERNAL_TOKEN}"


def collections(site: Site, route: Route, request: Request) -> Response:
    """GET /collections: every collection, with name, description, visibility, updated_at."""
    options = Options.of(route)
    if request.method not in ("GET", "HEAD"):
        response = error(options, 405, "invalid_request", "the collections resource answers GET")
        response.headers["Allow"] = "GET, HEAD"
        return response
    listed = [
        {"name": "docs", "description": "Northwind Cloud product documentation", "visibility": "public",
         "updated_at": "2026-03-29T09:00:00Z"},
    ]
    if _authorized(request) or options.open_private:
        listed.append({"name": "internal", "description": "Platform team runbooks", "visibility": "private",
                       "updated_at": "2026-03-20T09:00:00Z"})
    response = _json(200, {"collections": listed}, options.success_type)
    response.headers["Cache-Control"] = "max-age=300"
    return response


def chunk(site: Site, route: Route, request: Request) -> Response:
    """GET /chunks/{id}: one chunk, with its text, content_hash, updated_at and an ETag."""
    options = Options.of(route)
    if request.method not in ("GET", "HEAD"):
        response = error(options, 405, "invalid_request", "the chunk resource answers GET")
        response.headers["Allow"] = "GET, HEAD"
        return response
    cid = (path_parameters(route.path, request.path) or {}).get("id", "")
    found = corpus().by_id.get(cid)
    if found is None:
        return error(options, 404, "not_found", f"no chunk {cid!r}", {"id": cid})
    if found["visibility"] != "public" and not (_authorized(request) or options.open_private):
        return error(options, 401, "unauthorized", "this chunk's collection needs authorization")
    body = {"id": found["id"], "collection": found["collection"], "text": found["text"],
            "source": {"url": found["url"], "title": found["title"]},
            "metadata": {"updated_at": found["updated_at"], "canonical": True,
                         "visibility": found["visibility"], "content_hash": found["content_hash"]}}
    response = _json(200, body, options.success_type)
    response.headers["ETag"] = '"' + found["content_hash"].split(":")[1][:16] + '"'
    response.headers["Cache-Control"] = "max-age=300"
    return response


def _seal(payload: dict) -> str:
    raw = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    tag = hmac.new(_SEAL, raw, hashlib.sha256).digest()[:12]
    return base64.urlsafe_b64encode(raw + tag).decode().rstrip("=")


def _unseal(cursor: str) -> dict | None:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (ValueError, TypeError):
        return None
    body, tag = raw[:-12], raw[-12:]
    if not hmac.compare_digest(hmac.new(_SEAL, body, hashlib.sha256).digest()[:12], tag):
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


def search(site: Site, route: Route, request: Request) -> Response:
    """POST /search: a text or vector query (exactly one), top_k, cursor, return, collection."""
    options = Options.of(route)
    limits = _limits(site)
    if request.method != "POST":
        response = error(options, 405, "invalid_request", "search with POST (15.1)")
        response.headers["Allow"] = "POST"
        return response
    media = (request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
    if media not in options.accepted_types:
        return error(options, 415, "invalid_request", f"send the request as {MEDIA}, not {media or 'no Content-Type'}")
    raw = request_body(request)
    if raw is None:
        return error(options, 413, "invalid_request", "the request body is too large")
    try:
        body = loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return error(options, 400, "invalid_request", f"the body is not JSON: {exc}")
    if not isinstance(body, dict):
        return error(options, 400, "invalid_request", "the request must be a JSON object")
    known = {"query", "query_vector", "embedding_space", "collection", "top_k", "return", "cursor"}
    if options.reject_unknown_members and set(body) - known:
        return error(options, 400, "invalid_request", f"unknown members {sorted(set(body) - known)}")
    has_text, has_vector = "query" in body, "query_vector" in body
    if has_text and has_vector and not options.accept_both:
        return error(options, 400, "invalid_request", "send exactly one of query and query_vector (5.1)")
    if not has_text and not has_vector and not options.accept_neither:
        return error(options, 400, "invalid_request", "send exactly one of query and query_vector (5.1)")
    collection = body.get("collection", "docs")
    if collection not in ("docs", "internal"):
        return error(options, 404, "not_found", f"no collection {collection!r}", {"collection": collection})
    if collection == "internal" and not (_authorized(request) or options.open_private):
        return error(options, 401, "unauthorized", "the internal collection needs authorization")
    top_k = body.get("top_k", limits["default_top_k"])
    if not isinstance(top_k, int) or isinstance(top_k, bool):
        return error(options, 400, "invalid_request", "top_k must be a positive integer (18.1)")
    if top_k <= 0:
        if not options.accept_non_positive_top_k:
            return error(options, 400, "invalid_request", "top_k must be positive (18.1)", {"top_k": top_k})
        top_k = limits["default_top_k"]
    maximum = limits["max_top_k"]
    if top_k > maximum:
        if options.over_max == "reject":
            return error(options, 400, "invalid_request", f"top_k is at most {maximum}", {"max_top_k": maximum})
        top_k = maximum if options.over_max == "clamp" else max(maximum // 2, 1)
    wanted = body.get("return") if isinstance(body.get("return"), dict) else {}
    if has_text and (not has_vector or options.accept_both):
        query = body["query"]
        if not isinstance(query, str) or not query.strip():
            return error(options, 400, "invalid_request", "query must be a non-empty string")
        if not options.text_queries:
            return error(options, 400, "invalid_request", "text queries are not supported")
        ranked = text_search(query, collection)
        key: Any = ["text", query]
        space = None
    elif has_vector:
        space = body.get("embedding_space")
        if space is None:
            if not options.accept_missing_space:
                return error(options, 400, "invalid_request", "a query_vector needs embedding_space (5.3)")
            space = next(iter(SPACES))
        if space not in SPACES:
            return error(options, 422, "unsupported_embedding_space", "the requested embedding space is not supported",
                         {"embedding_space": space})
        vector = body["query_vector"]
        if not isinstance(vector, list) or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                   and math.isfinite(x) for x in vector):
            return error(options, 400, "invalid_request", "query_vector must be an array of numbers")
        dims, distance, _ = SPACES[space]
        if len(vector) != dims:
            return error(options, options.dimension_status, "invalid_embedding_dimension",
                         f"the supplied query vector has length {len(vector)}, but the embedding space requires {dims}",
                         {"embedding_space": space, "expected_dimensions": dims, "actual_dimensions": len(vector)})
        used = distance if options.score_distance == "declared" else options.score_distance
        ranked = scores(vector, space, used, collection)
        key = ["vector", space, hashlib.sha256(json.dumps(vector).encode()).hexdigest()[:16]]
    else:  # neither, accepted by a broken variant
        ranked, key, space = text_search("northwind", collection), ["none"], None
    offset = 0
    if "cursor" in body:
        sealed = _unseal(body["cursor"]) if isinstance(body["cursor"], str) else None
        if sealed is None or sealed.get("key") != key:
            return error(options, 400, "invalid_request", "the cursor is not one this server issued for this query")
        offset = int(sealed["offset"])
    start = max(offset - options.page_overlap, 0) if offset else 0
    page = ranked[start:start + top_k]
    if options.cap_results:
        page = page[:options.cap_results]
    if options.order == "worst-first":
        page = list(reversed(page))
    elif options.order == "interleaved" and len(page) > 2:
        page = page[1::2] + page[0::2]
    results = []
    for cid, score in page:
        found = corpus().by_id[cid]
        result: dict[str, Any] = {"id": cid, "score": score}
        if wanted.get("metadata", True):
            result["metadata"] = {"updated_at": found["updated_at"], "canonical": True,
                                  "visibility": found["visibility"], "content_hash": found["content_hash"]}
        if wanted.get("text"):
            result["text"] = found["text"]
        if wanted.get("vectors") or options.vectors_by_default:
            vector_space = space or next(iter(SPACES))
            result["vector"] = embed(found["text"], vector_space)
        results.append(result)
    meta: dict[str, Any] = {"returned": len(results), "top_k": top_k}
    if start + top_k < len(ranked):
        meta["next_cursor"] = _seal({"key": key, "offset": start + top_k})
    response = _json(200, {"request_id": _request_id(), "collection": collection, "results": results, "meta": meta},
                     options.success_type)
    response.headers["RateLimit-Limit"] = "1000"
    response.headers["RateLimit-Remaining"] = "999"
    response.headers["RateLimit-Reset"] = "60"
    return response
