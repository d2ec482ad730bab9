"""Hypothesis strategies for the four ADP objects on their own: valid Agent Metadata objects,
Discovery Requests, Discovery Responses and error objects across the space the draft allows,
and named ways of breaking each document clause the suite tests (the mutant floor,
:mod:`conformance.proofs`).

A valid object holds every MUST and SHOULD member of its table, each of the type its Type
column gives, in every value form the draft allows (ids as URIs, DNS names, registry-local
or any text, AMB-26's neighbours; numbers integral or not where "number"; integers written
as 3.0; any JSON inside the open objects auth, constraints, signature, input_schema,
client_context, freshness), MAY members or not, extension members (collision-resistant at the
metadata's top level, ADP-4.7-04), Unicode text, in any member order. Its description and
examples pass the kit's heuristics (AMB-31): they come from pools of plain, concrete text in
several languages and scripts.
"""

from __future__ import annotations

import copy
import json
import string
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from conformance.adp._kinds import (
    BINDING_FIELDS,
    CANDIDATE_FIELDS,
    ERROR_FIELDS,
    EXAMPLE_FIELDS,
    METADATA_FIELDS,
    REQUEST_FIELDS,
    RESPONSE_FIELDS,
)
from conformance.json_values import ANY_JSON, text
from conformance.json_values import words as _words

Json = Any
Doc = dict[str, Any]
Mutation = Callable[[Doc], st.SearchStrategy[Json]]
ByteMutation = Callable[[Doc], st.SearchStrategy[bytes]]

_ALL_FIELDS = {n.casefold() for n in METADATA_FIELDS + REQUEST_FIELDS + RESPONSE_FIELDS + ERROR_FIELDS
               + EXAMPLE_FIELDS + BINDING_FIELDS + CANDIDATE_FIELDS}

ANY_OBJECT = st.dictionaries(text(0, 10), ANY_JSON, max_size=4)

_LABEL = st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=10)
_HOST = st.lists(_LABEL, min_size=2, max_size=3).map(".".join)

# ------------------------------------------------------------------ value forms
IDS = st.one_of(
    st.builds(lambda h, p: f"https://{h}/id/{p}", _HOST, _LABEL),                      # a URI (the examples)
    st.builds(lambda h, p: f"urn:{h}:agent:{p}", _LABEL, _LABEL),                        # another URI
    st.builds(lambda h, p: f"{p}.agents.{h}", _HOST, _LABEL),                            # a DNS-based name
    st.builds(lambda n: f"agent-{n}", st.integers(0, 10**9)),                            # registry-local
    text(1, 40),                                                                          # anything else
)
TIMES = st.one_of(
    st.builds(lambda y, mo, d, h: f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:00:00Z",
              st.integers(1970, 2100), st.integers(1, 12), st.integers(1, 28), st.integers(0, 23)),
    _words("2026-05-08T00:00:00Z", "2026-05-08T09:30:00.123+09:00", "2026-05-08", "Fri, 08 May 2026 00:00:00 GMT"),
    text(0, 20),  # no format is stated (AMB-13)
)
VERSIONS = st.one_of(_words("1.0.0", "2.3.0", "1", "2026-05-08", "v7", "rc-1"), text(0, 12))
STATUSES = st.one_of(_words("active", "inactive", "deprecated", "maintenance", "revoked"), text(0, 12))  # AMB-03
PROTOCOLS = st.one_of(_words("https", "http", "a2a", "mcp", "grpc", "wss", "openapi"), text(0, 12))
ENDPOINTS = st.one_of(
    st.builds(lambda h, p: f"https://{h}/{p}/invoke", _HOST, _LABEL),
    st.builds(lambda h: f"wss://{h}/stream", _HOST),
    _words("urn:example:endpoint:1", "queue://orders", "agents/hr-core", "did:example:123#agent"),
    text(0, 30),  # an endpoint reference need not be a URI (ADP-4.5-02)
)
MEDIA_TYPES = st.lists(st.one_of(_words("application/json", "text/event-stream", "application/a2a+json"),
                                 text(0, 20)), max_size=3)
INTERACTION_MODELS = st.one_of(_words("request-response", "streaming", "batch"), text(0, 16))  # open list
INTEGERS = st.one_of(st.integers(-(2**53), 2**53), st.integers(-3, 10).map(float))  # 3.0 is an integer
NUMBERS = st.one_of(st.integers(-(2**53), 2**53), st.floats(allow_nan=False, allow_infinity=False))
STRINGS = st.lists(text(0, 16), max_size=4)
LANGUAGES = st.one_of(_words("en", "ja", "de-DE", "zh-Hant-TW", "sr-Latn", "und"), text(0, 8))

#: Descriptions and example tasks: plain and concrete (no marketing, superlative, generic,
#: secret or personal text), in several languages and scripts, at least three words.
DESCRIPTIONS = (
    "Answers short factual questions.",
    "Optimizes HR workflows and onboarding checks.",
    "Translates supplier invoices between English and German; does not change amounts.",
    "Schedules maintenance windows for regional substations from outage reports.",
    "Summarizes clinical trial protocols for research coordinators; not for diagnosis.",
    "Übersetzt Lieferantenrechnungen zwischen Deutsch und Englisch und prüft die Summen.",
    "Traduit des factures fournisseurs en français et vérifie les montants de TVA.",
    "翻訳された請求書の合計金額と税額を確認します。個人情報は扱いません。",
    "Переводит счета поставщиков с немецкого на английский язык.",
    "Plans team offsites 🗓️ within a fixed budget and travel policy.",
    "يلخص تقارير الصيانة اليومية للمحطات الكهربائية",
    "Forwards grid alerts on a best-effort basis; delivery is not guaranteed and never perfect.",
)
EXAMPLE_TEXTS = (
    "Prepare a new-employee onboarding workflow.",
    "Check an employee record for missing payroll fields.",
    "Translate this German supplier invoice into English and keep the VAT lines.",
    "List substations with planned outages next week in the northern region.",
    "Summarize the inclusion criteria of this trial protocol in five bullet points.",
    "Prüfe, ob die Rechnungssumme nach der Übersetzung gleich bleibt.",
    "Vérifie le taux de TVA appliqué sur cette facture fournisseur.",
    "請求書の税額が翻訳後も一致しているか確認してください。",
    "Найди в счёте строки без кода валюты.",
    "Book two hotel rooms in Lisbon for the May offsite 🏨 under the travel policy.",
    "Find the best match for this job description among the open roles.",
)
NAMES = st.one_of(_words("HR Core Automator", "Minimal Agent", "Invoice Translator", "Outage Planner",
                         "Trial Summarizer", "Rechnungsprüfer", "請求書チェッカー"), text(0, 30))

#: Extension member names: at the metadata's top level collision-resistant (ADP-4.7-04).
REVERSE_DNS = st.builds(lambda a, b: f"{a}.{b}", _words("com.example", "net.example", "org.acme", "io.agents"), _LABEL)
EXTENSION_NAMES = st.one_of(REVERSE_DNS, st.builds(lambda b: f"urn:example:{b}", _LABEL),
                            st.builds(lambda b: f"https://example.com/ext/{b}", _LABEL))
#: Elsewhere any name that is not a defined one (in any case, so a document keeps its kind).
OTHER_NAMES = st.one_of(EXTENSION_NAMES, text(1, 12), _LABEL).filter(lambda k: k.casefold() not in _ALL_FIELDS)


def _extensions(names: st.SearchStrategy[str] = OTHER_NAMES) -> st.SearchStrategy[dict[str, Json]]:
    return st.dictionaries(names, ANY_JSON, max_size=2)


def _with(draw: st.DrawFn, obj: Doc, optional: dict[str, st.SearchStrategy[Json]],
          names: st.SearchStrategy[str] = OTHER_NAMES) -> Doc:
    for name, values in optional.items():
        if draw(st.booleans()):
            obj[name] = draw(values)
    extra = draw(_extensions(names))
    obj.update({k: v for k, v in extra.items() if k not in obj})
    order = draw(st.permutations(list(obj)))
    return {k: obj[k] for k in order}


@st.composite
def example_objects(draw: st.DrawFn) -> Doc:
    obj: Doc = {"id": draw(st.one_of(_words("ex-1", "ex-2"), text(0, 12))), "text": draw(st.sampled_from(EXAMPLE_TEXTS))}
    return _with(draw, obj, {"tags": STRINGS, "input_schema": ANY_OBJECT, "output_schema": ANY_OBJECT,
                             "language": LANGUAGES})


@st.composite
def binding_objects(draw: st.DrawFn) -> Doc:
    obj: Doc = {"protocol": draw(PROTOCOLS), "endpoint": draw(ENDPOINTS)}
    return _with(draw, obj, {"media_types": MEDIA_TYPES, "interaction_model": INTERACTION_MODELS,
                             "priority": INTEGERS})


@st.composite
def documents(draw: st.DrawFn) -> Doc:
    """A valid Agent Metadata object: the MUST and SHOULD members, MAY members or not, extensions."""
    description = draw(st.sampled_from(DESCRIPTIONS))
    doc: Doc = {
        "id": draw(IDS),
        "name": draw(NAMES.filter(lambda n: n.strip().casefold() != description.casefold())),
        "description": description,
        "tags": draw(STRINGS),
        "examples": draw(st.lists(example_objects(), max_size=3)),
        "bindings": draw(st.lists(binding_objects(), min_size=1, max_size=3)),
        "auth": draw(st.one_of(st.fixed_dictionaries({"type": _words("none", "bearer", "oauth2", "mtls")}), ANY_OBJECT)),
        "status": draw(STATUSES),
        "version": draw(VERSIONS),
        "updated_at": draw(TIMES),
    }
    return _with(draw, doc, {"constraints": ANY_OBJECT, "expires_at": TIMES, "signature": ANY_OBJECT},
                 EXTENSION_NAMES)


@st.composite
def requests(draw: st.DrawFn) -> Doc:
    """A valid Discovery Request: query, MAY members or not, extensions."""
    doc: Doc = {"query": draw(st.one_of(st.sampled_from(EXAMPLE_TEXTS), text(0, 40)))}
    return _with(draw, doc, {
        "required_tags": STRINGS, "preferred_tags": STRINGS, "excluded_tags": STRINGS,
        "protocols": st.lists(PROTOCOLS, max_size=3), "constraints": ANY_OBJECT, "limit": INTEGERS,
        "include_evidence": st.booleans(), "detail": _words("minimal", "summary", "full"),
        "client_context": ANY_OBJECT})


RECOMMENDED_COMPONENTS = ("tag", "context", "example", "protocol", "freshness", "policy")


@st.composite
def score_components(draw: st.DrawFn) -> Doc:
    comps = draw(st.dictionaries(_words(*RECOMMENDED_COMPONENTS), NUMBERS, min_size=1, max_size=6))
    comps.update(draw(st.dictionaries(st.one_of(REVERSE_DNS, _words("bm25", "recency")), ANY_JSON, max_size=2)))
    return comps


@st.composite
def candidate_objects(draw: st.DrawFn) -> Doc:
    obj: Doc = {"id": draw(IDS), "name": draw(NAMES), "description": draw(st.sampled_from(DESCRIPTIONS)),
                "bindings": draw(st.lists(st.one_of(binding_objects(), ANY_OBJECT), max_size=2)),
                "score": draw(NUMBERS), "status": draw(STATUSES),
                "freshness": draw(st.one_of(st.fixed_dictionaries(
                    {"metadata_updated_at": TIMES, "indexed_at": TIMES}), ANY_OBJECT))}
    return _with(draw, obj, {
        "score_components": score_components(), "matched_tags": STRINGS,
        "matched_examples": st.lists(st.one_of(example_objects(), ANY_OBJECT), max_size=2),
        "credential_refs": STRINGS, "redacted": st.booleans()})


@st.composite
def responses(draw: st.DrawFn, min_candidates: int = 0) -> Doc:
    """A valid Discovery Response: candidates (possibly none), the SHOULD members, extensions."""
    doc: Doc = {"request_id": draw(text(0, 16)), "candidates": draw(st.lists(candidate_objects(), min_size=min_candidates,
                                                                              max_size=3)),
                "applied_filters": draw(ANY_OBJECT), "generated_at": draw(TIMES)}
    return _with(draw, doc, {"unsupported_filters": STRINGS, "warnings": STRINGS})


@st.composite
def error_objects(draw: st.DrawFn) -> Doc:
    """A valid error object: code, message and correlation_id of any JSON type (AMB-10)."""
    codes = st.one_of(_words("invalid_request", "unsupported_filter", "unauthorized", "forbidden", "conflict",
                             "not_found", "stale_metadata", "rate_limited"), ANY_JSON)
    doc: Doc = {"code": draw(codes), "message": draw(st.one_of(text(), ANY_JSON)),
                "correlation_id": draw(st.one_of(text(1, 16), ANY_JSON))}
    return _with(draw, doc, {"retry_after": st.one_of(st.integers(0, 3600), TIMES, ANY_JSON)})


VALID: dict[str, Callable[[], st.SearchStrategy[Doc]]] = {
    "metadata": documents, "request": requests, "response": responses, "error": error_objects}


# ------------------------------------------------------------------ mutations
def _copy(doc: Doc) -> Doc:
    return copy.deepcopy(doc)


NOT_STRING = st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none(),
                       st.just([]), st.just({}), st.lists(text(0, 5), min_size=1, max_size=2))
NOT_OBJECT = st.one_of(st.integers(), st.booleans(), st.none(), text(0, 8), st.lists(ANY_JSON, max_size=2))
NOT_ARRAY = st.one_of(st.integers(), st.booleans(), st.none(), text(0, 8), ANY_OBJECT)

_NESTED = {"examples": example_objects, "bindings": binding_objects, "candidates": candidate_objects}
_KIND_OF_NEST = {"examples": "metadata", "bindings": "metadata", "candidates": "response"}


def _case_variant(name: str) -> st.SearchStrategy[str]:
    letters = [i for i, c in enumerate(name) if c.isalpha()]
    return st.lists(st.booleans(), min_size=len(letters), max_size=len(letters)).filter(any).map(
        lambda flips: "".join(c.swapcase() if i in {letters[j] for j, f in enumerate(flips) if f} else c
                              for i, c in enumerate(name)))


@st.composite
def _holder(draw: st.DrawFn, doc: Doc, kind: str, where: str) -> tuple[Doc, Doc]:
    """A valid object of ``kind`` (``doc`` itself, copied, for metadata) and the object inside
    it at ``where`` ("top", or one element of examples, bindings or candidates)."""
    base = _copy(doc) if kind == "metadata" else draw(VALID[kind]())
    if where == "top":
        return base, base
    array = base.get(where)
    objects = [i for i, e in enumerate(array or []) if isinstance(e, dict)]
    if not objects:
        base[where] = array = (array or []) + [draw(_NESTED[where]())]
        objects = [len(array) - 1]
    return base, array[draw(st.sampled_from(objects))]


def _set(kind: str, where: str, member: str, values: st.SearchStrategy[Json] | None) -> Mutation:
    """``member`` of the object at ``where`` removed (``values`` None) or set to a drawn value."""
    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> Doc:
        base, holder = draw(_holder(doc, kind, where))
        if values is None:
            holder.pop(member, None)
        else:
            holder[member] = draw(values)
        return base
    return mutate


def _rename(kind: str, where: str, member: str, names: st.SearchStrategy[str],
            value: st.SearchStrategy[Json] | None = None) -> Mutation:
    """``member`` of the object at ``where`` under another name (keeping its value, or a drawn
    one when absent)."""
    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> Doc:
        base, holder = draw(_holder(doc, kind, where))
        name = draw(names.filter(lambda n: n not in holder))
        if member in holder:
            holder[name] = holder.pop(member)
        else:
            assert value is not None, f"{member} is always present"
            holder[name] = draw(value)
        return base
    return mutate


def _presence(kind: str, where: str, member: str, *near: str) -> dict[str, Mutation]:
    """SHOULD presence: left out, or under a near name (at the metadata's top level a
    collision-resistant extension name, so no other heuristic clause breaks)."""
    if kind == "metadata" and where == "top":
        names = st.sampled_from([f"com.example.{member}", f"urn:example:{member}", f"net.example.{member}"])
        return {"absent": _set(kind, where, member, None), "under-an-extension-name": _rename(kind, where, member, names)}
    return {"absent" if where == "top" else "absent-from-one": _set(kind, where, member, None),
            "misnamed": _rename(kind, where, member, st.sampled_from(near))}


_NON_STRING_ELEMENT = st.lists(st.one_of(text(0, 6), st.integers(), st.none(), st.just({}), st.just([])),
                               min_size=1, max_size=3).filter(lambda xs: any(not isinstance(x, str) for x in xs))
_NOT_OBJECTS = st.lists(st.one_of(text(0, 12), ENDPOINTS, st.integers(), st.none(), st.just([])), min_size=1,
                        max_size=2)


def _non_object_element(kind: str, where: str, member: str) -> Mutation:
    """The array keeps its objects and gains elements that are not objects, at any position."""
    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> Doc:
        base, holder = draw(_holder(doc, kind, where))
        array = list(holder.get(member) or [])
        for value in draw(_NOT_OBJECTS):
            array.insert(draw(st.integers(0, len(array))), value)
        holder[member] = array
        return base
    return mutate


def _typed(kind: str, where: str, member: str, type_: str) -> dict[str, Mutation]:
    """Two ways a member present is not of its Type column's type."""
    def put(values: st.SearchStrategy[Json]) -> Mutation:
        return _set(kind, where, member, values)
    if type_ == "string":
        return {"a-number": put(st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False))),
                "other-type": put(st.one_of(st.booleans(), st.none(), st.just([]), st.just({}),
                                            st.lists(text(0, 5), min_size=1, max_size=2)))}
    if type_ == "object":
        return {"an-array": put(st.lists(ANY_JSON, max_size=3)),
                "a-scalar": put(st.one_of(st.integers(), st.booleans(), st.none(), text(0, 8)))}
    if type_ == "array of string":
        return {"not-an-array": put(NOT_ARRAY), "non-string-element": put(_NON_STRING_ELEMENT)}
    if type_ == "array of object":
        return {"not-an-array": put(NOT_ARRAY), "non-object-element": _non_object_element(kind, where, member)}
    if type_ == "integer":
        return {"fractional": put(st.floats(-1e6, 1e6, allow_nan=False).filter(lambda x: not x.is_integer())),
                "not-a-number": put(st.one_of(st.sampled_from(["1", "10", "high"]), st.booleans(), st.none(),
                                              st.just([1])))}
    if type_ == "number":
        return {"numeric-string": put(st.sampled_from(["0.91", "1", "NaN", "high"])),
                "other-type": put(st.one_of(st.booleans(), st.none(), st.just([0.5]), st.just({"value": 0.5})))}
    if type_ == "boolean":
        return {"a-string": put(st.sampled_from(["true", "false", "yes", ""])),
                "a-number": put(st.sampled_from([0, 1]))}
    raise ValueError(type_)


def _must_member(kind: str, where: str, member: str, type_: str | None, *near: str) -> dict[str, Mutation]:
    """A MUST row: the member absent (from one object), of another type, or under a near name."""
    ways = {"absent" if where == "top" else "absent-from-one": _set(kind, where, member, None)}
    if type_ is not None:
        ways[{"string": "not-a-string", "array of object": "not-an-array"}[type_]] = _set(kind, where, member, {
            "string": NOT_STRING, "array of object": NOT_ARRAY}[type_])
    if near:
        ways["misnamed"] = _rename(kind, where, member, st.sampled_from(near))
    return ways


@st.composite
def _wrapped(draw: st.DrawFn, doc: Doc, kind: str) -> Json:
    """The object inside an array (alone, twice, or before another value)."""
    base = _copy(doc) if kind == "metadata" else draw(VALID[kind]())
    tail = draw(st.sampled_from([[], [_copy(base)], [None], [{}]]))
    return [base] + tail


# ---- heuristic breaks (AMB-31)
_MARKETING_WORDS = ("world-class", "revolutionary", "cutting-edge", "industry-leading", "seamless",
                    "game-changing", "next-generation", "groundbreaking", "award-winning", "effortless")
_MARKETING_PHRASES = ("state of the art", "to the next level", "empower your business", "game changer",
                      "blazing fast")
_SUPERLATIVE_WORDS = ("best", "perfect", "guaranteed", "best-in-class", "unmatched", "flawless", "greatest",
                      "ultimate", "fastest", "100%")


@st.composite
def _description(draw: st.DrawFn, doc: Doc, how: str) -> Doc:
    out = _copy(doc)
    base = draw(st.sampled_from(DESCRIPTIONS))
    if how == "too-short":
        out["description"] = draw(_words("Agent", "HR bot", "Translator", "請求書", "Übersetzer", "", "  "))
    elif how == "name-repeated":
        name = draw(_words("Invoice Translator Service Agent", "HR Core Automator", "Outage Planner for Substations"))
        out["name"], out["description"] = name, draw(_words(name, name.upper(), name + "."))
    elif how == "buzzword":
        word = draw(st.sampled_from(_MARKETING_WORDS))
        out["description"] = base + " " + draw(st.sampled_from([f"A {word} service.", f"{word.title()} agent."]))
    elif how == "phrase":
        phrase = draw(st.sampled_from(_MARKETING_PHRASES))
        out["description"] = draw(_words(f"Takes invoices {phrase}.", f"{phrase.capitalize()} for HR.")) + " " + base
    elif how == "superlative":
        out["description"] = base + " " + draw(st.sampled_from(_SUPERLATIVE_WORDS)).capitalize() + " results."
    elif how == "secret":
        secret = draw(_words("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
                             "AKIAIOSFODNN7EXAMPLE", "password=hunter2", "https://admin:s3cret@api.example.net/"))
        out["description"] = base + f" Access with {secret} when calling."
    elif how == "private-address":
        address = draw(_words("10.0.12.7", "192.168.1.20", "172.16.4.2", "127.0.0.1", "169.254.169.254", "::1"))
        out["description"] = base + f" Reads from {address} nightly."
    return out


@st.composite
def _example_text(draw: st.DrawFn, doc: Doc, how: str) -> Doc:
    out = _copy(doc)
    examples = out.setdefault("examples", [])
    if not isinstance(examples, list) or not any(isinstance(e, dict) for e in examples):
        out["examples"] = examples = [draw(example_objects())]
    i = draw(st.sampled_from([i for i, e in enumerate(examples) if isinstance(e, dict)]))
    base = draw(st.sampled_from(EXAMPLE_TEXTS))
    value: str
    if how == "copy-of-description":
        value = out["description"]
    elif how == "tag-list":
        tags = draw(st.lists(_words("hr", "payroll", "onboarding", "translation", "invoice", "請求書", "übersetzung"),
                             min_size=3, max_size=5))
        value = draw(_words(", ", "; ", " / ", ",")).join(tags)
    elif how == "generic-request":
        value = draw(_words("Help me", "Do anything", "answer questions", "Answer any question.", "Assist me!",
                            "Handle any request", "do everything"))
    elif how == "too-short":
        value = draw(_words("Payroll", "Translate invoices", "Onboarding?", "請求書", "Rechnungen prüfen"))
    elif how == "superlative":
        value = base.rstrip(".") + draw(_words(", with the best accuracy.", " — guaranteed.", ", perfect every time.",
                                               " with unmatched accuracy."))
    elif how == "internal-host":
        value = base.rstrip(".") + draw(_words(" from hr-db01.corp.internal.", " on payroll.lan.",
                                               " using build.local.", " via localhost."))
    elif how == "email":
        value = base.rstrip(".") + draw(_words(" and send it to jane.doe@example.com.",
                                               " for maria.garcía@example.org."))
    elif how == "phone":
        value = base.rstrip(".") + draw(_words(" and call +1 415 555 0100.", " then ring (030) 1234-5678."))
    elif how == "card-number":
        value = base.rstrip(".") + draw(_words(" paid with card 4111 1111 1111 1111.",
                                               " charged to 5500-0000-0000-0004."))
    else:
        raise ValueError(how)
    examples[i]["text"] = value
    return out


@st.composite
def _case_renamed(draw: st.DrawFn, doc: Doc, where: str) -> Doc:
    """A MAY member spelled in another case, the defined spelling gone: field names are
    case-sensitive (ADP-4.1-24; beside the defined member a variant is only an unknown member,
    AMB-28)."""
    out = _copy(doc)
    if where == "top":
        holder, member = out, draw(_words("constraints", "expires_at", "signature"))
        value = out.get(member, draw({"constraints": ANY_OBJECT, "expires_at": TIMES, "signature": ANY_OBJECT}[member]))
    else:
        base, holder = draw(_holder(out, "metadata", where))
        out = base
        fields = {"bindings": ("media_types", "interaction_model", "priority"),
                  "examples": ("tags", "input_schema", "output_schema", "language")}[where]
        member = draw(st.sampled_from(fields))
        value = holder.get(member, draw({"media_types": MEDIA_TYPES, "interaction_model": INTERACTION_MODELS,
                                         "priority": INTEGERS, "tags": STRINGS, "input_schema": ANY_OBJECT,
                                         "output_schema": ANY_OBJECT, "language": LANGUAGES}[member]))
    holder.pop(member, None)
    holder[draw(_case_variant(member).filter(lambda n: n not in holder))] = value
    return out


@st.composite
def _plain_extension(draw: st.DrawFn, doc: Doc, how: str) -> Doc:
    out = _copy(doc)
    names = {"plain-name": _words("region", "cost_tier", "acmeRegion", "x_internal", "priority", "owner"),
             "prefixed-name": _words("x-acme-tier", "_internal", "@type", "$schema", "X-Region", "acme-sla")}[how]
    out[draw(names.filter(lambda n: n not in out))] = draw(ANY_JSON)
    return out


_COMPONENT_BREAKS = {
    "deployment-specific-only": st.dictionaries(_words("bm25", "recency", "net.example.click_rate", "dense"),
                                                NUMBERS, min_size=1, max_size=3),
    "empty": st.just({}),
    "other-case": st.dictionaries(_words("Tag", "CONTEXT", "Example", "Tags", "examples", "tag_score"),
                                  NUMBERS, min_size=1, max_size=3),
}


@st.composite
def _components(draw: st.DrawFn, doc: Doc, how: str) -> Doc:
    """One candidate's score_components holding none of the recommended names."""
    base, holder = draw(_holder(doc, "response", "candidates"))
    holder["score_components"] = draw(_COMPONENT_BREAKS[how])
    return base


@st.composite
def _without_other_request_members(draw: st.DrawFn, doc: Doc, how: str) -> Doc:
    """A request without query (absent, or misnamed): it keeps another member only a request
    defines, so it is still read as a request (AMB-26)."""
    base = draw(requests())
    if not set(base) & (set(REQUEST_FIELDS) - {"query", "constraints"}):
        base["limit"] = draw(st.integers(1, 50))
    value = base.pop("query")
    if how == "misnamed":
        base[draw(_words("q", "Query", "search", "intent", "text"))] = value
    return base


M, R, S, E = "metadata", "request", "response", "error"

MUTATIONS: dict[str, dict[str, Mutation]] = {
    "ADP-3.3-01": {"empty-bindings": _set(M, "top", "bindings", st.just([]))},
    "ADP-4.1-01": {"wrapped-in-an-array": lambda doc: _wrapped(doc, M)},
    "ADP-4.1-02": _must_member(M, "top", "id", "string"),
    "ADP-4.1-03": _must_member(M, "top", "name", "string"),
    "ADP-4.1-04": _must_member(M, "top", "description", "string"),
    "ADP-4.1-05": _presence(M, "top", "tags"),
    "ADP-4.1-06": _typed(M, "top", "tags", "array of string"),
    "ADP-4.1-07": _presence(M, "top", "examples"),
    "ADP-4.1-08": _typed(M, "top", "examples", "array of object"),
    "ADP-4.1-09": {**_must_member(M, "top", "bindings", "array of object"),
                   "non-object-element": _non_object_element(M, "top", "bindings")},
    "ADP-4.1-10": _presence(M, "top", "auth"),
    "ADP-4.1-11": _typed(M, "top", "auth", "object"),
    "ADP-4.1-13": _typed(M, "top", "constraints", "object"),
    "ADP-4.1-14": _presence(M, "top", "status"),
    "ADP-4.1-15": _typed(M, "top", "status", "string"),
    "ADP-4.1-17": _typed(M, "top", "expires_at", "string"),
    "ADP-4.1-18": _presence(M, "top", "version"),
    "ADP-4.1-19": _typed(M, "top", "version", "string"),
    "ADP-4.1-20": _presence(M, "top", "updated_at"),
    "ADP-4.1-21": _typed(M, "top", "updated_at", "string"),
    "ADP-4.1-23": _typed(M, "top", "signature", "object"),
    "ADP-4.1-24": {
        "top-level-member-in-other-case": lambda doc: _case_renamed(doc, "top"),
        "binding-member-in-other-case": lambda doc: _case_renamed(doc, "bindings"),
        "example-member-in-other-case": lambda doc: _case_renamed(doc, "examples"),
    },
    "ADP-4.3-01": {how: (lambda h: lambda doc: _description(doc, h))(how) for how in ("too-short", "name-repeated")},
    "ADP-4.3-02": {how: (lambda h: lambda doc: _description(doc, h))(how) for how in ("buzzword", "phrase")},
    "ADP-4.3-03": {"in-the-description": lambda doc: _description(doc, "superlative"),
                   "in-an-example": lambda doc: _example_text(doc, "superlative")},
    "ADP-4.4-01": {how: (lambda h: lambda doc: _example_text(doc, h))(how)
                   for how in ("copy-of-description", "tag-list")},
    "ADP-4.4-02": _presence(M, "examples", "id", "example_id", "ex_id", "key", "uid"),
    "ADP-4.4-03": _typed(M, "examples", "id", "string"),
    "ADP-4.4-04": _must_member(M, "examples", "text", "string", "task", "prompt", "query", "example"),
    "ADP-4.4-06": _typed(M, "examples", "tags", "array of string"),
    "ADP-4.4-08": {"boolean-schema": _set(M, "examples", "input_schema", st.booleans()),
                   "other-type": _set(M, "examples", "input_schema", NOT_OBJECT.filter(lambda v: v is not True
                                                                                        and v is not False))},
    "ADP-4.4-10": {"boolean-schema": _set(M, "examples", "output_schema", st.booleans()),
                   "other-type": _set(M, "examples", "output_schema", NOT_OBJECT.filter(lambda v: v is not True
                                                                                          and v is not False))},
    "ADP-4.4-12": _typed(M, "examples", "language", "string"),
    "ADP-4.4-13": {how: (lambda h: lambda doc: _example_text(doc, h))(how) for how in ("generic-request", "too-short")},
    "ADP-4.5-01": _must_member(M, "bindings", "protocol", "string"),
    "ADP-4.5-02": _must_member(M, "bindings", "endpoint", "string", "url", "uri", "address"),
    "ADP-4.5-04": _typed(M, "bindings", "media_types", "array of string"),
    "ADP-4.5-06": _typed(M, "bindings", "interaction_model", "string"),
    "ADP-4.5-08": _typed(M, "bindings", "priority", "integer"),
    "ADP-4.6-01": _presence(M, "top", "version"),
    "ADP-4.7-04": {how: (lambda h: lambda doc: _plain_extension(doc, h))(how) for how in ("plain-name", "prefixed-name")},
    "ADP-5.1-01": {"wrapped-in-an-array": lambda doc: _wrapped(doc, R)},
    "ADP-5.1-02": {"absent": lambda doc: _without_other_request_members(doc, "absent"),
                   "misnamed": lambda doc: _without_other_request_members(doc, "misnamed"),
                   "not-a-string": _set(R, "top", "query", NOT_STRING)},
    "ADP-5.1-04": _typed(R, "top", "required_tags", "array of string"),
    "ADP-5.1-06": _typed(R, "top", "preferred_tags", "array of string"),
    "ADP-5.1-08": _typed(R, "top", "excluded_tags", "array of string"),
    "ADP-5.1-10": _typed(R, "top", "protocols", "array of string"),
    "ADP-5.1-12": _typed(R, "top", "constraints", "object"),
    "ADP-5.1-14": _typed(R, "top", "limit", "integer"),
    "ADP-5.1-16": _typed(R, "top", "include_evidence", "boolean"),
    "ADP-5.1-18": {"other-value": _set(R, "top", "detail", _words("verbose", "MINIMAL", "Summary", "full ", "",
                                                                   "compact", "détaillé")),
                   "not-a-string": _set(R, "top", "detail", st.one_of(st.integers(0, 2), st.none(),
                                                                       st.just(["full"]), st.booleans()))},
    "ADP-5.1-20": _typed(R, "top", "client_context", "object"),
    "ADP-6.1-01": {"wrapped-in-an-array": lambda doc: _wrapped(doc, S)},
    "ADP-6.1-02": _presence(S, "top", "request_id", "requestId", "req_id", "RequestID", "trace_id"),
    "ADP-6.1-03": _typed(S, "top", "request_id", "string"),
    "ADP-6.1-04": _must_member(S, "top", "candidates", "array of object", "Candidates", "results", "agents"),
    "ADP-6.1-05": _presence(S, "top", "applied_filters", "filters", "appliedFilters", "applied"),
    "ADP-6.1-06": _typed(S, "top", "applied_filters", "object"),
    "ADP-6.1-08": _typed(S, "top", "unsupported_filters", "array of string"),
    "ADP-6.1-10": _typed(S, "top", "warnings", "array of string"),
    "ADP-6.1-11": _presence(S, "top", "generated_at", "generatedAt", "timestamp", "created_at"),
    "ADP-6.1-12": _typed(S, "top", "generated_at", "string"),
    "ADP-6.2-02": _must_member(S, "candidates", "id", "string", "agent_id", "ID", "uri"),
    "ADP-6.2-03": _presence(S, "candidates", "name", "agent_name", "title", "Name"),
    "ADP-6.2-04": _typed(S, "candidates", "name", "string"),
    "ADP-6.2-05": _presence(S, "candidates", "description", "summary", "desc", "Description"),
    "ADP-6.2-06": _typed(S, "candidates", "description", "string"),
    "ADP-6.2-07": _presence(S, "candidates", "bindings", "binding", "endpoints", "Bindings"),
    "ADP-6.2-08": _typed(S, "candidates", "bindings", "array of object"),
    "ADP-6.2-09": _presence(S, "candidates", "score", "Score", "relevance", "rank_score"),
    "ADP-6.2-10": _typed(S, "candidates", "score", "number"),
    "ADP-6.2-12": _typed(S, "candidates", "score_components", "object"),
    "ADP-6.2-14": _typed(S, "candidates", "matched_tags", "array of string"),
    "ADP-6.2-16": _typed(S, "candidates", "matched_examples", "array of object"),
    "ADP-6.2-18": _typed(S, "candidates", "credential_refs", "array of string"),
    "ADP-6.2-20": _typed(S, "candidates", "redacted", "boolean"),
    "ADP-6.2-21": _presence(S, "candidates", "status", "state", "Status", "availability"),
    "ADP-6.2-22": _typed(S, "candidates", "status", "string"),
    "ADP-6.2-23": _presence(S, "candidates", "freshness", "Freshness", "fresh", "indexed_at"),
    "ADP-6.2-24": _typed(S, "candidates", "freshness", "object"),
    "ADP-6.3-02": {how: (lambda h: lambda doc: _components(doc, h))(how)
                   for how in ("deployment-specific-only", "empty", "other-case")},
    "ADP-8-02": _must_member(E, "top", "code", None, "error_code", "Code", "error", "status"),
    "ADP-8-03": _presence(E, "top", "message", "msg", "detail", "Message", "error_description"),
    "ADP-8-04": _presence(E, "top", "correlation_id", "correlationId", "trace_id", "request_id"),
    "ADP-11-01": {"secret-in-the-description": lambda doc: _description(doc, "secret"),
                  "private-address-in-the-description": lambda doc: _description(doc, "private-address"),
                  "internal-host-in-an-example": lambda doc: _example_text(doc, "internal-host")},
    "ADP-11-03": {how: (lambda h: lambda doc: _example_text(doc, h))(how) for how in ("email", "phone", "card-number")},
}

#: (clause, way) -> other clauses that way cannot help breaking too.
IMPLIED: dict[tuple[str, str], set[str]] = {
    # a metadata object without id, name, description or bindings is not the D0 object either
    **{(cid, "absent"): {"ADP-3.3-01"} for cid in ("ADP-4.1-02", "ADP-4.1-03", "ADP-4.1-04", "ADP-4.1-09")},
    # the version row and 4.6's "SHOULD include a version field" say the same (mutant-floor [restates])
    **{("ADP-4.1-18", way): {"ADP-4.6-01"} for way in MUTATIONS["ADP-4.1-18"]},
    **{("ADP-4.6-01", way): {"ADP-4.1-18"} for way in MUTATIONS["ADP-4.6-01"]},
}


# ------------------------------------------------------------------ byte mutations
@st.composite
def serialized(draw: st.DrawFn, doc: Json) -> str:
    """The JSON text of doc, in one of the spellings JSON allows."""
    return json.dumps(doc, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1, "\t"])))


def _base(kind: str) -> Callable[[st.DrawFn, Doc], Doc]:
    def get(draw: st.DrawFn, doc: Doc) -> Doc:
        return _copy(doc) if kind == "metadata" else draw(VALID[kind]())
    return get


def _several(kind: str) -> ByteMutation:
    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> bytes:
        first = draw(serialized(_base(kind)(draw, doc)))
        second = draw(st.one_of(serialized(_base(kind)(draw, doc)), _words("{}", "[]", "1", "null", '"x"')))
        return (first + draw(_words("\n", " ", "", "\r\n")) + second).encode("utf-8")
    return mutate


def _not_json(kind: str) -> ByteMutation:
    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> bytes:
        body = draw(serialized(_base(kind)(draw, doc))).rstrip()
        how = draw(_words("trailing-comma", "comment", "nan", "single-quotes", "unclosed"))
        if how == "trailing-comma":
            body = body[:-1] + ",}"
        elif how == "comment":
            body = "// ADP object\n" + body
        elif how == "nan":
            body = body[:-1].rstrip() + (', ' if len(body) > 2 else '') + '"net.example.nan": NaN}'
        elif how == "single-quotes":
            body = body.replace('"', "'")
        else:
            body = body[:-1]
        return body.encode("utf-8")
    return mutate


def _not_utf8(kind: str) -> ByteMutation:
    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> bytes:
        body = _base(kind)(draw, doc)
        body["net.example.note"] = "Café Größe ÿ"
        text_ = json.dumps(body, ensure_ascii=False)
        how = draw(_words("utf-16", "utf-32", "latin-1", "cp1252"))
        if how in ("utf-16", "utf-32"):
            return text_.encode(how)  # with a byte order mark
        return text_.encode(how, errors="replace")
    return mutate


def _bytes(kind: str) -> dict[str, ByteMutation]:
    return {"several-json-texts": _several(kind), "not-json": _not_json(kind), "not-utf-8": _not_utf8(kind)}


BYTE_MUTATIONS: dict[str, dict[str, ByteMutation]] = {
    "ADP-4.1-01": _bytes(M),
    "ADP-5.1-01": _bytes(R),
    "ADP-6.1-01": _bytes(S),
}


def named_breaks() -> dict[str, tuple[str, ...]]:
    """Clause id -> the names of the distinct ways the strategies break it (the mutant floor,
    :mod:`conformance.proofs`); each is run by the property tests."""
    breaks: dict[str, list[str]] = {cid: list(ways) for cid, ways in MUTATIONS.items()}
    for cid, ways in BYTE_MUTATIONS.items():
        breaks.setdefault(cid, []).extend(ways)
    return {cid: tuple(ways) for cid, ways in breaks.items()}
