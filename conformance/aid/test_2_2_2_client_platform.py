"""2.2.2 Implementation Object Schema (client): platformOverrides.

The scenario's manifest holds one local implementation whose execution object overrides the
command on windows and the args on macos (AMB-24: what an override leaves out comes from the
base object). The client is asked as each OS; the reply's execute.argv is what it would pass
to the OS exec call. Only the end of argv is compared: whether the program started is the
command itself is AID-4.1-07.
"""

from __future__ import annotations

import json


from conformance.aid.clients import AidClient, AidScenarios, argv, ends_with, found_record, local
from conformance.outcomes import clause, untestable, violation


@clause("AID-2.2.2-25")
def test_2_2_2_client_applies_platform_overrides(client: AidClient, scenarios: AidScenarios) -> None:
    """| **`platformOverrides`** | Object | No | An object to specify a different `command` or `args` based on
    client OS. Valid keys are `"windows"`, `"linux"`, and `"macos"`. |"""
    client.needs("aid.local", "platformOverrides belongs to a local implementation's execution object")
    base = ["run", "--rm", "-i", "${package.identifier}"]
    mac = ["run", "--platform", "linux/arm64", "--rm", "-i", "${package.identifier}"]
    impl = local(base)
    impl["execution"]["platformOverrides"] = {"windows": {"command": "docker.exe"}, "macos": {"args": mac}}
    scenario = scenarios.local_only("platform-overrides", impl)
    identifier = impl["package"]["identifier"]

    def resolved(args: list[str]) -> list[str]:
        return [identifier if a == "${package.identifier}" else a for a in args]

    on_linux = client.discover(scenario, platform="linux")
    found_record(on_linux)
    run = argv(on_linux, "AID-2.3-17")
    if not ends_with(run, ["docker", *resolved(base)]):
        untestable(f"as linux, which no override names, the client would run {json.dumps(run)}, not the base "
                   f"command and args (see AID-2.3-17)")
    cases = (("windows", "an override holding only command: docker.exe", ["docker.exe", *resolved(base)]),
             ("macos", "an override holding only args", ["docker", *resolved(mac)]))
    for platform, override, expected in cases:
        run = argv(client.discover(scenario, platform=platform), "AID-2.3-17")
        if not ends_with(run, expected):
            violation(f"as {platform} ({override}), the client would run {json.dumps(run)}, "
                      f"not {json.dumps(expected)}")
