"""The reference discovery service of ADP (draft-xu-efficient-agent-discovery-profile-00).

A small, real discovery service over the Agent Metadata records of ``fixtures/adp/registry.json``
(the site's document) and whatever is registered while it runs, on the kit's HTTP binding
(AMB-01): ``POST /discover`` answers a Discovery Request, ``GET /agents/{id}`` serves one
agent's metadata, ``PUT /agents/{id}`` registers or updates it (declared with ``Allow: GET,
PUT``, AMB-40).

It applies required_tags, excluded_tags, protocols and constraints.region as hard filters,
reports constraints it cannot apply in ``unsupported_filters``, drops records whose
``expires_at`` has passed, ranks by a weighted sum of tag, context, example, protocol and
freshness components, returns evidence (matched tags and examples, score components) and
freshness when ``include_evidence`` is true, minimises by ``detail`` (below detail=full it
withholds billing, private examples and endpoints or credential references on internal hosts),
matches each example of an agent on its own, keeps unknown members of the metadata it relays,
serves each record with an ETag that changes with it, refuses a stale update
(``stale_metadata``) and keeps federated records' provenance. Each run's registrations live with the origin that served them.

A broken variant changes one setting of :class:`Options` through a route's ``options``
(``fixtures/adp/mutants*.toml``); the two handlers read the options of both routes merged.
"""

from __future__ import annotations

import copy
import hashlib
import ipaddress
import json
import random
import re
import threading
import uuid
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import urlsplit

from werkzeug import Request, Response

from conformance.world.handlers import request_body
from conformance.world.site import Reference, Route, Site, path_parameters

#: Members of the metadata the service treats as private: never returned in a candidate.
PRIVATE_MEMBERS = ("billing",)
#: Provenance members of a federated record (7.8).
PROVENANCE = ("origin_service", "origin_authority", "origin_signature", "received_at")
#: Members a summary candidate holds (besides evidence and provenance).
SUMMARY = ("id", "name", "description", "bindings", "status", "credential_refs")
#: Request members the service knows (others are ignored, 4.7).
KNOWN_REQUEST = ("query", "required_tags", "preferred_tags", "excluded_tags", "protocols", "constraints", "limit",
                 "include_evidence", "detail", "client_context")
#: Constraints the service can apply: region is a hard filter, max_results_age_seconds a freshness bound.
KNOWN_CONSTRAINTS = ("region", "max_results_age_seconds")


@dataclass(frozen=True)
class Options:
    """The service's settings; a broken variant changes one."""

    #: The ADP level it works at: "D2" (evidence, freshness, score components), "D1", "D0" (no /discover).
    level: str = "D2"
    #: PUT /agents/{id} is supported (and declared in Allow).
    registration: bool = True
    #: How candidates are ordered: "score" (best first), "shuffled", or "ties-shuffled" (best
    #: first, candidates of equal score in a new random order on every request).
    rank: str = "score"
    #: Refuse any request with excluded_tags (400): a service without that tag filter.
    filters_refused: bool = False
    #: required_tags: "all" (hard), "preference" (only ranks), "any" (one of them suffices).
    required_mode: str = "all"
    #: The service's taxonomy (7.2: "Normalize tags ... against supported taxonomies"): a tag of a
    #: record -> the broader tag it also stands for, when filtering and matching (matched_tags
    #: then names the broader tag: "Tags matched directly or by expansion").
    broader_tags: dict = field(default_factory=dict)
    #: matched_tags also lists every required tag of the request, held or not (evidence claimed).
    matched_claims_required: bool = False
    #: excluded_tags: "hard" or "ignored" (silently dropped).
    excluded_mode: str = "hard"
    #: protocols: "hard", "ignored", "preference", "substring" (a listed protocol inside the binding's).
    protocols_mode: str = "hard"
    #: How an unsupported constraint is reported: "list" (unsupported_filters and a warning),
    #: "pointer" (the same, the filter named by a JSON Pointer: /constraints/NAME),
    #: "warning-only", "value-name" (unsupported_filters names the value, not the filter),
    #: "silent" (neither: the constraint is dropped without a word).
    unsupported_report: str = "list"
    #: limit: "exact", "plus-one" (one more), "zero-default" (0 read as the default).
    limit_mode: str = "exact"
    #: Evidence when include_evidence is true: score_components, matched tags and examples.
    evidence_components: bool = True
    evidence_matches: bool = True
    #: How matching evidence is given: "matches" (matched_tags and matched_examples), or
    #: "snippets" (matched_snippets: the sentences of the description that share a word with the
    #: query, 7.6's "matched description snippets").
    evidence_form: str = "matches"
    #: freshness on candidates: "always", "evidence-only", "not-full-unless-evidence".
    freshness: str = "always"
    freshness_remove: tuple = ()
    #: Another client's queries shown: "" (never), "warnings", "evidence".
    leak: str = ""
    #: Provenance of federated records: "keep", "drop-summary" (summary detail loses it),
    #: "drop-origin" (origin_service and origin_authority dropped everywhere).
    provenance: str = "keep"
    provenance_remove: tuple = ()
    #: Provenance members removed from minimal candidates only, or from summary (and default)
    #: candidates only; origin_authority rewritten to this service's.
    provenance_remove_minimal: tuple = ()
    provenance_remove_summary: tuple = ()
    provenance_rewrite: bool = False
    #: credential_refs of a federated record in candidates: "keep", "drop-summary", "rewrite" (local references).
    federated_credentials: str = "keep"
    #: Ids as served: "" (as registered), "lower-candidates" (candidates lower-case them),
    #: "lower-get" (GET serves the id lower-cased).
    id_form: str = ""
    #: A request with include_evidence answered with no evidence item at all (no evidence,
    #: freshness or applied_filters): "" (never), "all", or at one detail only ("full", "summary").
    evidence_off: str = ""
    #: Evidence, score components and matches given to requests *without* include_evidence true,
    #: never to those with it (a broken D2: the opposite of "when requested").
    evidence_inverted: bool = False
    #: A D1 service that exposes freshness anyway (4.9 asks every discovery service to): its
    #: candidates carry freshness, never matched tags, examples or score components.
    d1_freshness: bool = False
    #: Unknown members of the metadata in a detail=full candidate: "" (kept), "top", "nested" (dropped).
    full_drop_unknown: str = ""
    #: Expired records returned: "" (never), "bundled" (records of the registry), "registered", "all".
    serve_expired: str = ""
    #: What an expired candidate shows of its expiry: "" (what its detail gives: expires_at at
    #: full only), "expires_at" (its expires_at at every detail), "renewed" (an expires_at a
    #: year ahead at every detail: a stale record presented as fresh).
    expired_shown: str = ""
    #: detail=minimal answered as "minimal", "summary", or "score" (minimal plus score and evidence),
    #: or "evidence" (minimal, plus the evidence include_evidence asks for when it is true).
    minimal_mode: str = "minimal"
    #: The detail of a request without one; members added to a default candidate.
    default_detail: str = "summary"
    default_extra: tuple = ()
    #: A candidate whose private members were withheld carries redacted: "true", "absent", "false".
    redacted_flag: str = "true"
    #: The response's warning when a candidate was redacted: "warning", "none", "empty" (warnings: []),
    #: "reason" (no warning: the redacted candidate carries redaction_reason, a policy reason).
    redaction_warning: str = "warning"
    #: Unknown top-level request members: "ignore" or "reject"; unknown client_context members too.
    #: How a refusal of unknown members looks (a strictly validating service, 4.7: top level,
    #: client_context, and registered metadata's): "error" (400 invalid_request, the error
    #: object of 8), "500" (a server error), "text" (a 400 with a plain-text body), "200" (a 200
    #: carrying the error object).
    #: "filter" (either kind): the unknown member's name read as a tag every candidate must hold.
    unknown_request: str = "ignore"
    unknown_refusal: str = "error"
    unknown_context: str = "ignore"
    #: A request without query answered as a browse of the catalogue, and a limit that is no
    #: integer ignored (a lenient service), instead of refused invalid_request.
    lenient_requests: bool = False
    #: Requests whose tag lists hold more than this many tags in all refused 400 invalid_request
    #: (0: no cap).
    max_tags: int = 0
    #: A limit above this refused 400 invalid_request (0: none refused; above the site's
    #: max_limit the service clamps).
    limit_refused_above: int = 0
    #: With max_results_age_seconds, a warning names each candidate older than it.
    age_warnings: bool = True
    #: include_evidence required: "" (never), "absent" (a request without it refused), "false" (false refused).
    evidence_required: str = ""
    #: A request with limit 1 refused; an empty result answered 404.
    limit_one_rejected: bool = False
    empty_status: int = 200
    #: Error bodies: "json", "text", "array"; codes and statuses.
    error_body: str = "json"
    invalid_code: str = "invalid_request"
    invalid_status: int = 400
    not_found_code: str = "not_found"
    not_found_status: int = 404
    stale_code: str = "stale_metadata"
    #: Registration: unknown members "accept", "reject" (top level), "reject-nested".
    unknown_registration: str = "accept"
    #: GET after PUT drops unknown members: "" (keeps all), "top", "nested".
    relay_drop: str = ""
    #: A stale update: "refuse", "wins" (replaces), "merge" (its content merged under the newer updated_at).
    stale: str = "refuse"
    #: The same registration again: "yes", "conflict" (409), "duplicate" (a second record).
    idempotent: str = "yes"
    #: A newer registration of a known id: "accept", "refused" (409), "ignored" (200, old kept).
    refresh: str = "accept"
    #: Names: "" (not unique), "conflict" (a second agent with a used name refused), "keyed" (replaces it).
    name_unique: str = ""
    #: The minimal object: "accept", "need-tags" (tags required), "not-served" (accepted, then 404).
    minimal_register: str = "accept"
    #: Examples in the score: "each" (every example matched on its own), "none" (examples ignored),
    #: "first" (only an agent's first example matched).
    example_matching: str = "each"
    #: Bindings and credential_refs on internal or private hosts in candidates below detail=full:
    #: "withheld" (omitted, the candidate redacted) or "shown".
    internal_endpoints: str = "withheld"
    #: Private members (billing) shown in detail=summary candidates.
    summary_private: tuple = ()
    #: Validators of GET /agents/{id}: "etag" (an ETag of the record), "none", "constant" (one
    #: ETag per id, whatever the record holds), "per-response" (a new ETag on every response,
    #: the record changed or not), "sequence" (no ETag: the record is served with a member
    #: "sequence", the number of the change that last wrote it, counted over the whole service).
    validators: str = "etag"
    #: Updates of a registered record only with a precondition (entity tags as the freshness
    #: mechanism): a PUT over an existing record without If-Match is answered 428, one whose
    #: If-Match is not the record's ETag 412; new registrations need none.
    conditional_updates: bool = False
    #: Registered records stored normalised: updated_at and expires_at written again as
    #: "2026-06-01T00:00:00.000+00:00" (the same instant), and each binding without an
    #: interaction_model given "request-response".
    normalized_records: bool = False
    #: Registrations reach the search index only at its next rebuild, never within a run:
    #: GET serves a registered record at once, Discovery Requests do not return it.
    search_lag: bool = False

    @classmethod
    def of_site(cls, site: Site) -> "Options":
        """The options of every adp.* route of ``site``, merged."""
        values: dict[str, Any] = {}
        for route in site.routes:
            if (route.handler or "").startswith("adp."):
                values.update(route.options)
        known = {f.name for f in fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"unknown adp options {sorted(unknown)}; known: {sorted(known)}")
        for key, value in values.items():
            if isinstance(value, list):
                values[key] = tuple(value)
        return cls(**values)


# ---------------------------------------------------------------- state of one running origin

@dataclass
class Entry:
    record: dict
    source: str  # "bundled" or "registered"
    indexed_at: str
    #: The number of the change that last wrote the record (a sequence number over the service).
    seq: int = 0


@dataclass
class State:
    entries: list[Entry]
    log: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: The last change number given (the bundled records are changes 1 to n).
    changes: int = 0

    def wrote(self, entry: Entry) -> Entry:
        """Give ``entry`` the next change number (call with the lock held)."""
        self.changes += 1
        entry.seq = self.changes
        return entry


_STATES: dict[tuple[int, str], State] = {}
_STATES_LOCK = threading.Lock()


def state(site: Site, request: Request) -> State:
    """The records of the origin that received ``request`` (each run's origin has its own port)."""
    key = (id(site), str(request.environ.get("SERVER_PORT", "")))
    with _STATES_LOCK:
        if key not in _STATES:
            indexed = site.document.get("service", {}).get("indexed_at", "2026-11-01T00:00:00Z")
            agents = site.document.get("agents", [])
            _STATES[key] = State([Entry(copy.deepcopy(r), "bundled", indexed, i + 1) for i, r in enumerate(agents)],
                                 changes=len(agents))
        return _STATES[key]


# ---------------------------------------------------------------- helpers

def now() -> datetime:
    return datetime.now(timezone.utc)


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(value: Any) -> datetime | None:
    # The reference service keeps its own parser rather than the suite's (_service_fixtures):
    # an implementation that borrowed the judge's code could not show the judge's mistakes.
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def tokens(text: Any) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", str(text).lower())) if isinstance(text, str) else set()


def tags_of(record: dict, options: "Options | None" = None) -> set[str]:
    tags = record.get("tags")
    found = {t.strip().lower() for t in tags if isinstance(t, str)} if isinstance(tags, list) else set()
    broader = options.broader_tags if options is not None else {}
    return found | {broader[t].lower() for t in found if isinstance(broader.get(t), str)}


def norm(values: Any) -> list[str]:
    return [v.strip().lower() for v in values if isinstance(v, str)] if isinstance(values, list) else []


def protocols_of(record: dict) -> list[str]:
    bindings = record.get("bindings")
    return [b.get("protocol") for b in bindings if isinstance(b, dict) and isinstance(b.get("protocol"), str)] \
        if isinstance(bindings, list) else []


def _json(status: int, value: Any, headers: dict[str, str] | None = None) -> Response:
    response = Response(json.dumps(value, ensure_ascii=False).encode("utf-8"), status=status)
    response.headers["Content-Type"] = "application/json"
    for k, v in (headers or {}).items():
        response.headers[k] = v
    return response


def error(options: Options, status: int, code: str, message: str) -> Response:
    """An error object (8): code, message, correlation_id."""
    value = {"code": code, "message": message, "correlation_id": f"corr-{uuid.uuid4().hex[:12]}"}
    if options.error_body == "text":
        response = Response(f"{code}: {message}\n".encode("utf-8"), status=status)
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
        return response
    if options.error_body == "array":
        return _json(status, [value])
    return _json(status, value)


def invalid(options: Options, message: str) -> Response:
    return error(options, options.invalid_status, options.invalid_code, message)


def expired(entry: Entry, options: Options, moment: datetime) -> bool:
    until = parse_time(entry.record.get("expires_at"))
    if until is None or until > moment:
        return False
    return options.serve_expired not in (entry.source, "all")


# ---------------------------------------------------------------- /discover

def _validate(body: Any, options: Options) -> str | None:
    """Why ``body`` is not a Discovery Request the service can process, or None."""
    if not isinstance(body, dict):
        return "a Discovery Request is a JSON object"
    if options.lenient_requests and "query" not in body:
        body["query"] = ""
    if options.lenient_requests and "limit" in body and not (isinstance(body["limit"], int)
                                                            and not isinstance(body["limit"], bool)):
        del body["limit"]
    if not isinstance(body.get("query"), str):
        return "query (a string) is required"
    for name in ("required_tags", "preferred_tags", "excluded_tags", "protocols"):
        if name in body and not (isinstance(body[name], list) and all(isinstance(v, str) for v in body[name])):
            return f"{name} is an array of strings"
    if "constraints" in body and not isinstance(body["constraints"], dict):
        return "constraints is an object"
    if "client_context" in body and not isinstance(body["client_context"], dict):
        return "client_context is an object"
    if "limit" in body:
        limit = body["limit"]
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            return "limit is a non-negative integer"
    if "include_evidence" in body and not isinstance(body["include_evidence"], bool):
        return "include_evidence is a boolean"
    if "detail" in body and not isinstance(body["detail"], str):
        return "detail is a string"
    if options.max_tags and sum(len(body.get(n, [])) for n in ("required_tags", "preferred_tags", "excluded_tags")) \
            > options.max_tags:
        return f"at most {options.max_tags} tags in all of required_tags, preferred_tags and excluded_tags"
    unknown = sorted(set(body) - set(KNOWN_REQUEST))
    if unknown and options.unknown_request == "reject":
        return f"unknown members {unknown}"
    context = body.get("client_context", {})
    if options.unknown_context == "reject" and set(context) - {"locale", "domain", "client_id"}:
        return f"unknown client_context members {sorted(set(context) - {'locale', 'domain', 'client_id'})}"
    if options.evidence_required == "absent" and "include_evidence" not in body:
        return "include_evidence is required"
    if options.evidence_required == "false" and body.get("include_evidence") is False:
        return "include_evidence must be true"
    if options.filters_refused and body.get("excluded_tags"):
        return "this service does not take excluded_tags"
    if options.limit_refused_above and isinstance(body.get("limit"), int) and body["limit"] > options.limit_refused_above:
        return f"limit is at most {options.limit_refused_above}"
    if options.limit_one_rejected and body.get("limit") == 1:
        return "limit must be at least 2"
    return None


def _score(record: dict, body: dict, moment: datetime, options: Options) -> tuple[float, dict, list[str], list[dict]]:
    """The score, its components, the matched tags and the matched examples (each example
    matched on its own, so one capability of a multi-purpose agent can match, 7.3)."""
    query = tokens(body["query"])
    tags = tags_of(record, options)
    wanted = set(norm(body.get("preferred_tags"))) | set(norm(body.get("required_tags")))
    matched = sorted(tags & (wanted | query) | (set(norm(body.get("required_tags"))) if options.matched_claims_required else set()))
    tag = len(matched) / len(tags) if tags else 0.0
    description = tokens(record.get("description"))
    context = len(query & description) / len(query) if query else 0.0
    examples = []
    own = record.get("examples") if isinstance(record.get("examples"), list) else []
    own = {"each": own, "first": own[:1], "none": []}[options.example_matching]
    for ex in own:
        if isinstance(ex, dict) and isinstance(ex.get("text"), str) and not ex.get("private"):
            overlap = len(query & tokens(ex["text"])) / len(query) if query else 0.0
            if overlap > 0:
                examples.append({"id": ex.get("id"), "score": round(overlap, 4), "text": ex["text"]})
    examples.sort(key=lambda e: -e["score"])
    example = examples[0]["score"] if examples else 0.0
    asked = norm(body.get("protocols"))
    protocol = (1.0 if set(asked) & {p.lower() for p in protocols_of(record)} else 0.0) if asked else 0.5
    updated = parse_time(record.get("updated_at"))
    freshness = 1.0 if updated and (moment - updated).days < 365 else 0.5
    components = {"tag": round(tag, 4), "context": round(context, 4), "example": round(example, 4),
                  "protocol": protocol, "freshness": freshness}
    score = 0.35 * tag + 0.25 * context + 0.3 * example + 0.05 * protocol + 0.05 * freshness
    return round(score, 4), components, matched, examples[:3]


def _passes(record: dict, body: dict, options: Options) -> bool:
    tags = tags_of(record, options)
    read_as_tags = set()  # unknown members taken for tags (a service that does not ignore them)
    if options.unknown_request == "filter":
        read_as_tags |= {k.lower() for k in body if k not in KNOWN_REQUEST}
    if options.unknown_context == "filter" and isinstance(body.get("client_context"), dict):
        read_as_tags |= {k.lower() for k in body["client_context"] if k not in ("locale", "domain", "client_id")}
    if not read_as_tags <= tags:
        return False
    required = norm(body.get("required_tags"))
    if required and options.required_mode == "all" and not set(required) <= tags:
        return False
    if required and options.required_mode == "any" and not set(required) & tags:
        return False
    if options.excluded_mode == "hard" and set(norm(body.get("excluded_tags"))) & tags:
        return False
    asked = norm(body.get("protocols"))
    have = [p.lower() for p in protocols_of(record)]
    if asked and options.protocols_mode == "hard" and not set(asked) & set(have):
        return False
    if asked and options.protocols_mode == "substring" and not any(a in h for a in asked for h in have):
        return False
    region = body.get("constraints", {}).get("region")
    regions = record.get("constraints", {}).get("regions") if isinstance(record.get("constraints"), dict) else None
    if isinstance(region, str) and isinstance(regions, list) and region not in regions:
        return False
    return True


def _freshness(entry: Entry) -> dict:
    value = {"metadata_updated_at": entry.record.get("updated_at"), "indexed_at": entry.indexed_at}
    return {k: v for k, v in value.items() if v is not None}


#: Host names a service keeps to itself (7.5: internal system names, sensitive endpoint details).
INTERNAL_SUFFIXES = (".internal", ".corp", ".local", ".lan", ".intranet", ".localdomain")


def _internal(reference: Any) -> bool:
    """Whether an endpoint or credential reference names an internal or private place."""
    if not isinstance(reference, str):
        return False
    parts = urlsplit(reference)
    if parts.scheme.lower() in ("vault", "secret"):
        return True
    host = (parts.hostname or "").lower()
    if host == "localhost" or host.endswith(INTERNAL_SUFFIXES):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_private or address.is_loopback or address.is_link_local


def _public(out: dict, options: Options, notes: list[str]) -> dict:
    """A candidate below detail=full without bindings and credential references on internal or
    private hosts (7.5), marked redacted when any was withheld."""
    if options.internal_endpoints != "withheld":
        return out
    withheld = False
    for name in ("bindings", "credential_refs"):
        if isinstance(out.get(name), list):
            kept = [v for v in out[name] if not _internal(v.get("endpoint") if isinstance(v, dict) else v)]
            withheld |= len(kept) != len(out[name])
            out[name] = kept
    if withheld:
        if options.redacted_flag == "true":
            out["redacted"] = True
        notes.append(f"{out.get('id')}: internal endpoints withheld by policy")
    return out


def _candidate(entry: Entry, body: dict, detail: str, evidence: bool, scored: tuple, options: Options,
               position: int, notes: list[str], site: Site) -> dict:
    record = entry.record
    score, components, matched, examples = scored
    federated = any(k in record for k in PROVENANCE)
    provenance = {k: record[k] for k in PROVENANCE if k in record and k not in options.provenance_remove}
    if options.provenance == "drop-origin":
        provenance = {k: v for k, v in provenance.items() if k not in ("origin_service", "origin_authority")}
    if options.provenance_rewrite and "origin_authority" in provenance:
        provenance["origin_authority"] = site.hostname
    if detail == "minimal" and options.minimal_mode in ("minimal", "evidence"):
        bindings = [{"protocol": b.get("protocol"), "endpoint": b.get("endpoint")}
                    for b in record.get("bindings", []) if isinstance(b, dict)]
        out = _public({"id": record.get("id"), "status": record.get("status", "active"), "bindings": bindings},
                      options, notes)
        if options.minimal_mode == "evidence" and evidence and options.level == "D2":
            out |= {"score_components": components, "matched_tags": matched, "matched_examples": examples,
                    "freshness": _freshness(entry)}
        return out | {k: v for k, v in provenance.items() if k not in options.provenance_remove_minimal}
    if detail == "full":
        out = {k: copy.deepcopy(v) for k, v in record.items() if k not in PRIVATE_MEMBERS}
        withheld = [k for k in PRIVATE_MEMBERS if k in record]
        if withheld:
            if options.redacted_flag == "true":
                out["redacted"] = True
            elif options.redacted_flag == "false":
                out["redacted"] = False
            if options.redaction_warning == "reason":
                out["redaction_reason"] = "billing members are withheld by policy"
            notes.append(f"{record.get('id')}: members withheld by policy")
    else:
        out = {k: copy.deepcopy(record[k]) for k in SUMMARY if k in record}
        out.setdefault("status", "active")
        out = _public(out, options, notes)
        if detail == "summary":
            out |= {k: copy.deepcopy(record[k]) for k in options.summary_private if k in record}
        if detail == "default":
            for k in options.default_extra:
                if k in record:
                    out[k] = copy.deepcopy(record[k])
            if isinstance(out.get("examples"), list):  # a private example stays private (7.5)
                out["examples"] = [e for e in out["examples"] if not (isinstance(e, dict) and e.get("private"))]
    if federated and not (detail in ("summary", "default") and options.provenance == "drop-summary"):
        out |= provenance
    else:
        for k in PROVENANCE:
            out.pop(k, None)
    if detail == "full" and options.provenance == "drop-origin":
        out.pop("origin_service", None)
        out.pop("origin_authority", None)
    for k in options.provenance_remove + (options.provenance_remove_summary if detail in ("summary", "default") else ()):
        out.pop(k, None)
    if federated and "credential_refs" in out:
        if options.federated_credentials == "drop-summary" and detail in ("summary", "default"):
            del out["credential_refs"]
        elif options.federated_credentials == "rewrite":
            out["credential_refs"] = [f"urn:adck:local-credential:{i}" for i, _ in enumerate(out["credential_refs"])]
    until = parse_time(record.get("expires_at"))
    if options.expired_shown and until is not None and until <= datetime.now(timezone.utc):
        out["expires_at"] = record["expires_at"] if options.expired_shown == "expires_at" else \
            (datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=365)).isoformat().replace("+00:00", "Z")
    if detail == "full" and options.full_drop_unknown:
        out = _strip_unknown(out, options.full_drop_unknown) | {k: out[k] for k in ("redacted",) if k in out}
    out["score"] = score
    fresh = (options.level != "D1" or options.d1_freshness) and (options.freshness == "always" or evidence
                                       or (options.freshness == "not-full-unless-evidence" and detail != "full"))
    if fresh:
        out["freshness"] = {k: v for k, v in _freshness(entry).items() if k not in options.freshness_remove}
    if evidence and options.level == "D2":
        if options.evidence_components:
            out["score_components"] = components
        if options.evidence_matches and options.evidence_form == "snippets":
            query = tokens(body.get("query"))
            sentences = re.split(r"(?<=[.;])\s+", record.get("description") or "") if isinstance(record.get("description"), str) else []
            out["matched_snippets"] = [t for t in sentences if tokens(t) & query][:3]
        elif options.evidence_matches:
            out["matched_tags"] = matched
            out["matched_examples"] = examples
    return out


def discover(site: Site, route: Route, request: Request) -> Response:
    """POST /discover: a Discovery Request answered with a Discovery Response (5, 6)."""
    options = Options.of_site(site)
    if options.level == "D0":
        return error(options, 404, options.not_found_code, "this service publishes metadata only (D0)")
    if request.method != "POST":
        response = error(options, 405, options.invalid_code, "send Discovery Requests with POST")
        response.headers["Allow"] = "POST"
        return response
    raw = request_body(request)
    if raw is None:
        return error(options, 413, options.invalid_code, "the request body is too large")
    try:
        body = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return invalid(options, f"the body is not JSON: {exc}")
    why = _validate(body, options)
    if why:
        return _refusal(options, why)
    moment = now()
    current = state(site, request)
    client = json.dumps(body.get("client_context", {}), sort_keys=True)
    with current.lock:
        others = [q for c, q in current.log if c != client]
        current.log.append((client, body["query"]))
        entries = list(current.entries)
    detail = body.get("detail") if body.get("detail") in ("minimal", "summary", "full") else None
    warnings: list[str] = []
    if "detail" in body and detail is None:
        warnings.append(f"detail {body['detail']!r} is not minimal, summary or full: answered as summary")
    shape = detail or ("full" if options.default_detail == "full" else "default")
    evidence = (body.get("include_evidence") is True) != options.evidence_inverted
    silent = evidence and options.evidence_off in ("all", shape)
    constraints = body.get("constraints", {})
    unsupported = [k for k in constraints if k not in KNOWN_CONSTRAINTS]
    unsupported_filters: list[str] = []
    for name in unsupported:
        if options.unsupported_report == "list":
            unsupported_filters.append(f"constraints.{name}")
        elif options.unsupported_report == "pointer":
            unsupported_filters.append("/constraints/" + name.replace("~", "~0").replace("/", "~1"))
        elif options.unsupported_report == "value-name":
            unsupported_filters.append(str(constraints[name]))
        if options.unsupported_report != "silent":
            warnings.append(f"hard filter constraints.{name} is not supported and was not applied")
    chosen = []
    for entry in entries:
        if options.search_lag and entry.source == "registered":
            continue  # not indexed yet
        if expired(entry, options, moment) or not _passes(entry.record, body, options):
            continue
        chosen.append((entry, _score(entry.record, body, moment, options)))
    if options.required_mode == "preference" and body.get("required_tags"):  # lacking them halves the score
        required = set(norm(body["required_tags"]))
        chosen = [(e, ((sc[0] if required <= tags_of(e.record) else round(sc[0] * 0.5, 4)), *sc[1:]))
                  for e, sc in chosen]
    if options.protocols_mode == "preference" and body.get("protocols"):
        asked = set(norm(body["protocols"]))
        chosen = [(e, ((sc[0] if asked & {p.lower() for p in protocols_of(e.record)} else round(sc[0] * 0.5, 4)),
                       *sc[1:])) for e, sc in chosen]
    chosen.sort(key=lambda pair: (-pair[1][0], str(pair[0].record.get("id"))))
    if options.rank == "ties-shuffled":  # equal scores in a new order every time
        chosen.sort(key=lambda pair: (-pair[1][0], random.random()))
    if options.rank == "shuffled":  # ordered by a hash of the id: no rank at all
        chosen.sort(key=lambda pair: hashlib.sha256(str(pair[0].record.get("id")).encode()).hexdigest())
    maximum = site.document.get("service", {}).get("max_limit", 50)
    default = site.document.get("service", {}).get("default_limit", 10)
    limit = body.get("limit", default)
    if limit == 0 and options.limit_mode == "zero-default":
        limit = default
    if limit > maximum:
        warnings.append(f"limit {limit} is above this service's maximum of {maximum}: at most {maximum} returned")
        limit = maximum
    if options.limit_mode == "plus-one":
        limit += 1
    chosen = chosen[:limit]
    if not chosen and options.empty_status == 404:
        return error(options, 404, options.not_found_code, "no agent matches")
    age = constraints.get("max_results_age_seconds")
    notes: list[str] = []
    candidates = []
    for position, (entry, scored) in enumerate(chosen):
        candidate = _candidate(entry, body, shape, evidence, scored, options, position, notes, site)
        if silent:
            for k in ("freshness", "score_components", "matched_tags", "matched_examples"):
                candidate.pop(k, None)
        if options.id_form == "lower-candidates" and isinstance(candidate.get("id"), str):
            candidate["id"] = candidate["id"].lower()
        candidates.append(candidate)
        updated = parse_time(entry.record.get("updated_at"))
        if options.age_warnings and isinstance(age, (int, float)) and not isinstance(age, bool) and updated and \
                (moment - updated).total_seconds() > age:
            warnings.append(f"{entry.record.get('id')}: metadata is older than max_results_age_seconds ({age})")
    if notes and options.redaction_warning == "warning":
        warnings.append("some candidates were redacted by policy: private members withheld")
    empty_warnings = bool(notes) and options.redaction_warning == "empty" and not warnings
    if options.leak and others:
        if options.leak == "warnings":
            warnings.append(f"clients also asked: {others[-1]}")
        elif shape != "minimal":
            for c in candidates:
                c["matched_queries"] = others[-3:]
    applied: dict[str, Any] = {}
    for name in ("required_tags", "excluded_tags", "protocols"):
        if body.get(name):
            applied[name] = body[name]
    if isinstance(constraints.get("region"), str):
        applied["constraints"] = {"region": constraints["region"]}
    response: dict[str, Any] = {"request_id": f"req-{uuid.uuid4().hex[:12]}", "generated_at": stamp(moment),
                                "applied_filters": applied, "candidates": candidates}
    if silent:
        del response["applied_filters"]
    if unsupported_filters:
        response["unsupported_filters"] = unsupported_filters
    if warnings or empty_warnings:
        response["warnings"] = warnings
    return _json(200, response)


# ---------------------------------------------------------------- /agents/{id}

def _agent_id(route: Route, request: Request) -> str:
    params = path_parameters(route.path, request.path) or {}
    return params.get("id", "")


def _strip_unknown(record: dict, how: str) -> dict:
    known_top = {"id", "name", "description", "tags", "examples", "bindings", "auth", "constraints", "status",
                 "expires_at", "version", "updated_at", "signature", *PROVENANCE, "credential_refs"}
    out = copy.deepcopy(record)
    if how == "top":
        return {k: v for k, v in out.items() if k in known_top}
    if how == "nested":
        for b in out.get("bindings", []) if isinstance(out.get("bindings"), list) else []:
            if isinstance(b, dict):
                for k in [k for k in b if k not in ("protocol", "endpoint", "media_types", "interaction_model", "priority")]:
                    del b[k]
        for e in out.get("examples", []) if isinstance(out.get("examples"), list) else []:
            if isinstance(e, dict):
                for k in [k for k in e if k not in ("id", "text", "tags", "input_schema", "output_schema", "language")]:
                    del e[k]
    return out


def _etag(record: dict, options: Options | None = None) -> dict[str, str]:
    """The ETag header of a record (7.7's entity tags): changes whenever the record does."""
    how = options.validators if options is not None else "etag"
    if how in ("none", "sequence"):
        return {}
    if how == "per-response":
        return {"ETag": f'"{uuid.uuid4().hex[:16]}"'}
    basis = {"id": record.get("id")} if how == "constant" else record
    return {"ETag": '"' + hashlib.sha256(json.dumps(basis, sort_keys=True).encode()).hexdigest()[:16] + '"'}


def _normalized(body: dict) -> dict:
    """A registered record as a normalising store keeps it: the same instants written with
    milliseconds and +00:00, bindings given the default interaction_model."""
    out = copy.deepcopy(body)
    for name in ("updated_at", "expires_at"):
        moment = parse_time(out.get(name))
        if moment is not None:
            out[name] = moment.astimezone(timezone.utc).isoformat(timespec="milliseconds")
    for binding in out.get("bindings", []) if isinstance(out.get("bindings"), list) else []:
        if isinstance(binding, dict):
            binding.setdefault("interaction_model", "request-response")
    return out


def _precondition(request: Request, existing: Entry | None, options: Options) -> Response | None:
    """The refusal of an update without the precondition a conditional store asks for, or None."""
    if not options.conditional_updates or existing is None:
        return None
    asked = request.headers.get("If-Match")
    if not asked:
        return error(options, 428, "precondition_required", "send updates of this record with If-Match: its ETag")
    if asked.strip() not in ("*", _etag(existing.record)["ETag"]):
        return error(options, 412, "precondition_failed", "the record changed since that ETag: GET it again")
    return None


def _registration_error(body: Any, agent_id: str, options: Options) -> str | None:
    if not isinstance(body, dict):
        return "Agent Metadata is a JSON object"
    if body.get("id") != agent_id:
        return "the metadata's id is not the id of the resource"
    for name in ("name", "description"):
        if not isinstance(body.get(name), str):
            return f"{name} (a string) is required"
    bindings = body.get("bindings")
    if not isinstance(bindings, list) or not bindings or not all(
            isinstance(b, dict) and isinstance(b.get("protocol"), str) and isinstance(b.get("endpoint"), str) for b in bindings):
        return "bindings: at least one object with protocol and endpoint"
    if options.minimal_register == "need-tags" and "tags" not in body:
        return "tags are required"
    known = {"id", "name", "description", "tags", "examples", "bindings", "auth", "constraints", "status", "expires_at",
             "version", "updated_at", "signature"}
    if options.unknown_registration == "reject" and set(body) - known:
        return f"unknown members {sorted(set(body) - known)}"
    if options.unknown_registration == "reject-nested":
        for b in bindings:
            if set(b) - {"protocol", "endpoint", "media_types", "interaction_model", "priority"}:
                return "unknown members in a binding"
    return None


def _refusal(options: Options, why: str) -> Response:
    """The refusal of an invalid request or registration; one of unknown members (a strictly
    validating service, 4.7) looks as ``unknown_refusal`` says."""
    if why.startswith(_UNKNOWN) and options.unknown_refusal != "error":
        if options.unknown_refusal == "500":
            return error(options, 500, "internal_error", "the service failed")
        if options.unknown_refusal == "text":
            return error(replace(options, error_body="text"), options.invalid_status, options.invalid_code, why)
        return error(options, 200, options.invalid_code, why)  # "200"
    return invalid(options, why)


#: How the validators' reasons for unknown members begin (top level, client_context, a binding).
_UNKNOWN = ("unknown members", "unknown client_context members")


def agent(site: Site, route: Route, request: Request) -> Response:
    """GET (metadata) and PUT (registration) of /agents/{id}."""
    options = Options.of_site(site)
    agent_id = _agent_id(route, request)
    allow = "GET, PUT" if options.registration else "GET"
    current = state(site, request)
    if request.method == "GET":
        with current.lock:
            found = [e for e in current.entries if e.record.get("id") == agent_id]
        if not found:
            return error(options, options.not_found_status, options.not_found_code, f"no agent {agent_id!r}")
        entry = found[-1]
        record = entry.record
        if entry.source == "registered" and options.minimal_register == "not-served" and "tags" not in record:
            return error(options, options.not_found_status, options.not_found_code, f"no agent {agent_id!r}")
        if entry.source == "registered" and options.relay_drop:
            record = _strip_unknown(record, options.relay_drop)
        if options.id_form == "lower-get" and isinstance(record.get("id"), str):
            record = record | {"id": record["id"].lower()}
        if options.validators == "sequence":
            record = record | {"sequence": entry.seq}
        return _json(200, record, {"Allow": allow} | _etag(record, options))
    if request.method != "PUT" or not options.registration:
        response = error(options, 405, options.invalid_code, f"this resource answers {allow}")
        response.headers["Allow"] = allow
        return response
    raw = request_body(request)
    if raw is None:
        return error(options, 413, options.invalid_code, "the request body is too large")
    try:
        body = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return invalid(options, f"the body is not JSON: {exc}")
    why = _registration_error(body, agent_id, options)
    if why:
        return _refusal(options, why)
    if options.normalized_records:
        body = _normalized(body)
    moment = stamp(now())
    with current.lock:
        same = [e for e in current.entries if e.record.get("id") == agent_id]
        refused = _precondition(request, same[-1] if same else None, options)
        if refused is not None:
            return refused
        named = [e for e in current.entries if e.record.get("name") == body.get("name") and e.record.get("id") != agent_id]
        if named and options.name_unique == "conflict":
            return error(options, 409, "conflict", f"an agent named {body.get('name')!r} is registered")
        if named and options.name_unique == "keyed":
            for e in named:
                current.entries.remove(e)
        if not same:
            current.entries.append(current.wrote(Entry(copy.deepcopy(body), "registered", moment)))
            return _json(201, body, _etag(body, options))
        existing = same[-1]
        if existing.record == body:
            if options.idempotent == "conflict":
                return error(options, 409, "conflict", "this registration exists")
            if options.idempotent == "duplicate":
                current.entries.append(current.wrote(Entry(copy.deepcopy(body), "registered", moment)))
            return _json(200, body, _etag(body, options))
        old, new = parse_time(existing.record.get("updated_at")), parse_time(body.get("updated_at"))
        if old is not None and new is not None and new < old:
            if options.stale == "refuse":
                return error(options, 409, options.stale_code,
                             f"updated_at {body.get('updated_at')} is older than the record's {existing.record.get('updated_at')}")
            if options.stale == "merge":
                merged = copy.deepcopy(existing.record) | {k: v for k, v in body.items() if k != "updated_at"}
                existing.record = merged
                current.wrote(existing)
                return _json(200, merged)
            existing.record, existing.indexed_at = copy.deepcopy(body), moment
            current.wrote(existing)
            return _json(200, body)
        if options.refresh == "refused":
            return error(options, 409, "conflict", "this id is registered")
        if options.refresh == "ignored":
            return _json(200, existing.record)
        existing.record, existing.indexed_at = copy.deepcopy(body), moment
        current.wrote(existing)
        return _json(200, body, _etag(body, options))



#: The reference service as data (``fixtures/adp/service.toml``, its routes running the handlers
#: above) and its variants: the same name in every draft's ``reference_server.py``.
REFERENCE = Reference("adp")
