"""Hypothesis strategies for AI Discovery Documents (draft-aiendpoint-ai-discovery-00, §3).

* :func:`documents` draws documents that pass every document-role clause the suite tests,
  SHOULDs included, over the edges of the space the draft's text allows: boundary lengths
  counted in code points (ambiguity AMB-06), non-ASCII and astral text, every optional member
  present or absent, relative and absolute endpoints, BCP 47 tags with script, region and
  variant subtags in any case (AMB-07), custom members in ``meta`` (where §3.1 puts them).
* :data:`MUTATIONS` maps each document-role MUST and SHOULD clause the suite tests to its
  named ways of breaking it (a different value form, boundary or position each), each a
  function from a valid document to a strategy of JSON values that break that clause and
  no other, except the clauses :data:`IMPLIED` names for that way (a break that cannot help
  breaking another clause too). :data:`BYTE_MUTATIONS` does the same for the clauses about
  the bytes (encoding, size) and gives bytes. :func:`named_breaks` lists the ways (the
  mutant floor of :mod:`conformance.proofs`).

The generators follow the draft's text and the kit's recorded interpretations
(``profiles/aiendpoint/ambiguities.toml``); they do not import the suite's checks, so a
wrong check shows up as a disagreement instead of being copied. (One kit helper is used:
:func:`conformance.redact.looks_like_token` keeps generated header names from looking like
a known token format, which AIE-6.2-01 rightly flags.)
"""

from __future__ import annotations

import calendar
import copy
import datetime as dt
import json
import re
import string
from typing import Any, Callable

from hypothesis import strategies as st

from conformance import redact
from conformance.json_values import NOTABLE

Json = Any
Doc = dict[str, Any]
Mutation = Callable[[Doc], st.SearchStrategy[Json]]
ByteMutation = Callable[[Doc], st.SearchStrategy[bytes]]

# ------------------------------------------------------------------ the draft's vocabulary
TOP_LEVEL = ("aiendpoint", "service", "capabilities", "auth", "token_hints", "rate_limits", "meta")
SERVICE_MEMBERS = ("name", "description", "category", "language")
CAPABILITY_MEMBERS = ("id", "description", "endpoint", "method", "params", "returns")
TOKEN_HINTS = ("compact_mode", "field_filtering", "delta_support")
RATE_LIMITS = ("requests_per_minute", "agent_tier_available")
META_MEMBERS = ("last_updated", "changelog", "status")
CATEGORIES = (
    "productivity", "ecommerce", "finance", "news", "weather", "maps", "search", "data",
    "communication", "calendar", "storage", "media", "health", "education", "travel", "food",
    "government", "developer",
)
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
UNSAFE_METHODS = ("POST", "PUT", "DELETE", "PATCH")
AUTH_TYPES = ("none", "apikey", "bearer", "oauth2")
PARAM_TYPES = ("string", "integer", "number", "boolean", "array")
#: Path segments and id words the kit takes for internal or administrative (AMB-10).
INTERNAL_WORDS = ("admin", "internal", "debug", "staging")
#: "64 kilobytes" read as 64 KiB (AMB-11).
SIZE_LIMIT = 64 * 1024

_LOWER = string.ascii_lowercase
_ID_CHARS = _LOWER + string.digits + "_"
#: RFC 9110 tchar: what an HTTP field name is made of.
_TCHAR = "!#$%&'*+-.^_`|~" + string.digits + string.ascii_letters
_INTERNAL_SPLIT = re.compile(r"[/_.\-]")


def names_internal(value: str) -> bool:
    """Does an id or endpoint path hold a segment naming an internal function (AMB-10)?
    The authority of an absolute URI is not part of the path."""
    path = re.sub(r"^[A-Za-z][A-Za-z0-9+.\-]*://[^/]*", "", value)
    return any(part.lower() in INTERNAL_WORDS for part in _INTERNAL_SPLIT.split(path))


# ------------------------------------------------------------------ text
#: The characters that make length counting interesting (conformance.json_values.NOTABLE), and a
#: flag sequence: one grapheme of several code points, for the draft's "characters" (AMB-06).
_NOTABLE = NOTABLE + "🏳️‍🌈"
_CHARS = st.one_of(st.characters(codec="utf-8"), st.sampled_from(_NOTABLE))


def _length(lo: int, hi: int) -> st.SearchStrategy[int]:
    """A length in [lo, hi], often exactly at a bound."""
    return st.one_of(st.sampled_from([lo, hi]), st.integers(lo, hi))


def text(lo: int, hi: int, alphabet: st.SearchStrategy[str] = _CHARS) -> st.SearchStrategy[str]:
    """Text of lo..hi code points (the draft's "characters", AMB-06), often at a bound."""
    return _length(lo, hi).flatmap(lambda n: st.text(alphabet, min_size=n, max_size=n))


def _words(*words: str) -> st.SearchStrategy[str]:
    return st.sampled_from(words)


# ------------------------------------------------------------------ URIs
_LABEL = st.text(_LOWER + string.digits, min_size=1, max_size=10)
_HOST = st.builds(
    lambda labels, tld, port: ".".join(labels) + "." + tld + port,
    st.lists(_LABEL, min_size=1, max_size=3),
    _words("com", "test", "example", "dev", "io", "ch"),
    st.one_of(st.just(""), st.integers(1, 65535).map(lambda p: f":{p}")),
)
_URL_WORDS = _words("docs", "auth", "changelog", "status", "help", "v1", "en", "guide", "api-keys",
                    "release-notes", "%C3%BCber", "index.html", "~team")


@st.composite
def https_urls(draw: st.DrawFn) -> str:
    """An absolute http(s) URI with a host, as docs, changelog and status hold."""
    scheme = draw(st.sampled_from(["https", "https", "https", "http", "HTTPS"]))
    path = "".join("/" + w for w in draw(st.lists(_URL_WORDS, max_size=3)))
    query = draw(st.sampled_from(["", "", "?lang=en", "?page=2&lang=de"]))
    fragment = draw(st.sampled_from(["", "", "#oauth"]))
    return f"{scheme}://{draw(_HOST)}{path}{query}{fragment}"


# ------------------------------------------------------------------ service
_LANGUAGE_TAGS = (
    "en", "de-CH", "zh-Hant-TW", "es-419", "sr-Latn-RS", "en-US", "fr", "ko", "ja-JP", "pt-BR",
    "yue", "cmn-Hans-CN", "zh-yue-HK", "de-DE-1996", "sl-rozaj-biske", "hy-Latn-IT-arevela",
    "ar-u-nu-latn", "en-US-x-twain", "x-whatever", "i-klingon", "en-GB-oed", "sgn-CH-DE",
    "art-lojban", "EN", "dE-cH",
)


def _randomly_cased(tag: str) -> st.SearchStrategy[str]:
    return st.lists(st.booleans(), min_size=len(tag), max_size=len(tag)).map(
        lambda ups: "".join(c.upper() if up else c.lower() for c, up in zip(tag, ups)))


@st.composite
def language_tags(draw: st.DrawFn) -> str:
    """A well-formed BCP 47 tag (RFC 5646 section 2.1), case-insensitive (AMB-07)."""
    if draw(st.booleans()):
        return draw(st.sampled_from(_LANGUAGE_TAGS))
    parts = [draw(st.text(_LOWER, min_size=2, max_size=3))]
    if draw(st.booleans()):
        parts.append(draw(st.text(_LOWER, min_size=4, max_size=4)).title())
    region = draw(st.sampled_from(["", "alpha", "digits"]))
    if region == "alpha":
        parts.append(draw(st.text(_LOWER, min_size=2, max_size=2)).upper())
    elif region == "digits":
        parts.append(draw(st.text(string.digits, min_size=3, max_size=3)))
    if draw(st.integers(0, 4)) == 0:
        parts.append(draw(st.one_of(
            st.text(_LOWER + string.digits, min_size=5, max_size=8),
            st.tuples(st.sampled_from(string.digits), st.text(_LOWER + string.digits, min_size=3, max_size=3)).map("".join),
        )))
    if draw(st.integers(0, 4)) == 0:
        parts += ["x", draw(st.text(_LOWER + string.digits, min_size=1, max_size=8))]
    tag = "-".join(parts)
    return draw(_randomly_cased(tag)) if draw(st.integers(0, 3)) == 0 else tag


@st.composite
def services(draw: st.DrawFn) -> Doc:
    service: Doc = {"name": draw(text(1, 100)), "description": draw(text(1, 199))}
    if draw(st.booleans()):
        service["category"] = draw(st.lists(st.sampled_from(CATEGORIES), min_size=1, max_size=4, unique=True))
    if draw(st.booleans()):
        service["language"] = draw(st.lists(language_tags(), min_size=1, max_size=4, unique_by=str.lower))
    return service


# ------------------------------------------------------------------ capabilities
@st.composite
def capability_ids(draw: st.DrawFn, lo: int = 1, hi: int = 64) -> str:
    """An id matching ^[a-z][a-z0-9_]*$ of lo..hi characters, naming nothing internal."""
    if lo == 1 and hi == 64 and draw(st.integers(0, 3)) == 0:
        return draw(_words("search_products", "get_product", "create_note", "list_notes", "forecast",
                           "current_weather", "a", "x1", "get_v2_items", "administer_dose", "debugger_tips"))
    n = draw(_length(lo, hi))
    value = draw(st.sampled_from(_LOWER)) + draw(st.text(_ID_CHARS, min_size=n - 1, max_size=n - 1))
    return value if not names_internal(value) else draw(capability_ids(lo, hi))


_SEGMENT = st.one_of(
    _words("api", "v1", "v2", "ai", "notes", "search", ":id", "products", "weather",
           "items.json", "%C3%A4pfel", "~user", "a-b", "x_y", "administration", "debugging"),
    st.text(_LOWER + string.digits + "-._~", min_size=1, max_size=12).filter(lambda s: s not in (".", "..")),
)


@st.composite
def endpoints(draw: st.DrawFn) -> str:
    """A "/" path or an absolute https URI (§3.3), no segment naming an internal function."""
    path = "/" + "/".join(draw(st.lists(_SEGMENT, max_size=5)))
    value = path if draw(st.booleans()) else f"https://{draw(_HOST)}{path}"
    return value if not names_internal(value) else draw(endpoints())


_QUALIFIER = st.one_of(
    st.integers(-5, 1000).map("default {}".format),
    st.integers(0, 1000).map("max {}".format),
    st.integers(0, 10).map("min {}".format),
    st.lists(st.text(_LOWER + "_", min_size=1, max_size=8), min_size=2, max_size=4, unique=True).map("|".join),
    _words("format date", "ISO 8601", "e.g. 2026-03-10", "default Zürich", "unit °C"),
    st.text(st.characters(codec="utf-8", exclude_characters=",-\u2014"), min_size=1, max_size=12).filter(str.strip),
)
_SEPARATOR = _words(" -- ", " \u2014 ", "\u2014", " \u2014", "\u2014 ", "  --  ", "\t--\t")


@st.composite
def param_descriptions(draw: st.DrawFn) -> str:
    """'<type>, <required|optional>[, <qualifier>]* [-- <description>]' (AMB-09)."""
    head = ", ".join([draw(st.sampled_from(PARAM_TYPES)), draw(_words("required", "optional")),
                      *draw(st.lists(_QUALIFIER, max_size=3))])
    if draw(st.booleans()):
        return head
    return head + draw(_SEPARATOR) + draw(text(1, 40).filter(str.strip))


_PARAM_NAME = st.one_of(st.text(_ID_CHARS, min_size=1, max_size=16), text(1, 12))


@st.composite
def capabilities(draw: st.DrawFn, methods: tuple[str, ...] = METHODS) -> Doc:
    cap: Doc = {
        "id": draw(capability_ids()),
        "description": draw(text(1, 200)),
        "endpoint": draw(endpoints()),
        "method": draw(st.sampled_from(methods)),
    }
    if draw(st.booleans()):
        cap["params"] = draw(st.dictionaries(_PARAM_NAME, param_descriptions(), max_size=4))
    if draw(st.booleans()):
        cap["returns"] = draw(st.one_of(text(0, 300), _words("products[] {id, name, price, stock}",
                                                             "note {id, created_at}")))
    return cap


# ------------------------------------------------------------------ auth, hints, limits, meta
_HEADER_NAMES = _words("X-API-Key", "Api-Key", "Authorization", "x-api-key", "X-Auth", "Ocp-Apim-Subscription-Key",
                       "X_Custom.Header~1", "!#$%&'*+-.^_`|~")
_HEADERS = st.one_of(_HEADER_NAMES, st.text(_TCHAR, min_size=1, max_size=30)).filter(
    lambda h: not redact.looks_like_token(h))


@st.composite
def auth_objects(draw: st.DrawFn) -> Doc:
    auth: Doc = {"type": draw(st.sampled_from(AUTH_TYPES))}
    if draw(st.booleans()):
        auth["header"] = draw(_HEADERS)
    if draw(st.booleans()):
        auth["docs"] = draw(https_urls())
    return auth


_TOKEN_HINTS = st.fixed_dictionaries({}, optional={k: st.booleans() for k in TOKEN_HINTS})
_RATE_LIMITS = st.fixed_dictionaries({}, optional={
    "requests_per_minute": st.one_of(st.integers(1, 10**6), st.just(1), st.just(2**53 + 1),
                                     st.integers(1, 10_000).map(float)),
    "agent_tier_available": st.booleans(),
})


def _timestamp(d: Any) -> str:
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d}T{d.hour:02d}:{d.minute:02d}:{d.second:02d}Z"


LAST_UPDATED = st.one_of(st.dates().map(lambda d: d.isoformat()), st.datetimes().map(_timestamp))

json_values: st.SearchStrategy[Json] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | text(0, 20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text(0, 8), inner, max_size=3),
    max_leaves=6,
)


@st.composite
def meta_objects(draw: st.DrawFn) -> Doc:
    """meta, with custom members sometimes: §3.1 sends custom metadata there."""
    meta = draw(st.fixed_dictionaries({}, optional={
        "last_updated": LAST_UPDATED, "changelog": https_urls(), "status": https_urls()}))
    custom = draw(st.dictionaries(text(1, 12).filter(lambda k: k not in META_MEMBERS), json_values, max_size=2))
    return {**meta, **custom}


# ------------------------------------------------------------------ documents
@st.composite
def documents(draw: st.DrawFn) -> Doc:
    """A document that passes every document-role MUST and SHOULD clause the suite tests.

    auth is always there (§3.4 RECOMMENDS it); when its type is "none" every capability is a
    GET (§6.2: no "none" for write operations, AMB-12).
    """
    auth = draw(auth_objects())
    methods = ("GET",) if auth["type"] == "none" else METHODS
    doc: Doc = {
        "aiendpoint": "1.0",
        "service": draw(services()),
        "capabilities": draw(st.lists(capabilities(methods), min_size=1, max_size=4, unique_by=lambda c: c["id"])),
        "auth": auth,
    }
    for name, strategy in (("token_hints", _TOKEN_HINTS), ("rate_limits", _RATE_LIMITS), ("meta", meta_objects())):
        if draw(st.booleans()):
            doc[name] = draw(strategy)
    return doc


# ================================================================== mutations
def _edit(doc: Doc, path: tuple[str | int, ...], value: Json) -> Doc:
    """A copy of doc with the member at path set (objects on the way created as needed)."""
    new = copy.deepcopy(doc)
    node = new
    for step in path[:-1]:
        if isinstance(node, dict) and step not in node:
            node[step] = {}
        node = node[step]
    node[path[-1]] = value
    return new


def _drop(doc: Doc, path: tuple[str | int, ...], *members: str) -> Doc:
    new = copy.deepcopy(doc)
    node = new
    for step in path:
        node = node[step]
    for m in members:
        node.pop(m, None)
    return new


def _set(path: tuple[str | int, ...], values: st.SearchStrategy[Json]) -> Mutation:
    """A mutation that sets one member of the document to one of values."""
    return lambda doc: values.map(lambda v: _edit(doc, path, v))


def _cap_member(member: str, values: st.SearchStrategy[Json]) -> Mutation:
    """A mutation that sets ``member`` of one capability (any of them) to one of values."""
    return lambda doc: st.tuples(st.integers(0, len(doc["capabilities"]) - 1), values).map(
        lambda iv: _edit(doc, ("capabilities", iv[0], member), iv[1]))


_SAFE_SCALARS = {
    "null": st.none(),
    "boolean": st.booleans(),
    "integer": st.integers(-10**6, 10**6),
    # not integral: 60.0 is an integer in JSON (JSON Schema's rule, and the suite's)
    "number": st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not f.is_integer()),
    "string": st.one_of(text(0, 12), _words("", "GET", "none", "true", "1.0", "60")),
}


def not_of(*kinds: str, deep: bool = True) -> st.SearchStrategy[Json]:
    """JSON values of none of the JSON types ``kinds``. ``deep=False`` keeps arrays and
    objects shallow and free of strings (nothing a credential check could read as a secret)."""
    leaves = st.one_of(*(_SAFE_SCALARS[k] for k in ("null", "boolean", "integer")))
    containers = {
        "array": st.lists(json_values if deep else leaves, max_size=3),
        "object": st.dictionaries(text(0, 8), json_values, max_size=3) if deep
        else st.dictionaries(_words("a", "b", "value"), leaves, max_size=2),
    }
    return st.one_of(*(s for k, s in {**_SAFE_SCALARS, **containers}.items() if k not in kinds))


#: Letters outside ASCII that a case-insensitive match folds onto ASCII ones (KELVIN SIGN
#: onto k, LONG S onto s, DOTLESS I and DOTTED CAPITAL I onto i).
_FOLDS_TO_ASCII = "\u212a\u017f\u0131\u0130"


@st.composite
def corrupted(draw: st.DrawFn, valid: st.SearchStrategy[str], forbidden: str, *,
              inner_space: bool = True, fold: bool = True) -> str:
    """A valid value spoiled in one way a grammar of ASCII characters never allows: a final
    newline, white space around it (or inside), a letter swapped for a non-ASCII one that
    case folding maps onto an ASCII letter, or a character the grammar forbids."""
    value = draw(valid)
    how = draw(_words("newline", "space", "fold", "forbidden") if fold else _words("newline", "space", "forbidden"))
    if how == "newline":
        return value + "\n"
    if how == "space":
        spaces = [value + " ", " " + value, value + "\t", "\t" + value]
        if inner_space and len(value) > 1:
            k = draw(st.integers(1, len(value) - 1))
            spaces.append(value[:k] + " " + value[k:])
        return draw(st.sampled_from(spaces))
    letters = [k for k, c in enumerate(value) if c.isascii() and c.isalpha()]
    if how == "fold" and letters:
        k = draw(st.sampled_from(letters))
        return value[:k] + draw(st.sampled_from(_FOLDS_TO_ASCII)) + value[k + 1:]
    k = draw(st.integers(0, len(value)))
    return value[:k] + draw(st.sampled_from(forbidden)) + value[k:]


# ---- §3.1
def _unknown_key(defined: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.one_of(_words("x_vendor", "Service", "capability", "version", "links", "$schema", "@context",
                            "AUTH", " meta", "", "metadata", "extensions"),
                     text(0, 15)).filter(lambda k: k not in defined)


def _top_level_extra(doc: Doc) -> st.SearchStrategy[Json]:
    return st.tuples(_unknown_key(TOP_LEVEL), json_values).map(lambda kv: _edit(doc, (kv[0],), kv[1]))


@st.composite
def _custom_member_outside_meta(draw: st.DrawFn, doc: Doc, where: str) -> Json:
    if where == "capability":
        i = draw(st.integers(0, len(doc["capabilities"]) - 1))
        key = draw(_unknown_key(CAPABILITY_MEMBERS))
        return _edit(doc, ("capabilities", i, key), draw(json_values))
    if where == "auth":
        # a member that describes, not a credential (that would be AIE-6.2-01 as well)
        key, value = draw(st.sampled_from([
            ("realm", "api"), ("scopes", ["notes:read", "notes:write"]), ("flows", {"authorizationCode": {}}),
            ("token_url", "https://auth.example.com/oauth/token"), ("x_vendor", 42), ("issuer", None)]))
        return _edit(doc, ("auth", key), value)
    defined = {"service": SERVICE_MEMBERS, "token_hints": TOKEN_HINTS, "rate_limits": RATE_LIMITS}[where]
    key = draw(_unknown_key(defined))
    # every member of token_hints is a boolean (AIE-3.5-01), a custom one included
    value = draw(st.booleans() if where == "token_hints" else json_values)
    return _edit(doc, (where, key), value)


# ---- §3.2
@st.composite
def _string_array_broken(draw: st.DrawFn, doc: Doc, member: str, how: str = "any") -> Json:
    """service.<member> not an array, or (``how="element"``) an array holding a non-string."""
    if how != "element" and draw(st.booleans()):
        return _edit(doc, ("service", member), draw(not_of("array")))
    values = list(doc["service"].get(member, []))
    values.insert(draw(st.integers(0, len(values))), draw(not_of("string")))
    return _edit(doc, ("service", member), values)


@st.composite
def _category_unlisted(draw: st.DrawFn, doc: Doc, kind: str) -> Json:
    """A label not in the list of 3.2: a listed one in other case or with white space, or
    another word."""
    values = list(doc["service"].get("category", []))
    if kind == "variant":
        listed = draw(st.sampled_from(CATEGORIES))
        candidates = st.sampled_from([listed.upper(), listed.title(), " " + listed, listed + " ", listed + "\n",
                                      listed + "s", listed[:-1]])
    else:
        candidates = st.one_of(_words("notes", "e-commerce", "ai", "shopping", "développeur", "other", "misc"),
                               text(0, 20))
    extra = draw(candidates.filter(lambda c: c not in CATEGORIES and c not in values))
    values.insert(draw(st.integers(0, len(values))), extra)
    return _edit(doc, ("service", "category"), values)


@st.composite
def _duplicated(draw: st.DrawFn, doc: Doc, member: str, fresh: st.SearchStrategy[str], adjacent: bool) -> Json:
    """A value repeated right next to itself, or apart from it (another value between: a
    check that compares neighbours only misses it)."""
    values = list(doc["service"].get(member, [])) or [draw(fresh)]
    if not adjacent and len(values) < 2:
        values.append(draw(fresh.filter(lambda v: v.lower() not in {x.lower() for x in values})))
    k = draw(st.integers(0, len(values) - 1))
    again = values[k]
    if adjacent:
        values.insert(k + draw(st.integers(0, 1)), again)
    else:
        spots = [j for j in range(len(values) + 1) if j < k or j > k + 1]
        values.insert(draw(st.sampled_from(spots)), again)
    return _edit(doc, ("service", member), values)


#: Strings that are not BCP 47 tags under any reading of RFC 5646.
# ("english" is absent on purpose: 5-8 letters form a well-formed primary language subtag in RFC 5646.)
_MALFORMED_TAGS = {
    "word": _words("en_US", "", "e", "en-", "-en", "en--US", "toolonglanguage", "123", "日本語", "en-a", "de-CH-",
                   "x", "x-", "en-x", "zh-Hant-TW-", "en-US-x-toolongprivate", "e\u0301n"),
    "corrupted": corrupted(language_tags(), "_./:@\u00e9\u00df"),
    # a subtag of 9 or more characters
    "long-subtag": st.tuples(language_tags(), st.text(_LOWER, min_size=9, max_size=12)).map("-".join),
}


@st.composite
def _language_broken(draw: st.DrawFn, doc: Doc, kind: str) -> Json:
    values = list(doc["service"].get("language", []))
    bad = draw(_MALFORMED_TAGS[kind].filter(lambda t: t not in values))
    values.insert(draw(st.integers(0, len(values))), bad)
    return _edit(doc, ("service", "language"), values)


# ---- §3.3
def _other_ids(doc: Doc, i: int) -> set[Any]:
    return {c.get("id") for j, c in enumerate(doc["capabilities"]) if j != i}


@st.composite
def _internal_capability(draw: st.DrawFn, doc: Doc, kind: str) -> Json:
    i = draw(st.integers(0, len(doc["capabilities"]) - 1))
    word = draw(st.sampled_from(INTERNAL_WORDS))
    if kind == "id":
        value = "_".join(p for p in (draw(_words("", "get", "list", "run")), word,
                                     draw(_words("", "users", "stats", "2"))) if p)
        if value in _other_ids(doc, i):
            value += "_x"
        return _edit(doc, ("capabilities", i, "id"), value)
    segment = draw(st.one_of(st.just(word), st.just(word.upper()), st.just(word.title()),
                             _words(".json", "-tools", "_panel", ".v2").map(lambda s: word + s)))
    before = draw(st.lists(_words("api", "v1", "notes"), max_size=2))
    after = draw(st.lists(_words("users", ":id", "x"), max_size=2))
    path = "/" + "/".join([*before, segment, *after])
    host = "https://" + draw(_HOST) if kind == "uri" else ""
    return _edit(doc, ("capabilities", i, "endpoint"), host + path)


@st.composite
def _capability_missing(draw: st.DrawFn, doc: Doc, member: str) -> Json:
    """One capability without ``member`` (and perhaps without others as well)."""
    i = draw(st.integers(0, len(doc["capabilities"]) - 1))
    also = draw(st.lists(_words("id", "description", "endpoint", "method"), max_size=2, unique=True))
    return _drop(doc, ("capabilities", i), member, *also)


@st.composite
def _id_duplicate(draw: st.DrawFn, doc: Doc, how: str) -> Json:
    caps = doc["capabilities"]
    if how == "twin":
        twin = dict(copy.deepcopy(draw(st.sampled_from(caps))), endpoint=draw(endpoints()))
        return _edit(doc, ("capabilities",), [*copy.deepcopy(caps), twin])
    if len(caps) < 2:  # another capability, given the id of the first
        methods = ("GET",) if doc.get("auth", {}).get("type") == "none" else METHODS
        other = draw(capabilities(methods))
        return _edit(doc, ("capabilities",), [*copy.deepcopy(caps), dict(other, id=caps[0]["id"])])
    i, j = draw(st.lists(st.integers(0, len(caps) - 1), min_size=2, max_size=2, unique=True))
    new = _edit(doc, ("capabilities",), copy.deepcopy(caps))
    new["capabilities"][j]["id"] = caps[i]["id"]
    return new


#: Characters an id may not hold: upper case, hyphen, space, dot, non-ASCII letters
#: (Latin, a Cyrillic look-alike, fullwidth, Kelvin sign, long s), a newline.
_NOT_ID_CHARS = "ABZ- .!$\u00e9\u00df\u0430\uff49\u212a\u017f\u0131\n"


@st.composite
def _id_malformed(draw: st.DrawFn, doc: Doc, how: str) -> Json:
    i = draw(st.integers(0, len(doc["capabilities"]) - 1))
    base = draw(capability_ids())
    if how == "upper-case":
        k = draw(st.sampled_from([k for k, c in enumerate(base) if c.isalpha()]))
        value = base[:k] + base[k].upper() + base[k + 1:]
    elif how == "leading-digit":
        value = draw(st.sampled_from(string.digits)) + base[1:]
    elif how == "leading-underscore":
        value = "_" + base[1:]
    else:
        k = draw(st.integers(0, len(base) - 1))
        value = base[:k] + draw(st.sampled_from(_NOT_ID_CHARS)) + base[k + 1:]
    if names_internal(value) or value in _other_ids(doc, i):
        value = {"upper-case": "Search_Notes", "leading-digit": "1st_item", "leading-underscore": "_x"}.get(how, "get-note")
    return _edit(doc, ("capabilities", i, "id"), value)


@st.composite
def _params_broken(draw: st.DrawFn, doc: Doc, how: str) -> Json:
    i = draw(st.integers(0, len(doc["capabilities"]) - 1))
    if how == "params":
        return _edit(doc, ("capabilities", i, "params"), draw(not_of("object")))
    params = dict(doc["capabilities"][i].get("params", {}))
    params[draw(st.one_of(st.sampled_from(sorted(params) or ["q"]), _PARAM_NAME))] = draw(not_of("string"))
    return _edit(doc, ("capabilities", i, "params"), params)


#: Parameter descriptions that do not follow "<type>, <required|optional>[, <qualifier>]*
#: [-- <description>]" under any reading of the pattern (AMB-09).
_BAD_HEADS = _words(
    "str, required", "int, optional", "object, optional", "float, required", "date, optional", "string",
    "integer", "string, mandatory", "string, opt", "required, string", "optional", "", "string required",
    "string; required", "string, required,", "string, yes",
)
_FREE_TEXT = st.lists(_words("the", "keyword", "to", "search", "for", "Zürich", "日本", "max", "50"),
                      min_size=1, max_size=6).map(" ".join)


@st.composite
def _param_pattern_broken(draw: st.DrawFn, doc: Doc, kind: int) -> Json:
    i = draw(st.integers(0, len(doc["capabilities"]) - 1))
    if kind == 0:
        value = draw(_BAD_HEADS) + draw(st.one_of(st.just(""), st.tuples(_SEPARATOR, text(1, 20).filter(str.strip)).map("".join)))
    elif kind == 1:
        value = draw(_FREE_TEXT)
    else:  # a separator followed by nothing
        value = ", ".join([draw(st.sampled_from(PARAM_TYPES)), draw(_words("required", "optional"))]) + draw(
            _words(" -- ", " \u2014", "\u2014 ", " --  ", "\u2014"))
    params = dict(doc["capabilities"][i].get("params", {}))
    params[draw(st.one_of(st.sampled_from(sorted(params) or ["q"]), _PARAM_NAME))] = value
    return _edit(doc, ("capabilities", i, "params"), params)


# ---- §3.4, §3.5, §3.6, §3.7
@st.composite
def _bad_dates(draw: st.DrawFn, kind: int) -> str:
    """Not YYYY-MM-DD nor YYYY-MM-DDThh:mm:ssZ naming a real date and time: another
    spelling of a date, a day the month does not have, or a time of day that does not exist.
    (Spellings ISO 8601 allows but 3.7 does not list, as "2026-03-10T09:00Z", are left out.)"""
    d = draw(st.dates(min_value=dt.date(1000, 1, 1)))
    if kind == 0:
        return draw(_words(f"{d:%B} {d.day}, {d.year}", f"{d.day:02d}/{d.month:02d}/{d.year}",
                           f"{d.year}/{d.month:02d}/{d.day:02d}", f"{d.day:02d}-{d.month:02d}-{d.year}",
                           f"{d.year}-{d.month}-{d.day}x", f" {d.isoformat()}", f"{d.isoformat()}\n", "", "yesterday",
                           "\u0662\u0660\u0662\u0666-\u0660\u0663-\u0661\u0660", "\uff12\uff10\uff12\uff16-03-10"))
    if kind == 1:  # a day the month does not have (30 February, 31 April, 29 February 2100...)
        month = draw(st.integers(1, 12))
        days = calendar.monthrange(d.year, month)[1]
        return f"{d.year:04d}-{month:02d}-{draw(st.integers(days + 1, 99)):02d}"
    if kind == 2:  # month 00 or 13..99, or day 00
        if draw(st.booleans()):
            return f"{d.year:04d}-{draw(st.sampled_from([0, *range(13, 100)])):02d}-{d.day:02d}"
        return f"{d.year:04d}-{d.month:02d}-00"
    hms = [draw(st.integers(0, 23)), draw(st.integers(0, 59)), draw(st.integers(0, 59))]
    which = draw(st.integers(0, 2))  # hour 25+, minute 60+ or second 61+ (no leap-second debate)
    hms[which] = draw(st.integers((25, 60, 61)[which], 99))
    return f"{d.isoformat()}T{hms[0]:02d}:{hms[1]:02d}:{hms[2]:02d}Z"


@st.composite
def _auth_without_type(draw: st.DrawFn, doc: Doc) -> Json:
    """auth without type, its other members kept (one added when there is none)."""
    new = _drop(doc, ("auth",), "type")
    if not new["auth"]:
        new["auth"]["docs"] = draw(https_urls())
    return new


# ---- §6.2
@st.composite
def _credential_in_auth(draw: st.DrawFn, doc: Doc, where: str) -> Json:
    """A credential inside auth without adding members: in the docs URI (userinfo, a
    secret-named query parameter, a token in the path) or as the header "name"."""
    alnum = string.ascii_letters + string.digits
    token = draw(st.one_of(
        st.text(alnum, min_size=20, max_size=36).map("ghp_".__add__),
        st.text(string.ascii_uppercase + string.digits, min_size=16, max_size=16).map("AKIA".__add__),
        st.tuples(_words("sk", "rk", "pk"), _words("live", "test"), st.text(alnum, min_size=8, max_size=24)).map("_".join),
        st.text(alnum + "-", min_size=10, max_size=30).map("xoxb-".__add__),
        st.text(alnum + "_-", min_size=30, max_size=39).map("AIza".__add__),
        st.tuples(st.text(alnum + "_-", min_size=8, max_size=20), st.text(alnum + "_-", min_size=8, max_size=20),
                  st.text(alnum + "_-", min_size=4, max_size=20)).map(lambda p: "eyJ" + ".".join(p)),
    ))
    secret = draw(st.text(alnum, min_size=1, max_size=24))
    host = draw(_HOST)
    if where == "header":
        return _edit(doc, ("auth", "header"), token)
    if where == "userinfo":
        user = draw(_words("user", "api", "me"))
        docs = f"https://{user}:{secret}@{host}/docs" if draw(st.booleans()) else f"https://{secret}@{host}/docs"
    elif where == "query":
        name = draw(_words("api_key", "apikey", "key", "access_token", "token", "client_secret", "password", "sig",
                           "apiKey", "X-Api-Key"))
        docs = f"https://{host}/docs/auth?lang=en&{name}={secret}"
    else:
        docs = f"https://{host}/docs/{token}"
    return _edit(doc, ("auth", "docs"), docs)


@st.composite
def _none_auth_with_write(draw: st.DrawFn, doc: Doc, methods: tuple[str, ...]) -> Json:
    i = draw(st.integers(0, len(doc["capabilities"]) - 1))
    new = _edit(doc, ("capabilities", i, "method"), draw(st.sampled_from(methods)))
    new["auth"]["type"] = "none"
    return new


# ------------------------------------------------------------------ the tables
def _not_string_ways(setter: Callable[[st.SearchStrategy[Json]], Mutation]) -> dict[str, Mutation]:
    """A "(string, ...)" member given a value of another JSON type: a number, null or a
    boolean, or a container (each a different value form)."""
    return {
        "number": setter(st.one_of(_SAFE_SCALARS["integer"], _SAFE_SCALARS["number"])),
        "null-or-boolean": setter(st.one_of(st.none(), st.booleans())),
        "container": setter(st.one_of(st.lists(json_values, max_size=3), st.dictionaries(text(0, 8), json_values, max_size=3))),
    }


def _not_object_ways(path: tuple[str, ...], deep: bool = True) -> dict[str, Mutation]:
    """An "(object, ...)" member given an array or a scalar."""
    leaves = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6))
    return {
        "array": _set(path, st.lists(json_values if deep else leaves, max_size=3)),
        "scalar": _set(path, not_of("object", "array")),
    }


def _not_boolean_ways(setter: Callable[[st.SearchStrategy[Json]], Mutation]) -> dict[str, Mutation]:
    return {
        "string": setter(st.one_of(_words("true", "false", "yes", "no", "1", ""), text(0, 6))),
        "number": setter(st.one_of(st.sampled_from([0, 1, 0.0, 1.0]), _SAFE_SCALARS["integer"], _SAFE_SCALARS["number"])),
        "null-or-container": setter(st.one_of(st.none(), st.lists(st.booleans(), max_size=2),
                                              st.dictionaries(_words("a", "value"), st.booleans(), max_size=2))),
    }


def _cap_at(where: str, member: str, values: st.SearchStrategy[Json]) -> Mutation:
    """``member`` of the first capability, or of a later one (a capability is added when
    there is only one), set to one of values: a check that reads only the first misses it."""
    @st.composite
    def mutation(draw: st.DrawFn, doc: Doc) -> Json:
        if where == "first":
            return _edit(doc, ("capabilities", 0, member), draw(values))
        caps = copy.deepcopy(doc["capabilities"])
        if len(caps) < 2:
            taken = {c["id"] for c in caps}
            fresh = draw(capability_ids().filter(lambda i: i not in taken))
            caps.append(dict(copy.deepcopy(caps[0]), id=fresh))
        i = draw(st.integers(1, len(caps) - 1))
        caps[i][member] = draw(values)
        return _edit(doc, ("capabilities",), caps)
    return mutation


def _service_types(member: str) -> dict[str, Mutation]:
    return _not_string_ways(lambda values: _set(("service", member), values))


def _cap_types(member: str) -> dict[str, Mutation]:
    return _not_string_ways(lambda values: _cap_member(member, values))


def _uri_ways(*path: str) -> dict[str, Mutation]:
    return {
        "prose-or-relative": _set(path, _words(
            "see our documentation", "/docs/auth", "docs.example.com/auth", "changelog", "status page",
            "//example.com/docs", "", "1http://example.com")),
        "no-host": _set(path, _words("https://", "https:///docs", "http://", "https://?q=1", "https://#x")),
        "white-space": _set(path, corrupted(https_urls(), " \t\u00a0\u3000", fold=False)),
        "not-a-string": _set(path, not_of("string", deep=False)),
    }


def _token_hint(values: st.SearchStrategy[Json]) -> Mutation:
    return lambda doc: st.tuples(st.sampled_from(TOKEN_HINTS), values).map(
        lambda kv: _edit(doc, ("token_hints", kv[0]), kv[1]))


def _rpm(values: st.SearchStrategy[Json]) -> Mutation:
    return _set(("rate_limits", "requests_per_minute"), values)


#: Document-role MUST and SHOULD clause -> named ways of breaking it (each a function from a
#: valid document to a strategy of documents that break that clause and no other, IMPLIED
#: aside). Each name is a different value form, boundary or position, run on its own by the
#: property tests (tests/test_aiendpoint_properties.py).
MUTATIONS: dict[str, dict[str, Mutation]] = {
    "AIE-3.1-01": {
        "not-an-object": lambda doc: st.one_of(st.just([doc]), st.just([]), not_of("object", "array")),
        "missing-member": lambda doc: st.lists(_words("aiendpoint", "service", "capabilities"), min_size=1, max_size=3,
                                               unique=True).map(lambda gone: _drop(doc, (), *gone)),
    },
    "AIE-3.1-02": {
        "other-version": _set(("aiendpoint",), _words("1.1", "1", "1.0.0", "v1.0", "2.0", "1,0", "0.9", "1.00", "01.0")),
        "padded-or-look-alike": _set(("aiendpoint",), _words("1.0 ", " 1.0", "１.０", "1.0\n", "1.0\u200b", "\u06f1.0")),
        "any-text": _set(("aiendpoint",), text(0, 6).filter(lambda v: v != "1.0")),
    },
    "AIE-3.1-12": {
        "number": _set(("aiendpoint",), st.sampled_from([1.0, 1, 1.1, 10])),
        "other-type": _set(("aiendpoint",), not_of("string", "integer", "number")),
    },
    "AIE-3.1-03": _not_object_ways(("service",)),
    "AIE-3.1-04": {
        "not-an-array": _set(("capabilities",), not_of("array")),
        "element-not-an-object": lambda doc: st.tuples(st.integers(0, len(doc["capabilities"])), not_of("object")).map(
            lambda t: _edit(doc, ("capabilities",), [*doc["capabilities"][: t[0]], t[1], *doc["capabilities"][t[0]:]])),
    },
    "AIE-3.1-06": _not_object_ways(("auth",), deep=False),
    "AIE-3.1-07": _not_object_ways(("token_hints",)),
    "AIE-3.1-08": _not_object_ways(("rate_limits",)),
    "AIE-3.1-09": _not_object_ways(("meta",)),
    "AIE-3.1-10": {
        "look-alike-key": lambda doc: st.tuples(_words("Service", "AUTH", " meta", "capability", "Capabilities",
                                                       "aiEndpoint", "token-hints", "rateLimits"), json_values).map(
            lambda kv: _edit(doc, (kv[0],), kv[1])),
        "unrelated-key": _top_level_extra,
    },
    "AIE-3.1-11": {f"in-{where.replace('_', '-')}": (lambda w: lambda doc: _custom_member_outside_meta(doc, w))(where)
                   for where in ("service", "capability", "auth", "token_hints", "rate_limits")},
    "AIE-3.2-01": {
        "no-name": lambda doc: st.just(_drop(doc, ("service",), "name")),
        "no-description": lambda doc: st.just(_drop(doc, ("service",), "description")),
    },
    "AIE-3.2-02": _service_types("name"),
    "AIE-3.2-04": {
        "empty": _set(("service", "name"), st.just("")),
        "over-100": _set(("service", "name"), text(101, 200)),
    },
    "AIE-3.2-05": _service_types("description"),
    "AIE-3.2-07": {
        "empty": _set(("service", "description"), st.just("")),
        "over-300": _set(("service", "description"), text(301, 400)),
    },
    "AIE-3.2-08": {
        "exactly-200": _set(("service", "description"), text(200, 200)),
        "201-to-300": _set(("service", "description"), text(201, 300)),
    },
    "AIE-3.2-10": {
        "a-string": _set(("service", "category"), st.sampled_from(CATEGORIES)),
        "other-type": _set(("service", "category"), not_of("array", "string")),
        "element-not-a-string": lambda doc: _string_array_broken(doc, "category", "element"),
    },
    "AIE-3.2-11": {
        "case-or-space-variant": lambda doc: _category_unlisted(doc, "variant"),
        "unlisted-word": lambda doc: _category_unlisted(doc, "word"),
    },
    "AIE-3.2-14": {"empty-array": _set(("service", "category"), st.just([]))},
    "AIE-3.2-15": {
        "adjacent": lambda doc: _duplicated(doc, "category", st.sampled_from(CATEGORIES), True),
        "apart": lambda doc: _duplicated(doc, "category", st.sampled_from(CATEGORIES), False),
    },
    "AIE-3.2-16": {
        "not-an-array": _set(("service", "language"), not_of("array")),
        "element-not-a-string": lambda doc: _string_array_broken(doc, "language", "element"),
        "malformed-tag": lambda doc: _language_broken(doc, "word"),
        "corrupted-tag": lambda doc: _language_broken(doc, "corrupted"),
        "subtag-over-8": lambda doc: _language_broken(doc, "long-subtag"),
    },
    "AIE-3.2-17": {"empty-array": _set(("service", "language"), st.just([]))},
    "AIE-3.2-18": {
        "adjacent": lambda doc: _duplicated(doc, "language", language_tags(), True),
        "apart": lambda doc: _duplicated(doc, "language", language_tags(), False),
    },
    "AIE-3.3-01": {"empty-array": _set(("capabilities",), st.just([]))},
    "AIE-3.3-03": {
        "id": lambda doc: _internal_capability(doc, "id"),
        "relative-path": lambda doc: _internal_capability(doc, "path"),
        "absolute-uri": lambda doc: _internal_capability(doc, "uri"),
    },
    "AIE-3.3-04": {f"no-{m}": (lambda m: lambda doc: _capability_missing(doc, m))(m)
                   for m in ("id", "description", "endpoint", "method")},
    "AIE-3.3-05": _cap_types("id"),
    "AIE-3.3-06": {
        "renamed-to-an-existing-id": lambda doc: _id_duplicate(doc, "rename"),
        "twin-appended": lambda doc: _id_duplicate(doc, "twin"),
    },
    "AIE-3.3-07": {how: (lambda h: lambda doc: _id_malformed(doc, h))(how)
                   for how in ("upper-case", "leading-digit", "leading-underscore", "forbidden-character")},
    "AIE-3.3-08": {
        "exactly-65-first": _cap_at("first", "id", capability_ids(65, 65)),
        "over-64-later": _cap_at("later", "id", capability_ids(65, 128)),
    },
    "AIE-3.3-10": _cap_types("description"),
    "AIE-3.3-11": {
        "empty": _cap_member("description", st.just("")),
        "over-200": _cap_member("description", text(201, 300)),
    },
    "AIE-3.3-13": _cap_types("endpoint"),
    "AIE-3.3-14": {
        "empty-first": _cap_at("first", "endpoint", st.just("")),
        "empty-later": _cap_at("later", "endpoint", st.just("")),
    },
    "AIE-3.3-16": _cap_types("method"),
    "AIE-3.3-17": {
        "wrong-case": _cap_member("method", _words("get", "Get", "post", "Post", "pUT", "delete", "patch")),
        "other-method": _cap_member("method", _words("HEAD", "OPTIONS", "TRACE", "CONNECT", "QUERY", "PROPFIND", "")),
        "padded": _cap_member("method", _words(" GET", "GET ", "GET\n", "G E T", "DELETE\u200b", "POST\t")),
        "any-text": _cap_member("method", text(0, 8).filter(lambda m: m not in METHODS)),
    },
    "AIE-3.3-19": {
        "not-an-object": lambda doc: _params_broken(doc, "params"),
        "value-not-a-string": lambda doc: _params_broken(doc, "value"),
    },
    "AIE-3.3-20": {
        "bad-head": lambda doc: _param_pattern_broken(doc, 0),
        "free-text": lambda doc: _param_pattern_broken(doc, 1),
        "separator-without-description": lambda doc: _param_pattern_broken(doc, 2),
    },
    "AIE-3.3-21": _cap_types("returns"),
    "AIE-3.3-22": {
        "exactly-301-first": _cap_at("first", "returns", text(301, 301)),
        "over-300-later": _cap_at("later", "returns", text(301, 400)),
    },
    "AIE-3.4-01": {
        "type-absent": _auth_without_type,
        "empty-object": _set(("auth",), st.just({})),
    },
    "AIE-3.4-02": {
        "wrong-case": _set(("auth", "type"), _words("Basic", "API_KEY", "apiKey", "Bearer", "OAuth2", "None", "NONE", "APIKEY")),
        "other-scheme": _set(("auth", "type"), _words("basic", "digest", "mtls", "jwt", "oauth", "hmac", "api_key", "token")),
        "padded": _set(("auth", "type"), _words("", "none ", " none", "bearer\n", "oauth2 ", "apikey\t")),
        "not-a-string": _set(("auth", "type"), not_of("string", deep=False)),
    },
    "AIE-3.4-03": {
        "not-a-string": _set(("auth", "header"), not_of("string", deep=False)),
        "separator-character": _set(("auth", "header"), _words(
            "", "X(API)Key", "[Key]", "X-Key;", "X-Key=1", "X/Key", "X,Key", "\"X-Key\"", "{Key}", "X-Key?")),
        "corrupted-name": _set(("auth", "header"), corrupted(_HEADER_NAMES, "()<>@,;\\\"/[]?={}\u00e9\u00fc", inner_space=False)),
    },
    "AIE-3.4-05": _uri_ways("auth", "docs"),
    "AIE-3.4-07": {"auth-absent": lambda doc: st.just(_drop(doc, (), "auth"))},
    "AIE-3.5-01": _not_boolean_ways(_token_hint),
    "AIE-3.6-01": {
        "fraction": _rpm(_SAFE_SCALARS["number"].filter(lambda f: f > 0)),
        "numeric-string": _rpm(_words("60", "1000", "60.0", "1e3")),
        "other-type": _rpm(not_of("integer", "number", "string")),
    },
    "AIE-3.6-02": {
        "zero": _rpm(st.sampled_from([0, 0.0, -0.0])),
        "negative": _rpm(st.one_of(st.integers(max_value=-1), st.sampled_from([-1.0, -60.0]), st.just(-(2**63)))),
    },
    "AIE-3.6-04": _not_boolean_ways(lambda values: _set(("rate_limits", "agent_tier_available"), values)),
    "AIE-3.7-01": {
        "other-spelling": _set(("meta", "last_updated"), _bad_dates(0)),
        "day-the-month-lacks": _set(("meta", "last_updated"), _bad_dates(1)),
        "month-or-day-out-of-range": _set(("meta", "last_updated"), _bad_dates(2)),
        "impossible-time": _set(("meta", "last_updated"), _bad_dates(3)),
        "not-a-string": _set(("meta", "last_updated"), not_of("string")),
    },
    "AIE-3.7-02": _uri_ways("meta", "changelog"),
    "AIE-3.7-03": _uri_ways("meta", "status"),
    "AIE-6.2-01": {where: (lambda w: lambda doc: _credential_in_auth(doc, w))(where)
                   for where in ("userinfo", "query", "path", "header")},
    "AIE-6.2-03": {
        "post": lambda doc: _none_auth_with_write(doc, ("POST",)),
        "put-patch-delete": lambda doc: _none_auth_with_write(doc, ("PUT", "PATCH", "DELETE")),
    },
}

#: (clause, way) -> other clauses that way cannot help breaking too.
IMPLIED: dict[tuple[str, str], set[str]] = {
    # over 300 characters is also not under 200
    ("AIE-3.2-07", "over-300"): {"AIE-3.2-08"},
}


def named_breaks() -> dict[str, tuple[str, ...]]:
    """Clause id -> the names of the distinct ways the strategies break it (the mutant floor,
    :mod:`conformance.proofs`); each is run by the property tests."""
    breaks = {cid: tuple(ways) for cid, ways in MUTATIONS.items()}
    breaks.update({cid: tuple(ways) for cid, ways in BYTE_MUTATIONS.items()})
    return breaks


# ------------------------------------------------------------------ byte mutations
@st.composite
def serialized(draw: st.DrawFn, doc: Json) -> str:
    """The JSON text of doc, in one of the spellings JSON allows."""
    return json.dumps(doc, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1, "\t"])))


_LATIN1_NEVER_UTF8 = "\u00f8\u00f9\u00fa\u00fb\u00fc\u00fd\u00fe\u00ff"  # bytes F8-FF in Latin-1 and cp1252
_INVALID_UTF8 = (
    b"\x80", b"\xbf",                       # a continuation byte with no lead
    b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\xaf",  # overlong forms
    b"\xed\xa0\x80", b"\xed\xbf\xbf",           # surrogates (CESU-8, WTF-8)
    b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",   # beyond U+10FFFF
    b"\xff", b"\xfe",                       # never in UTF-8
    b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3",     # a sequence cut short
)
_MARKER = "@@adck-not-utf8@@"


@st.composite
def _not_utf8(draw: st.DrawFn, doc: Doc, how: str) -> bytes:
    """The document in another encoding, or UTF-8 with an invalid sequence inside a string."""
    if how == "utf16-32":  # with a byte order mark: FF FE or FE FF, never UTF-8
        text_ = draw(serialized(doc))
        options = [text_.encode(enc) for enc in ("utf-16", "utf-32")]
        options += [("\ufeff" + text_).encode(enc) for enc in ("utf-16-le", "utf-16-be")]
        fitting = [b for b in options if len(b) <= SIZE_LIMIT]  # else AIE-4.5-01 would fail too
        if fitting:
            return draw(st.sampled_from(fitting))
        how = "legacy"
    if how == "legacy":
        # cp1252 or Latin-1, with a letter of the service name whose byte is never UTF-8
        name = doc["service"]["name"]
        k = draw(st.integers(0, len(name) - 1))
        marked = _edit(doc, ("service", "name"), name[:k] + draw(st.sampled_from(_LATIN1_NEVER_UTF8)) + name[k + 1:])
        text_ = json.dumps(marked, ensure_ascii=False, indent=draw(st.sampled_from([None, 1])))
        return text_.encode(draw(_words("cp1252", "latin-1")), errors="replace")
    description = doc["service"]["description"][: 199 - len(_MARKER)]
    raw = draw(serialized(_edit(doc, ("service", "description"), description + _MARKER))).encode("utf-8")
    return raw.replace(_MARKER.encode(), b"x" + draw(st.sampled_from(_INVALID_UTF8)) + b"y", 1)


@st.composite
def _oversized(draw: st.DrawFn, doc: Doc, how: str) -> bytes:
    """More than 64 KiB: padded with JSON white space, or with a long custom member of meta
    (where §3.1 says custom data goes), so the document stays valid in every other way."""
    size = draw(st.one_of(st.just(SIZE_LIMIT + 1), st.integers(SIZE_LIMIT + 1, SIZE_LIMIT + 20_000)))
    if how == "white-space":
        body = draw(serialized(doc)).encode("utf-8")
        pad = draw(st.text(" \t\r\n", min_size=1, max_size=1)) * max(0, size - len(body))
        before = draw(st.integers(0, len(pad)))
        return pad[:before].encode() + body + pad[before:].encode()
    body = json.dumps(_edit(doc, ("meta", "x_notes"), ""), ensure_ascii=False).encode("utf-8")
    filler = draw(st.sampled_from(["a", "ü", "語", "🙂"]))
    count = -(-max(0, size - len(body)) // len(filler.encode("utf-8")))
    return json.dumps(_edit(doc, ("meta", "x_notes"), filler * count), ensure_ascii=False).encode("utf-8")


BYTE_MUTATIONS: dict[str, dict[str, ByteMutation]] = {
    "AIE-2.4-01": {
        "legacy-8-bit": lambda doc: _not_utf8(doc, "legacy"),
        "utf-16-or-32": lambda doc: _not_utf8(doc, "utf16-32"),
        "invalid-sequence": lambda doc: _not_utf8(doc, "corrupt"),
    },
    "AIE-4.5-01": {
        "white-space": lambda doc: _oversized(doc, "white-space"),
        "long-member": lambda doc: _oversized(doc, "member"),
    },
}
