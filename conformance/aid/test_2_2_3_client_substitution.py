"""2.2.3 Variable Substitution (client): what a client puts into a local implementation's argv.

Each test publishes a local-only record (no uri, no proto: only the manifest says how to run
the agent) whose manifest holds one local implementation, gives the simulated user's answers,
and reads the argv the client would pass to ``exec`` (AID-2.3-17 is that it runs the command
at all). Substitution needs the value first: where the client never asked the user for it,
the clause that asks (AID-2.2.4-07 credentials, AID-2.2.2-12 paths, AID-2.3-16 settings) is
failed there, and this one is untestable.
"""

from __future__ import annotations

import json

from conformance.aid.clients import AidClient, AidScenarios, asked_for, local, run_local
from conformance.outcomes import clause, untestable, violation

IDENTIFIER = "example/substitution-agent:2.4"


def shown(values: list[str]) -> str:
    return json.dumps(values)


@clause("AID-2.2.3-02")
def test_2_2_3_client_substitutes_package_identifier(client: AidClient, scenarios: AidScenarios) -> None:
    """`${package.identifier}`: Replaced by the package identifier."""
    client.needs("aid.local", "package.identifier is substituted into a local implementation's args")
    # standing alone, and inside a longer argument
    args = ["run", "--rm", "-i", "--label", "image=${package.identifier}", "${package.identifier}"]
    impl = local(args, package={"manager": "docker", "identifier": IDENTIFIER})
    _, command = run_local(client, scenarios.local_only("subst-package", impl))
    for wanted in (IDENTIFIER, f"image={IDENTIFIER}"):
        if wanted not in command[1:]:
            violation(f"the args are {shown(args)} and package.identifier is {IDENTIFIER!r}; "
                      f"the client would run {shown(command)}, without {wanted!r}")


@clause("AID-2.2.3-03")
def test_2_2_3_client_substitutes_auth_credentials(client: AidClient, scenarios: AidScenarios) -> None:
    """`${auth.<key>}`: Replaced by the secret provided by the user for the corresponding
    `authentication.credentials` `key`."""
    client.needs("aid.local", "auth placeholders are substituted into a local implementation's args")
    args = ["run", "--rm", "-i", "-e", "CLIENT_ID=${auth.client_id}", "-e", "CLIENT_SECRET=${auth.client_secret}",
            "${package.identifier}"]
    auth = {"scheme": "pat", "description": "Your service credentials",
            "credentials": [{"key": "client_id", "description": "Client ID"},
                            {"key": "client_secret", "description": "Client secret"}]}
    answers = {"client_id": "id-4711", "client_secret": "s3cr3t-0815"}
    reply, command = run_local(client, scenarios.local_only("subst-auth", local(args, authentication=auth)),
                               {"credentials": answers})
    for key in answers:
        asked_for(reply, key, "credential", "AID-2.2.4-07", what="credentials item", reported=True)
    for key, value in answers.items():
        wanted = f"{key.upper()}={value}"
        if wanted not in command:
            violation(f"the user gave {value!r} for the credentials item {key!r} and the args hold "
                      f"\"{key.upper()}=${{auth.{key}}}\"; the client would run {shown(command)}, without {wanted!r}")


@clause("AID-2.2.3-04")
def test_2_2_3_client_substitutes_required_path(client: AidClient, scenarios: AidScenarios) -> None:
    """`${path.<key>}`: Replaced by the local path provided by the user for the corresponding
    `requiredPaths` `key`."""
    client.needs("aid.local", "path placeholders are substituted into a local implementation's args")
    # the path as the user gave it: absolute, and relative to the home directory (no shell expands it)
    args = ["run", "--rm", "-i", "-v", "${path.data_dir}:/data", "--cache", "${path.cache}", "${package.identifier}"]
    paths = [{"key": "data_dir", "description": "Directory holding your agent data", "type": "directory"},
             {"key": "cache", "description": "Cache file", "type": "file"}]
    given, cache = "/home/alice/agent-data", "~/.cache/agent.db"
    reply, command = run_local(client, scenarios.local_only("subst-path", local(args, requiredPaths=paths)),
                               {"paths": {"data_dir": given, "cache": cache}})
    asked_for(reply, "data_dir", "path", "AID-2.2.2-12", what="required path", reported=True)
    asked_for(reply, "cache", "path", "AID-2.2.2-12", what="required path", reported=True)
    for key, wanted, written in (("data_dir", f"{given}:/data", "${path.data_dir}:/data"),
                                 ("cache", cache, "${path.cache}")):
        if wanted not in command:
            violation(f"the user gave {wanted.removesuffix(':/data')!r} for the required path {key!r} and the args "
                      f"hold \"{written}\"; the client would run {shown(command)}, without {wanted!r}")


@clause("AID-2.2.3-05")
def test_2_2_3_client_substitutes_configuration(client: AidClient, scenarios: AidScenarios) -> None:
    """`${config.<key>}`: Replaced by the value set by the user for the corresponding
    `configuration` `key`. (A setting without a default, one whose defaultValue the user
    overrides, and a value standing alone.)"""
    client.needs("aid.local", "config placeholders are substituted into a local implementation's args")
    args = ["run", "--rm", "-i", "-e", "LOG_LEVEL=${config.LOG_LEVEL}", "-e", "REGION=${config.REGION}",
            "--workers", "${config.WORKERS}", "${package.identifier}"]
    settings = [{"key": "LOG_LEVEL", "description": "Logging verbosity", "type": "string"},
                {"key": "REGION", "description": "Region", "type": "string", "defaultValue": "us-east"},
                {"key": "WORKERS", "description": "Worker count", "type": "integer", "defaultValue": 2}]
    values = {"LOG_LEVEL": "debug", "REGION": "eu-west", "WORKERS": "7"}
    reply, command = run_local(client, scenarios.local_only("subst-config", local(args, configuration=settings)),
                               {"config": values})
    for key in values:
        asked_for(reply, key, "config", "AID-2.3-16", what="setting", reported=True)
    for key, wanted in (("LOG_LEVEL", "LOG_LEVEL=debug"), ("REGION", "REGION=eu-west"), ("WORKERS", "7")):
        if wanted not in command:
            default = next((s.get("defaultValue") for s in settings if s["key"] == key), None)
            also = f" (its defaultValue is {json.dumps(default)}: the user's value wins)" if default is not None else ""
            violation(f"the user set {values[key]!r} for the setting {key!r}{also}; the client would run "
                      f"{shown(command)}, without {wanted!r}")


@clause("AID-2.2.3-08")
def test_2_2_3_client_omits_argument_with_empty_substitution(client: AidClient, scenarios: AidScenarios) -> None:
    """If a substitution resolves to an empty string, the client **MUST** omit that argument *and*
    any immediately-preceding token that begins with `-` or `--`."""
    client.needs("aid.local", "empty substitutions are omitted from a local implementation's args")
    # an argument holding text and the empty placeholder, and one that is only the placeholder
    args = ["run", "${config.EXTRA}", "${package.identifier}", "--token=${auth.token}"]
    auth = {"scheme": "pat", "description": "An optional access token",
            "credentials": [{"key": "token", "description": "Access token (leave empty for none)"}]}
    settings = [{"key": "EXTRA", "description": "Extra argument (optional)", "type": "string"}]
    _, command = run_local(client, scenarios.local_only("subst-empty", local(args, authentication=auth,
                                                                              configuration=settings)),
                           {"credentials": {}, "config": {}})
    if "" in command[1:]:
        violation(f"the args are {shown(args)} and the user set no EXTRA (no default): the argument "
                  f"\"${{config.EXTRA}}\" resolves to an empty string, yet the client would run {shown(command)}, "
                  "passing it as an empty argument")
    kept = [a for a in command[1:] if a.startswith("--token")]
    if kept:
        violation(f"the args are {shown(args)} and the user gave no token (no default either): the argument "
                  f"\"--token=${{auth.token}}\" resolves to an empty substitution, yet the client would run "
                  f"{shown(command)}, keeping {shown(kept)}")


@clause("AID-2.2.3-09")
def test_2_2_3_client_omits_preceding_flag_of_empty_argument(client: AidClient, scenarios: AidScenarios) -> None:
    """If a substitution resolves to an empty string, the client **MUST** omit that argument *and*
    any immediately-preceding token that begins with `-` or `--`."""
    client.needs("aid.local", "empty substitutions are omitted from a local implementation's args")
    # LOG is empty: "LOG=..." goes, and "-e" before it. EXTRA is empty too: it goes, and the token
    # before it as written ("LOG=${config.LOG}") does not begin with "-": "-i" stays. TAG is
    # empty: it goes, and "--label" (a "--" token) before it.
    args = ["run", "--rm", "-i", "-e", "LOG=${config.LOG}", "${config.EXTRA}", "--label", "${config.TAG}",
            "${package.identifier}"]
    settings = [{"key": "LOG", "description": "Log filter (optional)", "type": "string"},
                {"key": "EXTRA", "description": "Extra argument (optional)", "type": "string"},
                {"key": "TAG", "description": "Container label (optional)", "type": "string"}]
    _, command = run_local(client, scenarios.local_only("subst-empty-flag", local(args, configuration=settings)),
                           {"config": {}})
    rest = command[1:]
    if any(a.startswith("LOG=") for a in rest):
        untestable(f"the user set neither LOG nor EXTRA (no defaults) and the client would run {shown(command)}, "
                   "keeping the argument \"LOG=${config.LOG}\" itself (see AID-2.2.3-08)")
    if "-e" in rest:
        violation(f"the args are {shown(args)} and LOG resolves to an empty string: \"LOG=${{config.LOG}}\" "
                  f"is omitted, and the client would run {shown(command)}, keeping the \"-e\" just before it")
    if "--label" in rest:
        violation(f"the args are {shown(args)} and TAG resolves to an empty string: \"${{config.TAG}}\" is "
                  f"omitted, and the client would run {shown(command)}, keeping the \"--label\" just before it")
    missing = [a for a in ("run", "--rm", "-i") if a not in rest]
    if missing:
        violation(f"the args are {shown(args)}, LOG and EXTRA resolve to empty strings: only "
                  "\"-e\" (just before \"LOG=${config.LOG}\") is a preceding token to omit, yet the client "
                  f"would run {shown(command)}, without {shown(missing)}")
