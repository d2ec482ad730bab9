"""2.2.3 Variable Substitution (client): substituted values are atomic and never reach a shell.

Each scenario publishes a record with config only and a manifest holding one local
implementation whose arguments hold ${config.*} placeholders; the user enters values holding
spaces, quotes and shell syntax. The reply's execute.argv is what the client would pass to the
OS exec call (it never runs it). The tests look for the expected entries in argv, wherever
they stand: whether the program started is the command itself is AID-4.1-07.
"""

from __future__ import annotations

import json

from conformance.aid.clients import AidClient, AidScenarios, argv, asked_for, found_record, local
from conformance.outcomes import clause, untestable, violation




def _setting(key: str, description: str) -> dict:
    return {"key": key, "description": description, "type": "string"}


@clause("AID-2.2.3-06")
def test_2_2_3_client_keeps_substituted_value_in_one_argument(client: AidClient, scenarios: AidScenarios) -> None:
    """To prevent injection vulnerabilities, clients **MUST** treat substituted values as atomic arguments and
    **MUST NOT** allow them to be parsed by a shell."""
    client.needs("aid.local", "substitution applies to a local implementation's arguments")
    impl = local(["run", "--rm", "--log-level=${config.LEVEL}", "--name=${config.NAME}", "${package.identifier}"],
                 configuration=[_setting("LEVEL", "Logging verbosity"), _setting("NAME", "Container name")])
    scenario = scenarios.local_only("atomic-mixed-argument", impl)
    value = "a b  'c' \"d\"; e|f"
    reply = client.discover(scenario, user={"config": {"LEVEL": "debug", "NAME": value}})
    found_record(reply)
    run = argv(reply, "AID-2.3-17")
    wanted = "--name=" + value
    if wanted in run:
        return
    if "--log-level=debug" not in run:
        untestable(f"the client would run {json.dumps(run)}: even --log-level=${{config.LEVEL}} with LEVEL=debug "
                   "is not --log-level=debug (see AID-2.2.3-05)")
    asked_for(reply, "NAME")
    violation(f"the argument --name=${{config.NAME}} with NAME={value!r} is not the single argv entry {wanted!r}: "
              f"the client would run {json.dumps(run)}")


@clause("AID-2.2.3-07")
def test_2_2_3_client_lets_no_shell_expand_values(client: AidClient, scenarios: AidScenarios) -> None:
    """To prevent injection vulnerabilities, clients **MUST** treat substituted values as atomic arguments and
    **MUST NOT** allow them to be parsed by a shell."""
    client.needs("aid.local", "substitution applies to a local implementation's arguments")
    impl = local(["run", "--rm", "--log-level", "${config.LEVEL}", "--label", "${config.LABEL}",
                  "--workdir", "${config.DIR}", "${package.identifier}"],
                 configuration=[_setting("LEVEL", "Logging verbosity"), _setting("LABEL", "Container label"),
                                _setting("DIR", "Working directory")])
    scenario = scenarios.local_only("no-shell-expansion", impl)
    # No white space in the values: whether a value holding spaces stays one argument is AID-4.1-08.
    # What a shell would expand: parameters, command substitution, control operators; a tilde, a glob.
    values = {"LABEL": "$HOME:$PATH;$(id)`id`&&touch${IFS}/tmp/x", "DIR": "~/agent/*.log"}
    reply = client.discover(scenario, user={"config": {"LEVEL": "debug", **values}})
    found_record(reply)
    run = argv(reply, "AID-2.3-17")
    for key, value in values.items():
        if value in run:
            continue
        if "debug" not in run:
            untestable(f"the client would run {json.dumps(run)}: even ${{config.LEVEL}} with LEVEL=debug is not "
                       "substituted (see AID-2.2.3-05)")
        asked_for(reply, key)
        violation(f"the argument ${{config.{key}}} with {key}={value!r} is in no argv entry as entered (expanded or "
                  f"changed): the client would run {json.dumps(run)}")
