"""The reference AIDRE server of draft-batum-aidre-00: a small, real retrieval service.

``fixtures/aidre/server.toml`` serves the discovery document and routes the collection,
search and chunk resources to the handlers here (``aidre.collections``, ``aidre.search``,
``aidre.chunk``: names in :func:`conformance.world.handlers.handlers`). The content is
``fixtures/aidre/corpus.jsonl`` (a few hundred chunks of imaginary product documentation).

* Text queries: SQLite FTS5 (the standard library's ``sqlite3``), ranked by BM25; a
  result's score is ``-bm25`` (higher is better).
* Vector queries: numpy over two embedding spaces that the discovery document declares
  honestly, built by feature hashing (no model, no download; the same on every machine):
  ``adck:hash-64:cosine:v1`` (64 dimensions, cosine similarity, vectors normalised) and
  ``adck:hash-48:l2:v1`` (48 dimensions, Euclidean distance: lower is better, not normalised).
  :func:`embed` is public, so a test can compute the vector of any text in either space.
* ``top_k``: default and maximum documented in the discovery document's ``x_adck_limits``
  member (an extension member, named as 23.3 advises, so as not to collide with a member a
  later revision may define: the draft names no place to document them, AMB-15, AMB-29);
  above the maximum the value is clamped, as documented there.
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
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any

import numpy as np
from werkzeug import Request, Response

from conformance.document import loads
from conformance.resources import fixtures_dir
from conformance.world.handlers import request_body
from conformance.world.site import Reference, Route, Site, path_parameters

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

    # -- search semantics
    #: The distance the server really ranks vectors by: "declared" or a fixed one ("cosine", "dot", "l2").
    score_distance: str = "declared"
    #: Scale each query vector to unit length on receipt (19.4: a server MAY, documenting it).
    normalize_queries: bool = False
    #: "best-first", "worst-first" or "interleaved" (the order results are listed in).
    order: str = "best-first"
    #: Results a page shares with the previous page (0: disjoint pages).
    page_overlap: int = 0
    #: Results added beyond top_k (a server that returns more than asked), when the top_k asked
    #: for is below ``extra_below``.
    extra_results: int = 0
    extra_below: int = 1_000_000_000
    #: Ignore top_k and answer the default number of results.
    ignore_top_k: bool = False
    #: Reject a search without top_k.
    require_top_k: bool = False
    #: meta.top_k of a search without top_k reports this many instead of the default applied (0: the truth).
    meta_default_top_k: int = 0
    #: Status for a top_k of 0 or below: 400 (reject), 200 (accept, answering the default), 500.
    non_positive_status: int = 400
    #: Accept a top_k of 0 (only 0) with the default.
    accept_zero_top_k: bool = False
    #: Above the maximum: "clamp" (as documented), "reject", "reject-text" (400 with a plain-text
    #: body), "unclamped" (answers it whole while meta.top_k says the maximum), "alternate"
    #: (clamps, then rejects the same request), "500", "default" (answers the default number of
    #: results instead of the maximum).
    over_max: str = "clamp"
    #: The default and maximum top_k the server enforces, where they differ from what its
    #: discovery document's x_adck_limits member documents (0: as documented).
    default_top_k: int = 0
    max_top_k: int = 0
    #: Status of a text query (200 supports them; 400/422 refuse them).
    text_status: int = 200
    #: Status of a vector query of the right length (200 supports them; 400/501 refuse them).
    vector_status: int = 200
    #: A text-only server (5.3's SHOULD not met): every body holding query_vector is refused
    #: with this status (400, 501), whatever else it holds, before it is read further (0: vector
    #: queries are served). Its discovery document says so by a variant's patch.
    vector_refused_status: int = 0
    #: Status of a query vector whose length differs from the space's dimensions.
    dimension_status: int = 422
    #: Status of an empty query_vector, where it differs from ``dimension_status`` (0): 400 (a
    #: malformed vector, 15.4's 400 row; 19.2's 422 applies too), or 200 (searched as a vector of zeros).
    empty_vector_status: int = 0
    #: Vectors longer than the space are cut, shorter ones padded, instead of refused.
    truncate_long_vectors: bool = False
    pad_short_vectors: bool = False
    #: Accept a body with both query and query_vector (the text one wins), or with neither.
    accept_both: bool = False
    accept_neither: bool = False
    #: Status of the refusal of a body with both query and query_vector, or neither (5.1).
    exactly_one_status: int = 400
    #: Accept a vector query without embedding_space (the first space is assumed).
    accept_missing_space: bool = False
    #: Read a query that is not a string as its JSON text.
    coerce_query: bool = False
    #: Unknown request members: "ignore", "reject", or "empty" (treated as a filter nothing matches).
    unknown_members: str = "ignore"
    #: An unsupported return field: "ignore" (as documented), "reject" (error object), "500", "text".
    unknown_return: str = "ignore"
    # -- what results and responses carry
    #: Vectors in results even when the request does not ask: "" (never), "vector", "metadata.embedding".
    vectors_by_default: str = ""
    #: Members dropped from every result's metadata (content_hash, updated_at).
    result_remove: tuple = ()
    #: Members dropped from chunk resources (content_hash, updated_at).
    chunk_remove: tuple = ()
    #: Members dropped from successful search responses (request_id, collection, meta); with
    #: ``response_remove_on = "vector"`` only from vector searches.
    response_remove: tuple = ()
    response_remove_on: str = "all"
    #: The member holding the results ("results"), or "object" for an object instead of an array.
    results_member: str = "results"
    #: Request ids: "unique", "fixed" (the same for every response), "per-body" (a hash of the body).
    request_ids: str = "unique"
    #: Request ids left out of error bodies.
    no_error_request_id: bool = False
    #: Members left out of error objects (error, message, details).
    error_remove: tuple = ()
    # -- media types and statuses
    #: Media types accepted for a search body.
    accepted_types: tuple = (MEDIA, "application/json")
    #: Content-Type of successful responses; of error responses.
    success_type: str = MEDIA
    error_type: str = MEDIA
    #: Answer application/json when the request's Accept lists it: "" (never), "search", "chunk".
    json_when_accepted: str = ""
    #: Status of a successful search and of a successful chunk answer.
    success_status: int = 200
    chunk_status_ok: int = 200
    #: "json" errors as JSON objects; "text" as plain text; "array" as a JSON array.
    error_body: str = "json"
    #: Error values: "stable" (the suggested ones), "prose" (not machine-readable), "random"
    #: (differ between identical requests), "other" (a vocabulary of its own: bad_vector,
    #: missing, ...), "kebab" (the suggested names spelled with hyphens), "numeric" (integer
    #: codes), "swapped" (invalid_embedding_dimension and unsupported_embedding_space each used
    #: for the other's error), "internal" (every 4xx error named internal_error);
    #: ``error_values_for`` limits the change to one value (say, invalid_request).
    error_values: str = "stable"
    error_values_for: str = ""
    #: Status of a body that is not JSON; of a Content-Type the server does not take.
    bad_json_status: int = 400
    bad_type_status: int = 415
    #: Status of a request without the credentials a protected collection needs.
    unauthorized_status: int = 401
    #: Status of an unknown chunk id; of an unknown collection (200: searched like any other,
    #: a successful search with no results).
    unknown_chunk_status: int = 404
    unknown_collection_status: int = 404
    #: Method status of the collections, search and chunk resources (200: supported; 405/501).
    collections_method_status: int = 200
    search_method_status: int = 200
    chunk_method_status: int = 200
    #: The chunk resource answers this body: "json" (the chunk), "text".
    chunk_body: str = "json"
    #: The chunk resource knows no chunk at all (404 for every id).
    chunks_missing: bool = False
    #: No ETag on chunk answers; on the collections answer.
    chunk_etag: bool = True
    collections_etag: bool = True
    #: Members dropped from every listed collection; "faq" drops them from that one only.
    collection_remove: tuple = ()
    collection_remove_from: str = "all"
    #: Values replacing collection members (a name that is "", a description that is a number).
    collection_set: dict = field(default_factory=dict)
    # -- access control
    #: Serve the private collection without authorization: "" (never), "all", or "vector"
    #: (vector searches only); its chunks too when it does.
    open_private: str = ""
    #: A collection whose searches are over their rate limit (every one refused, with this status).
    limited_collection: str = ""
    limited_status: int = 429
    # -- character encoding
    #: The codec of every JSON body ("utf-8"; "latin-1", "utf-16": a deployment whose texts
    #: carry its brand, " \u00b7 Northwind Cloud", come out in that encoding) and the charset
    #: parameter its Content-Type names ("": none). Either set adds the brand to error
    #: messages, collection descriptions and titles (results carry a source title then, as in 24.2).
    body_encoding: str = "utf-8"
    body_charset: str = ""
    # -- rate limit fields
    #: RateLimit fields sent: "all" (Limit, Remaining, Reset), "limit-only", "text-only" (on text searches only).
    rate_limit_fields: str = "all"

    @classmethod
    def of(cls, route: Route) -> "Options":
        known = {f.name for f in fields(cls)}
        unknown = set(route.options) - known
        if unknown:
            raise ValueError(f"unknown aidre options {sorted(unknown)}; known: {sorted(known)}")
        values = dict(route.options)
        for name in ("accepted_types", "result_remove", "chunk_remove", "response_remove", "collection_remove",
                     "error_remove"):
            if name in values:
                values[name] = tuple(values[name])
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

#: Error values the reference uses (17.3), and what a variant with ``error_values = "other"`` uses.
_OTHER_VALUE = {"invalid_embedding_dimension": "bad_vector", "not_found": "missing",
                "unsupported_embedding_space": "unknown_space", "invalid_request": "bad_request",
                "unauthorized": "denied", "unsupported_return_field": "bad_return"}
#: Integer codes of a variant with ``error_values = "numeric"``.
_NUMERIC_VALUE = {"invalid_request": 40000, "not_found": 40400, "unauthorized": 40100,
                  "unsupported_embedding_space": 42201, "invalid_embedding_dimension": 42202,
                  "unsupported_return_field": 40001, "rate_limited": 42900, "internal_error": 50000}
#: Each value used for the other's error (``error_values = "swapped"``).
_SWAPPED_VALUE = {"invalid_embedding_dimension": "unsupported_embedding_space",
                  "unsupported_embedding_space": "invalid_embedding_dimension"}


def _request_id(options: Options, body: bytes = b"") -> str:
    if options.request_ids == "fixed":
        return "req_000001"
    if options.request_ids == "per-body":
        return "req_" + hashlib.sha256(body).hexdigest()[:6]
    with _ids_lock:
        return f"req_{next(_ids):06d}"


#: What a variant that serves another encoding (Options.body_encoding) adds to its texts.
BRAND = " \u00b7 Northwind Cloud"


def _branded(options: Options | None) -> bool:
    return options is not None and (options.body_encoding != "utf-8" or bool(options.body_charset))


def _json(status: int, value: Any, content_type: str = MEDIA, options: Options | None = None) -> Response:
    """A JSON body (in ``options.body_encoding``); ``content_type`` "" sends no Content-Type at all."""
    encoding = options.body_encoding if options is not None else "utf-8"
    response = Response(json.dumps(value, ensure_ascii=False).encode(encoding), status=status)
    if content_type:
        charset = options.body_charset if options is not None else ""
        response.headers["Content-Type"] = content_type + (f"; charset={charset}" if charset else "")
    else:
        del response.headers["Content-Type"]
    return response


def _success_type(options: Options, request: Request, resource: str) -> str:
    if options.json_when_accepted == resource and "application/json" in request.headers.get("Accept", ""):
        return "application/json"
    return options.success_type


def error(options: Options, status: int, code: str, message: str, details: dict | None = None,
          body: bytes = b"") -> Response:
    """An error response: a JSON object with error, message, details and request_id (17.1)."""
    transform = not options.error_values_for or options.error_values_for == code
    if not transform:
        pass
    elif options.error_values == "prose":
        code = code.replace("_", " ").capitalize() + "!"
    elif options.error_values == "random":
        with _ids_lock:
            code = f"{code}_{next(_ids)}"
    elif options.error_values == "other":
        code = _OTHER_VALUE.get(code, code)
    elif options.error_values == "kebab":
        code = code.replace("_", "-")
    elif options.error_values == "numeric":
        code = _NUMERIC_VALUE.get(code, 40000)
    elif options.error_values == "swapped":
        code = _SWAPPED_VALUE.get(code, code)
    elif options.error_values == "internal" and 400 <= status < 500:
        code = "internal_error"
    if _branded(options):
        message += BRAND
    if options.error_body == "text":
        response = Response(f"{code}: {message}\n".encode("utf-8"), status=status)
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
        return response
    value: Any = {"error": code, "message": message, "details": details or {}}
    if not options.no_error_request_id:
        value["request_id"] = _request_id(options, body)
    value = {k: v for k, v in value.items() if k not in options.error_remove}
    if options.error_body == "array":
        value = [value]
    return _json(status, value, options.error_type, options)


def _limits(site: Site) -> dict:
    limits = site.document.get("x_adck_limits") if isinstance(site.document, dict) else None
    return limits if isinstance(limits, dict) else {"default_top_k": 5, "max_top_k": 50}


def _authorized(request: Request) -> bool:
    return request.headers.get("Authorization", "") == f"Bearer {INTERNAL_TOKEN}"


def _method_refused(options: Options, status: int, allowed: str) -> Response | None:
    if status in (405, 501):
        response = error(options, status, "invalid_request", "this resource does not answer this method")
        if status == 405:
            response.headers["Allow"] = allowed
        return response
    return None


#: The collections the reference serves: name -> (description, visibility, updated_at).
COLLECTIONS = {
    "docs": ("Northwind Cloud product documentation", "public", "2026-03-29T09:00:00Z"),
    "faq": ("Short answers to frequent questions", "public", "2026-03-25T09:00:00Z"),
    "internal": ("Platform team runbooks", "private", "2026-03-20T09:00:00Z"),
}


def collections(site: Site, route: Route, request: Request) -> Response:
    """GET /collections: every collection, with name, description, visibility, updated_at;
    the private one is listed too (its content needs authorization, 11.6)."""
    options = Options.of(route)
    if request.method not in ("GET", "HEAD"):
        response = error(options, 405, "invalid_request", "the collections resource answers GET")
        response.headers["Allow"] = "GET, HEAD"
        return response
    refused = _method_refused(options, options.collections_method_status, "")
    if refused is not None:
        return refused
    listed = []
    for name, (description, visibility, updated) in COLLECTIONS.items():
        item: dict[str, Any] = {"name": name, "description": description + (BRAND if _branded(options) else ""),
                                "visibility": visibility, "updated_at": updated}
        if options.collection_remove_from in ("all", name):
            item = {k: v for k, v in item.items() if k not in options.collection_remove}
            item.update(options.collection_set)
        listed.append(item)
    response = _json(200, {"collections": listed}, _success_type(options, request, "collections"), options)
    response.headers["Cache-Control"] = "max-age=300"
    if options.collections_etag:
        response.headers["ETag"] = '"collections-v1"'
    return response


def chunk(site: Site, route: Route, request: Request) -> Response:
    """GET /chunks/{id}: one chunk, with its text, content_hash, updated_at and an ETag."""
    options = Options.of(route)
    if request.method not in ("GET", "HEAD"):
        response = error(options, 405, "invalid_request", "the chunk resource answers GET")
        response.headers["Allow"] = "GET, HEAD"
        return response
    refused = _method_refused(options, options.chunk_method_status, "")
    if refused is not None:
        return refused
    cid = (path_parameters(route.path, request.path) or {}).get("id", "")
    found = None if options.chunks_missing else corpus().by_id.get(cid)
    if found is None:
        return error(options, options.unknown_chunk_status, "not_found", f"no chunk {cid!r}", {"id": cid})
    if found["visibility"] != "public" and not (_authorized(request) or options.open_private):
        return error(options, options.unauthorized_status, "unauthorized", "this chunk's collection needs authorization")
    metadata = {"updated_at": found["updated_at"], "canonical": True,
                "visibility": found["visibility"], "content_hash": found["content_hash"]}
    metadata = {k: v for k, v in metadata.items() if k not in options.chunk_remove}
    title = found["title"] + (BRAND if _branded(options) else "")
    body = {"id": found["id"], "collection": found["collection"], "text": found["text"],
            "source": {"url": found["url"], "title": title}, "metadata": metadata}
    if options.chunk_body == "text":
        response = Response(found["text"].encode("utf-8"), status=options.chunk_status_ok)
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
    else:
        response = _json(options.chunk_status_ok, body, _success_type(options, request, "chunk"), options)
    if options.chunk_etag:
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


_alternate = itertools.count()


def search(site: Site, route: Route, request: Request) -> Response:
    """POST /search: a text or vector query (exactly one), top_k, cursor, return, collection."""
    options = Options.of(route)
    limits = _limits(site)
    # what the server enforces, where a variant's differs from what its document says
    limits = limits | {k: v for k, v in (("default_top_k", options.default_top_k), ("max_top_k", options.max_top_k)) if v}
    if request.method != "POST":
        response = error(options, 405, "invalid_request", "search with POST (15.1)")
        response.headers["Allow"] = "POST"
        return response
    refused = _method_refused(options, options.search_method_status, "")
    if refused is not None:
        return refused
    raw = request_body(request)
    if raw is None:
        return error(options, 413, "invalid_request", "the request body is too large")

    def fail(status: int, code: str, message: str, details: dict | None = None) -> Response:
        return error(options, status, code, message, details, raw or b"")

    media = (request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
    if media not in options.accepted_types:
        return fail(options.bad_type_status, "invalid_request",
                    f"send the request as {MEDIA}, not {media or 'no Content-Type'}")
    try:
        body = loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return fail(options.bad_json_status, "invalid_request", f"the body is not JSON: {exc}")
    if not isinstance(body, dict):
        return fail(400, "invalid_request", "the request must be a JSON object")
    known = {"query", "query_vector", "embedding_space", "collection", "top_k", "return", "cursor"}
    unknown = sorted(set(body) - known)
    if unknown and options.unknown_members == "reject":
        return fail(400, "invalid_request", f"unknown members {unknown}")
    has_text, has_vector = "query" in body, "query_vector" in body
    if has_vector and options.vector_refused_status:
        return fail(options.vector_refused_status, "invalid_request", "this server answers text queries only")
    if has_text and has_vector and not options.accept_both:
        return fail(options.exactly_one_status, "invalid_request", "send exactly one of query and query_vector (5.1)")
    if not has_text and not has_vector and not options.accept_neither:
        return fail(options.exactly_one_status, "invalid_request", "send exactly one of query and query_vector (5.1)")
    collection = body.get("collection", "docs")
    unknown_collection = not isinstance(collection, str) or collection not in COLLECTIONS
    if unknown_collection and not (options.unknown_collection_status == 200 and isinstance(collection, str)):
        return fail(options.unknown_collection_status, "not_found", f"no collection {collection!r}",
                    {"collection": collection})
    if collection == options.limited_collection:
        response = fail(options.limited_status, "rate_limited", f"searches of {collection!r} are over their rate limit")
        response.headers["RateLimit-Limit"] = "0"
        response.headers["RateLimit-Remaining"] = "0"
        response.headers["RateLimit-Reset"] = "60"
        if options.limited_status == 429:
            response.headers["Retry-After"] = "60"
        return response
    opened = options.open_private == "all" or (options.open_private == "vector" and "query_vector" in body)
    if not unknown_collection and COLLECTIONS[collection][1] != "public" and not (_authorized(request) or opened):
        return fail(options.unauthorized_status, "unauthorized", "this collection needs authorization")
    wanted = body.get("return") if isinstance(body.get("return"), dict) else {}
    supported_return = {"ids", "metadata", "text", "vectors", "semantic_payload"}
    odd = sorted(k for k, v in wanted.items() if k not in supported_return and v)
    if odd and options.unknown_return == "reject":
        return fail(400, "unsupported_return_field", f"unsupported return fields {odd}", {"fields": odd})
    if odd and options.unknown_return == "500":
        return fail(500, "internal_error", "the server failed")
    if odd and options.unknown_return == "200-error":
        return _json(200, {"error": "unsupported_return_field", "fields": odd}, options.success_type, options)
    if "top_k" not in body and options.require_top_k:
        return fail(400, "invalid_request", "top_k is required")
    top_k = body.get("top_k", limits["default_top_k"])
    if not isinstance(top_k, int) or isinstance(top_k, bool):
        return fail(400, "invalid_request", "top_k must be a positive integer (18.1)")
    if top_k <= 0:
        if options.accept_zero_top_k and top_k == 0:
            top_k = limits["default_top_k"]
        elif options.non_positive_status == 200:
            top_k = limits["default_top_k"]
        else:
            return fail(options.non_positive_status, "invalid_request", "top_k must be positive (18.1)", {"top_k": top_k})
    maximum = limits["max_top_k"]
    reported_top_k = None
    if top_k > maximum:
        mode = options.over_max
        if mode == "alternate":
            mode = "clamp" if next(_alternate) % 2 == 0 else "reject"
        if mode == "reject":
            return fail(400, "invalid_request", f"top_k is at most {maximum}", {"max_top_k": maximum})
        if mode == "reject-text":
            response = Response(f"top_k is at most {maximum}\n".encode("utf-8"), status=400)
            response.headers["Content-Type"] = "text/plain; charset=utf-8"
            return response
        if mode == "500":
            return fail(500, "internal_error", "the server failed")
        if mode == "unclamped":
            reported_top_k = maximum
        elif mode == "default":
            top_k = limits["default_top_k"]
        else:
            top_k = maximum
    if options.ignore_top_k:
        top_k = limits["default_top_k"]
    if has_text and (not has_vector or options.accept_both):
        query = body["query"]
        if not isinstance(query, str):
            if not options.coerce_query:
                return fail(400, "invalid_request", "query must be a string")
            query = json.dumps(query)
        if not query.strip():
            return fail(400, "invalid_request", "query must not be empty")
        if len(query) > 4096:
            return fail(400, "invalid_request", "query is longer than 4096 characters", {"max_length": 4096})
        if options.text_status != 200:
            return fail(options.text_status, "invalid_request", "text queries are not supported")
        ranked = text_search(query, collection)
        key: Any = ["text", query, collection]
        space = None
    elif has_vector:
        space = body.get("embedding_space")
        if space is None:
            if not options.accept_missing_space:
                return fail(400, "invalid_request", "a query_vector needs embedding_space (5.3)")
            space = next(iter(SPACES))
        if not isinstance(space, str) or space not in SPACES:
            return fail(422, "unsupported_embedding_space", "the requested embedding space is not supported",
                        {"embedding_space": space})
        vector = body["query_vector"]
        if not isinstance(vector, list) or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                   and math.isfinite(x) for x in vector):
            return fail(400, "invalid_request", "query_vector must be an array of numbers")
        dims, distance, _ = SPACES[space]
        if not vector and options.empty_vector_status == 200:
            vector = [0.0] * dims
        elif not vector and options.empty_vector_status:
            return fail(options.empty_vector_status, "invalid_request", "query_vector must not be empty",
                        {"embedding_space": space})
        if len(vector) > 8 * dims:  # input size (11.5): far beyond any space of this server
            return fail(422, "invalid_embedding_dimension", f"the supplied query vector has length {len(vector)}, "
                        f"but the embedding space requires {dims}",
                        {"embedding_space": space, "expected_dimensions": dims, "actual_dimensions": len(vector)})
        if len(vector) > dims and options.truncate_long_vectors:
            vector = vector[:dims]
        if len(vector) < dims and options.pad_short_vectors:
            vector = vector + [0.0] * (dims - len(vector))
        if len(vector) != dims:
            return fail(options.dimension_status, "invalid_embedding_dimension",
                        f"the supplied query vector has length {len(vector)}, but the embedding space requires {dims}",
                        {"embedding_space": space, "expected_dimensions": dims, "actual_dimensions": len(vector)})
        if options.vector_status != 200:
            return fail(options.vector_status, "invalid_request", "vector queries are not supported")
        used = distance if options.score_distance == "declared" else options.score_distance
        if options.normalize_queries:
            norm = math.sqrt(sum(x * x for x in vector))
            vector = [x / norm for x in vector] if norm else vector
        ranked = scores(vector, space, used, collection)
        key = ["vector", space, collection, hashlib.sha256(json.dumps(vector).encode()).hexdigest()[:16]]
    else:  # neither, accepted by a broken variant
        ranked, key, space = text_search("northwind cloud", collection), ["none", collection], None
    if unknown and options.unknown_members == "empty":
        ranked = []
    offset = 0
    if "cursor" in body:
        sealed = _unseal(body["cursor"]) if isinstance(body["cursor"], str) else None
        if sealed is None or sealed.get("key") != key:
            return fail(400, "invalid_request", "the cursor is not one this server issued for this query")
        offset = int(sealed["offset"])
    start = max(offset - options.page_overlap, 0) if offset else 0
    extra = options.extra_results if "top_k" in body and body["top_k"] < options.extra_below else 0
    page = ranked[start:start + top_k + extra]
    if options.order == "worst-first":
        page = list(reversed(page))
    elif options.order == "interleaved" and len(page) > 2:
        page = page[1::2] + page[0::2]
    results = []
    for cid, score in page:
        found = corpus().by_id[cid]
        result: dict[str, Any] = {"id": cid, "score": score}
        if _branded(options):
            result["source"] = {"url": found["url"], "title": found["title"] + BRAND}
        if wanted.get("metadata", True):
            metadata = {"updated_at": found["updated_at"], "canonical": True,
                        "visibility": found["visibility"], "content_hash": found["content_hash"]}
            result["metadata"] = {k: v for k, v in metadata.items() if k not in options.result_remove}
        if wanted.get("text"):
            result["text"] = found["text"]
        vector_space = space or next(iter(SPACES))
        if wanted.get("vectors") is True or options.vectors_by_default == "vector":
            result["vector"] = embed(found["text"], vector_space)
        elif options.vectors_by_default == "metadata.embedding":
            result.setdefault("metadata", {})["embedding"] = embed(found["text"], vector_space)
        results.append(result)
    said = options.meta_default_top_k if "top_k" not in body and options.meta_default_top_k else None
    meta: dict[str, Any] = {"returned": len(results), "top_k": said or reported_top_k or top_k}
    if start + top_k < len(ranked):
        meta["next_cursor"] = _seal({"key": key, "offset": start + top_k})
    answer: dict[str, Any] = {"request_id": _request_id(options, raw), "collection": collection,
                              "results": results, "meta": meta}
    if options.results_member == "object":
        answer["results"] = {r["id"]: r for r in results}
    elif options.results_member != "results":
        answer[options.results_member] = answer.pop("results")
    if options.response_remove_on == "all" or (options.response_remove_on == "vector" and has_vector):
        answer = {k: v for k, v in answer.items() if k not in options.response_remove}
    response = _json(options.success_status, answer, _success_type(options, request, "search"), options)
    if options.rate_limit_fields != "none" and not (options.rate_limit_fields == "text-only" and not has_text):
        response.headers["RateLimit-Limit"] = "1000"
        if options.rate_limit_fields != "limit-only":
            response.headers["RateLimit-Remaining"] = "999"
            response.headers["RateLimit-Reset"] = "60"
    return response



#: The reference server as data (``fixtures/aidre/server.toml``, its routes running the handlers
#: above) and its variants: the same name in every draft's ``reference_server.py``.
REFERENCE = Reference("aidre")
