"""§4.4 Version Negotiation (agent role)."""

from __future__ import annotations

from conformance.aiendpoint.conftest import Client, Scenarios, said
from conformance.outcomes import clause, violation


@clause("AIE-4.4-01")
def test_4_4_agent_parses_unrecognized_version(client: Client, scenarios: Scenarios) -> None:
    """An AI agent that encounters an "aiendpoint" value it does not recognize SHOULD still
    attempt to parse the document using the rules of the highest version it supports."""
    s = scenarios.new("version-unrecognized", patch=[{"op": "replace", "path": "/aiendpoint", "value": "next"}])
    reply = client.discover(s)
    if reply["outcome"] != "document":
        violation(f'a document with "aiendpoint": "next" and 1.0 content was served and {said(reply)}')


@clause("AIE-4.4-02")
def test_4_4_agent_accepts_higher_version(client: Client, scenarios: Scenarios) -> None:
    """An AI agent MUST NOT reject a document solely because the "aiendpoint" value is higher
    than the version it supports."""
    s = scenarios.new("version-1-1", patch=[{"op": "replace", "path": "/aiendpoint", "value": "1.1"}])
    reply = client.discover(s)
    if reply["outcome"] != "document":
        violation(f'a 1.0 document labelled "aiendpoint": "1.1" was served and {said(reply)}')


@clause("AIE-4.4-02")
def test_4_4_agent_accepts_higher_version_with_unknown_fields(client: Client, scenarios: Scenarios) -> None:
    """An AI agent MUST NOT reject a document solely because the "aiendpoint" value is higher
    than the version it supports. (4.4: a 1.0 agent processes a 1.1 document by ignoring
    unknown fields.)"""
    s = scenarios.new("version-1-1-additive", patch=[
        {"op": "replace", "path": "/aiendpoint", "value": "1.1"},
        {"op": "add", "path": "/webhooks", "value": {"events": "/api/events"}},
        {"op": "add", "path": "/capabilities/0/examples", "value": ["q=groceries"]}])
    reply = client.discover(s)
    if reply["outcome"] != "document":
        violation(f"a 1.1 document with fields 1.0 does not define was served and {said(reply)}")
