"""v2.1 Appendix C `.well-known` Fallback (client): its trust source, TLS and PKA."""

from __future__ import annotations

import json

from conformance.aid.clients import AidClient, AidScenarios, connected_to, pka_route, said, scenario_key
from conformance.aid.v2_1._discovery import WELL_KNOWN, record_of
from conformance.outcomes import clause, untestable, violation


def _route(doc: dict) -> dict:
    return {"path": WELL_KNOWN, "status": 200, "body": "text", "text": json.dumps(doc),
            "headers": {"Content-Type": "application/json"}}


SHORT = {"v": "aid2", "u": "https://{host}/fallback", "p": "mcp"}
LONG = {"version": "aid2", "uri": "https://{host}/fallback", "proto": "mcp"}
#: What DNS answers before the fallback is tried.
NO_DNS = (("NXDOMAIN", None, None, ""), ("NODATA", None, None, "_agent 300 IN A 127.0.0.1\n"),
          ("only TXT data that is no AID record", "hello=world", None, ""), ("SERVFAIL", None, "servfail", ""))


def _fallback_works(client: AidClient, scenarios: AidScenarios) -> None:
    __tracebackhide__ = True
    client.needs("aid.well-known", "the .well-known fallback is a MAY (2.3, AID-2.3-60)")
    scenario = scenarios.new("plain-fallback", None, routes=[_route(SHORT)])
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://{scenario.host}/fallback":
        untestable(f"with no DNS record and {json.dumps(SHORT)} at {WELL_KNOWN}, {said(reply)} (see AID-2.3-60)")


@clause("AID-C-08")
def test_C_client_reports_well_known_tls_for_a_fallback_record(client: AidClient, scenarios: AidScenarios) -> None:
    """Trust source: `well-known-tls` (Fallback-discovered records have `trustSource=well-known-tls`:
    after each DNS failure, short and long keys.)"""
    _fallback_works(client, scenarios)
    for how, text, fault, zone in NO_DNS:
        for doc in (SHORT, LONG):
            scenario = scenarios.new("trust-source", text, fault=fault, zone=zone, routes=[_route(doc)])
            reply = client.discover(scenario)
            if connected_to(reply) != f"https://{scenario.host}/fallback":
                untestable(f"_agent.{scenario.zone_name} answers {how} and {WELL_KNOWN} serves {json.dumps(doc)}, "
                           f"and {said(reply)} (see AID-2.3-60)")
            source = record_of(reply).get("trust_source")
            if source != "well-known-tls":
                violation(f"_agent.{scenario.zone_name} answers {how}; the record came from {WELL_KNOWN}; expected trust "
                          f"source 'well-known-tls', and the client returned {source!r}")


@clause("AID-C-09")
def test_C_client_relies_on_tls_and_still_proves_the_key(client: AidClient, scenarios: AidScenarios) -> None:
    """Security: relies on TLS certificate validation. PKA may still apply, but it proves
    consistency with TLS-hosted metadata, not DNS-published external trust. (A fallback served
    with a certificate that fails validation is not used; a fallback record with k is proved,
    and a failed proof fails discovery: AMB-59.)"""
    _fallback_works(client, scenarios)
    for listener, what in (("untrusted", "a certificate from a CA the client was not told to trust"),
                           ("expired", "an expired certificate"), ("wrong-name", "a certificate for another name")):
        scenario = scenarios.new(f"fallback-{listener}", None, listener=listener, routes=[_route(SHORT)])
        reply = client.discover(scenario)
        sent = scenario.requests()
        if sent or connected_to(reply) is not None:
            violation(f"{scenario.host} serves {WELL_KNOWN} with {what}; expected the fallback not used, and the client "
                      + (f"sent {sent[0].method} {sent[0].path} over it; " if sent else "") + said(reply))
    if "aid.pka" not in client.features:
        return
    keyed = dict(SHORT, u="https://{host}/mcp", k=scenario_key())
    good = scenarios.new("fallback-pka", None, routes=[_route(keyed), pka_route()])
    reply = client.discover(good)
    if connected_to(reply) != f"https://{good.host}/mcp":
        untestable(f"a fallback record with k whose endpoint proves the key: {said(reply)} (see AID-B-15)")
    for broken in ("wrong-key", "wrong-keyid"):
        scenario = scenarios.new("fallback-pka-broken", None, routes=[_route(keyed), pka_route(breaks=(broken,))])
        reply = client.discover(scenario)
        if connected_to(reply) is not None:
            state = record_of(reply).get("pka")
            violation(f"the record from {WELL_KNOWN} holds k and its endpoint's proof is broken ({broken}); expected "
                      f"discovery to fail, and {said(reply)} (PKA state {state!r})", readings=("AMB-59",))
