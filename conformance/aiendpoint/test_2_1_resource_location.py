"""§2.1 Resource Location."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from conformance.aiendpoint.conftest import (EXPLAINED_STATUS, FETCH_ERROR_CLAUSE, Client, OtherMethod, Scenarios,
                                              accepted_document, delivered, each, response)
from conformance.document import loads
from conformance.fetch import Fetch
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
    final = alias.final
    if alias.error or final is None or not 200 <= final.status < 300:
        not_applicable(f"/ai is not served ({alias.describe_error() if alias.error else final and final.status})")
    try:
        alias_value = loads(final.body)
    except ValueError:
        not_applicable("/ai answers, but not with a JSON document (an unrelated page is not an alias)")
    primary = delivered(well_known)
    if primary.body == final.body:
        return
    try:
        primary_value = loads(primary.body)
    except ValueError:
        untestable("the /.well-known/ai body is not JSON, so the two cannot be compared (see AIE-3.1-01)")
    if primary_value != alias_value:
        violation(f"/ai serves a different document than /.well-known/ai ({_first_difference(primary_value, alias_value)})")


def _first_difference(a: object, b: object, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(a.keys() | b.keys()):
            if key not in a or key not in b:
                return f"{path}/{key} is only in {'/ai' if key in b else '/.well-known/ai'}"
            if a[key] != b[key]:
                return _first_difference(a[key], b[key], f"{path}/{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}/{i}")
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
