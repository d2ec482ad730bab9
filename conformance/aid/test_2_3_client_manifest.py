"""2.3 Client Discovery Logic, step 5 (client): processing the manifest: its schemaVersion,
which implementations are viable, and deprecated ones.

Each test publishes its own scenarios, asks the client under test to discover them, and
judges from the replies and the HTTP requests the client sent.
"""

from __future__ import annotations

from conformance.aid.clients import (AidClient, AidScenario, AidScenarios, connected_to, fetched_manifest, local, manifest, record, remote, said, warned)
from conformance.outcomes import clause, untestable, violation




def _action(reply: dict, scenario: AidScenario) -> tuple | None:
    """What the client would do, comparable across scenarios (the host name left out)."""
    if reply.get("outcome") == "execute":
        return ("execute", tuple(reply["execute"].get("argv") or ()))
    uri = connected_to(reply)
    return ("connect", uri.replace(scenario.host, "{host}")) if uri else None


def _attention(reply: dict) -> int:
    """How many warnings and confirmation prompts the client showed the user."""
    confirms = [p for p in reply.get("prompts") or [] if isinstance(p, dict) and p.get("kind") == "confirm"]
    return len(reply.get("warnings") or []) + len(confirms)


@clause("AID-2.3-12")
def test_2_3_client_checks_schema_version(client: AidClient, scenarios: AidScenarios) -> None:
    """a. Validate that `schemaVersion` is a version the client understands (e.g., `"1"`).
    (The same manifest, a local and a remote implementation, with schemaVersion "1" and
    without schemaVersion; the user consents.)"""
    client.needs("aid.manifest", "the schema version is the manifest's")
    implementations = (local(["run", "--rm", "example/agent:1.0"], name="Local"),
                       remote("Cloud", "https://cloud.{host}/agent"))
    control = scenarios.new("schema-version-present", record(config=True), manifest=manifest(*implementations))
    seen = client.discover(control, user={"consent": True})
    fetched_manifest(control, seen)
    usual = _action(seen, control)
    if usual is None:
        untestable(f"the manifest (schemaVersion \"1\") has a local and a remote implementation and {said(seen)} "
                   "(see AID-2.3-17)")
    for shown, version in (("no schemaVersion", None), ("schemaVersion \"\" (empty)", ""),
                           ("schemaVersion null", "null")):
        document = manifest(*implementations, schema_version=version)
        if version == "null":
            document["schemaVersion"] = None
        scenario = scenarios.new("schema-version-missing", record(config=True), manifest=document)
        reply = client.discover(scenario, user={"consent": True})
        fetched_manifest(scenario, reply)
        if _action(reply, scenario) == usual and not warned(reply):
            violation(f"the manifest has {shown} and {said(reply)}, exactly as for the same manifest with "
                      "schemaVersion \"1\", without a warning: it used the manifest as one it understands")


@clause("AID-2.3-13")
def test_2_3_client_uses_only_viable_implementations(client: AidClient, scenarios: AidScenarios) -> None:
    """b. Identify viable `implementations` based on the client's capabilities (e.g., a web
    client cannot run a `local` Docker implementation). (A first implementation no client
    can use, of type "wasm", then a remote one; for a client without aid.local, a local one
    then a remote one.)"""
    client.needs("aid.manifest", "implementations are the manifest's")
    cloud = remote("Cloud", "https://cloud.{host}/agent")
    control = scenarios.new("remote-only", record(config=True), manifest=manifest(cloud))
    seen = client.discover(control)
    fetched_manifest(control, seen)
    if connected_to(seen) != f"https://cloud.{control.host}/agent":
        untestable(f"the manifest's only implementation is at https://cloud.{control.host}/agent and {said(seen)} "
                   "(see AID-2.3-17)")
    wasm = {"name": "Browser", "type": "wasm", "protocol": "mcp", "uri": "https://wasm.{host}/agent.wasm",
            "authentication": {"scheme": "none"}}
    scenario = scenarios.new("wasm-then-remote", record(config=True), manifest=manifest(wasm, cloud))
    reply = client.discover(scenario)
    fetched_manifest(scenario, reply)
    wanted, unusable = f"https://cloud.{scenario.host}/agent", f"https://wasm.{scenario.host}/agent.wasm"
    if connected_to(reply) == unusable or reply.get("outcome") == "execute" or reply.get("error_kind") == "unhandled":
        violation(f"the manifest's first implementation is of type \"wasm\" (no AID v1 client can use it) and its "
                  f"second a remote one at {wanted}, and {said(reply)}")
    if connected_to(reply) != wanted:
        untestable(f"the manifest's first implementation is of type \"wasm\" and its second a remote one at {wanted}, "
                   f"and {said(reply)}: the client may reject a manifest with a type v1 does not define")
    if "aid.local" in client.features:
        return
    scenario = scenarios.new("local-then-remote", record(config=True),
                             manifest=manifest(local(["run", "--rm", "example/agent:1.0"]), cloud))
    reply = client.discover(scenario, user={"consent": True})
    fetched_manifest(scenario, reply)
    wanted = f"https://cloud.{scenario.host}/agent"
    if connected_to(reply) != wanted:
        violation(f"the client does not claim aid.local, the manifest has a local implementation then a remote one "
                  f"at {wanted}, and {said(reply)}")


@clause("AID-2.3-18")
def test_2_3_client_warns_about_deprecated_implementation(client: AidClient, scenarios: AidScenarios) -> None:
    """e. If chosen implementation's "status" = "deprecated", client MUST display a warning or
    require user confirmation. (The manifest's only implementation is deprecated; the same
    one marked active is the comparison.)"""
    client.needs("aid.manifest", "implementation status is the manifest's")
    control = scenarios.new("active-only", record(config=True),
                            manifest=manifest(remote("Legacy", "https://legacy.{host}/agent", status="active")))
    seen = client.discover(control, user={"confirm": True})
    fetched_manifest(control, seen)
    scenario = scenarios.new("deprecated-only", record(config=True),
                             manifest=manifest(remote("Legacy", "https://legacy.{host}/agent", status="deprecated")))
    reply = client.discover(scenario, user={"confirm": True})
    fetched_manifest(scenario, reply)
    if _attention(reply) > _attention(seen):
        return
    wanted = f"https://legacy.{scenario.host}/agent"
    if connected_to(reply) != wanted:
        untestable(f"the manifest's only implementation, deprecated, is at {wanted}, and {said(reply)}: "
                   "the client did not use it (see AID-2.3-17)")
    violation(f"the manifest's only implementation, at {wanted}, is deprecated, and the client would connect to it "
              f"with no more warnings or confirmation prompts ({_attention(reply)}) than for the same one marked "
              f"active ({_attention(seen)})")
