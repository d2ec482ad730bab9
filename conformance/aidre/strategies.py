"""Hypothesis strategies for AIDRE discovery documents: valid ones, and named ways of breaking
each document clause the suite tests (the mutant floor, :mod:`conformance.proofs`).

A valid document uses the members the draft's examples show (3.4, 24.1), with values of every
type where the draft states none (AMB-09, AMB-10), and extension members (23.3); each of its
embedding spaces holds the three MUST members and the four SHOULD members of 19.1.
"""

from __future__ import annotations

import copy
import json
import string
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from conformance.json_values import ANY_JSON, text
from conformance.json_values import SCALAR as _SCALAR
from conformance.json_values import words as _words

Json = Any
Doc = dict[str, Any]
Mutation = Callable[[Doc], st.SearchStrategy[Json]]
ByteMutation = Callable[[Doc], st.SearchStrategy[bytes]]

SPACE_MUST = ("id", "dimensions", "distance")
SPACE_SHOULD = ("normalized", "provider", "model", "revision")
TOP_LEVEL = ("version", "service", "organization", "endpoints", "capabilities", "embedding_spaces", "auth")
CAPABILITIES = ("query_text", "query_vector", "return_text", "return_semantic_payload", "return_vectors", "delta_sync")


_LABEL = st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=10)


@st.composite
def https_urls(draw: st.DrawFn, template: bool = False) -> str:
    host = ".".join(draw(st.lists(_LABEL, min_size=2, max_size=3)))
    path = "/".join(draw(st.lists(_LABEL, max_size=3)))
    return f"https://{host}/{path}" + ("/{id}" if template else "")


#: Member names of extensions (23.3): never one the examples use, nor a variant of one
#: a clause checks (those are the breaks below).
_RESERVED = {n.lower() for n in TOP_LEVEL + SPACE_MUST + SPACE_SHOULD} | {"dimension", "dims", "normalised"}
EXTENSION_NAMES = st.one_of(
    st.builds(lambda a, b: f"{a}_{b}", _words("x", "ext", "acme", "com.example"), _LABEL),
    text(1, 12),
).filter(lambda k: k.strip().lower() not in _RESERVED and k.lower().replace("-", "_") not in _RESERVED)


def _extensions() -> st.SearchStrategy[dict[str, Json]]:
    return st.dictionaries(EXTENSION_NAMES, ANY_JSON, max_size=2)


DISTANCES = _words("cosine", "dot", "dot_product", "inner_product", "euclidean", "l2", "manhattan", "hamming")
_ID_TEXT = st.one_of(
    st.builds(lambda p, m, d, dist, r: f"{p}:{m}:{d}:{dist}:{r}",
              _words("openai", "cohere", "example", "local"), _LABEL, st.integers(1, 8192), DISTANCES,
              _words("v1", "v2", "2026-04")),
    text(1, 40),
)


@st.composite
def embedding_spaces(draw: st.DrawFn) -> Doc:
    """One embedding space with every member 19.1 names (values of every type where the draft
    states none, mostly the examples' types)."""
    space: Doc = {
        "id": draw(st.one_of(_ID_TEXT, _ID_TEXT, ANY_JSON)),
        "dimensions": draw(st.one_of(st.integers(1, 65536), st.integers(1, 65536), ANY_JSON)),
        "distance": draw(st.one_of(DISTANCES, DISTANCES, ANY_JSON)),
        "normalized": draw(st.one_of(st.booleans(), st.booleans(), ANY_JSON)),
        "provider": draw(st.one_of(_words("openai", "cohere", "example", "Example Corp"), text(), ANY_JSON)),
        "model": draw(st.one_of(_words("text-embedding-3-large", "embed-v4", "e5-large"), text(), ANY_JSON)),
        "revision": draw(st.one_of(_words("v1", "2026-04-01", "3"), text(), ANY_JSON)),
    }
    extra = draw(_extensions())
    space.update({k: v for k, v in extra.items() if k not in space})
    order = draw(st.permutations(list(space)))
    return {k: space[k] for k in order}


@st.composite
def documents(draw: st.DrawFn) -> Doc:
    """A valid discovery document: version of any JSON type ("1" mostly), the example members
    or some of them, and extension members, in any order."""
    doc: Doc = {"version": draw(st.one_of(st.just("1"), _words("1", "1.0", "2"), ANY_JSON))}
    optional = {
        "service": st.one_of(st.just("AIDRE"), text()),
        "organization": text(),
        "endpoints": st.fixed_dictionaries({}, optional={
            "search": https_urls(), "collections": https_urls(), "chunk": https_urls(template=True)}),
        "capabilities": st.fixed_dictionaries({}, optional={k: st.booleans() for k in CAPABILITIES}),
        "embedding_spaces": st.lists(embedding_spaces(), max_size=4),
        "auth": st.fixed_dictionaries({"type": _words("none", "bearer", "oauth2")}),
    }
    for name, values in optional.items():
        if draw(st.booleans()):
            doc[name] = draw(values)
    extra = draw(_extensions())
    doc.update({k: v for k, v in extra.items() if k not in doc})
    order = draw(st.permutations(list(doc)))
    return {k: doc[k] for k in order}


# ------------------------------------------------------------------ value mutations
def _copy(doc: Doc) -> Doc:
    return copy.deepcopy(doc)


@st.composite
def _with_spaces(draw: st.DrawFn, doc: Doc) -> Doc:
    """A copy of doc that advertises at least one embedding space."""
    out = _copy(doc)
    if not out.get("embedding_spaces"):
        out["embedding_spaces"] = draw(st.lists(embedding_spaces(), min_size=1, max_size=3))
    return out


def _space_member_dropped(member: str, every: bool) -> Mutation:
    """One space (at any position) or every space lacks ``member``."""
    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> Doc:
        out = draw(_with_spaces(doc))
        spaces = out["embedding_spaces"]
        targets = range(len(spaces)) if every else [draw(st.integers(0, len(spaces) - 1))]
        for i in targets:
            spaces[i].pop(member, None)
        return out
    return mutate


def _space_member_renamed(member: str, names: tuple[str, ...]) -> Mutation:
    """One space spells ``member`` another way (a case variant or a near name), keeping its value:
    member names are exact (AMB-23)."""
    variants = st.one_of(_words(*names), st.builds(
        lambda flips: "".join(c.upper() if f else c for c, f in zip(member, flips)),
        st.lists(st.booleans(), min_size=len(member), max_size=len(member)).filter(any)))

    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> Doc:
        out = draw(_with_spaces(doc))
        spaces = out["embedding_spaces"]
        i = draw(st.integers(0, len(spaces) - 1))
        name = draw(variants.filter(lambda n: n not in spaces[i]))
        spaces[i] = {(name if k == member else k): v for k, v in spaces[i].items()}
        return out
    return mutate


def _space_ways(member: str, *near: str) -> dict[str, Mutation]:
    return {
        "absent-from-one-space": _space_member_dropped(member, every=False),
        "absent-from-every-space": _space_member_dropped(member, every=True),
        "misspelled": _space_member_renamed(member, near),
    }


def _version_dropped(doc: Doc) -> st.SearchStrategy[Doc]:
    out = _copy(doc)
    del out["version"]
    return st.just(out)


@st.composite
def _version_renamed(draw: st.DrawFn, doc: Doc) -> Doc:
    name = draw(_words("Version", "VERSION", "versions", "ver", "aidre_version", "protocol_version", " version",
                       "version "))
    return {(name if k == "version" else k): v for k, v in doc.items()}


@st.composite
def _not_an_object(draw: st.DrawFn, doc: Doc) -> Json:
    """The document as an array of its members, wrapped in an array, or a bare scalar."""
    how = draw(_words("wrapped", "pairs", "scalar"))
    if how == "wrapped":
        return [_copy(doc)]
    if how == "pairs":
        return [[k, v] for k, v in _copy(doc).items()]
    return draw(st.one_of(st.none(), st.booleans(), st.integers(), text(), _words("1", "version")))


MUTATIONS: dict[str, dict[str, Mutation]] = {
    "AIDRE-23.1-01": {
        "absent": _version_dropped,
        "misspelled": _version_renamed,
        "not-an-object": _not_an_object,
    },
    "AIDRE-19.1-02": _space_ways("id", "ID", "Id", "space_id", "identifier", "name"),
    "AIDRE-19.1-03": _space_ways("dimensions", "Dimensions", "dimension", "dims", "dimensionality", "size"),
    "AIDRE-19.1-04": _space_ways("distance", "Distance", "metric", "distance_function", "similarity"),
    "AIDRE-19.1-06": _space_ways("normalized", "Normalized", "normalised", "is_normalized", "normalize"),
    "AIDRE-19.1-07": _space_ways("provider", "Provider", "vendor", "provider_name"),
    "AIDRE-19.1-08": _space_ways("model", "Model", "model_name", "models"),
    "AIDRE-19.1-09": _space_ways("revision", "Revision", "rev", "model_revision"),
}

# ------------------------------------------------------------------ search responses, error objects
# Documents on their own of the two other kinds (AMB-30): a search response has results and no
# version; an error object has error and neither version nor results.

_TOKEN = st.text(string.ascii_lowercase + string.digits + "_", min_size=1, max_size=24)


def _kind_safe(names: st.SearchStrategy[dict[str, Json]], *forbidden: str) -> st.SearchStrategy[dict[str, Json]]:
    return names.map(lambda d: {k: v for k, v in d.items() if k not in forbidden})


@st.composite
def search_results(draw: st.DrawFn) -> list[Doc]:
    """Results as the examples show them (7.2, 16.2, 24.2): id, score, metadata, and extras."""
    out = []
    for _ in range(draw(st.integers(0, 4))):
        result: Doc = {"id": draw(text(1, 20)), "score": draw(st.floats(-1e6, 1e6, allow_nan=False))}
        if draw(st.booleans()):
            result["metadata"] = {"updated_at": "2026-04-01T10:00:00Z", "canonical": draw(st.booleans())}
        if draw(st.booleans()):
            result["text"] = draw(text())
        out.append(result)
    return out


@st.composite
def search_responses(draw: st.DrawFn) -> Doc:
    """A successful search response with the SHOULD members of 16.1 and extension members."""
    doc: Doc = {"request_id": draw(text(1, 16)), "collection": draw(text(1, 16)), "results": draw(search_results()),
                "meta": {"returned": draw(st.integers(0, 50)), "top_k": draw(st.integers(1, 50))}}
    if draw(st.booleans()):
        doc["meta"]["next_cursor"] = draw(text(1, 30))
    doc.update(draw(_kind_safe(_extensions(), "version", "results", "error")))
    return doc


@st.composite
def error_objects(draw: st.DrawFn) -> Doc:
    """An error object with the members of 17.1 and extension members."""
    doc: Doc = {"error": draw(_TOKEN), "message": draw(text(0, 40)),
                "details": draw(st.dictionaries(text(1, 8), _SCALAR, max_size=3)), "request_id": draw(text(1, 16))}
    doc.update(draw(_kind_safe(_extensions(), "version", "results", "error")))
    return doc


def _other_kind(strategy: st.SearchStrategy[Doc], member: str, *names: str) -> dict[str, Mutation]:
    """Ways a document of another kind lacks ``member``: left out, or under a near name."""
    def dropped(doc: Doc) -> st.SearchStrategy[Json]:
        return strategy.map(lambda d: {k: v for k, v in d.items() if k != member})

    def renamed(doc: Doc) -> st.SearchStrategy[Json]:
        return st.tuples(strategy, st.sampled_from(names)).map(
            lambda p: {(p[1] if k == member else k): v for k, v in p[0].items()})

    return {"absent": dropped, "misnamed": renamed}


def _results_not_array(how: str) -> Mutation:
    values = {"an-object": st.dictionaries(text(1, 8), st.just({"score": 0.5}), min_size=0, max_size=3),
              "a-scalar": st.one_of(st.none(), st.booleans(), st.integers(), text()),
              "a-string-of-json": st.just("[]")}[how]

    def mutate(doc: Doc) -> st.SearchStrategy[Json]:
        return st.tuples(search_responses(), values).map(lambda p: p[0] | {"results": p[1]})
    return mutate


_RESULTS_WAYS = {how: _results_not_array(how) for how in ("an-object", "a-scalar", "a-string-of-json")}

MUTATIONS.update({
    "AIDRE-7.1-01": dict(_RESULTS_WAYS),
    "AIDRE-16.1-01": dict(_RESULTS_WAYS),
    "AIDRE-16.1-03": _other_kind(search_responses(), "request_id", "requestId", "request-id", "RequestId", "req_id"),
    "AIDRE-16.1-04": _other_kind(search_responses(), "collection", "Collection", "collection_name", "collections"),
    "AIDRE-16.1-05": _other_kind(search_responses(), "meta", "Meta", "_meta", "metainfo"),
    "AIDRE-17.1-04": _other_kind(error_objects(), "message", "msg", "Message", "error_message", "description"),
    "AIDRE-17.1-05": _other_kind(error_objects(), "details", "detail", "Details", "error_details", "info"),
    "AIDRE-17.1-06": _other_kind(error_objects(), "request_id", "requestId", "request-id", "RequestId", "req_id"),
})

#: (clause, way) -> other clauses that way cannot help breaking too: 7.1 and 16.1 say the same
#: of a search response's results (AMB-13).
IMPLIED: dict[tuple[str, str], set[str]] = {
    **{("AIDRE-7.1-01", way): {"AIDRE-16.1-01"} for way in _RESULTS_WAYS},
    **{("AIDRE-16.1-01", way): {"AIDRE-7.1-01"} for way in _RESULTS_WAYS},
}


# ------------------------------------------------------------------ byte mutations
@st.composite
def serialized(draw: st.DrawFn, doc: Json) -> str:
    """The JSON text of doc, in one of the spellings JSON allows."""
    return json.dumps(doc, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1, "\t"])))


_LATIN1_NEVER_UTF8 = "\u00f8\u00f9\u00fa\u00fb\u00fc\u00fd\u00fe\u00ff"  # bytes F8-FF in Latin-1 and cp1252
_INVALID_UTF8 = (
    b"\x80", b"\xbf", b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xed\xbf\xbf",
    b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xff", b"\xfe", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3",
)
_MARKER = "@@adck-not-utf8@@"


@st.composite
def _not_utf8(draw: st.DrawFn, doc: Doc, how: str) -> bytes:
    """The document in another encoding, or UTF-8 with an invalid sequence inside a string
    (an extension member's, at the top level or in an embedding space)."""
    body = _copy(doc)
    holder = body
    if body.get("embedding_spaces") and draw(st.booleans()):
        holder = body["embedding_spaces"][draw(st.integers(0, len(body["embedding_spaces"]) - 1))]
    if how == "utf16-32":
        text_ = draw(serialized(body))
        return draw(st.sampled_from([text_.encode("utf-16"), text_.encode("utf-32"),
                                     ("\ufeff" + text_).encode("utf-16-le"), ("\ufeff" + text_).encode("utf-16-be")]))
    if how == "legacy":
        holder["x_note"] = draw(text(0, 6)) + draw(st.sampled_from(_LATIN1_NEVER_UTF8)) + draw(text(0, 6))
        text_ = json.dumps(body, ensure_ascii=False, indent=draw(st.sampled_from([None, 1])))
        return text_.encode(draw(_words("cp1252", "latin-1")), errors="replace")
    holder["x_note"] = _MARKER
    raw = json.dumps(body, ensure_ascii=False).encode("utf-8")
    return raw.replace(_MARKER.encode(), b"x" + draw(st.sampled_from(_INVALID_UTF8)) + b"y", 1)


@st.composite
def _not_json(draw: st.DrawFn, doc: Doc) -> bytes:
    """The document's text made invalid JSON: cut short, a trailing comma, single quotes,
    a comment, NaN."""
    text_ = draw(serialized(doc))
    how = draw(_words("cut", "trailing-comma", "comment", "nan"))
    if how == "cut":
        text_ = text_.rstrip()[: draw(st.integers(1, len(text_.rstrip()) - 1))]
    elif how == "trailing-comma":
        text_ = text_.rstrip()[:-1] + ",}"
    elif how == "comment":
        text_ = "// AIDRE discovery\n" + text_
    else:
        text_ = text_.rstrip()[:-1] + ', "x_nan": NaN}'
    return text_.encode("utf-8")


BYTE_MUTATIONS: dict[str, dict[str, ByteMutation]] = {
    "AIDRE-14.2-01": {
        "legacy-8-bit": lambda doc: _not_utf8(doc, "legacy"),
        "utf-16-or-32": lambda doc: _not_utf8(doc, "utf16-32"),
        "invalid-sequence": lambda doc: _not_utf8(doc, "corrupt"),
    },
    "AIDRE-23.1-01": {
        "not-json": _not_json,
    },
}


def named_breaks() -> dict[str, tuple[str, ...]]:
    """Clause id -> the names of the distinct ways the strategies break it (the mutant floor,
    :mod:`conformance.proofs`); each is run by the property tests."""
    breaks: dict[str, list[str]] = {cid: list(ways) for cid, ways in MUTATIONS.items()}
    for cid, ways in BYTE_MUTATIONS.items():
        breaks.setdefault(cid, []).extend(ways)
    return {cid: tuple(ways) for cid, ways in breaks.items()}
