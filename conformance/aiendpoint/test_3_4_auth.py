"""§3.4 The "auth" Object."""

from __future__ import annotations

import re

from conformance.aiendpoint._uri import check_uri_member
from conformance.aiendpoint.conftest import Client, Scenarios, accepted_document, each
from conformance.document import Document, kind_name
from conformance.outcomes import clause, untestable, violation

AUTH_TYPES = ("none", "apikey", "bearer", "oauth2")
# RFC 9110 section 5.1: field-name = token
FIELD_NAME = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")  # \Z: $ also matches before a final newline


@clause("AIE-3.4-01")
def test_3_4_auth_contains_type(document: Document) -> None:
    """When present, the "auth" object MUST contain the following field: type."""
    auth = document.member("auth", kind=dict, required=False)
    if "type" not in auth:
        violation(f"auth has no type (members: {', '.join(auth) or 'none'})")


@clause("AIE-3.4-02")
def test_3_4_auth_type_is_allowed(document: Document) -> None:
    """The value MUST be one of: "none", "apikey", "bearer", "oauth2"."""
    value = document.member("auth", "type", required=False)
    if value not in AUTH_TYPES or not isinstance(value, str):
        violation(f"auth.type is {value!r} ({kind_name(value)})")


@clause("AIE-3.4-03")
def test_3_4_header_is_field_name(document: Document) -> None:
    """header: (string, OPTIONAL) The name of the HTTP header in which the credential is passed."""
    value = document.member("auth", "header", required=False)
    if not isinstance(value, str):
        violation(f"auth.header is a JSON {kind_name(value)}, not a string")
    if not FIELD_NAME.match(value):
        violation(f"auth.header {value[:40]!r} is not an HTTP header name")


@clause("AIE-3.4-05")
def test_3_4_docs_is_uri(document: Document) -> None:
    """docs: (string, OPTIONAL) A URI pointing to human-readable documentation."""
    check_uri_member(document, "auth", "docs")


@clause("AIE-3.4-07")
def test_3_4_auth_object_included(document: Document) -> None:
    """Service providers are therefore RECOMMENDED to include the "auth" object even when no
    authentication is required, with type set to "none"."""
    if "auth" not in document.top():
        violation("the document has no auth object")


# ------------------------------------------------------------------ agent role


@clause("AIE-3.4-06")
def test_3_4_agent_assumes_auth_may_be_required(client: Client, scenarios: Scenarios) -> None:
    """If the "auth" object is omitted entirely, an AI agent SHOULD assume that authentication
    may be required. (Omitted from documents of every kind: with write capabilities, with
    read-only ones, with rate limits that mention no agent tier, the minimal document of 8.1.)"""
    read_only = [{"id": "get_forecast", "description": "Forecast for a city", "endpoint": "/api/forecast",
                  "method": "GET", "params": {"city": "string, required"}}]
    minimal = {"aiendpoint": "1.0", "service": {"name": "SimpleNotes", "description": "Create and retrieve notes."},
               "capabilities": [{"id": "create_note", "description": "Create a new text note",
                                 "endpoint": "/api/notes", "method": "POST"}]}
    cases = {
        "the reference document": [{"op": "remove", "path": "/auth"}],
        "a read-only document": [{"op": "remove", "path": "/auth"},
                                 {"op": "replace", "path": "/capabilities", "value": read_only}],
        "a document with free rate limits": [{"op": "remove", "path": "/auth"},
                                             {"op": "replace", "path": "/rate_limits",
                                              "value": {"requests_per_minute": 600, "agent_tier_available": True}}],
        "the minimal document": [{"op": "replace", "path": "", "value": minimal}],
    }

    def check(item: tuple[str, list]) -> None:
        name, patch = item
        s = scenarios.new("no-auth-object", patch=patch)
        reply = client.discover(s)
        accepted_document(reply)
        if "auth_required" not in reply:
            untestable("the client's adapter does not report auth_required")
        if reply["auth_required"] is False:
            violation(f"{name} has no auth object and the client concluded no authentication is required")

    each(cases.items(), check)
