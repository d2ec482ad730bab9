"""§4.3 Error Handling (agent role)."""

from __future__ import annotations

from datetime import timedelta

from conformance.aiendpoint.conftest import Client, Scenarios, said, second_visit
from conformance.generated import generated, shown
from conformance.outcomes import clause, untestable, violation

_TEXT = {"body": "text", "headers": {"Content-Type": "text/plain"}, "remove_headers": ["Cache-Control"]}


@clause("AIE-4.3-01")
def test_4_3_agent_handles_server_errors_gracefully(client: Client, scenarios: Scenarios) -> None:
    """AI agents MUST handle the following error conditions gracefully: ... HTTP 5xx."""
    s = scenarios.new("server-error", routes=[
        {"path": "/.well-known/ai", "status": 500, "text": "<html>oops</html>", **_TEXT},
        {"path": "/ai", "status": 404, "text": "not found", **_TEXT}])
    reply = client.discover(s)
    if reply.get("error_kind") == "unhandled":
        violation(f"the client raised on a 500 instead of handling it: {'; '.join(reply.get('messages', []))[:200]}")
    if reply["outcome"] == "document":
        violation("the client reports a document although the service answered 500")


@clause("AIE-4.3-02")
def test_4_3_agent_does_not_retry_404_within_24_hours(client: Client, scenarios: Scenarios) -> None:
    """HTTP 404 (Not Found): ... The agent MUST NOT retry the request for the same authority
    within a reasonable period (RECOMMENDED: 24 hours). (Asked again one hour later.)"""
    s = scenarios.new("not-found-twice", routes=[{"path": "/.well-known/ai", "status": 404, "text": "no", **_TEXT}])
    _, _, first, again = second_visit(client, s, timedelta(hours=1))
    if not first:
        untestable("the client sent no request the first time")
    if again:
        violation(f"an hour after a 404 the client sent {again[0].method} {again[0].path} to the same authority")


@clause("AIE-4.3-04")
def test_4_3_agent_respects_retry_after(client: Client, scenarios: Scenarios) -> None:
    """HTTP 429 (Too Many Requests): ... The agent MUST respect the Retry-After header if present.
    (Retry-After: 3600; asked again ten minutes later.)"""
    s = scenarios.new("rate-limited", routes=[{
        "path": "/.well-known/ai", "status": 429, "text": "slow down", "body": "text",
        "headers": {"Content-Type": "text/plain", "Retry-After": "3600"}, "remove_headers": ["Cache-Control"]}])
    _, _, first, again = second_visit(client, s, timedelta(minutes=10))
    if not first:
        untestable("the client sent no request the first time")
    if again:
        violation(f"ten minutes into a Retry-After of 3600 s the client sent {again[0].method} {again[0].path}")


@clause("AIE-4.3-05")
def test_4_3_agent_treats_invalid_json_as_not_implemented(client: Client, scenarios: Scenarios) -> None:
    """Invalid JSON: If the response body cannot be parsed as valid JSON, the agent MUST treat
    the service as not implementing this specification."""
    s = scenarios.new("invalid-json", routes=[{"path": "/.well-known/ai", "body": "text",
                                                "text": '{"aiendpoint": "1.0", "service": {'}])
    reply = client.discover(s)
    if reply["outcome"] != "none":
        violation(f"the body was not JSON and {said(reply)}, not 'none' (the service does not implement the draft)")


@clause("AIE-4.3-06")
def test_4_3_agent_treats_missing_fields_as_invalid(client: Client, scenarios: Scenarios) -> None:
    """Schema Violation: If the parsed JSON does not contain the required fields, the agent
    SHOULD treat the document as invalid."""
    s = scenarios.new("missing-capabilities", patch=[{"op": "remove", "path": "/capabilities"}])
    reply = client.discover(s)
    if reply["outcome"] == "document":
        violation("the document lacks capabilities and the client accepted it")


@clause("AIE-4.3-06")
def test_4_3_agent_rejects_generated_documents_missing_fields(client: Client, scenarios: Scenarios,
                                                              adck_seed: int) -> None:
    """If the parsed JSON does not contain the required fields, the agent SHOULD treat the
    document as invalid. Hypothesis drops required fields from valid documents."""
    from hypothesis import example, given
    from hypothesis import strategies as st

    from conformance.aiendpoint.strategies import documents
    from conformance.world.site import load_reference

    required = ["aiendpoint", "service", "capabilities"]
    reference = load_reference("aiendpoint").document

    @generated(adck_seed)
    @example(document=reference, drop=["service"])
    @given(document=documents(), drop=st.lists(st.sampled_from(required), min_size=1, max_size=3, unique=True))
    def check(document: dict, drop: list[str]) -> None:
        broken = {k: v for k, v in document.items() if k not in drop}
        s = scenarios.new("generated-missing-fields", patch=[{"op": "replace", "path": "", "value": broken}])
        reply = client.discover(s)
        if reply["outcome"] == "document":
            violation(f"a document without {', '.join(drop)} was accepted: {shown(broken)}")

    check()


@clause("AIE-4.3-05")
def test_4_3_agent_treats_generated_non_json_as_not_implemented(client: Client, scenarios: Scenarios,
                                                               adck_seed: int) -> None:
    """If the response body cannot be parsed as valid JSON, the agent MUST treat the service as
    not implementing this specification. Hypothesis cuts valid documents short."""
    import json

    from hypothesis import example, given
    from hypothesis import strategies as st

    from conformance.aiendpoint.strategies import documents
    from conformance.world.site import load_reference

    reference = json.dumps(load_reference("aiendpoint").document)

    @generated(adck_seed)
    @example(text=reference[: len(reference) // 2])
    @given(text=st.builds(lambda d, f: (t := json.dumps(d))[: max(1, int(len(t) * f))],
                          documents(), st.floats(0.05, 0.95)))
    def check(text: str) -> None:
        s = scenarios.new("generated-cut-json", routes=[{"path": "/.well-known/ai", "body": "text", "text": text}])
        reply = client.discover(s)
        if reply["outcome"] != "none":
            violation(f"a body cut short ({len(text)} characters, not JSON) was served and {said(reply)}")

    check()
