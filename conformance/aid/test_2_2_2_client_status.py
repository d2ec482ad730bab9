"""2.2.2 Implementation Object Schema (client): deprecated implementations in the list a
client offers (AMB-21)."""

from __future__ import annotations

from conformance.aid.clients import (AidClient, AidScenarios, MANIFEST_PATH, found_record, manifest, record, remote,
                                     said)
from conformance.outcomes import clause, not_applicable, untestable, violation


@clause("AID-2.2.2-14")
def test_2_2_2_client_hides_or_marks_deprecated_implementation(client: AidClient, scenarios: AidScenarios) -> None:
    """If `"deprecated"`, clients SHOULD hide or warn. (Two remote implementations, the first
    deprecated; judged on the list the client offers the user.)"""
    client.needs("aid.manifest", "implementations are the manifest's")
    scenario = scenarios.new("deprecated-in-list", record(config=True), manifest=manifest(
        remote("Legacy", "https://legacy.{host}/agent", status="deprecated"),
        remote("Cloud", "https://cloud.{host}/agent", status="active")))
    reply = client.discover(scenario)
    found_record(reply)
    if not scenario.requests(MANIFEST_PATH):
        untestable(f"the record holds config={scenario.url(MANIFEST_PATH)} and the client never fetched it; "
                   f"{said(reply)} (see AID-2.3-08)")
    offered = reply.get("offered")
    if not offered:
        not_applicable("the client offered no list of implementations to choose from (AID-2.3-14 is a MAY)")
    for entry in offered:
        if isinstance(entry, dict) and entry.get("name") == "Legacy" and entry.get("deprecated") is not True:
            names = [o.get("name") for o in offered if isinstance(o, dict)]
            violation(f"the client offered {names}, listing the deprecated implementation 'Legacy' without "
                      "marking it deprecated")
