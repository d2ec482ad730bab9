"""§5.1 Discovery Request, client role: every Discovery Request the client sends is one JSON
object whose query is a string, each member of the type its row gives, detail one of its three
values (the client's twins of ADP-5.1-01 to 5.1-20, which judge a request on its own: AMB-71).

Each test drives the same three steps (four services) and judges every Discovery Request the
client sent in them: a request to a service's Discovery path but a bare GET, HEAD or OPTIONS."""

from __future__ import annotations

from typing import Any

from conformance.adp._checks import TYPES
from conformance.adp._client_fixtures import AdpClient, AdpServices, binding, candidate, said, shown
from conformance.document import Document, kind_name
from conformance.outcomes import clause, not_applicable, untestable, violation
from conformance.world.scenarios import Recorded

#: The requests the kit asks the client to send (params.request), one per step: together every
#: member of the 5.1 table, detail minimal, summary and full in turn, include_evidence true and
#: false, tag lists of one, two and no tags. The first is the draft's own example (5.1), with
#: excluded_tags and client_context added.
REQUESTS = (
    {"query": "Find an agent for onboarding validation and API setup.", "required_tags": ["hr"],
     "preferred_tags": ["onboarding", "api-automation"], "excluded_tags": ["deprecated"], "protocols": ["https"],
     "constraints": {"max_results_age_seconds": 300, "region": "apac"}, "limit": 10, "detail": "summary",
     "include_evidence": True, "client_context": {"locale": "en-AU", "domain": "hr"}},
    {"query": "validate a new employee record before payroll", "required_tags": ["hr", "validation"],
     "preferred_tags": ["employee-record"], "excluded_tags": ["deprecated", "beta"], "protocols": ["https", "a2a"],
     "constraints": {"region": "apac"}, "limit": 1, "detail": "minimal", "include_evidence": False,
     "client_context": {"locale": "en-AU"}},
    {"query": "set up API access for onboarding", "required_tags": [], "preferred_tags": [], "excluded_tags": [],
     "protocols": ["https"], "constraints": {}, "limit": 3, "detail": "full", "include_evidence": True,
     "client_context": {"domain": "hr"}},
)
#: Requests to the Discovery path that carry no Discovery Request (AMB-71): without a query
#: string, and the kit does not read a GET's body.
BARE = ("GET", "HEAD", "OPTIONS")
DETAIL = ("minimal", "summary", "full")
READINGS = ["AMB-04", "AMB-71"]

Sent = list[tuple[str, Recorded]]


def _grpc_only() -> dict:
    return candidate("grpc-only", 0.95, bindings=[binding("grpc-only", "grpc", "grpc://agents.adck.test:443/x")])


def discovery_requests(adp_client: AdpClient, adp_services: AdpServices) -> tuple[Sent, list[str]]:
    """Three steps: the draft's example request to a D2 service; a narrower one to two
    services, the first offering only a candidate the policy refuses (so that the client asks
    the second too); a third to a D1 service. Every Discovery Request the client sent, with
    where it went, in order; *untestable* when it sent none."""
    __tracebackhide__ = True
    steps = [
        ("step 1 (one service)", [adp_services.new("request-example", [candidate("onboarding-guide", 0.92),
                                                                        candidate("benefits-desk", 0.71)])]),
        ("step 2 (two services)", [adp_services.new("request-first", [_grpc_only()]),
                                   adp_services.new("request-second", [candidate("records-checker", 0.88)])]),
        ("step 3 (a D1 service)", [adp_services.new("request-d1", [candidate("api-setup", 0.8, level="D1")])]),
    ]
    sent: Sent = []
    replies = []
    for (what, services), request in zip(steps, REQUESTS):
        reply = adp_client.discover(services[0], also=services[1:] or None, request=request)
        replies.append(f"{what}: {said(reply)}")
        for n, service in enumerate(services, 1):
            at = f"service {n} of {len(services)}, " if len(services) > 1 else ""
            sent += [(f"{what}, {at}{shown(r)}", r) for r in service.queries()
                     if r.method not in BARE or r.query]
    if not sent:
        untestable("asked for three Discovery Requests (four services, of unknown level), the client sent none to a "
                   "Discovery path: " + "; ".join(replies))
    return sent, replies


def _content_type(r: Recorded) -> str | None:
    return next((v for k, v in r.headers.items() if k.lower() == "content-type"), None)


def _not_one_object(r: Recorded) -> str | None:
    """Why the request's body is not one JSON object; None when it is, or cannot be told."""
    if r.status == 413:
        return None  # larger than the kit reads
    if not r.body:
        return "has no body" + (f" (the request is in its query string: ?{r.query[:100]})" if r.query else "")
    doc = Document(raw=r.body, source=shown(r))
    label = f"Content-Type {_content_type(r)!r}, body {r.body[:80]!r}"
    if doc.utf8_error:
        return f"has a body that is not UTF-8 ({doc.utf8_error}), so not a JSON text"
    if doc.too_deep:
        return None
    if doc.parse_error:
        return f"has a body that is not one JSON text ({doc.parse_error}; {label})"
    value = doc.value()
    if not isinstance(value, dict):
        what = f"an array of {len(value)} element(s)" if isinstance(value, list) else f"a JSON {kind_name(value)}"
        return f"has a body that is {what}, not a single JSON object ({label})"
    return None


def objects(sent: Sent) -> list[tuple[str, dict]]:
    """(where, body) of the Discovery Requests whose body is one JSON object; *untestable*
    when none is (ADP-5.1-23 judges the others)."""
    __tracebackhide__ = True
    found = []
    for where, r in sent:
        if r.status == 413 or not r.body or _not_one_object(r) is not None:
            continue
        value = Document(raw=r.body, source=where).value()
        found.append((where, value))
    if not found:
        untestable(f"none of the {len(sent)} Discovery Requests the client sent has a body that is one JSON object "
                   f"(see ADP-5.1-23)")
    return found


def _shown(value: Any) -> str:
    return repr(value)[:60] if not isinstance(value, (dict, list)) else kind_name(value)


def _describe(value: Any, type_: str) -> str:
    if isinstance(value, list) and type_.startswith("array of"):
        i, bad = next((i, e) for i, e in enumerate(value) if not TYPES[type_.removeprefix("array of ")](e))
        return f"an array whose element [{i}] is {_shown(bad)}, a JSON {kind_name(bad)}"
    return f"{_shown(value)}, a JSON {kind_name(value)}"


def typed(adp_client: AdpClient, adp_services: AdpServices, member: str, type_: str) -> None:
    """When a Discovery Request the client sent holds ``member``, its value is of the Type
    column's ``type_`` (AMB-04): every such request of the three steps."""
    __tracebackhide__ = True
    sent, _ = discovery_requests(adp_client, adp_services)
    holding = [(where, body[member]) for where, body in objects(sent) if member in body]
    if not holding:
        not_applicable(f"none of the {len(sent)} Discovery Requests the client sent holds {member}, though asked to "
                       f"send it (AMB-71)")
    bad = [f"{where}: {member} is {_describe(v, type_)}" for where, v in holding if not TYPES[type_](v)]
    if bad:
        violation(f"{len(bad)} of the {len(holding)} Discovery Requests the client sent with {member} hold no JSON "
                  f"{type_} there: " + "; ".join(bad[:4]), readings=READINGS)


@clause("ADP-5.1-23")
def test_5_1_client_sends_a_single_json_object(adp_client, adp_services) -> None:
    """A Discovery Request asks a discovery service to return candidate agents. It MUST be a
    single JSON object unless another serialization is explicitly selected by a binding profile
    that preserves the data model defined in this document. Every Discovery Request the client
    sends (a request to a service's Discovery path but a bare GET, HEAD or OPTIONS, AMB-71) has
    a body that is one JSON text, in UTF-8, whose value is an object, whatever its Content-Type
    (AMB-21): no form-encoded body, JSON array, or request in a query string."""
    sent, _ = discovery_requests(adp_client, adp_services)
    bad = [(where, why) for where, r in sent if (why := _not_one_object(r)) is not None]
    if len(bad) == 0 and all(r.status == 413 for _, r in sent):
        untestable(f"the {len(sent)} Discovery Requests the client sent were larger than the kit reads")
    if bad:
        violation(f"{len(bad)} of the {len(sent)} Discovery Requests the client sent are not one JSON object: "
                  + "; ".join(f"{where} {why}" for where, why in bad[:4]), readings=["AMB-21", "AMB-71"])


@clause("ADP-5.1-24")
def test_5_1_client_sends_query_as_a_string(adp_client, adp_services) -> None:
    """| query | string | MUST | Natural-language intent or task description | Every Discovery
    Request the client sends (whose body is a JSON object) holds a member query whose value is
    a JSON string: not left out, not under another name (names are case-sensitive), not in an
    array or an object (AMB-04, AMB-71)."""
    sent, _ = discovery_requests(adp_client, adp_services)
    bad = []
    for where, body in objects(sent):
        if "query" not in body:
            near = [k for k in body if k.casefold() in ("query", "q", "text", "intent")]
            bad.append(f"{where} has no query" + (f" (it has {', '.join(map(repr, near))})" if near else "")
                       + f" (members {sorted(body)[:8]})")
        elif not TYPES["string"](body["query"]):
            bad.append(f"{where}: query is {_describe(body['query'], 'string')}")
    if bad:
        violation(f"{len(bad)} Discovery Request(s) the client sent hold no query string: " + "; ".join(bad[:4]),
                  readings=READINGS)


@clause("ADP-5.1-25")
def test_5_1_client_sends_required_tags_as_strings(adp_client, adp_services) -> None:
    """| required_tags | array of string | When a Discovery Request the client sends holds
    required_tags, its value is a JSON array of JSON strings (AMB-04, AMB-71)."""
    typed(adp_client, adp_services, "required_tags", "array of string")


@clause("ADP-5.1-26")
def test_5_1_client_sends_preferred_tags_as_strings(adp_client, adp_services) -> None:
    """| preferred_tags | array of string | When a Discovery Request the client sends holds
    preferred_tags, its value is a JSON array of JSON strings (AMB-04, AMB-71)."""
    typed(adp_client, adp_services, "preferred_tags", "array of string")


@clause("ADP-5.1-27")
def test_5_1_client_sends_excluded_tags_as_strings(adp_client, adp_services) -> None:
    """| excluded_tags | array of string | When a Discovery Request the client sends holds
    excluded_tags, its value is a JSON array of JSON strings (AMB-04, AMB-71)."""
    typed(adp_client, adp_services, "excluded_tags", "array of string")


@clause("ADP-5.1-28")
def test_5_1_client_sends_protocols_as_strings(adp_client, adp_services) -> None:
    """| protocols | array of string | When a Discovery Request the client sends holds
    protocols, its value is a JSON array of JSON strings (AMB-04, AMB-71)."""
    typed(adp_client, adp_services, "protocols", "array of string")


@clause("ADP-5.1-29")
def test_5_1_client_sends_constraints_as_an_object(adp_client, adp_services) -> None:
    """| constraints | object | When a Discovery Request the client sends holds constraints,
    its value is a JSON object (AMB-04, AMB-71)."""
    typed(adp_client, adp_services, "constraints", "object")


@clause("ADP-5.1-30")
def test_5_1_client_sends_limit_as_an_integer(adp_client, adp_services) -> None:
    """| limit | integer | When a Discovery Request the client sends holds limit, its value is
    a JSON number with no fractional part: "10" or 1.5 fails, 10.0 passes (AMB-04, AMB-71)."""
    typed(adp_client, adp_services, "limit", "integer")


@clause("ADP-5.1-31")
def test_5_1_client_sends_include_evidence_as_a_boolean(adp_client, adp_services) -> None:
    """| include_evidence | boolean | When a Discovery Request the client sends holds
    include_evidence, its value is a JSON boolean: "true" or 1 fails (AMB-04, AMB-71)."""
    typed(adp_client, adp_services, "include_evidence", "boolean")


@clause("ADP-5.1-32")
def test_5_1_client_sends_detail_minimal_summary_or_full(adp_client, adp_services) -> None:
    """minimal, summary, or full response detail (the detail row, | detail | string | MAY |).
    When a Discovery Request the client sends holds detail, it is a JSON string, exactly one of
    minimal, summary and full (case-sensitive); the kit asks for each in turn (AMB-16, AMB-71)."""
    sent, _ = discovery_requests(adp_client, adp_services)
    holding = [(where, body["detail"]) for where, body in objects(sent) if "detail" in body]
    if not holding:
        not_applicable(f"none of the {len(sent)} Discovery Requests the client sent holds detail, though asked to "
                       f"send it (AMB-71)")
    bad = [f"{where}: detail is {_describe(v, 'string')}" for where, v in holding
           if not (isinstance(v, str) and v in DETAIL)]
    if bad:
        violation(f"{len(bad)} of the {len(holding)} Discovery Requests the client sent with detail hold none of "
                  f"minimal, summary, full there: " + "; ".join(bad[:4]), readings=["AMB-16", "AMB-71"])


@clause("ADP-5.1-33")
def test_5_1_client_sends_client_context_as_an_object(adp_client, adp_services) -> None:
    """| client_context | object | When a Discovery Request the client sends holds
    client_context, its value is a JSON object (AMB-04, AMB-71)."""
    typed(adp_client, adp_services, "client_context", "object")
