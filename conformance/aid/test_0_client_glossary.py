"""0 Glossary (client): an implementation without status is active (AMB-21): no warning, no
confirmation, not marked deprecated in a list the client offers."""

from __future__ import annotations

from conformance.aid.clients import (AidClient, AidScenarios, attention, fetched_manifest, manifest, record, remote)
from conformance.outcomes import clause, violation






@clause("AID-0-02")
def test_0_client_treats_missing_status_as_active(client: AidClient, scenarios: AidScenarios) -> None:
    """| **Implementation Status** | Indicates if an implementation is "active" or "deprecated".
    Default: "active". | (The same remote implementation, marked "active" and without status.)"""
    client.needs("aid.manifest", "implementation status is the manifest's")
    control = scenarios.new("status-active", record(config=True),
                            manifest=manifest(remote("Cloud", "https://cloud.{host}/agent", status="active")))
    seen = client.discover(control, user={"confirm": True})
    fetched_manifest(control, seen)
    scenario = scenarios.new("status-missing", record(config=True),
                             manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")))
    reply = client.discover(scenario, user={"confirm": True})
    fetched_manifest(scenario, reply)
    (warnings, confirms), (usual_warnings, usual_confirms) = attention(reply), attention(seen)
    if len(confirms) > len(usual_confirms):
        violation(f"the implementation has no status (active by default) and the client asked for confirmation: "
                  f"{confirms[-1]!r}; it asks for none when the status is \"active\"")
    if len(warnings) > len(usual_warnings):
        violation(f"the implementation has no status (active by default) and the client warned: {warnings[-1]!r}; "
                  f"it shows {len(usual_warnings)} warning(s) when the status is \"active\"")
    # in a list the client offers: an implementation without status is not marked deprecated
    scenario = scenarios.new("status-missing-in-list", record(config=True), manifest=manifest(
        remote("Plain", "https://plain.{host}/agent"), remote("Cloud", "https://cloud.{host}/agent", status="active")))
    reply = client.discover(scenario, user={"confirm": True})
    fetched_manifest(scenario, reply)
    marked = [o.get("name") for o in reply.get("offered") or [] if isinstance(o, dict) and o.get("deprecated") is True]
    if "Plain" in marked:
        violation(f"the client offered {[o.get('name') for o in reply['offered'] if isinstance(o, dict)]}, marking "
                  "'Plain', which has no status (active by default), as deprecated")
