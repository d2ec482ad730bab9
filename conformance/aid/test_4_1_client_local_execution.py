"""4.1 Client Security Responsibilities for Local Execution (client): consent before a command
runs, consent again when the execution object changes, no shell, atomic arguments.

Each scenario publishes a record with config only (no uri, no proto) and a manifest holding
one local implementation; the user's answers go into the step. The reply's execute.argv is
what the client would pass to the OS exec call (it never runs it), its prompts what it asked.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

from conformance.aid.clients import (AidClient, AidScenarios, argv, asked_for, ends_with, found_record, local, manifest, prompts, said)
from conformance.outcomes import clause, untestable, violation

#: What the package identifier of :func:`local` puts into ${package.identifier}.
IDENTIFIER = "example/agent:1.0"






def _program(entry: str) -> str:
    """The file name of argv[0] (``/usr/bin/docker`` -> ``docker``)."""
    return re.split(r"[\\/]", entry)[-1]


@clause("AID-4.1-03")
def test_4_1_client_shows_resolved_command_before_first_run(client: AidClient, scenarios: AidScenarios) -> None:
    """Before executing a command for the first time, the client **MUST** display the full, resolved command
    (with all variables substituted) to the user and require their explicit, affirmative consent."""
    client.needs("aid.local", "consent is asked before running a local implementation")
    impl = local(["run", "--rm", "-e", "LOG_LEVEL=${config.LOG_LEVEL}", "-v", "${path.data}:/data",
                  "${package.identifier}"],
                 configuration=[{"key": "LOG_LEVEL", "description": "Logging verbosity", "type": "string"}],
                 requiredPaths=[{"key": "data", "description": "Data directory", "type": "directory"}])
    scenario = scenarios.local_only("consent-shows-resolved", impl)
    # No secret in this scenario: nothing the client may mask (AMB-23), every argument is shown as it runs.
    reply = client.discover(scenario, user={"consent": True, "config": {"LOG_LEVEL": "debug"},
                                            "paths": {"data": "/srv/agent"}})
    found_record(reply)
    run = argv(reply, "AID-2.3-17")
    expected = ["docker", "run", "--rm", "-e", "LOG_LEVEL=debug", "-v", "/srv/agent:/data", IDENTIFIER]
    if not ends_with(run, expected[1:]):
        untestable(f"the client would run {json.dumps(run)}, not the substituted arguments {json.dumps(expected[1:])} "
                   "(see AID-2.2.3-02, AID-2.2.3-04, AID-2.2.3-05)")
    asked = prompts(reply, "consent")
    if not asked:
        kinds = [p.get("kind") for p in reply["prompts"]]
        violation(f"the client would run {json.dumps(run)} and asked for no consent (its prompts: {kinds})")
    prompt = asked[0]
    shown = prompt.get("command")
    if shown is None:
        missing = [a for a in run if a not in prompt.get("text", "")]
        if missing:
            violation(f"the consent prompt {prompt.get('text')!r} does not show {json.dumps(missing)} of the command "
                      f"the client would run, {json.dumps(run)}")
        return
    if shown != run:
        violation(f"the consent prompt shows {json.dumps(shown)}, and the client would run {json.dumps(run)}")


@clause("AID-4.1-04")
def test_4_1_client_runs_nothing_without_consent(client: AidClient, scenarios: AidScenarios) -> None:
    """Before executing a command for the first time, the client **MUST** display the full, resolved command
    (with all variables substituted) to the user and require their explicit, affirmative consent."""
    client.needs("aid.local", "consent is asked before running a local implementation")
    scenario = scenarios.local_only("consent-refused", local(["run", "--rm", "-i", "${package.identifier}"]))
    refused = client.discover(scenario, user={"consent": False})
    found_record(refused)
    if refused.get("outcome") == "execute" or refused.get("execute"):
        violation(f"the user refused consent and {said(refused)}")
    agreed = client.discover(scenario, user={"consent": True})
    argv(agreed, "AID-2.3-17")
    # later, in one session: approved once, then the execution object changes and the user refuses
    scenario = scenarios.local_only("consent-refused-later", local(["run", "--rm", "-i", "${package.identifier}"]))
    session = client.session(scenario)
    argv(client.discover(scenario, session=session, user={"consent": True}), "AID-2.3-17")
    scenario.change(manifest=manifest(local(["run", "--rm", "-i", "--privileged", "${package.identifier}"]),
                                      content_version="2025-07-01.2"))
    later = client.discover(scenario, at=timedelta(minutes=5), session=session, user={"consent": False})
    if "prompts" in later and not prompts(later, "consent"):
        return  # it asked nothing, so the user could not refuse: that is AID-4.1-06
    if later.get("outcome") == "execute" or later.get("execute"):
        violation(f"the user approved the command, the execution object then changed (--privileged added), the "
                  f"user refused consent to the new one, and {said(later)}")


@clause("AID-4.1-06")
def test_4_1_client_asks_again_when_execution_changes(client: AidClient, scenarios: AidScenarios) -> None:
    """If a newly fetched manifest has a different fingerprint for a previously approved implementation, the
    client **MUST** treat it as a new, untrusted command and re-trigger the full consent process."""
    client.needs("aid.local", "consent is asked before running a local implementation")
    scenario = scenarios.local_only("consent-changed", local(["run", "--rm", "-i", "${package.identifier}"]))
    session = client.session(scenario)
    first = client.discover(scenario, session=session, user={"consent": True})
    found_record(first)
    argv(first, "AID-2.3-17")
    if not prompts(first, "consent"):
        untestable(f"on the first run the client asked for no consent, so none was given (see AID-4.1-03); {said(first)}")
    scenario.change(manifest=manifest(local(["run", "--rm", "-i", "--privileged", "${package.identifier}"]),
                                      content_version="2025-07-01.2"))
    second = client.discover(scenario, at=timedelta(minutes=5), session=session, user={"consent": True})
    run = argv(second, "AID-2.3-17")
    if "--privileged" not in run:
        untestable(f"after the manifest changed (an argument --privileged added), the client would still run "
                   f"{json.dumps(run)} (see AID-B-05)")
    if not prompts(second, "consent"):
        violation(f"the user approved the implementation, the manifest then added --privileged to its execution "
                  f"object, and the client would run {json.dumps(run)} without asking for consent again")


@clause("AID-4.1-07")
def test_4_1_client_starts_command_without_shell(client: AidClient, scenarios: AidScenarios) -> None:
    """The client **MUST NOT** execute the command in a shell that interprets arguments."""
    client.needs("aid.local", "only a local implementation is executed")
    args = ["run", "--rm", "-i", IDENTIFIER]
    scenario = scenarios.local_only("no-shell", local(args))
    for platform in ("linux", "macos", "windows"):  # sh -c on one OS, cmd.exe /c on another
        reply = client.discover(scenario, platform=platform)
        found_record(reply)
        run = argv(reply, "AID-2.3-17")
        program = _program(run[0])
        if program not in ("docker", "docker.exe"):  # sh -c, cmd /c, env ...: another program first
            violation(f"execution.command is docker, and as {platform} the process the client would start is "
                      f"{run[0]!r}: {json.dumps(run)}")
        if run[1:] != args:
            if " ".join(args) in run[1:]:
                violation(f"as {platform} the client would pass the arguments as one string: {json.dumps(run)}")
            untestable(f"as {platform} the client would run {json.dumps(run)}, not docker with the manifest's "
                       f"arguments {json.dumps(args)} (see AID-2.3-17)")


@clause("AID-4.1-08")
def test_4_1_client_passes_substituted_values_as_single_entries(client: AidClient, scenarios: AidScenarios) -> None:
    """Substituted values **MUST** be passed as distinct, atomic arguments to the underlying OS `exec` call."""
    client.needs("aid.local", "only a local implementation is executed")
    impl = local(["run", "--rm", "--name", "${config.NAME}", "-v", "${path.data}", "${package.identifier}"],
                 configuration=[{"key": "NAME", "description": "Container name", "type": "string"}],
                 requiredPaths=[{"key": "data", "description": "Data directory", "type": "directory"}])
    scenario = scenarios.local_only("atomic-values", impl)
    # white space alone, and quotes a shell would pair up ("say "hi there"" is two shell words)
    name, path = 'say "hi there"  two', "/srv/agent data/it's \"here\""
    reply = client.discover(scenario, user={"config": {"NAME": name}, "paths": {"data": path}})
    found_record(reply)
    run = argv(reply, "AID-2.3-17")
    expected = ["run", "--rm", "--name", name, "-v", path, IDENTIFIER]
    if ends_with(run, expected):
        return
    asked_for(reply, "NAME")
    asked_for(reply, "data", "path", "AID-2.2.2-12")
    for value, placeholder in ((name, "${config.NAME}"), (path, "${path.data}")):
        if value in run:
            continue
        for pieces in (value.split(), _shell_words(value)):  # split on white space, or as a shell would
            if pieces and len(pieces) > 1 and _contains(run, pieces):
                violation(f"the argument {placeholder}, substituted with {value!r}, arrives as "
                          f"{json.dumps(pieces)}: the client would run {json.dumps(run)}")
    untestable(f"the client would run {json.dumps(run)}, not the arguments {json.dumps(expected)} "
               "(see AID-2.2.3-04, AID-2.2.3-05)")


def _shell_words(value: str) -> list[str]:
    import shlex

    try:
        return shlex.split(value)
    except ValueError:
        return []


def _contains(run: list[str], pieces: list[str]) -> bool:
    """``pieces`` stand in ``run`` one after the other."""
    return any(run[i:i + len(pieces)] == pieces for i in range(len(run) - len(pieces) + 1))
