"""§4.1 Fetching (agent role)."""

from __future__ import annotations


from conformance.aiendpoint.conftest import Client, Scenarios, each, redirect_chain, said
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


_TEXT = {"body": "text", "headers": {"Content-Type": "text/plain"}, "remove_headers": ["Cache-Control"]}

#: What /.well-known/ai answers while /ai serves a valid document: every response other than
#: that document (an error status, a body that is not JSON, a document missing a required
#: field, another media type). A 404 is among them: the MAY of 4.1-03 lets the agent fetch
#: /ai, and this sentence forbids treating what it gets as valid (AMB-18).
WELL_KNOWN_FAILURES = {
    "404": {"status": 404, "text": "not found", **_TEXT},
    "410": {"status": 410, "text": "gone", **_TEXT},
    "500": {"status": 500, "text": "oops", **_TEXT},
    "503": {"status": 503, "text": "busy", **_TEXT},
    "200 with a body that is not JSON": {"body": "text", "text": "{not json"},
    "200 with a document missing service": {"patch": [{"op": "remove", "path": "/service"}]},
    "200 as text/html": {"headers": {"Content-Type": "text/html; charset=utf-8"}},
}


@clause("AIE-4.1-04")
def test_4_1_agent_does_not_accept_ai_when_well_known_differs(client: Client, scenarios: Scenarios) -> None:
    """However, the "/.well-known/ai" location is authoritative, and agents MUST NOT treat a
    response from "/ai" as valid if the "/.well-known/ai" location returns a different response.
    (/ai serves a valid document, named "Alias Notes", while /.well-known/ai answers anything
    else, a 404 included: fetching /ai is allowed, accepting its document is not, AMB-18.
    Accepting what /.well-known/ai itself served is judged by 4.1-01 and 4.3.)"""

    def check(item: tuple[str, dict]) -> None:
        name, route = item
        s = scenarios.new("well-known-fails-alias-serves", alias=True, routes=[
            {"path": "/.well-known/ai", **route},
            {"path": "/ai", "patch": [{"op": "replace", "path": "/service/name", "value": "Alias Notes"}]}])
        reply = client.discover(s)
        document = reply.get("document") if reply["outcome"] == "document" else None
        service = document.get("service") if isinstance(document, dict) else None
        if isinstance(service, dict) and service.get("name") == "Alias Notes":
            violation(f"/.well-known/ai answered {name} and the client accepted the document /ai serves")

    each(WELL_KNOWN_FAILURES.items(), check)


#: Capabilities that are not well-formed (4.1: method, endpoint, parameters), each added to
#: the reference document as "purge_notes", whose endpoint path contains "purge".
MALFORMED = {
    "method FETCH": {"endpoint": "/api/purge", "method": "FETCH"},
    "method in lower case": {"endpoint": "/api/purge", "method": "delete"},
    "no method": {"endpoint": "/api/purge"},
    "an endpoint neither a path nor an absolute URI": {"endpoint": "api/purge", "method": "DELETE"},
    "an empty endpoint": {"endpoint": "", "method": "DELETE", "params": {"purge": "boolean, required"}},
    "a javascript: endpoint": {"endpoint": "javascript:purge()", "method": "DELETE"},
    "params that are a string": {"endpoint": "/api/purge", "method": "DELETE", "params": "scope: string"},
    "params that are a list": {"endpoint": "/api/purge", "method": "DELETE", "params": ["scope"]},
    "a parameter described by a number": {"endpoint": "/api/purge", "method": "DELETE", "params": {"scope": 3}},
}


@clause("AIE-4.1-05")
def test_4_1_agent_does_not_invoke_malformed_capabilities(client: Client, scenarios: Scenarios) -> None:
    """An agent MUST NOT issue requests to any capability endpoint described in the AI
    Discovery Document without first confirming that the document is valid and that the
    capability's method, endpoint, and parameters are well-formed. (Each way a method, an
    endpoint or the parameters can be malformed; and a well-formed capability of a document
    that is not valid: its service is not an object, as Section 3 defines it. A document
    missing a required field is 4.3-06's space, whose SHOULD an agent MAY set aside (4.3-07)
    as long as it invokes nothing from it.)"""
    cases = [(f"a capability with {name}", [{"op": "add", "path": "/capabilities/-", "value": {
        "id": "purge_notes", "description": "Delete every note", **fields}}]) for name, fields in MALFORMED.items()]
    cases.append(("a document whose service is not an object", [
        {"op": "replace", "path": "/service", "value": "Reference Notes"},
        {"op": "replace", "path": "/capabilities/0", "value": {
            "id": "purge_notes", "description": "Delete every note", "endpoint": "/api/purge", "method": "DELETE"}}]))

    def check(case: tuple[str, list]) -> None:
        name, patch = case
        s = scenarios.new("malformed-capability", patch=patch)
        reply = client.invoke(s, "purge_notes")
        hits = [r for r in s.requests() if "purge" in r.path or "purge" in r.query]
        if hits:
            violation(f"{name}: the client sent {hits[0].method} {hits[0].path}")
        if reply["outcome"] == "invoked":
            violation(f"{name}: the client says it invoked it")
        if not any(r.path == "/.well-known/ai" for r in s.requests()):
            untestable(f"the client never fetched the document ({said(reply)}), so it met no malformed capability")

    each(cases, check)


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


_NOT_FOUND = {"status": 404, "text": "not found", **_TEXT}

#: 404s of /.well-known/ai, each with something an agent might go on to ask for: the alias at
#: /ai serving a document, /.well-known/ai-discovery serving one, a body that is a document.
#: The 404 at the end of a redirect chain is the response status too.
NOT_FOUND_CASES = {
    "404 with a text body": [{"path": "/.well-known/ai", **_NOT_FOUND}],
    "404 with a valid document as its body": [{"path": "/.well-known/ai", "status": 404, "body": "document"}],
    "404 while /ai serves the document": [{"path": "/.well-known/ai", **_NOT_FOUND},
                                          {"path": "/ai", "body": "document",
                                           "headers": {"Content-Type": "application/json"}}],
    "404 while /.well-known/ai-discovery serves the document": [
        {"path": "/.well-known/ai", **_NOT_FOUND},
        {"path": "/.well-known/ai-discovery", "body": "document", "headers": {"Content-Type": "application/json"}}],
    "404 after a redirect": [{"path": "/.well-known/ai", "status": 302, "body": "empty",
                              "headers": {"Location": "/moved/ai"}, "remove_headers": ["Content-Type", "Cache-Control"]},
                             {"path": "/moved/ai", **_NOT_FOUND}],
}


@clause("AIE-4.1-06")
def test_4_1_agent_stops_after_404(client: Client, scenarios: Scenarios) -> None:
    """If the response status is 404 (Not Found), the agent SHOULD conclude that the service
    does not publish an AI Discovery Document and stop. (The stop: after the 404 the agent
    sends no further request to the authority in that discovery, for any path, allowed ones
    such as /robots.txt and /.well-known/ai-discovery and /.well-known/ai itself included;
    AMB-35. The conclusion is AIE-2.2-07's MUST; asking again later is AIE-4.3-02's.)"""

    def check(item: tuple[str, list[dict]]) -> None:
        name, routes = item
        s = scenarios.new("not-found-stop", routes=routes)
        reply = client.discover(s)
        sent = s.requests()
        at = next((i for i, r in enumerate(sent) if r.status == 404 and r.method == "GET"
                   and r.path in ("/.well-known/ai", "/moved/ai")), None)
        if at is None:
            untestable(f"the client never received the 404 of /.well-known/ai ({said(reply)}; requests: "
                       f"{', '.join(r.path for r in sent) or 'none'}; see AIE-4.1-01)")
        after = sent[at + 1:]
        if after:
            violation(f"expected no further request after /.well-known/ai answered {name}; the client then sent "
                      + ", ".join(f"{r.method} {r.path}" for r in after[:3]) + (" ..." if len(after) > 3 else ""),
                      readings=("AMB-35",))

    each(NOT_FOUND_CASES.items(), check)


#: Paths an agent may ask besides /.well-known/ai (AMB-36): the preference-signal resources of
#: section 6 (the Robots Exclusion Protocol's /robots.txt, the TDM Reservation Protocol's
#: /.well-known/tdmrep.json) and the alternative well-known suffix of 8.1 (AMB-37). The
#: Location targets of a redirect chain followed are allowed too (each case names its own).
NOT_PROBES = frozenset({"/.well-known/ai", "/robots.txt", "/.well-known/tdmrep.json", "/.well-known/ai-discovery"})

_ALIAS = {"path": "/ai", "body": "document", "headers": {"Content-Type": "application/json"}}

#: Every kind of discovery, each with the alias at /ai serving the document (so a probe of it
#: finds something) and the redirect targets the case allows.
DISCOVERIES = {
    "a valid document": ([], ()),
    "a 404": ([{"path": "/.well-known/ai", **_NOT_FOUND}], ()),
    "a 500": ([{"path": "/.well-known/ai", "status": 500, "text": "oops", **_TEXT}], ()),
    "a 503 with Retry-After": ([{"path": "/.well-known/ai", "status": 503, "text": "busy",
                                 "body": "text", "headers": {"Content-Type": "text/plain", "Retry-After": "120"},
                                 "remove_headers": ["Cache-Control"]}], ()),
    "a body that is not JSON": ([{"path": "/.well-known/ai", "body": "text", "text": "{not json"}], ()),
    "a document missing service": ([{"path": "/.well-known/ai", "patch": [{"op": "remove", "path": "/service"}]}], ()),
    "a document after two redirects": (redirect_chain(2), ("/hop/1", "/hop/2")),
}


@clause("AIE-4.1-07")
def test_4_1_agent_does_not_probe_alternative_paths(client: Client, scenarios: Scenarios) -> None:
    """Agents SHOULD NOT probe alternative paths such as "/ai": such paths are commonly used
    for unrelated purposes, and probing them increases request volume for no reliable gain.
    (Judged on every discovery, whatever /.well-known/ai answers: a valid document, 404, 5xx,
    a body that is not JSON, an invalid document, a redirect chain. Any request for another
    path than /.well-known/ai departs from it, except the Location targets of the chain
    followed, /robots.txt-style preference signals and /.well-known/ai-discovery; AMB-36.)"""

    def check(item: tuple[str, tuple[list[dict], tuple[str, ...]]]) -> None:
        name, (routes, hops) = item
        s = scenarios.new("no-probing", routes=[*routes, _ALIAS])
        reply = client.discover(s)
        sent = s.requests()
        if not sent:
            untestable(f"the client sent no request at all ({said(reply)}; see AIE-4.1-01)")
        probes = [r for r in sent if r.path not in NOT_PROBES and r.path not in hops]
        if probes:
            violation(f"expected requests for /.well-known/ai (and its redirects, preference signals, "
                      f"/.well-known/ai-discovery) only; when /.well-known/ai answered {name} the client also sent "
                      + ", ".join(f"{r.method} {r.path}" for r in probes[:3]), readings=("AMB-36",))

    each(DISCOVERIES.items(), check)
