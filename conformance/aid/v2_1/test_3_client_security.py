"""v2.1 3 (client): DNSSEC validation, the endpoint proof of the selected aid2 record, local
execution safeguards and sandboxing, and redirects during PKA and the .well-known fallback."""

from __future__ import annotations

import json
from datetime import timedelta

from conformance.aid.clients import AidClient, AidScenarios, connected_to, pka_route, said, txt
from conformance.aid.v2_1._pka import (
    WELL_KNOWN,
    keyed,
    keyed_json,
    pka_requests,
    proof_works,
    refused,
    well_known,
)
from conformance.outcomes import clause, untestable, violation


@clause("AID-3-21")
def test_3_client_validates_dnssec(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **SHOULD** validate DNSSEC when available."""
    signed = scenarios.new("signed", txt(), sign=True)
    reply = client.discover(signed)
    if connected_to(reply) != f"https://{signed.host}/mcp":
        untestable(f"with the one record {txt()!r} in a validly signed zone {said(reply)}, not a connection to its u "
                   "(see AID-2.3-58)")
    for what, options in (("its signature is broken (bogus)", {"bogus": True}),
                          ("its signatures expired the day before (a replayed answer)", {"expired": True})):
        # a record with k too: a proof of the endpoint is no proof of the DNS answer
        for record, routes in ((txt(), []), (txt(u="https://{host}/other"), []), (keyed(), [pka_route()])):
            scenario = scenarios.new("bogus", record, routes=routes, **options)
            reply = client.discover(scenario)
            if not refused(reply):
                violation(f"the zone of _agent.{scenario.zone_name} is signed (its trust anchor given) and the answer "
                          f"{record!r} fails validation: {what}; a validating client does not use it, and "
                          f"{said(reply)}")


@clause("AID-3-24")
def test_3_client_proves_the_selected_record_wherever_it_came_from(client: AidClient, scenarios: AidScenarios) -> None:
    """**Endpoint proof:** When the selected `aid2` record contains `k`, clients **MUST** verify
    endpoint proof using the PKA profile in Appendix B."""
    proof_works(client, scenarios)
    aid1 = txt("aid1", u="https://{host}/v1")
    # beside an aid1 record: aid2 is selected (step 6); its failed proof fails discovery
    zone = "".join(f'_agent 300 IN TXT "{t}"\n' for t in (aid1, keyed()))
    scenario = scenarios.new("aid1-and-aid2", None, zone=zone, routes=[pka_route()])
    reply = client.discover(scenario)
    if connected_to(reply) == f"https://{scenario.host}/mcp":
        for name in ("wrong-key", "no-signature", "wrong-nonce"):
            broken = scenarios.new("aid1-and-aid2", None, zone=zone, routes=[pka_route(breaks=(name,))])
            reply = client.discover(broken)
            if not refused(reply):
                violation(f"_agent holds {aid1!r} and a keyed aid2 record, whose endpoint's proof breaks {name!r}: "
                          f"the selected record is the aid2 one, its failed proof fails discovery, and {said(reply)}")
    # from the .well-known fallback (AMB-59): the record's k is verified there too
    if "aid.well-known" in client.features:
        scenario = scenarios.new("fallback", None, routes=[well_known(keyed_json()), pka_route()])
        reply = client.discover(scenario)
        if connected_to(reply) != f"https://{scenario.host}/mcp":
            untestable(f"no DNS record, and {WELL_KNOWN} serves a keyed aid2 record whose endpoint proves the key: "
                       f"{said(reply)} (see AID-2.3-60)")
        for name in ("wrong-key", "no-signature", "missing-covered-authority"):
            broken = scenarios.new("fallback", None, routes=[well_known(keyed_json()), pka_route(breaks=(name,))])
            reply = client.discover(broken)
            if not refused(reply):
                violation(f"the record found at {WELL_KNOWN} holds k and its endpoint's proof breaks {name!r}: the "
                          f"proof is verified for a fallback record as well (AMB-59), and {said(reply)}")
            if not pka_requests(broken):
                violation(f"the record found at {WELL_KNOWN} holds k, and the client sent no PKA request; {said(reply)}")


def _local(client: AidClient, scenarios: AidScenarios, locator: str, user: dict | None = None, **more) -> tuple:
    scenario = scenarios.new("local", txt(u=locator, p="local"), **more)
    return scenario, client.discover(scenario, user=user, session=client.session(scenario))


#: Locators of each runner, plain and with characters a shell would interpret.
LOCATORS = ("docker:example/agent:1.0", "npx:@example/agent", "pip:example-agent",
            "docker:example/agent:1.0$(id)", "npx:@example/agent`id`", "pip:example-agent|id",
            "docker:example/agent:1.0&&id", "npx:@example/agent>out")
NESTED = ("npx:@agentcommunity/aid-doctor", "npx:aid-doctor", "pip:aid-discovery", "npx:@agentcommunity/aid")


@clause("AID-3-25")
def test_3_client_local_execution_safeguards(client: AidClient, scenarios: AidScenarios) -> None:
    """**Local execution safeguards:** Clients that support `proto=local` **MUST** require explicit
    user consent, integrity checks, no shell interpretation of discovered arguments, and no nested
    discovery execution."""
    client.needs("aid.local", "the safeguards are of clients that run p=local records")
    scenario, reply = _local(client, scenarios, LOCATORS[0])
    if reply.get("outcome") != "execute":
        untestable(f"with the record {txt(u=LOCATORS[0], p='local')!r} and the user consenting, {said(reply)}, not a "
                   "command to run (see AID-7.2-02)")
    # explicit consent: a user who declines runs nothing
    for locator in LOCATORS[:3]:
        scenario, reply = _local(client, scenarios, locator, user={"consent": False, "confirm": False})
        if reply.get("outcome") == "execute":
            violation(f"the user gave no consent and the client runs {locator!r}: {said(reply)}")
    # integrity: consent given for one u does not cover another (AMB-63: again when u or p changes)
    scenario, reply = _local(client, scenarios, "docker:example/agent:1.0")
    if reply.get("outcome") == "execute":
        for later in ("docker:example/agent:2.0", "docker:evil/agent:1.0"):
            scenario.publish([txt(u=later, p="local").encode()])
            reply = client.discover(scenario, at=timedelta(seconds=301 * (2 if "evil" in later else 1)),
                                    user={"consent": False, "confirm": False}, session=client.session(scenario))
            if reply.get("outcome") == "execute":
                violation(f"the user consented to docker:example/agent:1.0; the record now says u={later} and the "
                          f"client runs it without asking again: {said(reply)}")
    # no shell: the locator reaches exec as one argument
    for locator in LOCATORS:
        scenario, reply = _local(client, scenarios, locator)
        if reply.get("outcome") != "execute":
            continue  # a locator the client refuses to run is not a shell interpretation of it
        argv = [str(a) for a in reply["execute"].get("argv") or []]
        rest = locator.partition(":")[2]
        shells = {"sh", "bash", "zsh", "dash", "cmd", "cmd.exe", "powershell", "pwsh"}
        if any(a.rsplit("/", 1)[-1].lower() in shells for a in argv) or rest not in argv:
            violation(f"the record's u={locator!r} must reach exec as one argument without a shell; the client "
                      f"runs {json.dumps(argv)}")
    # no nested discovery
    for locator in NESTED:
        scenario, reply = _local(client, scenarios, locator)
        if reply.get("outcome") == "execute":
            violation(f"u={locator!r} runs an AID client (nested discovery), which must not be executed: {said(reply)}")


@clause("AID-3-26")
def test_3_client_sandboxes_local_agents(client: AidClient, scenarios: AidScenarios) -> None:
    """They **SHOULD** use sandboxing."""
    client.needs("aid.local", "sandboxing is of clients that run p=local records")
    for locator in LOCATORS[:3]:
        scenario, reply = _local(client, scenarios, locator)
        if reply.get("outcome") != "execute":
            untestable(f"with the record {txt(u=locator, p='local')!r} and the user consenting, {said(reply)}, not a "
                       "command to run (see AID-7.2-02)")
        if "sandbox" not in reply["execute"]:
            untestable("the adapter does not say whether the client sandboxes what it runs (execute.sandbox)")
        if reply["execute"]["sandbox"] is not True:
            violation(f"the client runs {locator!r} outside a sandbox (execute.sandbox = "
                      f"{reply['execute']['sandbox']!r})")


@clause("AID-3-27")
def test_3_client_follows_no_redirect_of_pka_or_fallback(client: AidClient, scenarios: AidScenarios) -> None:
    """**Redirect handling:** Clients **MUST NOT** follow redirects during PKA verification or
    `.well-known` fallback."""
    judged = False
    if "aid.well-known" in client.features:
        plain = {"v": "aid2", "u": "https://{host}/mcp", "p": "mcp"}
        scenario = scenarios.new("fallback", None, routes=[well_known(plain)])
        if connected_to(client.discover(scenario)) == f"https://{scenario.host}/mcp":
            judged = True
            for status in (301, 302, 303, 307, 308):
                for location in ("https://{host}/.well-known/agent2", "/.well-known/agent2", "/.well-known/agent/"):
                    scenario = scenarios.new(f"fallback-{status}", None, routes=[
                        {"path": WELL_KNOWN, "status": status, "headers": {"Location": location}},
                        well_known(plain) | {"path": location.replace("https://{host}", "")}])
                    reply = client.discover(scenario)
                    followed = [r for r in scenario.requests() if r.path != WELL_KNOWN]
                    if followed:
                        violation(f"GET {WELL_KNOWN} was answered {status} to {location!r} and the client followed it "
                                  f"(GET {followed[0].path}); {said(reply)}")
                    if connected_to(reply) is not None:
                        violation(f"GET {WELL_KNOWN} was answered {status} (Location {location!r}): the fallback "
                                  f"failed, and {said(reply)}")
    if "aid.pka" in client.features:
        proof_works(client, scenarios)
        judged = True
        for status in (302, 307, 308):
            scenario = scenarios.new(f"pka-{status}", keyed(), routes=[
                {"path": "/mcp", "query": "", "status": status, "headers": {"Location": "/proof"}}, pka_route(path="/proof")])
            reply = client.discover(scenario)
            if scenario.requests("/proof") or not refused(reply):
                violation(f"the PKA request was answered {status} to /proof, and the client "
                          + ("followed it" if scenario.requests("/proof") else "used the record: " + said(reply)))
    if not judged:
        untestable("the client neither falls back to /.well-known/agent nor performs PKA")
