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
    """| **`defaultValue`** | Any | No | The default value for this setting. | (Defaults of each
    type a setting has: string, integer, boolean; the user sets only REGION.)"""
    client.needs("aid.local", "configuration belongs to local implementations")
    settings = [{"key": "LOG_LEVEL", "description": "Logging verbosity", "type": "string", "defaultValue": "info"},
                {"key": "PORT", "description": "Port to listen on", "type": "integer", "defaultValue": 8080},
                {"key": "TLS", "description": "Serve over TLS", "type": "boolean", "defaultValue": True},
                {"key": "REGION", "description": "Region of your account", "type": "string"}]
    args = ["run", "--rm", "-i", "-e", "LOG_LEVEL=${config.LOG_LEVEL}", "-e", "PORT=${config.PORT}",
            "-e", "TLS=${config.TLS}", "-e", "REGION=${config.REGION}", "${package.identifier}"]
    _, command = run_local(client, scenarios.local_only("default-value", local(args, configuration=settings)),
                           {"config": {"REGION": "eu-west"}})
    if "REGION=eu-west" not in command:
        untestable(f"the user set 'eu-west' for REGION and the client would run {json.dumps(command)}, without "
                   "'REGION=eu-west': it does not substitute the settings the user gives (see AID-2.2.3-05, AID-2.3-16)")
    for key, default, wanted in (("LOG_LEVEL", "info", "LOG_LEVEL=info"), ("PORT", 8080, "PORT=8080")):
        if wanted not in command:
            violation(f"the setting {key} has defaultValue {json.dumps(default)} and the user gave none; the args "
                      f"hold \"{key}=${{config.{key}}}\" and the client would run {json.dumps(command)}, "
                      f"without {wanted!r}")
    # a boolean's text is the draft's to give, not the kit's (AMB-47): true as "true", "True" or "1"
    if not {"TLS=true", "TLS=True", "TLS=1"} & set(command):
        violation("the setting TLS has defaultValue true and the user gave none; the args hold \"TLS=${config.TLS}\" "
                  f"and the client would run {json.dumps(command)}, with no TLS=true (or True, 1)")


@clause("AID-2.2.2-32")
def test_2_2_2_client_masks_secret_setting(client: AidClient, scenarios: AidScenarios) -> None:
    """If true, clients MUST request the value in a masked / secure input."""
    client.needs("aid.local", "configuration belongs to local implementations")
    # secret is the flag, whatever the key is called: a password-like name, and a neutral one
    settings = [{"key": "DB_USER", "description": "Database user", "type": "string"},
                {"key": "DB_PASSWORD", "description": "Database password", "type": "string", "secret": True},
                {"key": "SIGNING_MATERIAL", "description": "Signing material", "type": "string", "secret": True}]
    args = ["run", "--rm", "-i", "-e", "DB_USER=${config.DB_USER}", "-e", "DB_PASSWORD=${config.DB_PASSWORD}",
            "-e", "SIGNING=${config.SIGNING_MATERIAL}", "${package.identifier}"]
    reply, _ = run_local(client, scenarios.local_only("secret-setting", local(args, configuration=settings)),
                         {"config": {"DB_USER": "agent", "DB_PASSWORD": "hunter2", "SIGNING_MATERIAL": "k-93b1"}})
    for key in ("DB_PASSWORD", "SIGNING_MATERIAL"):
        asked = prompts(reply, "config", key)
        if not asked:
            untestable(f"the client never asked the user for the setting {key!r} (no config prompt for it), "
                       "so there is no input to be masked (see AID-2.3-16)")
        plain = [p for p in asked if p.get("masked") is not True]
        if plain:
            violation(f"the setting {key!r} has \"secret\": true and the client asked for it unmasked: "
                      f"{json.dumps(plain)}")
