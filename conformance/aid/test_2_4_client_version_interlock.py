"""2.4 Version interlock (client): under v=aid1, a manifest of schema major 2 is rejected (AMB-09)."""

from __future__ import annotations

from conformance.aid.clients import (AidClient, AidScenarios, MANIFEST_PATH, connected_to, found_record, local,
                                     manifest, record, remote, said, warned)
from conformance.outcomes import clause, untestable, violation


@clause("AID-2.4-02")
def test_2_4_client_rejects_major_2_manifest_under_aid1(client: AidClient, scenarios: AidScenarios) -> None:
    """If the TXT record advertises `v=aid1`, any manifest with `schemaVersion` beginning with
    '2.' **MUST** be rejected. (schemaVersion "2.0", "2.1", "2.10", "2.0.1", each rejected; then
    "2", AMB-46: rejected, or read as an unknown version as 2.5 allows: warned about, its local
    implementation never run; the record's uri differs from the manifest's implementations.)"""
    client.needs("aid.manifest", "the schema version is the manifest's")
    implementations = (remote("Cloud", "https://cloud.{host}/agent"), local(["run", "--rm", "example/agent:2.0"]))
    for version in ("2.0", "2.1", "2.10", "2.0.1", "2"):
        scenario = scenarios.new(f"schema-version-{version}", record(config=True),
                                 manifest=manifest(*implementations, schema_version=version))
        reply = client.discover(scenario, user={"consent": True})
        found_record(reply)
        if not scenario.requests(MANIFEST_PATH):
            untestable(f"the record holds config={scenario.url(MANIFEST_PATH)} and the client never fetched it; "
                       f"{said(reply)} (see AID-2.3-08)")
        why = f"the record says v=aid1 and the manifest's schemaVersion is {version!r}"
        cloud = f"https://cloud.{scenario.host}/agent"
        if reply.get("outcome") == "execute":
            violation(f"{why}, and {said(reply)}, its local implementation")
        if version == "2":  # AMB-46: "2" does not begin with "2.": rejecting it or reading it best-effort
            if connected_to(reply) == cloud and not warned(reply):
                violation(f"{why} (neither rejected nor a version v1 defines), and the client would connect to its "
                          f"implementation 'Cloud' at {cloud} without warning the user (2.5)")
            continue
        if connected_to(reply) == cloud:
            violation(f"{why}, and the client would connect to its implementation 'Cloud' at {cloud}")
        offered = [o.get("name") for o in reply.get("offered") or [] if isinstance(o, dict)]
        if offered:
            violation(f"{why}, and the client offered its implementations {offered}")
