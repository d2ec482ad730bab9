"""2.3 Client Discovery Logic, step 5d (client): the chosen local implementation's execution
object is what runs.

The scenario publishes a record with config only and a manifest holding one local
implementation without placeholders, whose command (podman) differs from its package manager
(docker). The reply's execute.argv is what the client would pass to the OS exec call. Only
the end of argv is compared: whether the program started is the command itself is AID-4.1-07.
"""

from __future__ import annotations

import json

from conformance.aid.clients import (AidClient, AidScenarios, MANIFEST_PATH, argv, connected_to, found_record, local, manifest, remote,
                                     record, said)
from conformance.outcomes import clause, untestable, violation


@clause("AID-2.3-17")
def test_2_3_client_runs_execution_command_and_args(client: AidClient, scenarios: AidScenarios) -> None:
    """d. For the chosen implementation, the client **MUST** follow the instructions in the `authentication`,
    `configuration`, and `execution` objects to obtain credentials and start/connect to the agent service."""
    client.needs("aid.local", "a local implementation's execution object is run only by a client that runs them")
    args = ["run", "--rm", "-i", "--network=none", "example/agent:1.0"]
    scenario = scenarios.new("execution-object", record(uri=None, proto=None, config=True),
                             manifest=manifest(local(args, command="podman")))
    reply = client.discover(scenario)
    found_record(reply)
    if reply.get("outcome") != "execute" and not scenario.requests(MANIFEST_PATH):
        untestable(f"the client never fetched the manifest at {scenario.url(MANIFEST_PATH)} (see AID-2.3-08); "
                   f"{said(reply)}")
    if reply.get("outcome") != "execute":
        violation(f"the manifest's only implementation is local, podman with {json.dumps(args)}, and {said(reply)}")
    run = argv(reply, "AID-2.3-17")
    expected = ["podman", *args]
    if len(run) < len(expected) or run[len(run) - len(expected):] != expected:
        violation(f"the execution object is podman with {json.dumps(args)} (package manager docker), and the "
                  f"client would run {json.dumps(run)}")


@clause("AID-2.3-17")
def test_2_3_client_connects_to_remote_uri(client: AidClient, scenarios: AidScenarios) -> None:
    """d. For the chosen implementation, the client **MUST** follow the instructions in the `authentication`,
    `configuration`, and `execution` objects to obtain credentials and start/connect to the agent service.
    (A remote implementation is reached at the uri its manifest gives, whole: port, path, query;
    the record's uri is elsewhere.)"""
    client.needs("aid.manifest", "a remote implementation is the manifest's")
    for uri in ("https://cloud.{host}:8443/v2/agent?tenant=acme&region=eu", "https://{host}/agents/cloud/"):
        scenario = scenarios.new("remote-uri", record(config=True), manifest=manifest(remote("Cloud", uri)))
        reply = client.discover(scenario)
        found_record(reply)
        wanted = uri.replace("{host}", scenario.host)
        if not scenario.requests(MANIFEST_PATH):
            untestable(f"the client never fetched the manifest at {scenario.url(MANIFEST_PATH)} (see AID-2.3-08); "
                       f"{said(reply)}")
        got = connected_to(reply)
        if got != wanted:
            violation(f"the manifest's only implementation is remote at {wanted} (the record's uri is "
                      f"https://api.{scenario.host}/mcp), and {said(reply)}")
