"""2.3 step 5d (client): the configuration object of the chosen implementation.

The test publishes a local-only record (no uri, no proto) whose manifest holds one local
implementation with settings, and reads the client's prompts before it would run the command.
"""

from __future__ import annotations

import json

from conformance.aid.clients import AidClient, AidScenarios, argv, found_record, local, manifest, prompts, record
from conformance.outcomes import clause, violation


@clause("AID-2.3-16")
def test_2_3_client_obtains_each_configuration_value(client: AidClient, scenarios: AidScenarios) -> None:
    """d. For the chosen implementation, the client **MUST** follow the instructions in the
    `authentication`, `configuration`, and `execution` objects to obtain credentials and
    start/connect to the agent service."""
    client.needs("aid.local", "configuration belongs to local implementations")
    # every type a setting has: string, integer, boolean
    settings = [{"key": "API_BASE", "description": "Base URL of your instance", "type": "string"},
                {"key": "WORKSPACE", "description": "Workspace to open", "type": "string"},
                {"key": "LOG_FORMAT", "description": "Log format", "type": "string"},
                {"key": "MAX_ITEMS", "description": "Items per page", "type": "integer"},
                {"key": "READ_ONLY", "description": "Open read-only", "type": "boolean"}]
    args = ["run", "--rm", "-i", "-e", "API_BASE=${config.API_BASE}", "-e", "WORKSPACE=${config.WORKSPACE}",
            "-e", "LOG_FORMAT=${config.LOG_FORMAT}", "-e", "MAX_ITEMS=${config.MAX_ITEMS}",
            "-e", "READ_ONLY=${config.READ_ONLY}", "${package.identifier}"]
    scenario = scenarios.new("configuration", record(uri=None, proto=None, config=True),
                             manifest=manifest(local(args, configuration=settings)))
    reply = client.discover(scenario, user={"config": {"API_BASE": "https://tools.example", "WORKSPACE": "main",
                                                       "LOG_FORMAT": "json", "MAX_ITEMS": "50",
                                                       "READ_ONLY": "true"}})
    found_record(reply)
    command = argv(reply, "AID-2.3-17")
    missing = [s["key"] for s in settings if not prompts(reply, "config", s["key"])]
    if missing:
        asked = [p.get("key") for p in prompts(reply, "config")]
        violation(f"the implementation has the settings {[s['key'] for s in settings]} (no defaultValue) and the "
                  f"client would run {json.dumps(command)} without asking the user for {missing} "
                  f"(config prompts for: {asked})")
