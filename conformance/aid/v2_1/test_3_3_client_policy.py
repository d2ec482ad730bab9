"""v2.1 3.3 (client): the enterprise policy knobs, what each does (AMB-62), and dnssec=require
against a record found only through /.well-known/agent."""

from __future__ import annotations

from datetime import timedelta

from conformance.aid.clients import AidClient, AidScenarios, connected_to, error_code, pka_route, said, txt
from conformance.aid.v2_1._pka import WELL_KNOWN, header, keyed, keyed_json, pka_requests, refused, well_known
from conformance.outcomes import clause, untestable, violation

KNOBS = {"pka": ("if-present", "require"), "dnssec": ("off", "prefer", "require"), "well-known": ("auto", "disable"),
         "downgrade": ("off", "warn", "fail"), "domain-binding": ("off", "prefer", "require")}


def _policy_client(client: AidClient) -> None:
    __tracebackhide__ = True
    client.needs("aid.policy", "the knobs of 3.3 are of clients that expose enterprise controls")


@clause("AID-3.3-01")
def test_3_3_client_takes_every_knob(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients that expose enterprise controls **SHOULD** provide simple policy knobs:"""
    _policy_client(client)
    for knob, values in KNOBS.items():
        for value in values:
            # a record every value of every knob lets through: signed, keyed, with a bound proof
            scenario = scenarios.new(f"knob-{knob}", keyed(), sign=True, routes=[pka_route()])
            reply = client.discover(scenario, policy={knob: value})
            if connected_to(reply) == f"https://{scenario.host}/mcp":
                continue
            if knob in ("dnssec", "pka", "domain-binding") and value == "require" and error_code(reply) == "ERR_SECURITY":
                continue  # a client that cannot validate (or prove) what the knob requires may fail it
            violation(f"the policy {knob}={value} is one of 3.3's knobs; the record is signed, keyed and proven for the "
                      f"domain, so no value of any knob stops it, and with {knob}={value} {said(reply)}: "
                      f"{reply.get('messages')}")


@clause("AID-3.3-02")
def test_3_3_client_knobs_do_what_they_say(client: AidClient, scenarios: AidScenarios) -> None:
    """**PKA policy:** `if-present | require` - **DNSSEC policy:** `off | prefer | require` -
    **Well-known policy:** `auto | disable` - **Downgrade policy:** `off | warn | fail` -
    **Domain-binding policy:** `off | prefer | require`"""
    _policy_client(client)
    plain = scenarios.new("plain", txt())
    if connected_to(client.discover(plain)) != f"https://{plain.host}/mcp":
        untestable(f"the one record {txt()!r} gives no connection (see AID-2.3-58)")
    # pka=require: discovery fails if the selected record has no k
    for record in (txt(), txt(a="pat", s="Agent")):
        scenario = scenarios.new("pka-require", record)
        reply = client.discover(scenario, policy={"pka": "require"})
        if not refused(reply):
            violation(f"pka=require and the selected record {record!r} has no k: discovery fails, and {said(reply)}")
    # dnssec=require: fails when DNSSEC validation is unavailable or unsuccessful
    for what, options in (("an unsigned zone", {}), ("a bogus signature", {"bogus": True})):
        scenario = scenarios.new("dnssec-require", txt(), **options)
        reply = client.discover(scenario, policy={"dnssec": "require"})
        if not refused(reply):
            violation(f"dnssec=require and the answer comes from {what}: discovery fails, and {said(reply)}")
    # well-known=disable: clients do not use /.well-known/agent
    fallback = {"v": "aid2", "u": "https://{host}/mcp", "p": "mcp"}
    scenario = scenarios.new("well-known-disable", None, routes=[well_known(fallback)])
    reply = client.discover(scenario, policy={"well-known": "disable"})
    if scenario.requests(WELL_KNOWN) or not refused(reply):
        violation(f"well-known=disable, no DNS record, and the client "
                  + ("fetched " + WELL_KNOWN if scenario.requests(WELL_KNOWN) else "used its record: " + said(reply)))
    # downgrade=warn|fail: PKA removal and aid2 to aid1, when previous state exists
    if "aid.pka" in client.features:
        for later, what in ((txt(), "the key (k) is removed"), (txt("aid1"), "only an aid1 record is left")):
            for knob in ("fail", "warn"):
                scenario = scenarios.new(f"downgrade-{knob}", keyed(), routes=[pka_route()])
                session = client.session(scenario)
                first = client.discover(scenario, session=session, policy={"downgrade": knob})
                if connected_to(first) is None:
                    untestable(f"the keyed record with a valid proof gives no connection: {said(first)} (see AID-B-15)")
                scenario.publish([later.replace("{host}", scenario.host).encode()])
                reply = client.discover(scenario, at=timedelta(seconds=301), session=session, policy={"downgrade": knob})
                if knob == "fail" and not refused(reply):
                    violation(f"downgrade=fail, a keyed aid2 record was discovered before, and now {what}: discovery "
                              f"fails, and {said(reply)}")
                if knob == "warn" and (connected_to(reply) is None or not reply.get("warnings")):
                    violation(f"downgrade=warn, a keyed aid2 record was discovered before, and now {what}: the client "
                              f"warns and goes on, and {said(reply)} with warnings {reply.get('warnings')}")
        # domain-binding=off: no AID-Domain; require: an unbound proof fails
        scenario = scenarios.new("binding-off", keyed(), routes=[pka_route()])
        client.discover(scenario, policy={"domain-binding": "off"})
        if any(header(r.headers, "AID-Domain") is not None for r in pka_requests(scenario)):
            violation("domain-binding=off: the client does not send AID-Domain on PKA requests, and it sent one")
        scenario = scenarios.new("binding-require", keyed(), routes=[pka_route(breaks=("domain-binding-absent",))])
        reply = client.discover(scenario, policy={"domain-binding": "require"})
        if not refused(reply):
            violation(f"domain-binding=require and the endpoint's proof is unbound: discovery fails, and {said(reply)}")


@clause("AID-3.3-03")
def test_3_3_client_well_known_never_satisfies_dnssec_require(client: AidClient, scenarios: AidScenarios) -> None:
    """If discovery succeeds only through `.well-known`, the result cannot satisfy `dnssec=require`."""
    _policy_client(client)
    client.needs("aid.well-known", "the sentence is of a record found through /.well-known/agent")
    plain = {"v": "aid2", "u": "https://{host}/mcp", "p": "mcp"}
    scenario = scenarios.new("fallback", None, routes=[well_known(plain)])
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://{scenario.host}/mcp":
        untestable(f"no DNS record and {WELL_KNOWN} serving {plain}: {said(reply)} (see AID-2.3-60)")
    cases = [("no DNS record", {}, plain, []), ("a signed zone without the record", {"sign": True}, plain, []),
             ("a DNS failure (SERVFAIL)", {"fault": "servfail"}, plain, []),
             ("no DNS record, a keyed record proven", {}, keyed_json(), [pka_route()])]
    for what, options, body, extra in cases:
        for policy in ({"dnssec": "require"}, {"dnssec": "require", "well-known": "auto"}):
            scenario = scenarios.new("fallback-dnssec", None, routes=[well_known(body), *extra], **options)
            reply = client.discover(scenario, policy=policy)
            if not refused(reply):
                violation(f"{what}, the record found only at {WELL_KNOWN}, and the policy {policy}: the result cannot "
                          f"satisfy dnssec=require, and {said(reply)}")
            code = error_code(reply)
            if code not in (None, "ERR_SECURITY", "ERR_NO_RECORD", "ERR_DNS_LOOKUP_FAILED", "ERR_FALLBACK_FAILED"):
                violation(f"{what} under dnssec=require: the client reported {reply.get('error_kind')!r}")
