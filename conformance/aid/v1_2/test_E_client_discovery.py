"""AID v1.2 Appendix E (client): the .well-known fallback under PKA and TLS, DNS first, and its
error code."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, connected_to, pka_route, said, scenario_key
from conformance.aid.v1_2._discovery import WELL_KNOWN, fetched_fallback, reported, well_known
from conformance.outcomes import clause, untestable, violation


def _fallback_works(client: AidClient, scenarios: AidScenarios) -> None:
    """*Not applicable* when the client has no fallback (a MAY of 2.3 step 2); *untestable*
    unless it uses a plain one for a domain without a record."""
    __tracebackhide__ = True
    client.needs("aid.well-known", "the .well-known fallback is a MAY of 2.3 step 2")
    scenario = scenarios.new("plain-fallback", None,
                             routes=[well_known({"v": "aid1", "u": "https://{host}/fallback", "p": "mcp"})])
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://{scenario.host}/fallback":
        untestable(f"with no record at _agent.{scenario.zone_name} and {WELL_KNOWN} serving u=https://"
                   f"{scenario.host}/fallback, {said(reply)} (see AID-E-01)")


@clause("AID-E-03")
def test_E_client_fallback_relies_on_tls_and_pka(client: AidClient, scenarios: AidScenarios) -> None:
    """Security: Relies on TLS certificate validation. PKA still applies when present. (A
    fallback behind a certificate that does not validate is not used; a fallback holding k, long
    key or alias, is used only once its endpoint proves the key, and never when the proof fails.)"""
    _fallback_works(client, scenarios)
    for listener in ("untrusted", "expired", "wrong-name"):
        scenario = scenarios.new(f"fallback-{listener}", None, listener=listener,
                                 routes=[well_known({"v": "aid1", "u": "https://{host}/fallback", "p": "mcp"})])
        reply = client.discover(scenario)
        if connected_to(reply) is not None:
            violation(f"{scenario.host} serves {WELL_KNOWN} with a certificate that does not validate "
                      f"({listener}), and the client used it: {said(reply)}")
    if "aid.pka" not in client.features:
        return
    key = scenario_key("aid1")
    for form in ({"k": key, "i": "g1"}, {"pka": key, "kid": "g1"}):
        for breaks in ((), ("wrong-key",)):
            body = {"v": "aid1", "u": "https://{host}/mcp", "p": "mcp", **form}
            scenario = scenarios.new("fallback-pka", None,
                                     routes=[well_known(body), pka_route("aid1", kid="g1", breaks=breaks)])
            reply = client.discover(scenario)
            asked = [r for r in scenario.requests("/mcp")]
            if not breaks:
                if connected_to(reply) is None:
                    untestable(f"the fallback {body} with a proving endpoint was not used: {said(reply)} "
                               "(see AID-D-01)")
                proof = (reply["connect"].get("record") or {}).get("pka")
                if not asked or (isinstance(proof, dict) and not proof.get("verified")):
                    violation(f"the fallback holds {'k' if 'k' in form else 'pka'}; PKA still applies, and the "
                              f"client returned its endpoint without the handshake of Appendix D "
                              f"({len(asked)} request(s) to /mcp; pka {proof})")
            elif connected_to(reply) is not None:
                violation(f"the fallback holds {'k' if 'k' in form else 'pka'} and its endpoint's proof fails "
                          f"({breaks[0]}); PKA still applies, and {said(reply)}")


#: DNS answers after which the fallback must not be tried: an invalid record (1001), a protocol
#: the client does not speak (1002), a security failure (1003: DNSSEC bogus).
NO_FALLBACK_AFTER = (("a malformed record (1001)", "v=aid1;p=mcp", False),
                     ("a record lacking p (1001)", "v=aid1;u=https://{host}/dns", False),
                     ("an unspoken protocol (1002)", "v=aid1;u=zeroconf:_mcp._tcp;p=zeroconf", False),
                     ("an unknown protocol token (1002)", "v=aid1;u=https://{host}/dns;p=smtp", False),
                     ("a record failing DNSSEC validation (1003)", "v=aid1;u=https://{host}/dns;p=mcp", True))


@clause("AID-E-04")
def test_E_client_falls_back_only_on_no_record_or_lookup_failure(client: AidClient,
                                                                 scenarios: AidScenarios) -> None:
    """Client algorithm: Use DNS first. Fallback only on `ERR_NO_RECORD` or
    `ERR_DNS_LOOKUP_FAILED`. (After each other failure of DNS discovery no GET of
    /.well-known/agent, nothing of it used; where the fallback is used, DNS was asked.)"""
    _fallback_works(client, scenarios)
    served = [well_known({"v": "aid1", "u": "https://{host}/fallback", "p": "mcp"})]
    for what, text, bogus in NO_FALLBACK_AFTER:
        scenario = scenarios.new("no-fallback", text, bogus=bogus, routes=served)
        reply = client.discover(scenario)
        if fetched_fallback(scenario) or connected_to(reply) == f"https://{scenario.host}/fallback":
            violation(f"_agent.{scenario.zone_name} holds {what}, not ERR_NO_RECORD nor ERR_DNS_LOOKUP_FAILED, and "
                      f"the client " + ("fetched " + WELL_KNOWN if fetched_fallback(scenario) else "used the fallback")
                      + f"; {said(reply)}")
    for what, fault in (("NXDOMAIN", None), ("SERVFAIL", "servfail")):
        scenario = scenarios.new("dns-first", None, fault=fault, routes=served)
        reply = client.discover(scenario)
        if fetched_fallback(scenario) and not [q for q in scenario.queries() if q.rdtype == "TXT"]:
            violation(f"the client fetched {WELL_KNOWN} of {scenario.host} without first asking DNS for "
                      f"_agent.{scenario.zone_name} ({what}); {said(reply)}")


#: Fallbacks that fail or return invalid data (aid1).
FAILING_FALLBACKS = (("HTTP 500", "{}", 500), ("HTTP 503 with a record", '{"v":"aid1","u":"https://{host}/mcp","p":"mcp"}', 503),
                     ("not JSON", "v=aid1;u=https://{host}/mcp;p=mcp", 200),
                     ("a JSON array", '[{"v":"aid1","u":"https://{host}/mcp","p":"mcp"}]', 200),
                     ("a number member", '{"v":"aid1","u":"https://{host}/mcp","p":1}', 200),
                     ("u missing", '{"v":"aid1","p":"mcp"}', 200),
                     ("u beside uri", '{"v":"aid1","u":"https://{host}/mcp","uri":"https://{host}/mcp","p":"mcp"}', 200))


def _fallback_code(client: AidClient, scenarios: AidScenarios, version: str, cases) -> None:
    judged: list = []
    for what, body, status in cases:
        for fault in (None, "servfail"):
            scenario = scenarios.new("fallback-fails", None, fault=fault, routes=[well_known(body, status)])
            reply = client.discover(scenario)
            if not fetched_fallback(scenario):
                continue  # the fallback is a MAY: after a failed lookup too
            code = reported(reply, judged)
            if code is not None and code != "ERR_FALLBACK_FAILED":
                violation(f"the {version} fallback at {WELL_KNOWN} fails ({what}) after "
                          f"{'SERVFAIL' if fault else 'NXDOMAIN'}, and the client reported "
                          f"{reply.get('error_kind')!r}, not ERR_FALLBACK_FAILED (1005)")
    if not judged:
        untestable(f"the client reported no error after any of the failing fallbacks it fetched (see AID-2.3-25)")


@clause("AID-E-05")
def test_E_client_reports_a_failed_fallback_as_1005(client: AidClient, scenarios: AidScenarios) -> None:
    """Errors: Use `ERR_FALLBACK_FAILED` when the fallback fails or is invalid. (An HTTP error,
    data that is no JSON object of strings, an invalid aid1 record; after NXDOMAIN and after a
    failed lookup.)"""
    _fallback_works(client, scenarios)
    _fallback_code(client, scenarios, "aid1", FAILING_FALLBACKS)
