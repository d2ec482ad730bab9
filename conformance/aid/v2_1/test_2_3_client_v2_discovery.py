"""v2.1 2.3 Client Discovery Algorithm (client): steps 1-4 (normalize, query, parse, validate),
step 10 (what discovery returns), and the end of the list (both DNS and the fallback fail).

Each step is a sentence under the lead-in MUST (AID-2.3-45, catalogued as an introduction:
what it asks is each step, checked one by one here and in the files beside this one).
"""

from __future__ import annotations

import json

from conformance.aid.clients import (AidClient, AidScenarios, connected_to, pka_route, said, scenario_key, txt)
from conformance.aid.v2_1._discovery import WELL_KNOWN, aid2_works, failed, record_of, several, shown
from conformance.outcomes import clause, untestable, violation

# ---------------------------------------------------------------- step 1: normalize

#: Non-ASCII first labels (IDNA 2008 and 2003 differ on ß), and one after an ASCII label.
IDN = (("bücher", False), ("faß", False), ("ελληνικά", False), ("日本語", False), ("bücher", True))


@clause("AID-2.3-46")
def test_2_3_client_queries_the_a_label_of_an_idn(client: AidClient, scenarios: AidScenarios) -> None:
    """Normalize the domain. If the domain contains non-ASCII characters, convert it to its
    Punycode A-label representation."""
    aid2_works(client, scenarios)
    for label, parent in IDN:
        scenario = scenarios.new("idn", txt(), unicode_label=label, unicode_parent=parent)
        reply = client.discover(scenario)
        wanted = f"_agent.{scenario.zone_name}.".lower()
        asked = [q for q in scenario.dns.log[scenario._first_query:] if q.rdtype == "TXT"]
        if not any(q.name.lower() == wanted for q in asked):
            names = ", ".join(q.name for q in asked) or "nothing"
            violation(f"the user entered {scenario.domain!r}, whose A-label form is {scenario.zone_name}; expected a "
                      f"TXT query for {wanted}, and the client asked for {names}; {said(reply)}")
        if connected_to(reply) != f"https://{scenario.host}/mcp":
            violation(f"_agent.{scenario.zone_name} (the A-label form of {scenario.domain!r}) holds {txt()!r}; "
                      f"expected a connection to https://{scenario.host}/mcp, and {said(reply)}")


# ---------------------------------------------------------------- step 2: the query

@clause("AID-2.3-47")
def test_2_3_client_queries_txt_at_the_base_name_first(client: AidClient, scenarios: AidScenarios) -> None:
    """Query TXT records for the canonical base name `_agent.<exact-host-user-entered>`.
    (The first query, for the host as entered, in any case and with a final dot.)"""
    for how, entered in (("as it is", lambda d: d), ("in upper case", str.upper), ("with a final dot", lambda d: d + ".")):
        scenario = scenarios.new("base-name", txt())
        reply = client.discover(scenario, domain=entered(scenario.domain))
        wanted = f"_agent.{scenario.zone_name}.".lower()
        asked = [f"{q.name} {q.rdtype}" for q in scenario.dns.log[scenario._first_query:]]
        if not asked or asked[0].lower() != f"{wanted} txt":
            violation(f"the user entered {entered(scenario.domain)!r} ({how}); expected the first query to be TXT "
                      f"{wanted}, and the client asked: {', '.join(asked[:5]) or 'nothing'}; {said(reply)}")
        if connected_to(reply) != f"https://{scenario.host}/mcp":
            violation(f"{wanted} holds {txt()!r} and the user entered {entered(scenario.domain)!r} ({how}); expected "
                      f"a connection to https://{scenario.host}/mcp, and {said(reply)}")


#: What the exact host's _agent name answers when no record is found there.
NOT_FOUND = (("NXDOMAIN", ""), ("NODATA", "_agent.app.team 300 IN A 127.0.0.1\n"),
             ("only a TXT record that is no AID record", '_agent.app.team 300 IN TXT "hello=world"\n'))


def _parent_queries(scenario, entered: str) -> list[str]:
    """Queries for _agent.<a parent of ``entered``> since the scenario began."""
    labels = entered.lower().rstrip(".").split(".")
    parents = {"_agent." + ".".join(labels[i:]) + "." for i in range(1, len(labels))}
    return [f"{q.name} {q.rdtype}" for q in scenario.dns.log[scenario._first_query:] if q.name.lower() in parents]


def _no_fallback(client: AidClient) -> dict | None:
    """The policy that keeps the client off the .well-known fallback of a host the test does
    not serve (its sub-hosts), when the client has the knob."""
    return {"well-known": "disable"} if "aid.policy" in client.features else None


@clause("AID-2.3-48")
def test_2_3_client_never_walks_up_to_a_parent(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST NOT** walk up to parent domains. (No record at the exact host: NXDOMAIN,
    NODATA, no AID record; both parents publish one. An unusable answer there is AID-2.4-06's: AMB-90.)"""
    aid2_works(client, scenarios)
    parents = ('_agent.team 300 IN TXT "v=aid2;u=https://{host}/team;p=mcp"\n'
               '_agent 300 IN TXT "v=aid2;u=https://{host}/apex;p=mcp"\n')
    for how, child in NOT_FOUND:
        scenario = scenarios.new("walk-up", None, zone=parents + child)
        entered = f"app.team.{scenario.domain}"
        reply = client.discover(scenario, domain=entered, policy=_no_fallback(client))
        asked = _parent_queries(scenario, entered)
        if asked or connected_to(reply) in (f"https://{scenario.host}/team", f"https://{scenario.host}/apex"):
            violation(f"the user entered {entered}, whose _agent name answers {how}; _agent.team.{scenario.domain} and "
                      f"_agent.{scenario.domain} hold records; expected no query for a parent's _agent name, and the "
                      f"client asked {', '.join(asked) or 'none'}; {said(reply)}")


# ---------------------------------------------------------------- step 3: parse

#: The plain record with keys in other cases, in other orders, and beside TXT data that is no record.
PARSED = (("long keys in upper case", ["VERSION=aid2;URI=https://{host}/mcp;PROTO=mcp"]),
          ("long keys capitalized", ["Version=aid2;Uri=https://{host}/mcp;Proto=mcp"]),
          ("aliases in upper case", ["V=aid2;U=https://{host}/mcp;P=mcp"]),
          ("mixed forms and cases", ["v=aid2;URI=https://{host}/mcp;P=mcp"]),
          ("pairs in reverse order", ["p=mcp;u=https://{host}/mcp;v=aid2"]),
          ("a final ';'", ["v=aid2;u=https://{host}/mcp;p=mcp;"]),
          ("another TXT record first, not key=value", ["hello world", txt()]),
          ("another TXT record after, key=value without v", [txt(), "site-verification=abc123"]),
          ("two other TXT records around it", ["x=1;y=2", txt(), "spf include"]))


@clause("AID-2.3-49")
def test_2_3_client_parses_every_answer_case_insensitively(client: AidClient, scenarios: AidScenarios) -> None:
    """Parse returned TXT answers as semicolon-delimited `key=value` records. Key comparisons
    are case-insensitive. (Upper-case aliases too: AMB-91.)"""
    aid2_works(client, scenarios)
    for how, texts in PARSED:
        scenario = several(scenarios, "parse", *texts)
        reply = client.discover(scenario)
        uri = f"https://{scenario.host}/mcp"
        if connected_to(reply) != uri or reply["connect"].get("protocol") != "mcp":
            answers = " and ".join(shown(t, scenario) for t in texts)
            violation(f"_agent.{scenario.zone_name} answers {answers} ({how}): one aid2 record naming {uri} and mcp; "
                      f"expected a connection there with protocol 'mcp', and {said(reply)}")


# ---------------------------------------------------------------- step 4: validate

def _invalid(key: str, key1: str) -> tuple[tuple[str, str], ...]:
    """Records step 4 (and v1.2's rules for aid1) make invalid; ``key``/``key1``: a k value for aid2/aid1."""
    u = "https://{host}/mcp"
    return (("no v", f"u={u};p=mcp"),
            ("no u", "v=aid2;p=mcp"), ("an empty u", "v=aid2;u=;p=mcp"),
            ("no p", f"v=aid2;u={u}"), ("an empty p", f"v=aid2;u={u};p="),
            ("u beside uri", f"v=aid2;u={u};uri={u};p=mcp"), ("v beside version", f"version=aid2;v=aid2;u={u};p=mcp"),
            ("p beside proto", f"v=aid2;u={u};p=mcp;proto=mcp"), ("a beside auth", txt(a="pat", auth="pat")),
            ("s beside desc", txt(s="One", desc="One")),
            ("kid", txt(kid="g1")), ("i", txt(i="g1")), ("I in upper case", txt(I="g1")),
            ("k with i", txt(k=key, i="g1")),
            ("k padded", txt(k=key + "=")), ("k as aid1's multibase", txt(k=key1)),
            ("k not base64url", txt(k="abc+/def" * 5)), ("k of 31 octets", txt(k=key[:-2])),
            ("k of 33 octets", txt(k=key + "AA")), ("an empty k", txt(k="")),
            ("aid1 with k and no i (v1.2 rules)", txt("aid1", k=key1)),
            ("aid1 with uri beside u (v1.2 rules)", f"v=aid1;u={u};uri={u};p=mcp"))


@clause("AID-2.3-50")
def test_2_3_client_rejects_records_the_versioned_rules_make_invalid(client: AidClient, scenarios: AidScenarios) -> None:
    """Validate records using versioned rules. For `aid2`, require `v`, `u`, and `p`; reject a
    record containing both a full key and alias; reject `kid` or `i`; and reject malformed `k`
    values. (aid1 records by v1.2's rules: AMB-60.)"""
    aid2_works(client, scenarios)
    for how, text in _invalid(scenario_key("aid2"), scenario_key("aid1")):
        scenario = scenarios.new("invalid", text)
        reply = client.discover(scenario)
        sent = scenario.requests("/mcp")
        if not failed(reply) or sent:
            seen = said(reply) + (f", and sent {sent[0].method} /mcp" if sent else "")
            violation(f"the only record is {shown(text, scenario)} ({how}): not a valid record by the versioned rules; "
                      f"expected discovery to fail without using it, and {seen}")


# ---------------------------------------------------------------- step 10: the result

@clause("AID-2.3-58")
def test_2_3_client_returns_endpoint_protocol_metadata_pka_state_and_trust_source(
        client: AidClient, scenarios: AidScenarios) -> None:
    """Return the discovered endpoint, protocol, metadata, PKA state (including the
    domain-binding indicator when domain binding was requested; see Appendix B.7), and trust source."""
    aid2_works(client, scenarios)
    spoken = client.adapter.protocols or ("mcp",)
    forms = [(p, "wss://{host}/ws" if p == "websocket" else "https://{host}/" + p)
             for p in ("mcp", "a2a", "openapi", "graphql", "websocket") if p in spoken]
    for proto, uri in forms:
        text = f"v=aid2;u={uri};p={proto};auth=pat;desc=Scenario Agent;docs=https://{{host}}/docs"
        scenario = scenarios.new("result", text)
        reply = client.discover(scenario)
        u = uri.replace("{host}", scenario.host)
        record = record_of(reply)
        want = {"version": "aid2", "auth": "pat", "desc": "Scenario Agent", "docs": f"https://{scenario.host}/docs",
                "trust_source": "dns"}
        wrong = {k: record.get(k) for k, v in want.items() if record.get(k) != v}
        if connected_to(reply) != u or reply["connect"].get("protocol") != proto or wrong:
            got = (f"connect.record {json.dumps(record)}" if connected_to(reply) == u else said(reply))
            violation(f"the record {shown(text, scenario)} found in DNS: expected the endpoint {u}, protocol "
                      f"{proto!r} and a record with {json.dumps(want)}, and the client returned {got}"
                      + (f" (protocol {reply['connect'].get('protocol')!r})" if connected_to(reply) == u else ""))
    if "aid.pka" not in client.features:
        return
    scenario = scenarios.new("result-pka", txt(k=scenario_key()), routes=[pka_route()])
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://{scenario.host}/mcp":
        untestable(f"the record with k, whose endpoint proves the key, {said(reply)} (see AID-B-15)")
    state = record_of(reply).get("pka")
    if not isinstance(state, dict) or state.get("performed") is not True or state.get("verified") is not True:
        violation(f"the record {txt(k='<key>')!r}'s endpoint proved the key; expected the PKA state returned with "
                  f"performed and verified true, and the client returned pka {state!r}")


# ---------------------------------------------------------------- both DNS and the fallback fail

_RECORD = json.dumps({"v": "aid2", "u": "https://{host}/fallback", "p": "mcp"})


def _route(status: int, text: str = _RECORD, path: str = WELL_KNOWN, **headers: str) -> dict:
    return {"path": path, "status": status, "body": "text", "text": text,
            "headers": {"Content-Type": "application/json", **headers}}


#: Fallback answers that are failures (with a valid record elsewhere than the fallback's answer).
FALLBACK_FAILS = (("404 with a record in its body", [_route(404)]),
                  ("500 with a record in its body", [_route(500)]),
                  ("200 that is not JSON", [_route(200, "{not json")]),
                  ("200 with a record without u", [_route(200, json.dumps({"v": "aid2", "p": "mcp"}))]),
                  ("200 with a record without p", [_route(200, json.dumps({"v": "aid2", "u": "https://{host}/x"}))]),
                  ("301 to a URL serving a record", [_route(301, "", Location="https://{host}/elsewhere"),
                                                     _route(200, path="/elsewhere")]),
                  ("404, and a record at /.well-known/agent.json", [_route(404, ""), _route(200, path=WELL_KNOWN + ".json")]))


@clause("AID-2.3-61")
def test_2_3_client_fails_when_dns_and_fallback_fail(client: AidClient, scenarios: AidScenarios) -> None:
    """If both DNS and fallback fail, discovery fails."""
    cases = [("NXDOMAIN", None, None, how, routes) for how, routes in FALLBACK_FAILS]
    cases += [("SERVFAIL", None, "servfail", *FALLBACK_FAILS[0]), ("SERVFAIL", None, "servfail", *FALLBACK_FAILS[-1]),
              ("only TXT data that is no AID record", "hello=world", None, *FALLBACK_FAILS[0])]
    for dns_how, text, fault, how, routes in cases:
        scenario = scenarios.new("both-fail", text, routes=routes, fault=fault)
        reply = client.discover(scenario)
        if not failed(reply):
            violation(f"_agent.{scenario.zone_name} answers {dns_how} and GET {scenario.url(WELL_KNOWN)} answers {how}: "
                      f"both fail; expected discovery to fail, and {said(reply)}")
