"""§2.1 Resource Location."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from conformance.aiendpoint import WELL_KNOWN_PATH
from conformance.aiendpoint.conftest import (EXPLAINED_STATUS, FETCH_ERROR_CLAUSE, Client, OtherMethod, Scenarios,
                                              accepted_document, delivered, each, response)
from conformance.document import loads
from conformance.fetch import Exchange, Fetch
from conformance.outcomes import clause, not_applicable, untestable, violation


@clause("AIE-2.1-01")
def test_2_1_document_served_at_well_known_uri(well_known: Fetch, other_method: OtherMethod) -> None:
    """A service provider that implements this specification MUST serve the AI Discovery
    Document at the following well-known URI: /.well-known/ai"""
    kind = well_known.error_kind
    if kind and FETCH_ERROR_CLAUSE.get(kind) == "AIE-2.1-01":
        violation(f"GET {well_known.url} did not reach a document: {well_known.describe_error()}")
    final = response(well_known)
    if 200 <= final.status < 300:
        return
    if final.status in EXPLAINED_STATUS and EXPLAINED_STATUS[final.status] != "AIE-2.1-01":
        untestable(f"GET {final.url} answered {final.status} {final.reason}, which "
                   f"{EXPLAINED_STATUS[final.status]} reports; whether the document is there is not known")
    # AMB-30: the document is at the URI if any request the kit sends there yields it
    if other_method.yields:
        return
    tried = f"; POST answered {other_method.fetch.final.status}" if other_method.fetch and other_method.fetch.final else ""
    violation(f"GET {final.url} answered {final.status} {final.reason}, not the document{tried}", readings=("AMB-30",))


@clause("AIE-2.1-03")
def test_2_1_alias_content_identical(well_known: Fetch, alias: Fetch) -> None:
    """When both locations are served, the content MUST be identical."""
    final = _alias_response(alias)
    try:
        alias_value = loads(final.body)
    except ValueError:
        not_applicable("/ai answers, but not with a JSON document (an unrelated page is not an alias)")
    _judge_identity(well_known, final, alias_value, "AMB-05")


def _alias_response(alias: Fetch) -> Exchange:
    """The 2xx answer of GET /ai, or *not applicable*: /ai is not served."""
    __tracebackhide__ = True
    final = alias.final
    if alias.error or final is None or not 200 <= final.status < 300:
        not_applicable(f"/ai is not served ({alias.describe_error() if alias.error else final and final.status})")
    return final


def _served_alias(alias: Fetch) -> tuple[Exchange, dict]:
    """-01's alias (AMB-39): /ai answers 2xx with a JSON object holding an "aiendpoint" member,
    and its value; anything else there is an unrelated resource, and a redirect of /ai to
    /.well-known/ai on the same authority serves no copy (AMB-40): *not applicable*."""
    __tracebackhide__ = True
    final = _alias_response(alias)
    if alias.redirects and urlsplit(final.url).path == WELL_KNOWN_PATH \
            and urlsplit(final.url).netloc == urlsplit(alias.url).netloc:
        not_applicable(f"/ai redirects to {final.url}: the document is served at /.well-known/ai only, "
                       "no copy at /ai (AMB-40)")
    try:
        value = loads(final.body)
    except ValueError:
        value = None
    if not isinstance(value, dict) or "aiendpoint" not in value:
        not_applicable(f"/ai answers {final.status}, but not with a JSON object holding an \"aiendpoint\" member: "
                       "an unrelated resource, not the alias (AMB-39)")
    return final, value


def _judge_identity(well_known: Fetch, final: Exchange, alias_value: object, reading: str) -> None:
    """The identity of /ai's copy and /.well-known/ai's document: the same JSON value (AMB-05;
    byte-identical bodies pass at once). ``reading``: the ambiguity that says what the alias is."""
    __tracebackhide__ = True
    primary = delivered(well_known)
    if primary.body == final.body:
        return
    try:
        primary_value = loads(primary.body)
    except ValueError:
        untestable("the /.well-known/ai body is not JSON, so the two cannot be compared (see AIE-3.1-01)")
    if primary_value != alias_value:
        violation(f"expected /ai to serve the same JSON value as /.well-known/ai; it serves a different document "
                  f"({_first_difference(primary_value, alias_value)})", readings=(reading,))


@clause("AIE-2.1-06")
def test_2_1_alias_not_served(alias: Fetch) -> None:
    """Earlier deployments of this mechanism also served a copy of the AI Discovery Document at
    the path "/ai" on the same authority, as a convenience alias. That practice is NOT
    RECOMMENDED. (The alias: /ai answers 2xx with a JSON object holding an "aiendpoint" member,
    whatever its media type or white space, identical or not; an unrelated page or a 404 at /ai
    is not applicable, AMB-39, and so is a redirect of /ai to /.well-known/ai, AMB-40. Backward
    compatibility, the MAY of AIE-2.1-07, is not visible.)"""
    final, value = _served_alias(alias)
    violation(f"expected no copy of the AI Discovery Document at /ai (NOT RECOMMENDED); GET {final.url} answered "
              f"{final.status} with a JSON object holding \"aiendpoint\": {json.dumps(value.get('aiendpoint'))}",
              readings=("AMB-39",))


@clause("AIE-2.1-08")
def test_2_1_alias_identical_where_served(well_known: Fetch, alias: Fetch) -> None:
    """A service provider MAY continue to serve such an alias for backward compatibility with
    existing deployments. Where it does, the content MUST be identical to the document served
    at "/.well-known/ai", and the "/.well-known/ai" location remains authoritative. (Applicable
    only where /ai serves the alias, AMB-39; identical: the same JSON value, AMB-05.)"""
    final, value = _served_alias(alias)
    _judge_identity(well_known, final, value, "AMB-39")


def _first_difference(a: object, b: object, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(a.keys() | b.keys()):
            if key not in a or key not in b:
                return f"{path}/{key} is only in {'/ai' if key in b else '/.well-known/ai'}"
            if a[key] != b[key]:
                return _first_difference(a[key], b[key], f"{path}/{key}")
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}/{i}")
        if len(a) != len(b):
            return f"{path or '/'} has {len(a)} items at /.well-known/ai, {len(b)} at /ai"
    return f"at {path or '/'}: {json.dumps(a, ensure_ascii=False)[:60]} vs {json.dumps(b, ensure_ascii=False)[:60]}"


@clause("AIE-2.1-05")
def test_2_1_not_served_at_path_with_query_or_fragment(well_known: Fetch) -> None:
    """The AI Discovery Document MUST NOT be served at a path that includes query parameters
    or fragment identifiers."""
    final = delivered(well_known)
    for hop in well_known.redirects:
        location = hop.header("location") or ""
        if "#" in location:
            violation(f"{hop.url} redirects to {location!r}, which has a fragment identifier")
    parts = urlsplit(final.url)
    if parts.query:
        violation(f"the document is served at {final.url}, a path with query parameters")


# ------------------------------------------------------------------ agent role


#: Ways /ai can differ from /.well-known/ai (JSON Patch on the /ai copy).
ALIAS_DIFFERENCES = {
    "another service name": [{"op": "replace", "path": "/service/name", "value": "Alias Notes"}],
    "an extra capability": [{"op": "add", "path": "/capabilities/-", "value": {
        "id": "alias_only", "description": "Only /ai has this", "endpoint": "/api/alias-only", "method": "GET"}}],
    "another endpoint": [{"op": "replace", "path": "/capabilities/0/endpoint", "value": "/api/alias/search"}],
    "another auth type": [{"op": "replace", "path": "/auth", "value": {"type": "none"}}],
}


@clause("AIE-2.1-04")
def test_2_1_agent_treats_well_known_as_authoritative(client: Client, scenarios: Scenarios) -> None:
    """An AI agent that receives differing content from the two locations MUST treat the
    "/.well-known/ai" response as authoritative. (/ai differs in a field, adds a capability,
    moves an endpoint, changes auth: nothing of it may reach what the agent reports.)"""

    def check(item: tuple[str, list]) -> None:
        name, patch = item
        s = scenarios.new("alias-differs", alias=True, routes=[{"path": "/ai", "patch": patch}])
        reply = client.discover(s)
        document = accepted_document(reply)
        if document.get("service", {}).get("name") == "Alias Notes" or "/api/alias" in json.dumps(document) \
                or "alias_only" in json.dumps(document):
            violation(f"/ai has {name} and the client accepted the /ai document")
        used = {c.get("id"): c.get("url") for c in reply.get("capabilities", []) if isinstance(c, dict)}
        if "alias_only" in used or any("/api/alias" in str(u) for u in used.values()):
            violation(f"/ai has {name} and the client uses a capability only /ai describes")
        if name == "another auth type" and reply.get("auth_required") is False:
            violation("/ai says auth type none and the client concluded no authentication is required")

    each(ALIAS_DIFFERENCES.items(), check)


#: A document served elsewhere than /.well-known/ai, named so that accepting it shows.
ELSEWHERE = "Elsewhere Notes"
_ELSEWHERE_PATCH = [{"op": "replace", "path": "/service/name", "value": ELSEWHERE}]
_TEXT = {"body": "text", "headers": {"Content-Type": "text/plain"}, "remove_headers": ["Cache-Control"]}

#: What /.well-known/ai answers (every answer that is not the document, and the document
#: itself), and where the other document is: /ai, /ai reached by a redirect of its own, and
#: /.well-known/ai-discovery (AMB-37: asking it is no probe, accepting from it is this clause).
OTHER_PATH_CASES = {
    "404, /ai serving a document": ({"status": 404, "text": "not found", **_TEXT}, "/ai"),
    "410, /ai serving a document": ({"status": 410, "text": "gone", **_TEXT}, "/ai"),
    "500, /ai serving a document": ({"status": 500, "text": "oops", **_TEXT}, "/ai"),
    "503, /ai serving a document": ({"status": 503, "text": "busy", **_TEXT}, "/ai"),
    "a body that is not JSON, /ai serving a document": ({"body": "text", "text": "{not json"}, "/ai"),
    "a document missing service, /ai serving a document": (
        {"patch": [{"op": "remove", "path": "/service"}]}, "/ai"),
    "a valid document, /ai serving a different one": ({}, "/ai"),
    "500, /ai redirecting to a document": ({"status": 500, "text": "oops", **_TEXT}, "/ai redirect"),
    "500, /.well-known/ai-discovery serving a document": (
        {"status": 500, "text": "oops", **_TEXT}, "/.well-known/ai-discovery"),
    "a body that is not JSON, /.well-known/ai-discovery serving a document": (
        {"body": "text", "text": "{not json"}, "/.well-known/ai-discovery"),
    "a valid document, /.well-known/ai-discovery serving a different one": ({}, "/.well-known/ai-discovery"),
}


def _elsewhere(where: str) -> list[dict]:
    document = {"body": "document", "patch": _ELSEWHERE_PATCH,
                "headers": {"Content-Type": "application/json; charset=utf-8", "Cache-Control": "max-age=3600"}}
    if where == "/ai redirect":
        return [{"path": "/ai", "status": 302, "body": "empty", "headers": {"Location": "/legacy/ai.json"},
                 "remove_headers": ["Content-Type", "Cache-Control"]}, {"path": "/legacy/ai.json", **document}]
    return [{"path": where, **document}]


@clause("AIE-2.1-09")
def test_2_1_agent_takes_no_document_from_another_path(client: Client, scenarios: Scenarios) -> None:
    """Agents MUST NOT treat a response obtained from any other path as an AI Discovery
    Document. (Another document, "Elsewhere Notes", is served at /ai, behind a redirect of
    /ai's own, or at /.well-known/ai-discovery, while /.well-known/ai answers 404, 410, 5xx, a
    body that is not JSON, an invalid document, or a valid document of its own: none of it may
    reach what the agent reports. A document reached by following redirects from
    /.well-known/ai is obtained from it, AMB-34; asking the other paths is 4.1-07's.)"""

    def check(item: tuple[str, tuple[dict, str]]) -> None:
        name, (route, where) = item
        routes = ([{"path": "/.well-known/ai", **route}] if route else []) + _elsewhere(where)
        s = scenarios.new("document-elsewhere", routes=routes)
        reply = client.discover(s)
        document = reply.get("document") if reply.get("outcome") == "document" else None
        service = document.get("service") if isinstance(document, dict) else None
        if isinstance(service, dict) and service.get("name") == ELSEWHERE:
            via = "/ai's redirect" if where == "/ai redirect" else where
            violation(f"expected only what /.well-known/ai answers to be taken as the document; /.well-known/ai "
                      f"answered {name.split(',')[0]} and the client reports the document from {via} "
                      f"(service name {ELSEWHERE!r})",
                      readings=("AMB-37",) if "discovery" in where else ("AMB-34",))

    each(OTHER_PATH_CASES.items(), check)
