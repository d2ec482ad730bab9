"""AID v1.2 2.3 (client): the discovery steps for a domain (normalise, look up the exact host,
parse and validate, return) and the codes of Table 1 for each failure.

The lead-in "An AID Client, when given a `<domain>`, **MUST** perform these steps:" (AID-2.3-20)
is judged through its steps, each its own clause below, as v1's lead-in AID-2.3-01 is.
"""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, connected_to, said, txt
from conformance.aid.v1_2._discovery import aid1_works, fetched_fallback, reported, shown, well_known
from conformance.outcomes import clause, untestable, violation

# ---------------------------------------------------------------- step 1: normalise the domain

#: First labels of a non-ASCII domain: Latin, ß (IDNA 2008 keeps it, IDNA 2003 maps it to ss),
#: Greek final sigma, CJK, Arabic, a label mixing ASCII and non-ASCII.
UNICODE_LABELS = ("bücher", "straße", "ελληνικάς", "日本語", "مثال", "café-42")


@clause("AID-2.3-21")
def test_2_3_client_queries_the_a_label_of_a_unicode_domain(client: AidClient, scenarios: AidScenarios) -> None:
    """Normalize domain. If the domain contains non-ASCII characters, convert it to its Punycode
    A-label representation ([RFC5890]). (The TXT query is for _agent.<A-label form>; labels
    IDNA 2003 and 2008 map differently included.)"""
    aid1_works(client, scenarios)
    for label in UNICODE_LABELS:
        scenario = scenarios.new("unicode", txt("aid1"), unicode_label=label)
        reply = client.discover(scenario)
        wanted = f"_agent.{scenario.zone_name}."
        asked = [q for q in scenario.queries() if q.rdtype == "TXT"]
        if not any(q.name.lower() == wanted.lower() for q in asked):
            names = ", ".join(f"{q.name} {q.rdtype}" for q in scenario.queries()) or "nothing in the zone"
            violation(f"given {scenario.domain!r}, the client must query TXT {wanted} (the A-label form), and it "
                      f"asked: {names}; {said(reply)}")
        if connected_to(reply) != f"https://{scenario.host}/mcp":
            violation(f"given {scenario.domain!r}, whose A-label form {scenario.zone_name} publishes u=https://"
                      f"{scenario.host}/mcp, {said(reply)}")


# ---------------------------------------------------------------- step 2: the lookup

@clause("AID-2.3-22")
def test_2_3_client_queries_txt_at_the_exact_host(client: AidClient, scenarios: AidScenarios) -> None:
    """DNS lookup. Query the `TXT` record for `_agent.<exact-host-user-entered>`. (The host as
    given, at any depth, www included; no other _agent name of the zone asked instead.)"""
    for prefix in ("", "app.", "www.", "a.b.c.", "api.eu.west."):
        path = "/" + (prefix.rstrip(".").replace(".", "-") or "apex")
        name = "_agent" + ("." + prefix.rstrip(".") if prefix else "")
        scenario = scenarios.new("exact-host", None, zone=f'{name} 300 IN TXT "{txt("aid1", u="https://{host}" + path)}"\n')
        domain = prefix + scenario.domain
        reply = client.discover(scenario, domain=domain)
        wanted = f"_agent.{domain}.".lower()
        asked = [f"{q.name} {q.rdtype}" for q in scenario.queries()]
        if f"{wanted} txt" not in [a.lower() for a in asked]:
            violation(f"given {domain!r}, the client sent no TXT query for {wanted} (it asked: "
                      f"{', '.join(asked) or 'nothing in the zone'}); {said(reply)}")
        uri = f"https://{scenario.host}{path}"
        if connected_to(reply) != uri:
            violation(f"given {domain!r}, whose record at {wanted} names {uri}, {said(reply)}")


#: What the exact host's _agent name holds when the parent's record must not be used: nothing
#: (NXDOMAIN), another type (NODATA), a malformed record, a failing server.
NO_RECORD_AT_CHILD = (("NXDOMAIN", "", None),
                      ("NODATA", "_agent.app 300 IN A 127.0.0.1\n", None),
                      ("a malformed record", '_agent.app 300 IN TXT "v=aid1;p=mcp"\n', None),
                      ("SERVFAIL", "", "servfail"))


@clause("AID-2.3-23")
def test_2_3_client_never_retries_the_parent_host(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST NOT** implicitly retry parent hosts such as `_agent.<parent-domain>`.
    (app.<host> has no usable record, <host> has one: the client sends no query for
    _agent.<host> and does not use its record.)"""
    for kind, zone, fault in NO_RECORD_AT_CHILD:
        scenario = scenarios.new("child-without-record", txt("aid1", u="https://{host}/parent"), zone=zone)
        if fault:
            scenario.dns.fault(f"_agent.app.{scenario.zone_name}", fault)  # type: ignore[arg-type]
        domain = "app." + scenario.domain
        reply = client.discover(scenario, domain=domain)
        asked = [q.name.lower() for q in scenario.queries()]
        if f"_agent.{domain}.".lower() not in asked:
            untestable(f"given {domain!r}, the client never queried _agent.{domain} (see AID-2.3-22); {said(reply)}")
        parent = f"_agent.{scenario.zone_name}.".lower()
        if parent in asked:
            violation(f"_agent.{domain} holds {kind}, and the client retried the parent host: it queried "
                      f"{parent}; {said(reply)}")
        if connected_to(reply) == f"https://{scenario.host}/parent":
            violation(f"_agent.{domain} holds {kind}, and the client used the parent's record at {parent}: "
                      f"{said(reply)}")


# ---------------------------------------------------------------- step 2: both fail

#: DNS finding nothing (or failing) and a fallback that fails, each way.
BOTH_FAIL = (("NXDOMAIN, no fallback (404)", None, None, None),
             ("NXDOMAIN, the fallback answers 500", None, None, ("{}", 500)),
             ("NXDOMAIN, the fallback answers 404 with a record", None, None,
              ('{"v":"aid1","u":"https://{host}/mcp","p":"mcp"}', 404)),
             ("NXDOMAIN, the fallback answers 503 with a record", None, None,
              ('{"v":"aid1","u":"https://{host}/mcp","p":"mcp"}', 503)),
             ("NODATA, the fallback is not JSON", "_agent 300 IN A 127.0.0.1\n", None, ("<html>agent</html>", 200)),
             ("NODATA, the fallback lacks u", "_agent 300 IN A 127.0.0.1\n", None, ('{"v":"aid1","p":"mcp"}', 200)),
             ("SERVFAIL, no fallback", None, "servfail", None),
             ("SERVFAIL, the fallback is an array", None, "servfail", ('["v=aid1"]', 200)))


@clause("AID-2.3-25")
def test_2_3_client_stops_with_an_error_when_both_fail(client: AidClient, scenarios: AidScenarios) -> None:
    """If both fail, stop with an error. (No record, or a failed lookup, and a fallback absent or
    failing: no endpoint returned, nothing connected or run; any code.)"""
    for kind, zone, fault, fallback in BOTH_FAIL:
        routes = [well_known(fallback[0], fallback[1])] if fallback else None
        scenario = scenarios.new("both-fail", None, zone=zone or "", fault=fault, routes=routes)
        reply = client.discover(scenario)
        if reply.get("outcome") in ("connect", "execute"):
            violation(f"{kind}: discovery found no record, and {said(reply)} instead of stopping with an error")
        if reply.get("outcome") not in ("none", "error"):
            violation(f"{kind}: discovery must stop with an error, and {said(reply)}")


# ---------------------------------------------------------------- step 3: parse and validate

#: One record written every way a semicolon-delimited key=value string allows: pairs in any
#: order, a trailing ';', values holding '=' (split at the first), a v last.
PARSED = (("pairs in another order", "p=mcp;u=https://{host}/mcp?a=b;v=aid1"),
          ("v last", "u=https://{host}/mcp?a=b;p=mcp;s=Parsed;v=aid1"),
          ("a trailing ';'", "v=aid1;u=https://{host}/mcp?a=b;p=mcp;"),
          ("a value holding '='", "v=aid1;u=https://{host}/mcp?a=b;p=mcp;s=x=y"),
          ("a query of several '='", "v=aid1;u=https://{host}/mcp?a=b;p=mcp;s=a=1=2"))


@clause("AID-2.3-26")
def test_2_3_client_parses_each_answer_as_key_value_pairs(client: AidClient, scenarios: AidScenarios) -> None:
    """Parse and validate. Parse the returned `TXT` answers as semicolon-delimited `key=value`
    records. (Each answer on its own, a pair split at its first '=', pairs in any order, a
    trailing ';'; other TXT data at the name beside the record.)"""
    aid1_works(client, scenarios)
    for name, text in PARSED:
        scenario = scenarios.new("parsed", text)
        reply = client.discover(scenario)
        if connected_to(reply) != f"https://{scenario.host}/mcp?a=b":
            violation(f"the record {shown(text, scenario)} ({name}) parsed as key=value pairs names "
                      f"u=https://{scenario.host}/mcp?a=b, and {said(reply)}")
    for name, other in (("a verification token", "google-site-verification=abc123"), ("a key=value of its own", "MS=ms12345"),
                        ("free text", "hello; world")):
        for order in ((other, txt("aid1")), (txt("aid1"), other)):
            scenario = scenarios.new("beside-other-txt", None,
                                     zone="".join(f'_agent 300 IN TXT "{t}"\n' for t in order))
            reply = client.discover(scenario)
            if connected_to(reply) != f"https://{scenario.host}/mcp":
                violation(f"_agent.{scenario.zone_name} holds the record {txt('aid1')!r} and {name} {other!r}, "
                          f"each answer a record of its own, and {said(reply)}")


def _recase(text: str, how) -> str:
    return ";".join(f"{how(k)}={v}" for k, v in (pair.split("=", 1) for pair in text.split(";")))


LONG_KEYS = "version=aid1;uri=https://{host}/mcp;proto=mcp;auth=pat;desc=Cased;docs=https://{host}/docs"


@clause("AID-2.3-27")
def test_2_3_client_compares_keys_case_insensitively(client: AidClient, scenarios: AidScenarios) -> None:
    """Key comparisons **MUST** be case-insensitive. (The long keys in upper, title and mixed
    case; the values are kept as written.)"""
    aid1_works(client, scenarios)
    forms = (("upper case", str.upper), ("title case", str.title),
             ("mixed case", lambda k: "".join(c.upper() if i % 2 else c for i, c in enumerate(k))),
             ("the version key alone in upper case", lambda k: k.upper() if k == "version" else k))
    for name, how in forms:
        text = _recase(LONG_KEYS, how)
        scenario = scenarios.new("key-case", text)
        reply = client.discover(scenario)
        if connected_to(reply) != f"https://{scenario.host}/mcp" or reply["connect"].get("protocol") != "mcp":
            violation(f"the record {shown(text, scenario)} ({name}) names, keys compared case-insensitively, "
                      f"uri https://{scenario.host}/mcp and proto mcp, and {said(reply)}")
        record = reply["connect"].get("record") or {}
        expected = {"auth": "pat", "desc": "Cased", "docs": f"https://{scenario.host}/docs"}
        wrong = {k: record.get(k) for k, v in expected.items() if "record" in reply["connect"] and record.get(k) != v}
        if wrong:
            violation(f"the record {shown(text, scenario)} ({name}) holds auth=pat, desc=Cased, docs=https://"
                      f"{scenario.host}/docs, and the client returned {wrong}")


@clause("AID-2.3-28")
def test_2_3_client_reads_aliases_in_any_case(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST** recognize single-letter aliases for all keys. (Here the aliases in upper
    case, alone and mixed with lower-case ones, AMB-51; lower-case ones are AID-2.1-30's.)"""
    aid1_works(client, scenarios)
    short = "v=aid1;u=https://{host}/mcp;p=mcp;a=pat;s=Cased;d=https://{host}/docs"
    for name, how in (("all in upper case", str.upper), ("V, U, P in upper case",
                                                           lambda k: k.upper() if k in "vup" else k),
                      ("A, S, D in upper case", lambda k: k.upper() if k in "asd" else k)):
        text = _recase(short, how)
        scenario = scenarios.new("alias-case", text)
        reply = client.discover(scenario)
        if connected_to(reply) != f"https://{scenario.host}/mcp" or reply["connect"].get("protocol") != "mcp":
            violation(f"the record {shown(text, scenario)} ({name}) names, with its aliases recognised, "
                      f"u=https://{scenario.host}/mcp and p=mcp, and {said(reply)}")
        record = reply["connect"].get("record") or {}
        # the optional keys written with an upper-case alias (lower-case ones are AID-2.1-30's)
        expected = {key: value for key, alias, value in (("auth", "A", "pat"), ("desc", "S", "Cased"),
                                                         ("docs", "D", f"https://{scenario.host}/docs"))
                    if f";{alias}=" in text}
        wrong = {k: record.get(k) for k, v in expected.items() if "record" in reply["connect"] and record.get(k) != v}
        if wrong:
            violation(f"the record {shown(text, scenario)} ({name}) holds A=pat, S=Cased, D=https://"
                      f"{scenario.host}/docs, and the client returned {wrong}")


#: Answers beside one valid record that are not valid AID records (AMB-50).
MALFORMED = (("u missing", "v=aid1;p=mcp"), ("p empty", "v=aid1;u=https://{host}/other;p="),
             ("u beside uri", "v=aid1;u=https://{host}/other;uri=https://{host}/other;p=mcp"),
             ("not key=value", "v=aid1;https://{host}/other;p=mcp"),
             ("another version", "v=aid9;u=https://{host}/other;p=mcp"),
             ("k without i", "v=aid1;u=https://{host}/other;p=mcp;k=z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"))


@clause("AID-2.3-29")
def test_2_3_client_uses_the_one_valid_record(client: AidClient, scenarios: AidScenarios) -> None:
    """If exactly one valid AID record is present at the queried DNS name, use it. ("Malformed
    answers do not matter when there is exactly one valid AID record": each malformed form,
    before and after it, and all at once.)"""
    aid1_works(client, scenarios)
    cases = [(name, [bad]) for name, bad in MALFORMED] + [("all of them", [b for _, b in MALFORMED])]
    for name, bad in cases:
        for order in ([*bad, txt("aid1")], [txt("aid1"), *bad]):
            scenario = scenarios.new("one-valid", None, zone="".join(f'_agent 300 IN TXT "{t}"\n' for t in order))
            reply = client.discover(scenario)
            if connected_to(reply) != f"https://{scenario.host}/mcp":
                violation(f"_agent.{scenario.zone_name} holds one valid record {txt('aid1')!r} and malformed "
                          f"answers ({name}) {[b.replace('{host}', scenario.host) for b in bad]}, "
                          f"{'after' if order[0] != txt('aid1') else 'before'} them; {said(reply)}")


@clause("AID-2.3-30")
def test_2_3_client_fails_on_several_valid_records(client: AidClient, scenarios: AidScenarios) -> None:
    """If more than one valid AID record is present at the same queried DNS name, clients
    **MUST** fail due to ambiguity rather than choosing by answer order. (Other endpoints, other
    protocols, the same endpoint with other optional keys or other key forms, each pair in both
    orders, three records; any code, AMB-50.)"""
    aid1_works(client, scenarios)
    sets = [(txt("aid1", u="https://{host}/a"), txt("aid1", u="https://{host}/b")),
            (txt("aid1"), txt("aid1", p="a2a")),
            (txt("aid1"), txt("aid1", s="Second")),
            (txt("aid1"), "version=aid1;uri=https://{host}/mcp;proto=mcp"),
            (txt("aid1", u="https://{host}/a"), txt("aid1", u="https://{host}/b"), txt("aid1", u="https://{host}/c"))]
    for records in sets:
        for order in (records, tuple(reversed(records))):
            scenario = scenarios.new("several-valid", None, zone="".join(f'_agent 300 IN TXT "{t}"\n' for t in order))
            reply = client.discover(scenario)
            if reply.get("outcome") in ("connect", "execute"):
                violation(f"_agent.{scenario.zone_name} holds {len(order)} valid records "
                          f"{[t.replace('{host}', scenario.host) for t in order]}: discovery must fail with "
                          f"ambiguity, and {said(reply)}")


# ---------------------------------------------------------------- step 6: return the result

RETURNED = (("mcp, a path, a query and a port", "mcp", "https://{host}:8443/v1/mcp?tenant-a&x%2F", {}),
            ("a2a with auth, desc, docs", "a2a", "https://{host}/.well-known/agent.json",
             {"auth": "oauth2_code", "desc": "Agent Two", "docs": "https://{host}/docs"}),
            ("openapi", "openapi", "https://{host}/openapi.json", {"auth": "apikey"}),
            ("graphql, upper-case path", "graphql", "https://{host}/GraphQL", {}),
            ("grpc", "grpc", "https://{host}:50051", {"auth": "mtls"}),
            ("websocket", "websocket", "wss://{host}/ws", {"auth": "none"}),
            ("ucp", "ucp", "https://{host}/ucp", {}))


@clause("AID-2.3-36")
def test_2_3_client_returns_the_record_as_published(client: AidClient, scenarios: AidScenarios) -> None:
    """Return result. If validation succeeds, return the discovered details. (Each protocol the
    client speaks: its uri exactly as published, its proto, and auth, desc, docs where the client
    reports the record's details.)"""
    spoken = set(client.adapter.protocols or ("mcp",))
    for label, proto, uri, more in RETURNED:
        if proto not in spoken:
            continue
        text = txt("aid1", u=uri, p=proto, **more)
        scenario = scenarios.new("returned", text)
        reply = client.discover(scenario)
        wanted = uri.replace("{host}", scenario.host)
        if connected_to(reply) != wanted:
            violation(f"the valid record {shown(text, scenario)} ({label}) names u={wanted}, and {said(reply)}")
        if reply["connect"].get("protocol") != proto:
            violation(f"the valid record {shown(text, scenario)} names p={proto}, and the client returned "
                      f"protocol {reply['connect'].get('protocol')!r}")
        record = reply["connect"].get("record")
        if isinstance(record, dict):
            for key, value in more.items():
                value = value.replace("{host}", scenario.host)
                if record.get(key) != value:
                    violation(f"the valid record {shown(text, scenario)} holds {key}={value}, and the "
                              f"client returned {key} {record.get(key)!r}")


#: Valid records whose protocol token the client may not speak: registered ones, and tokens
#: outside Appendix B (AMB-50: 1002 or 1001).
def _unspoken(client: AidClient) -> list[tuple[str, str]]:
    spoken = set(client.adapter.protocols or ())
    registered = [("zeroconf", "zeroconf:_mcp._tcp")] * ("zeroconf" not in spoken) + [
        (p, "https://{host}/agent") for p in ("mcp", "a2a", "openapi", "grpc", "graphql", "ucp") if p not in spoken]
    return registered + [("smtp", "https://{host}/agent"), ("MCP", "https://{host}/agent"),
                         ("mcp2", "https://{host}/agent"), ("x-custom", "https://{host}/agent")]


@clause("AID-2.3-37")
def test_2_3_client_fails_on_a_protocol_it_does_not_speak(client: AidClient, scenarios: AidScenarios) -> None:
    """If the client does not support the discovered protocol token, it **MUST** fail with the
    appropriate error code. (No endpoint returned, an error reported; which code is AID-2.3-41's
    SHOULD.)"""
    aid1_works(client, scenarios)
    for proto, uri in _unspoken(client):
        text = txt("aid1", u=uri, p=proto)
        scenario = scenarios.new("unspoken-proto", text)
        reply = client.discover(scenario)
        if reply.get("outcome") != "error":
            violation(f"the record {shown(text, scenario)} names p={proto}, a protocol the client does not speak "
                      f"(hello: {sorted(client.adapter.protocols or ())}), and {said(reply)}, not an error")


# ---------------------------------------------------------------- Table 1, row by row

@clause("AID-2.3-39")
def test_2_3_client_reports_no_record_as_1000(client: AidClient, scenarios: AidScenarios) -> None:
    """| `1000` | `ERR_NO_RECORD` | No `_agent` TXT record was found for the domain. | (NXDOMAIN,
    NODATA, only other TXT data at the name; with the fallback disabled where the client takes a
    policy, or absent: a fallback the client tried may make it 1005, AMB-80.)"""
    aid1_works(client, scenarios)
    judged: list = []
    policies = [{"well-known": "disable"}, None] if "aid.policy" in client.features else [None]
    for kind, zone, txt_data in (("NXDOMAIN", "", None), ("NODATA", "_agent 300 IN A 127.0.0.1\n", None),
                                 ("only other TXT data", "", "site-verification=abc123")):
        for policy in policies:
            scenario = scenarios.new("no-record", txt_data, zone=zone)
            reply = client.discover(scenario, policy=policy)
            code = reported(reply, judged)
            if code is None:
                continue
            allowed = {"ERR_NO_RECORD"} | ({"ERR_FALLBACK_FAILED"} if fetched_fallback(scenario) else set())
            if code not in allowed:
                violation(f"_agent.{scenario.zone_name} answers {kind} (no AID record), and the client reported "
                          f"{reply.get('error_kind')!r}, not ERR_NO_RECORD (1000)"
                          + (" (policy well-known=disable)" if policy else ""))
    if not judged:
        untestable("the client failed none of these cases with an error (see AID-2.3-25)")


#: Malformed records alone at the name (AMB-50: a version key makes them AID records).
INVALID = (("u missing", "v=aid1;p=mcp"), ("p missing", "v=aid1;u=https://{host}/mcp"),
           ("u empty", "v=aid1;u=;p=mcp"), ("u beside uri", "v=aid1;u=https://{host}/mcp;uri=https://{host}/mcp;p=mcp"),
           ("not key=value", "v=aid1;https://{host}/mcp;p=mcp"), ("an empty pair", "v=aid1;;u=https://{host}/mcp;p=mcp"),
           ("another version", "v=aid9;u=https://{host}/mcp;p=mcp"), ("v=AID1", "v=AID1;u=https://{host}/mcp;p=mcp"),
           ("k without i", "v=aid1;u=https://{host}/mcp;p=mcp;k=z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"))


@clause("AID-2.3-40")
def test_2_3_client_reports_a_malformed_record_as_1001(client: AidClient, scenarios: AidScenarios) -> None:
    """| `1001` | `ERR_INVALID_TXT` | A record was found but is malformed or missing required keys. |"""
    aid1_works(client, scenarios)
    judged: list = []
    for name, text in INVALID:
        scenario = scenarios.new("invalid-txt", text)
        reply = client.discover(scenario)
        code = reported(reply, judged)
        if code is not None and code != "ERR_INVALID_TXT":
            violation(f"the only record {shown(text, scenario)} is malformed ({name}), and the client reported "
                      f"{reply.get('error_kind')!r}, not ERR_INVALID_TXT (1001)")
    if not judged:
        untestable("the client failed none of these cases with an error (see AID-2.3-29)")


@clause("AID-2.3-41")
def test_2_3_client_reports_an_unspoken_protocol_as_1002(client: AidClient, scenarios: AidScenarios) -> None:
    """| `1002` | `ERR_UNSUPPORTED_PROTO` | The record is valid, but the client does not support the
    specified protocol. | (A registered token the client does not speak: 1002; a token outside
    Appendix B: 1002 or 1001, AMB-50.)"""
    aid1_works(client, scenarios)
    judged: list = []
    for proto, uri in _unspoken(client):
        text = txt("aid1", u=uri, p=proto)
        scenario = scenarios.new("unspoken-code", text)
        reply = client.discover(scenario)
        code = reported(reply, judged)
        if code is None:
            continue
        registered = proto in ("zeroconf", "mcp", "a2a", "openapi", "grpc", "graphql", "ucp")
        allowed = {"ERR_UNSUPPORTED_PROTO"} | (set() if registered else {"ERR_INVALID_TXT"})
        if code not in allowed:
            violation(f"the record {shown(text, scenario)} names p={proto}, "
                      + ("a registered protocol " if registered else "")
                      + f"the client does not speak, and it reported {reply.get('error_kind')!r}, "
                      f"not ERR_UNSUPPORTED_PROTO (1002)")
    if not judged:
        untestable("the client failed none of these cases with an error (see AID-2.3-37)")


@clause("AID-2.3-43")
def test_2_3_client_reports_a_failed_lookup_as_1004(client: AidClient, scenarios: AidScenarios) -> None:
    """| `1004` | `ERR_DNS_LOOKUP_FAILED` | The DNS query failed for a network-related reason. |
    (SERVFAIL, no answer at all; with the fallback disabled where the client takes a policy, or
    absent: a fallback the client tried may make it 1005, AMB-80.)"""
    aid1_works(client, scenarios)
    judged: list = []
    policies = [{"well-known": "disable"}, None] if "aid.policy" in client.features else [None]
    for fault in ("servfail", "drop"):
        for policy in policies:
            scenario = scenarios.new("lookup-failed", txt("aid1"), fault=fault)
            reply = client.discover(scenario, policy=policy)
            code = reported(reply, judged)
            if code is None:
                continue
            allowed = {"ERR_DNS_LOOKUP_FAILED"} | ({"ERR_FALLBACK_FAILED"} if fetched_fallback(scenario) else set())
            if code not in allowed:
                violation(f"the server answers the query for _agent.{scenario.zone_name} with {fault}, and the "
                          f"client reported {reply.get('error_kind')!r}, not ERR_DNS_LOOKUP_FAILED (1004)"
                          + (" (policy well-known=disable)" if policy else ""))
    if not judged:
        untestable("the client failed none of these cases with an error (see AID-2.3-25)")
