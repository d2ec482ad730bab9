"""The AIDRE servers the client role's scenarios need, beside the reference server.

A client test needs a server that does things the reference never does: cursors whose format
changes from one page to the next (base64, JSON-looking, URL-ish, very long, non-ASCII),
unknown members at every level of its answers, embedding spaces with other distance
functions (a dot-product space whose scores exceed 1, a normalised dot space), and
tolerance of requests the reference refuses, so that a client broken in one way still gets
answers everywhere else and fails only the clause it breaks. The ranking itself is the
reference's (:func:`conformance.aidre.reference_server.text_search`, :func:`~conformance.aidre.reference_server.scores`
over its corpus and its two feature-hashing spaces).

The handler ``aidre.scenario_search`` (:func:`conformance.world.handlers.handlers`) answers
the search endpoint of a scenario; its route ``options`` say how:

* ``cursor_styles``: the formats of the cursors it mints, one per page in turn (:data:`STYLES`);
* ``cursor_member``: the request member that carries a cursor back (the draft names none,
  AMB-08; default ``cursor``, the kit's reference server's). A cursor this server minted is
  also found, unchanged, in any other member the draft does not define for requests
  (AMB-50: the member is the client's choice); the scenario's discovery document says
  nothing of it, so that it holds only what the draft defines;
* ``unknown``: add members the draft does not define at every level of each answer;
* ``top_k``: the default page size (without ``top_k`` in the request);
* ``total``: the search finds at most this many results (so that the last page can be full
  and carry no ``next_cursor``);
* ``vectors``: ``[[id, vector], ...]``, the collection a vector query searches instead of the
  reference corpus (ids of the corpus, for their metadata; vectors of the space's dimensions),
  ranked by the distance the space declares;
* ``return_vectors``: every result carries its vector in ``vectors`` (20.1's name for the
  field; 7.3), asked or not (otherwise only when the request's ``return.vectors`` is true);
* ``fail``: answer every search with this error instead (``[status, error value]``).

Every answer is recorded (:func:`served`): the kit compares what a client reports and the
cursors it sends back with what the server gave it. A cursor the server did not mint for the
scenario is answered 400 ``invalid_request``.
"""

from __future__ import annotations

import base64
import json
import math
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from werkzeug import Request, Response

from conformance.aidre.reference_server import SPACES, corpus, embed, scores, text_search
from conformance.world.handlers import request_body
from conformance.world.site import Route, Site

MEDIA = "application/aidre+json"
#: The embedding spaces scenarios may declare: id -> (the reference space whose vectors it
#: uses, distance, normalized). Dot spaces rank the reference's vectors by inner product.
SCENARIO_SPACES: dict[str, tuple[str, str, bool]] = {
    "adck:hash-64:cosine:v1": ("adck:hash-64:cosine:v1", "cosine", True),
    "adck:hash-48:l2:v1": ("adck:hash-48:l2:v1", "l2", False),
    "adck:hash-48:dot:v1": ("adck:hash-48:l2:v1", "dot", False),
    "adck:hash-64:dot-unit:v1": ("adck:hash-64:cosine:v1", "dot", True),
    # An id a client changes if it changes ids at all: capitals, a non-ASCII letter (é, NFC).
    "ADCK:Hash-48:L2:R\u00e9vision-2": ("adck:hash-48:l2:v1", "l2", False),
}
#: Cursor formats: none is more than an opaque string to a client.
STYLES = ("token", "base64", "base64-std", "json", "url", "long", "unicode", "padded", "escapes", "controls")
MAX_TOP_K = 50
#: The members the draft defines for a search request (5, 6.2, 6.3, 20.1, 24.2, 25).
REQUEST_MEMBERS = frozenset({"query", "query_vector", "embedding_space", "collection", "top_k", "return"})


def declaration(space: str) -> dict:
    """The embedding space as a discovery document declares it (19.1)."""
    base, distance, normalized = SCENARIO_SPACES[space]
    return {"id": space, "dimensions": SPACES[base][0], "distance": distance, "normalized": normalized,
            "provider": "adck", "model": "feature-hashing (blake2b of each lower-case word, +-1 per word)",
            "revision": "v1"}


@dataclass
class Served:
    """One answer of a scenario's search endpoint."""

    status: int
    body: Any
    #: (id, score) of the results, in the order listed.
    results: list[tuple[str, float]] = field(default_factory=list)
    #: The cursor the request carried (when it did), and the one this answer minted.
    cursor_in: str | None = None
    next_cursor: str | None = None


_lock = threading.Lock()
_served: dict[str, list[Served]] = {}
_cursors: dict[tuple[str, str], tuple[tuple, int]] = {}
_minted: dict[str, list[str]] = {}


def forget(host: str) -> None:
    """Start the record of the scenario ``host`` afresh (a name of an earlier run's world may
    come again in the same process)."""
    with _lock:
        _served.pop(host, None)
        _minted.pop(host, None)
        for key in [k for k in _cursors if k[0] == host]:
            del _cursors[key]


def served(host: str) -> list[Served]:
    """Every answer the search endpoint of the scenario ``host`` gave, in order."""
    with _lock:
        return list(_served.get(host, []))


def minted(host: str) -> list[str]:
    """Every cursor minted for the scenario ``host``, in order."""
    with _lock:
        return list(_minted.get(host, []))


def _mint(host: str, style: str, key: tuple, offset: int, last_id: str) -> str:
    nonce = secrets.token_hex(6)
    page = offset
    if style == "base64":  # the draft's 18.3 look: base64url of a JSON offset, unpadded
        cursor = base64.urlsafe_b64encode(json.dumps({"offset": offset, "n": nonce}).encode()).decode().rstrip("=")
    elif style == "base64-std":
        cursor = base64.b64encode(b"\xfb\xff" + json.dumps({"o": offset, "n": nonce}).encode() + b"\xfe").decode()
    elif style == "json":
        cursor = json.dumps({"offset": offset, "after": last_id, "n": nonce})
    elif style == "url":
        cursor = f"/search?page={page}&after={quote(last_id, safe='')}&sig={nonce}%3D%3D&q=a+b"
    elif style == "long":
        cursor = "L" + (nonce * 700)[:4999]
    elif style == "unicode":
        cursor = f"päge·{page}·頁→{nonce}🚀"
    elif style == "padded":
        cursor = f"  {nonce} page {page}\t"
    elif style == "escapes":
        cursor = f'a"b\\c/{nonce}\u2028'
    elif style == "controls":  # control characters, a BOM, zero-width and bidi marks: all valid in JSON strings
        cursor = f"\x00\x1f\ufeff{nonce}\u200b\u202e\x7f"
    else:
        cursor = f"c_{nonce}{secrets.token_hex(6)}"
    with _lock:
        _cursors[(host, cursor)] = (key, offset)
        _minted.setdefault(host, []).append(cursor)
    return cursor


def _json(status: int, value: Any) -> Response:
    response = Response(json.dumps(value, ensure_ascii=False).encode("utf-8"), status=status)
    response.headers["Content-Type"] = MEDIA
    return response


def _error(host: str, status: int, code: str, message: str, cursor_in: str | None = None,
           unknown: bool = False) -> Response:
    body: dict[str, Any] = {"error": code, "message": message, "details": {}, "request_id": f"req_{secrets.token_hex(4)}"}
    if unknown:
        body = _unknown({**body, "details": _unknown({"embedding_space": "adck:none"}, "details")}, "error")
    with _lock:
        _served.setdefault(host, []).append(Served(status, body, cursor_in=cursor_in))
    return _json(status, body)


def _space_for(body: dict) -> str | None:
    """The space a vector query names, or (tolerantly, when it names none) the first one of
    its length."""
    named = body.get("embedding_space")
    if isinstance(named, str):
        return named if named in SCENARIO_SPACES else None
    length = len(body["query_vector"]) if isinstance(body.get("query_vector"), list) else -1
    return next((s for s, (base, _, _) in SCENARIO_SPACES.items() if SPACES[base][0] == length), None)


def _ranked(key: tuple, options: dict) -> list[tuple[str, float]]:
    if key[0] == "text":
        ranked = text_search(key[1], "docs")
    elif options.get("vectors"):
        ranked = _own_scores(list(key[2]), SCENARIO_SPACES[key[1]][1], options["vectors"])
    else:
        base, distance, _ = SCENARIO_SPACES[key[1]]
        ranked = scores(list(key[2]), base, distance, "docs")
    total = options.get("total")
    return ranked[:total] if isinstance(total, int) else ranked


def distance_of(query: list[float], vector: list[float], distance: str) -> float:
    """The score of ``vector`` for ``query`` by ``distance`` (cosine, dot: similarity; l2:
    Euclidean distance), rounded to 6 decimals as the scenario serves it."""
    dot = math.fsum(q * v for q, v in zip(query, vector))
    if distance == "dot":
        value = dot
    elif distance == "cosine":
        norms = math.sqrt(math.fsum(q * q for q in query)) * math.sqrt(math.fsum(v * v for v in vector))
        value = dot / norms if norms else 0.0
    else:
        value = math.sqrt(math.fsum((q - v) ** 2 for q, v in zip(query, vector)))
    return round(value, 6)


def _own_scores(query: list[float], distance: str, vectors: list) -> list[tuple[str, float]]:
    """A scenario's own collection ranked by ``distance``: best first, ties by id."""
    scored = [(cid, distance_of(query, vector, distance)) for cid, vector in vectors]
    return sorted(scored, key=lambda item: (item[1] if distance == "l2" else -item[1], item[0]))


def _cursor_of(host: str, body: dict, member: str) -> Any:
    """The cursor a request carries: in ``member``, or else a cursor this server minted,
    unchanged, in any member the draft does not define for requests (AMB-50)."""
    if body.get(member) is not None:
        return body[member]
    with _lock:
        return next((value for name, value in body.items() if name not in REQUEST_MEMBERS and isinstance(value, str)
                     and (host, value) in _cursors), None)


#: Unknown members whose names differ from a member the draft defines only in letter case
#: (25 spells every member name case-sensitively, %s"..."), placed after it: a client that
#: matches member names case-insensitively, the last one winning (Go's encoding/json), reads
#: these instead of the real ones (AMB-60).
CASE_TWINS: dict[str, dict[str, Any]] = {
    "response": {"Results": []},
    "meta": {"Next_Cursor": "not-a-cursor-of-this-server", "Returned": 0},
    "result": {"ID": "doc_0#chunk_0", "Score": -7.5},
    "error": {"Error": "rate_limited"},
}


def _unknown(value: dict, where: str) -> dict:
    """``value`` with members the draft does not define: an object, an array, null, a number,
    and the case twins of some it defines (:data:`CASE_TWINS`)."""
    return {**value, f"x_{where}_trace": {"id": secrets.token_hex(3), "spans": [1, 2, {"deep": None}]},
            f"x_{where}_flags": ["beta", 7], f"x_{where}_none": None, f"x_{where}_weight": 0.25,
            **CASE_TWINS.get(where, {})}


def search(site: Site, route: Route, request: Request) -> Response:
    """The search endpoint of a scenario: tolerant of method, media type and shape, strict
    about cursors (only those it minted), recording every answer."""
    options = route.options
    host = site.hostname
    raw = request_body(request) or b""
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return _error(host, 400, "invalid_request", f"the body is not UTF-8 JSON: {exc}")
    if not isinstance(body, dict):
        return _error(host, 400, "invalid_request", "the request must be a JSON object")
    if options.get("fail"):
        status, code = options["fail"]
        return _error(host, status, code, "this scenario's server answers every search with an error",
                      unknown=bool(options.get("unknown")))
    cursor = _cursor_of(host, body, options.get("cursor_member") or "cursor")
    top_k = body.get("top_k")
    if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k <= 0:
        top_k = options.get("top_k", 5)
    top_k = min(top_k, MAX_TOP_K)
    if cursor is not None:
        with _lock:
            entry = _cursors.get((host, cursor)) if isinstance(cursor, str) else None
        if entry is None:
            return _error(host, 400, "invalid_request", "the cursor is not one this server issued", cursor_in=str(cursor))
        key, offset = entry
    else:
        offset = 0
        if isinstance(body.get("query"), str) and body["query"].strip():
            key = ("text", body["query"])
        elif isinstance(body.get("query_vector"), list):
            space = _space_for(body)
            if space is None:
                return _error(host, 422, "unsupported_embedding_space", "the requested embedding space is not supported")
            vector = body["query_vector"]
            dims = SPACES[SCENARIO_SPACES[space][0]][0]
            if len(vector) != dims or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in vector):
                return _error(host, 422, "invalid_embedding_dimension",
                              f"the supplied query vector has length {len(vector)}, but the embedding space requires {dims}")
            key = ("vector", space, tuple(float(x) for x in vector))
        else:  # neither: answered as a search for the collection's name (tolerance)
            key = ("text", "northwind")
    ranked = _ranked(key, options)
    page = ranked[offset:offset + top_k]
    wanted = body.get("return")
    wants_vectors = isinstance(wanted, dict) and wanted.get("vectors") is True
    own = {cid: list(vector) for cid, vector in options.get("vectors") or []}
    chunks = corpus().by_id
    results = []
    for cid, score in page:
        found = chunks[cid]
        metadata = {"updated_at": found["updated_at"], "canonical": True, "visibility": found["visibility"],
                    "content_hash": found["content_hash"]}
        result = {"id": cid, "score": score,
                  "metadata": _unknown(metadata, "metadata") if options.get("unknown") else metadata}
        if key[0] == "vector" and (options.get("return_vectors") or wants_vectors):
            result["vectors"] = own.get(cid) or embed(found["text"], SCENARIO_SPACES[key[1]][0])
        results.append(_unknown(result, "result") if options.get("unknown") else result)
    meta: dict[str, Any] = {"returned": len(results), "top_k": top_k}
    next_cursor = None
    if offset + top_k < len(ranked) and page:
        styles = options.get("cursor_styles") or ["token"]
        style = styles[len(minted(host)) % len(styles)]
        next_cursor = _mint(host, style, key, offset + top_k, page[-1][0])
        meta["next_cursor"] = next_cursor
    answer: dict[str, Any] = {"request_id": f"req_{secrets.token_hex(4)}", "collection": "docs", "results": results,
                              "meta": _unknown(meta, "meta") if options.get("unknown") else meta}
    if options.get("unknown"):
        answer = _unknown(answer, "response")
    with _lock:
        _served.setdefault(host, []).append(Served(200, answer, list(page), cursor if isinstance(cursor, str) else None,
                                                   next_cursor))
    return _json(200, answer)
