"""2.2.2 Implementation Object (client): what a client asks the user before running a local
implementation (requiredPaths, configuration defaults, secret settings).

Each test publishes a local-only record (no uri, no proto) whose manifest holds one local
implementation, gives the simulated user's answers, and reads the client's prompts and the
argv it would pass to ``exec`` (AID-2.3-17 is that it runs the command at all).
"""

from __future__ import annotations

import json

from conformance.aid.clients import (AidClient, AidScenarios, local, prompts, run_local)
from conformance.outcomes import clause, untestable, violation


@clause("AID-2.2.2-12")
def test_2_2_2_client_asks_for_each_required_path(client: AidClient, scenarios: AidScenarios) -> None:
    """| **`requiredPaths`** | Array of Objects | No | An array of local filesystem paths the user must
    provide. See **Required Path Object Schema** below. |"""
    client.needs("aid.local", "requiredPaths belong to local implementations")
    paths = [{"key": "config_dir", "description": "Directory holding your agent configuration", "type": "directory"},
             {"key": "ca_file", "description": "CA certificate file of your server", "type": "file"}]
    args = ["run", "--rm", "-i", "-v", "${path.config_dir}:/etc/agent", "-v", "${path.ca_file}:/etc/ca.pem",
            "${package.identifier}"]
    reply, command = run_local(client, scenarios.local_only("required-paths", local(args, requiredPaths=paths)),
                               {"paths": {"config_dir": "/home/alice/agent", "ca_file": "/home/alice/ca.pem"}})
    for item in paths:
        asked = prompts(reply, "path", item["key"])
        if not asked:
            others = [p.get("key") for p in prompts(reply, "path")]
            violation(f"requiredPaths lists {item['key']!r} ({item['description']!r}) and the client, which would "
                      f"run {json.dumps(command)}, never asked the user for it (path prompts for: {others})")
        if not any(item["description"].casefold() in str(p.get("text", "")).casefold() for p in asked):
            violation(f"the client asked for the path {item['key']!r} with {json.dumps([p.get('text') for p in asked])}, "
                      f"not with its description {item['description']!r}")


@clause("AID-2.2.2-30")
def test_2_2_2_client_uses_default_value(client: AidClient, scenarios: AidScenarios) -> None:
    """| **`defaultValue`** | Any | No | The default value for this setting. |"""
    client.needs("aid.local", "configuration belongs to local implementations")
    settings = [{"key": "LOG_LEVEL", "description": "Logging verbosity", "type": "string", "defaultValue": "info"},
                {"key": "REGION", "description": "Region of your account", "type": "string"}]
    args = ["run", "--rm", "-i", "-e", "LOG_LEVEL=${config.LOG_LEVEL}", "-e", "REGION=${config.REGION}",
            "${package.identifier}"]
    _, command = run_local(client, scenarios.local_only("default-value", local(args, configuration=settings)),
                           {"config": {"REGION": "eu-west"}})
    if "REGION=eu-west" not in command:
        untestable(f"the user set 'eu-west' for REGION and the client would run {json.dumps(command)}, without "
                   "'REGION=eu-west': it does not substitute the settings the user gives (see AID-2.2.3-05, AID-2.3-16)")
    if "LOG_LEVEL=info" not in command:
        violation("the setting LOG_LEVEL has defaultValue 'info' and the user gave none; the args hold "
                  f"\"LOG_LEVEL=${{config.LOG_LEVEL}}\" and the client would run {json.dumps(command)}, "
                  "without 'LOG_LEVEL=info'")


@clause("AID-2.2.2-32")
def test_2_2_2_client_masks_secret_setting(client: AidClient, scenarios: AidScenarios) -> None:
    """If true, clients MUST request the value in a masked / secure input."""
    client.needs("aid.local", "configuration belongs to local implementations")
    settings = [{"key": "DB_USER", "description": "Database user", "type": "string"},
                {"key": "DB_PASSWORD", "description": "Database password", "type": "string", "secret": True}]
    args = ["run", "--rm", "-i", "-e", "DB_USER=${config.DB_USER}", "-e", "DB_PASSWORD=${config.DB_PASSWORD}",
            "${package.identifier}"]
    reply, _ = run_local(client, scenarios.local_only("secret-setting", local(args, configuration=settings)),
                         {"config": {"DB_USER": "agent", "DB_PASSWORD": "hunter2"}})
    asked = prompts(reply, "config", "DB_PASSWORD")
    if not asked:
        untestable("the client never asked the user for the setting 'DB_PASSWORD' (no config prompt for it), "
                   "so there is no input to be masked (see AID-2.3-16)")
    plain = [p for p in asked if p.get("masked") is not True]
    if plain:
        violation(f"the setting 'DB_PASSWORD' has \"secret\": true and the client asked for it unmasked: "
                  f"{json.dumps(plain)}")
