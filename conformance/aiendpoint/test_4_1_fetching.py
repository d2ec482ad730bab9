"""§4.1 Fetching (agent role)."""

from __future__ import annotations


from conformance.aiendpoint.conftest import Client, Scenarios, said
from conformance.generated import generated, shown
from conformance.outcomes import clause, untestable, violation
from conformance.world.site import load_reference


@clause("AIE-4.1-01")
def test_4_1_agent_performs_the_fetching_steps(client: Client, scenarios: Scenarios) -> None:
    """An AI agent attempting to discover the capabilities of a service at a given authority
    SHOULD perform the following steps: GET the well-known URI, parse the JSON, check the
    required fields, and consider the document valid."""
    s = scenarios.new("basic-discovery")
    reply = client.discover(s)
    sent = s.requests()
    if not sent:
        violation(f"the client sent no request at all, and {said(reply)}")
    first = sent[0]
    if (first.method, first.path, first.listener) != ("GET", "/.well-known/ai", "https"):
        violation(f"the first request was {first.method} {first.path} over {first.listener}, "
                  "not GET /.well-known/ai over https")
    if reply["outcome"] != "document":
        violation(f"the reference publisher's valid document was served and {said(reply)}")
    if reply["document"] != load_reference("aiendpoint").document:
        violation("the document the client reports is not the one served")


@clause("AIE-4.1-04")
def test_4_1_agent_does_not_accept_ai_when_well_known_differs(client: Client, scenarios: Scenarios) -> None:
    """However, the "/.well-known/ai" location is authoritative, and agents MUST NOT treat a
    response from "/ai" as valid if the "/.well-known/ai" location returns a different response."""
    s = scenarios.new("well-known-fails-alias-serves", alias=True, routes=[{
        "path": "/.well-known/ai", "status": 503, "body": "text", "text": "busy",
        "headers": {"Content-Type": "text/plain"}, "remove_headers": ["Cache-Control"]}])
    reply = client.discover(s)
    if reply["outcome"] == "document":
        violation("/.well-known/ai answered 503 and the client accepted the document /ai serves")


@clause("AIE-4.1-05")
def test_4_1_agent_does_not_invoke_malformed_capabilities(client: Client, scenarios: Scenarios) -> None:
    """An agent MUST NOT issue requests to any capability endpoint described in the AI
    Discovery Document without first confirming that the document is valid and that the
    capability's method, endpoint, and parameters are well-formed."""
    s = scenarios.new("malformed-capability", patch=[{"op": "add", "path": "/capabilities/-", "value": {
        "id": "purge_notes", "description": "Delete every note", "endpoint": "/api/purge", "method": "FETCH"}}])
    reply = client.invoke(s, "purge_notes")
    hits = [r for r in s.requests() if r.path.startswith("/api/purge")]
    if hits:
        violation(f"the client sent {hits[0].method} {hits[0].path} for a capability whose method FETCH is not allowed")
    if reply["outcome"] == "invoked":
        violation("the client says it invoked a capability whose method FETCH is not allowed")
    if not any(r.path == "/.well-known/ai" for r in s.requests()):
        untestable(f"the client never fetched the document ({said(reply)}), so it met no malformed capability")


MINIMAL = {"aiendpoint": "1.0", "service": {"name": "SimpleNotes", "description": "Create and retrieve plain text notes."},
           "capabilities": [{"id": "create_note", "description": "Create a new text note", "endpoint": "/api/notes",
                             "method": "POST"},
                            {"id": "list_notes", "description": "List all notes, newest first",
                             "endpoint": "/api/notes", "method": "GET"}]}


@clause("AIE-4.1-01")
def test_4_1_agent_accepts_generated_valid_documents(client: Client, scenarios: Scenarios, adck_seed: int) -> None:
    """If validation succeeds, the service is considered to have a valid AI Discovery Document.
    Hypothesis serves valid documents (the strategies of the document role; the minimal document
    of 8.1 first) and the client must accept each."""
    from hypothesis import example, given

    from conformance.aiendpoint.strategies import documents

    @generated(adck_seed)
    @example(document=MINIMAL)
    @given(document=documents())
    def check(document: dict) -> None:
        s = scenarios.new("generated-valid", patch=[{"op": "replace", "path": "", "value": document}])
        reply = client.discover(s)
        if reply["outcome"] != "document":
            violation(f"a valid document was served and {said(reply)}: {shown(document)}")

    check()


@clause("AIE-4.1-01")
def test_4_1_agent_parses_only_application_json(client: Client, scenarios: Scenarios) -> None:
    """3. If the response status is 200 (OK) and the Content-Type header indicates
    "application/json", parse the response body as a JSON object. (Served as text/html.)"""
    s = scenarios.new("html-content-type", routes=[{"path": "/.well-known/ai",
                                                     "headers": {"Content-Type": "text/html; charset=utf-8"}}])
    reply = client.discover(s)
    if reply["outcome"] == "document":
        violation("the document was served as text/html and the client parsed and accepted it")
