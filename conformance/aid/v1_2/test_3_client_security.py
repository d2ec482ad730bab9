"""v1.2 3 Security Rules (client): DNSSEC validation, the endpoint proof, downgrade warnings, local
execution (consent, fingerprint, atomic arguments, no nested discovery) and cross-origin redirects.

Local agents: a ``p=local`` record's ``u`` is a locator (``docker:``, ``npx:``, ``pip:``); the
command it becomes is the client's (AMB-56): the kit judges what the client shows against what it
would run (reply ``execute.argv``; nothing is ever run) and that the locator's text stays one
argument. The client's prompts and the user's answers go through the harness (``user.consent``).
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

from conformance.aid.clients import AidClient, AidScenarios, argv, connected_to, prompts, said, txt
from conformance.aid.v1_2._client import (LATER, aid1, aid1_works, endpoint, keyed, keyed_scenario, new_warnings,
                                          proof, proof_works, refused, reread, republish, warnings_of)
from conformance.outcomes import clause, untestable, violation

#: The locators of Appendix B's local row, each with the package it names.
LOCATORS = {"docker:example/agent:1.0": "example/agent:1.0", "npx:@example/agent": "@example/agent",
            "pip:example-agent": "example-agent"}


def _local(u: str) -> str:
    return txt("aid1", u=u, p="local")


# ---------------------------------------------------------------- DNSSEC

@clause("AID-3-02")
def test_3_client_validates_signed_answers(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **SHOULD** perform DNSSEC validation when DNSSEC-signed answers are available."""
    aid1_works(client, scenarios)
    if "aid.policy" in client.features:
        # a validated answer satisfies dnssec=require: a client that validates tells it from an unsigned one
        scenario = scenarios.new("signed", aid1(), sign=True)
        reply = client.discover(scenario, policy={"dnssec": "require"})
        if connected_to(reply) != endpoint(scenario):
            violation(f"_agent.{scenario.zone_name} is DNSSEC-signed, its signature validates to the trust anchor "
                      f"given, and under dnssec=require {said(reply)}: the client did not validate it (AMB-85)")
    # a signature that does not validate: tampered, or expired before the client's clock (AMB-49)
    for what, options in (("a tampered record (its RRSIG does not match)", {"bogus": True}),
                          ("a record whose RRSIG expired the day before (a replayed answer)", {"expired": True})):
        scenario = scenarios.new("bogus" if "bogus" in options else "expired", aid1(), **options)
        reply = client.discover(scenario)
        if connected_to(reply) is not None and not warnings_of(reply):
            violation(f"_agent.{scenario.zone_name} is signed and the answer is {what}; the client returned "
                      f"{connected_to(reply)!r} with no warning, as if it had not validated the signature (AMB-85)")


# ---------------------------------------------------------------- the endpoint proof

@clause("AID-3-06")
def test_3_client_verifies_the_key_in_every_form_of_the_record(client: AidClient, scenarios: AidScenarios) -> None:
    """**Endpoint Proof (PKA):** When the record includes `pka`/`k`, clients **MUST** verify server control of the
    private key using HTTP Message Signatures (RFC 9421) with Ed25519 (Appendix D)."""
    proof_works(client, scenarios)
    from conformance.aid.clients import scenario_key
    key = scenario_key("aid1")
    # the key written as pka or k, its id as kid or i, keys in either case (AMB-51)
    forms = {"pka/kid": f"v=aid1;uri=https://{{host}}/mcp;proto=mcp;pka={key};kid=g1",
             "k/kid": f"v=aid1;u=https://{{host}}/mcp;p=mcp;k={key};kid=g1",
             "pka/i": f"v=aid1;u=https://{{host}}/mcp;p=mcp;pka={key};i=g1",
             "K/I": f"V=aid1;U=https://{{host}}/mcp;P=mcp;K={key};I=g1",
             "PKA/KID": f"v=aid1;u=https://{{host}}/mcp;p=mcp;PKA={key};KID=g1"}
    read = 0
    for form, record in forms.items():
        valid = keyed_scenario(scenarios, "form-valid", record=record)
        if connected_to(client.discover(valid)) != endpoint(valid):
            continue  # the client does not read this form (AID-2.3-27, AID-2.3-28): nothing to judge here
        read += 1
        broken = keyed_scenario(scenarios, "form-broken", record=record, breaks=("wrong-key",))
        reply = client.discover(broken)
        if not refused(reply):
            violation(f"the record {record!r} includes the key as {form}; its endpoint's response is signed by "
                      f"another key, so the proof fails, and {said(reply)}")
    if not read:
        untestable("the client returned none of the records holding a key whose endpoint proves it (see AID-D-01)")


@clause("AID-3-08")
def test_3_client_warns_when_a_domain_removes_its_key(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **SHOULD** warn on downgrade if a domain removes `pka` after prior discovery."""
    proof_works(client, scenarios)
    # the prior discovery a little, a day or a month before
    for gap in (LATER, timedelta(days=1), timedelta(days=30)):
        scenario = keyed_scenario(scenarios, "removed-after", record=keyed(s="before"))
        session = client.session(scenario)
        if connected_to(client.discover(scenario, session=session)) is None:
            untestable("the first discovery of a record with a proven key returned no endpoint (see AID-D-01)")
        asked = republish(scenario, aid1(s="after"))
        reply = client.discover(scenario, at=gap, session=session)
        reread(scenario, asked, reply)
        if connected_to(reply) is not None and not new_warnings(client, scenario, reply):
            violation(f"the domain published k=… i=g1 at a discovery {gap} earlier and has removed it since; the "
                      f"client returned {connected_to(reply)!r} without a warning (AMB-86)")


# ---------------------------------------------------------------- local execution

def _local_works(client: AidClient, scenarios: AidScenarios, u: str = "docker:example/agent:1.0") -> list[str]:
    """*Not applicable* without local execution; *untestable* unless a plain local record runs."""
    __tracebackhide__ = True
    client.needs("aid.local", "local execution (p=local)")
    scenario = scenarios.new("local-plain", _local(u))
    reply = client.discover(scenario, user={"consent": True})
    return argv(reply, "AID-3-09")


def _shown(prompt: dict) -> str:
    command = prompt.get("command")
    return json.dumps(command) if isinstance(command, list) else str(prompt.get("text"))


@clause("AID-3-10")
def test_3_client_shows_the_full_command_before_the_first_run(client: AidClient, scenarios: AidScenarios) -> None:
    """Before the first execution, the client **MUST** display the full, resolved command to the user and require
    explicit confirmation."""
    _local_works(client, scenarios)
    for u in LOCATORS:
        for consent in (True, False):
            scenario = scenarios.new("local-shown", _local(u))
            reply = client.discover(scenario, user={"consent": consent})
            asked = prompts(reply, "consent")
            if consent:
                run = argv(reply, "AID-3-09")
            elif reply.get("outcome") == "execute":
                continue  # running without consent is AID-3-11's
            else:
                run = None
            if not asked:
                if run is not None:
                    violation(f"the record u={u} p=local: the client would run {json.dumps(run)} and showed no "
                              f"consent prompt before its first execution")
                continue
            prompt = asked[0]
            if run is None:  # refused: the command it would have run is not known; the locator must be shown
                if LOCATORS[u] not in _shown(prompt):
                    violation(f"the consent prompt for u={u} ({_shown(prompt)}) does not show the package it runs")
                continue
            command = prompt.get("command")
            if isinstance(command, list):
                if command != run:
                    violation(f"the consent prompt for u={u} shows {json.dumps(command)}, and the client would run "
                              f"{json.dumps(run)}")
            elif any(arg not in str(prompt.get("text")) for arg in run):
                missing = [a for a in run if a not in str(prompt.get("text"))]
                violation(f"the consent prompt {prompt.get('text')!r} for u={u} does not show {json.dumps(missing)} "
                          f"of the command the client would run, {json.dumps(run)}")


@clause("AID-3-11")
def test_3_client_runs_nothing_without_confirmation(client: AidClient, scenarios: AidScenarios) -> None:
    """Before the first execution, the client **MUST** display the full, resolved command to the user and require
    explicit confirmation."""
    _local_works(client, scenarios)
    for u in LOCATORS:
        scenario = scenarios.new("local-refused", _local(u))
        reply = client.discover(scenario, user={"consent": False})
        if reply.get("outcome") == "execute" or reply.get("execute"):
            violation(f"the record u={u} p=local: the user refused to confirm, and {said(reply)}")
    # consent to one domain is no consent to another running the same locator
    first, other = scenarios.new("local-approved", _local("docker:example/agent:1.0")), None
    session = client.session(first)
    argv(client.discover(first, session=session, user={"consent": True}), "AID-3-09")
    other = scenarios.new("local-other", _local("docker:example/agent:1.0"))
    reply = client.discover(other, session=session, user={"consent": False})
    if reply.get("outcome") == "execute":
        violation(f"the user confirmed the local agent of {first.host}, then refused that of {other.host} (the same "
                  f"locator), and {said(reply)} (AMB-87)")


@clause("AID-3-12")
def test_3_client_keeps_the_fingerprint_of_what_was_confirmed(client: AidClient, scenarios: AidScenarios) -> None:
    """The client **MUST** compute and cache a cryptographic fingerprint of the `uri` and `proto` values."""
    _local_works(client, scenarios)
    for u in LOCATORS:
        scenario = scenarios.new("local-cached", _local(u), ttl=60)
        session = client.session(scenario)
        first = client.discover(scenario, session=session, user={"consent": True})
        argv(first, "AID-3-09")
        if not prompts(first, "consent"):
            untestable(f"the first run of u={u} asked no consent (see AID-3-10): there is nothing to remember")
        # the same uri and proto later (the record re-read after its TTL, an unrelated key added)
        for n, (at, record) in enumerate(((timedelta(minutes=5), _local(u)),
                                          (timedelta(minutes=10), _local(u) + ";s=Local agent"))):
            scenario.publish([record.encode()], ttl=60)
            reply = client.discover(scenario, at=at, session=session, user={"consent": False})
            if reply.get("outcome") != "execute":
                violation(f"the user confirmed u={u} p=local; a later lookup of the same uri and proto "
                          f"({record!r}) asked again and {said(reply)}: the fingerprint of what was confirmed "
                          f"was not kept")


@clause("AID-3-13")
def test_3_client_asks_again_when_uri_or_proto_change(client: AidClient, scenarios: AidScenarios) -> None:
    """If these values change on a subsequent lookup, the client **MUST** re-trigger the full consent process."""
    _local_works(client, scenarios)
    changes = [("docker:example/agent:1.0", "docker:example/agent:2.0"),
               ("docker:example/agent:1.0", "docker:evil/agent:1.0"),
               ("docker:example/agent:1.0", "npx:example-agent"),
               ("npx:@example/agent", "npx:@example/agent-cli")]
    for before, after in changes:
        for consent in (False, True):
            scenario = scenarios.new("local-changed", _local(before) + ";s=before", ttl=60)
            session = client.session(scenario)
            argv(client.discover(scenario, session=session, user={"consent": True}), "AID-3-09")
            asked = republish(scenario, _local(after) + ";s=after", ttl=60)
            second = client.discover(scenario, at=timedelta(minutes=5), session=session, user={"consent": consent})
            reread(scenario, asked, second)
            if not consent and second.get("outcome") == "execute":
                violation(f"the user confirmed u={before} p=local; the record then changed to u={after}, the user "
                          f"refused the new command, and {said(second)}")
            if consent and "prompts" in second and not prompts(second, "consent"):
                violation(f"the user confirmed u={before} p=local; the record then changed to u={after}, and the "
                          f"client asked no consent again: {said(second)}")


@clause("AID-3-14")
def test_3_client_passes_the_uri_as_one_argument(client: AidClient, scenarios: AidScenarios) -> None:
    """**No Shell Interpretation:** Arguments derived from the `uri` **MUST** be passed atomically to the underlying
    OS execution call to prevent command injection."""
    _local_works(client, scenarios)
    shells = {"sh", "bash", "zsh", "dash", "cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh"}
    payloads = ["example/agent:1.0 && curl evil.example", "example/agent:1.0 | sh", "example/agent:$(id)",
                "example/agent:`id`", "example/agent:1.0 > /etc/passwd", "example/agent:1.0 --privileged",
                "my agent", "'quoted' \"agent\"", "example/agent:1.0\t-v /:/host"]
    ran = 0
    for scheme in ("docker", "npx", "pip"):
        for payload in payloads:
            u = f"{scheme}:{payload}"
            scenario = scenarios.new("local-atomic", _local(u))
            reply = client.discover(scenario, user={"consent": True})
            if reply.get("outcome") != "execute":
                continue  # refusing such a locator is the client's right
            ran += 1
            run = list(reply["execute"]["argv"])
            program = re.split(r"[\\/]", str(run[0]))[-1].lower() if run else ""
            if program in shells:
                violation(f"u={u!r}: the client would start a shell, {json.dumps(run)}")
            if payload not in run:
                violation(f"u={u!r}: the locator's text {payload!r} is not one argument of what the client would "
                          f"run, {json.dumps(run)}")
    if not ran:
        untestable("the client refused every locator holding shell metacharacters or white space: nothing it runs "
                   "shows how it passes them")


@clause("AID-3-15")
def test_3_client_refuses_a_locator_starting_discovery(client: AidClient, scenarios: AidScenarios) -> None:
    """**No Nested Discovery:** Clients **MUST** reject a `local` execution `uri` that could be interpreted as a
    command initiating another AID discovery request."""
    _local_works(client, scenarios)
    nested = ["npx:@agentcommunity/aid-doctor", "npx:aid-doctor", "NPX:AID-Doctor", "npx:@agentcommunity/aid",
              "pip:aid-discovery", "PIP:Aid-Discovery", "docker:agentcommunity/aid-doctor:latest",
              "docker:ghcr.io/agentcommunity/AID-DOCTOR"]
    for u in nested:
        scenario = scenarios.new("local-nested", _local(u))
        reply = client.discover(scenario, user={"consent": True})
        if reply.get("outcome") == "execute":
            violation(f"u={u} p=local names an AID client (AMB-56), whose run would start another AID discovery, "
                      f"and {said(reply)}")


# ---------------------------------------------------------------- redirects

def _redirected(client: AidClient, scenarios: AidScenarios, status: int):
    """A record with k whose endpoint answers the handshake with ``status`` to another host, which
    proves the key itself; (reply, scenario, the other scenario)."""
    elsewhere = scenarios.new("redirect-target", keyed())
    elsewhere.change(routes=[proof()])
    location = f"https://{elsewhere.host}/mcp"
    scenario = scenarios.new("redirecting", keyed(), routes=[{"path": "/mcp", "status": status, "body": "empty",
                                                              "headers": {"Location": location}}])
    # the client may reach the other host (the step's network maps both names): following is seen there
    own = scenario.network

    def network() -> dict:
        merged = own()
        merged["connect_to"] = list(merged.get("connect_to", [])) + list(elsewhere.network().get("connect_to", []))
        return merged

    scenario.network = network  # type: ignore[method-assign]
    return client.discover(scenario), scenario, elsewhere


@clause("AID-3-17")
def test_3_client_treats_a_cross_origin_redirect_as_a_risk(client: AidClient, scenarios: AidScenarios) -> None:
    """If an initial request to the discovered `uri` returns an HTTP redirect (`301`, `302`, `307`, or `308`) **to a
    different origin** (hostname or port), the client **SHOULD** treat this as a potential security risk."""
    proof_works(client, scenarios)
    plain = keyed_scenario(scenarios, "not-redirecting")
    for status in (301, 302, 307, 308):
        reply, scenario, elsewhere = _redirected(client, scenarios, status)
        target = endpoint(elsewhere)
        if connected_to(reply) is not None and not new_warnings(client, scenario, reply, baseline=plain):
            violation(f"the handshake to {endpoint(scenario)} was answered {status} to {target} (another host); the "
                      f"client returned {connected_to(reply)!r} as the endpoint, without a warning or a question")


@clause("AID-3-18")
def test_3_client_does_not_follow_a_cross_origin_redirect(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST NOT** follow such cross-origin redirects automatically."""
    proof_works(client, scenarios)
    for status in (301, 302, 307, 308):
        reply, scenario, elsewhere = _redirected(client, scenarios, status)
        followed = elsewhere.requests("/mcp")
        if followed:
            violation(f"the handshake to {endpoint(scenario)} was answered {status} with Location "
                      f"{endpoint(elsewhere)} (another host), and the client sent {followed[0].method} to it without "
                      f"asking the user; {said(reply)}")
