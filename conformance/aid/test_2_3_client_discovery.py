"""2.3 Client Discovery Logic (client): the steps an AID client takes for a domain.

Each test publishes a scenario (a zone on the mock DNS server, a site on the mock HTTPS
world), asks the client under test to discover it, and judges from the reply, the DNS
queries and the HTTP requests the client sent.
"""

from __future__ import annotations

import json

from conformance.aid.clients import (JSON, MANIFEST_PATH, AidClient, AidScenarios, connected_to, found_record,
                                     manifest, manifest_works, plain_record_works, record, remote, said,
                                     untrusted_manifest)
from conformance.outcomes import clause, untestable, violation


@clause("AID-2.3-02")
def test_2_3_client_queries_txt_at_agent_name(client: AidClient, scenarios: AidScenarios) -> None:
    """**DNS Lookup:** Query the DNS `TXT` record for `_agent.<domain>`."""
    scenario = scenarios.new("dns-lookup", record())
    reply = client.discover(scenario)
    wanted = f"_agent.{scenario.zone_name}."
    asked = [q for q in scenario.queries() if q.name.lower() == wanted and q.rdtype == "TXT"]
    if not asked:
        names = ", ".join(f"{q.name} {q.rdtype}" for q in scenario.queries()) or "nothing"
        violation(f"the client sent no TXT query for {wanted} (it asked: {names}); {said(reply)}")
    if connected_to(reply) != f"https://api.{scenario.host}/mcp":
        violation(f"the record at {wanted} names https://api.{scenario.host}/mcp, and {said(reply)}")


@clause("AID-2.3-08")
def test_2_3_client_fetches_manifest_when_config_present(client: AidClient, scenarios: AidScenarios) -> None:
    """**If YES `config` key (Extended Profile):** The client **MUST** proceed to fetch the manifest."""
    client.needs("aid.manifest", "a client without manifest support may fall back to uri and proto (AID-2.3-09)")
    scenario = scenarios.new("extended-profile", record(config=True),
                             manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")))
    reply = client.discover(scenario)
    found_record(reply)
    if not scenario.requests(MANIFEST_PATH):
        violation(f"the record holds config={scenario.url(MANIFEST_PATH)} and the client never fetched it; {said(reply)}")
    if connected_to(reply) != f"https://cloud.{scenario.host}/agent":
        violation(f"the manifest's only implementation is at https://cloud.{scenario.host}/agent, "
                  f"not the record's uri, and {said(reply)}")


# ---------------------------------------------------------------- step 1: the lookup

@clause("AID-2.3-03")
def test_2_3_client_finds_nothing_without_a_record(client: AidClient, scenarios: AidScenarios) -> None:
    """If no record is found, discovery fails."""
    plain_record_works(client, scenarios)
    for name, zone, kind in (("no-agent-name", "", "NXDOMAIN"),
                             ("agent-name-without-txt", "_agent 300 IN A 127.0.0.1\n", "NODATA")):
        scenario = scenarios.new(name, None, zone=zone)
        reply = client.discover(scenario)
        sent = scenario.requests()
        if sent:
            violation(f"_agent.{scenario.zone_name} answers {kind} (no TXT record), and the client still sent "
                      f"{sent[0].method} https://{scenario.host}{sent[0].path}; {said(reply)}")
        if reply.get("outcome") != "none":
            violation(f"_agent.{scenario.zone_name} answers {kind} (no TXT record), and {said(reply)}, "
                      "not that the domain has no AID record")


# ---------------------------------------------------------------- step 2: concatenate and parse

def _cut(text: str, at: list[int]) -> list[bytes]:
    raw = text.encode()
    edges = [0, *at, len(raw)]
    return [raw[a:b] for a, b in zip(edges, edges[1:])]


def _short_splits(text: str, seed: int) -> list[tuple[str, list[bytes]]]:
    """A record shorter than 255 bytes cut into character-strings every way 2.3 step 2 covers
    ("multiple strings", of any length): inside a key, inside a value, right after and right
    before a ';', with an empty string, into many strings, one byte each, and at positions
    drawn from the run's seed."""
    import random

    key, value, semi = text.index("uri") + 2, text.index("api.") + 6, text.index(";proto")
    draw = random.Random(seed)
    drawn = sorted(draw.sample(range(1, len(text)), 3))
    return [("cut inside the key uri", _cut(text, [key])),
            ("cut inside the uri's host name", _cut(text, [value])),
            ("cut right after a ';'", _cut(text, [semi + 1])),
            ("cut right before a ';'", _cut(text, [semi])),
            ("an empty string between two halves", _cut(text, [value, value])),
            ("one string per pair", _cut(text, [i + 1 for i, c in enumerate(text) if c == ";"])),
            ("one byte per string", _cut(text, list(range(1, len(text))))),
            (f"cut at {drawn} (drawn from the seed)", _cut(text, drawn))]


@clause("AID-2.3-04")
def test_2_3_client_concatenates_multi_string_records(client: AidClient, scenarios: AidScenarios,
                                                      adck_seed: int) -> None:
    """If the DNS response contains multiple strings for the `TXT` record, the client **MUST**
    concatenate them into a single string. (Short records, far below 255 bytes, cut anywhere:
    any number of strings of any length; cuts at 255 bytes are AID-2.1-07's: AMB-48.)"""
    plain_record_works(client, scenarios)
    for case in range(len(_short_splits(record(), adck_seed))):
        scenario = scenarios.new("multi-string", None)
        how, strings = _short_splits(record().replace("{host}", scenario.host), adck_seed)[case]
        scenario.publish(strings)
        reply = client.discover(scenario)
        if connected_to(reply) != f"https://api.{scenario.host}/mcp":
            shown = " + ".join(json.dumps(s.decode()) for s in strings[:6]) + (" + ..." if len(strings) > 6 else "")
            violation(f"the record is {len(strings)} strings ({how}): {shown}; concatenated they name "
                      f"https://api.{scenario.host}/mcp, and {said(reply)}")
    if "aid.manifest" not in client.features:
        return
    manifest_works(client, scenarios)
    # the multi-string example of 2.1.2, config cut inside its key
    scenario = scenarios.new("big-container", None, manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")))
    text = record(config=True).replace("{host}", scenario.host)
    strings = _cut(text, [text.index("config") + 3])
    scenario.publish(strings)
    reply = client.discover(scenario)
    found_record(reply)
    shown = " + ".join(json.dumps(s.decode()) for s in strings)
    if not scenario.requests(MANIFEST_PATH):
        violation(f"the record's strings {shown} concatenated hold config, and the client never fetched "
                  f"{scenario.url(MANIFEST_PATH)}; {said(reply)}")
    if connected_to(reply) != f"https://cloud.{scenario.host}/agent":
        violation(f"the record's strings {shown} concatenated hold config, whose manifest's only implementation is "
                  f"at https://cloud.{scenario.host}/agent, and {said(reply)}")


@clause("AID-2.3-05")
def test_2_3_client_parses_pairs_in_any_order(client: AidClient, scenarios: AidScenarios) -> None:
    """Then, parse the semicolon-delimited `key=value` pairs."""
    plain_record_works(client, scenarios)
    text = "x-note=hello;proto=mcp;env=prod;auth=pat;uri=https://api.{host}/agent;x-future=1;v=aid1"
    scenario = scenarios.new("pairs-in-any-order", text)
    reply = client.discover(scenario)
    shown = text.replace("{host}", scenario.host)
    if connected_to(reply) != f"https://api.{scenario.host}/agent":
        from conformance.aid.strategies import pairs_of, simpler_records, smallest_forms
        from conformance.aid.strategies import text as strategies_text

        def fails(pairs: list[tuple[str, str]]) -> bool:
            again = scenarios.new("pairs-in-any-order", strategies_text(pairs))
            return connected_to(client.discover(again)) != f"https://api.{again.host}/agent"

        violation(f"the record {shown!r} names uri https://api.{scenario.host}/agent, and {said(reply)}; "
                  + smallest_forms(pairs_of(text), simpler_records, fails, scenario.host))
    if reply["connect"].get("protocol") != "mcp":
        violation(f"the record {shown!r} names proto mcp, and the client would connect with "
                  f"protocol {reply['connect'].get('protocol')!r}")
    if "aid.manifest" not in client.features:
        return
    manifest_works(client, scenarios)
    text = "config=https://{host}" + MANIFEST_PATH + ";x-future=1;proto=mcp;v=aid1;uri=https://api.{host}/mcp"
    scenario = scenarios.new("config-first", text, manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")))
    reply = client.discover(scenario)
    shown = text.replace("{host}", scenario.host)
    if connected_to(reply) != f"https://cloud.{scenario.host}/agent":
        violation(f"the record {shown!r} holds config, whose manifest's only implementation is at "
                  f"https://cloud.{scenario.host}/agent, and {said(reply)}")


#: Records that hold no v=aid1: the pair missing, another version, other spellings of it.
NOT_AID1 = (("v-missing", "uri=https://api.{host}/mcp;proto=mcp"),
            ("v-aid2", "v=aid2;uri=https://api.{host}/mcp;proto=mcp"),
            ("v-upper-case", "v=AID1;uri=https://api.{host}/mcp;proto=mcp"),
            ("v-aid10", "v=aid10;uri=https://api.{host}/mcp;proto=mcp"),
            ("v-aid1-1", "uri=https://api.{host}/mcp;v=aid1.1;proto=mcp"),
            ("v-empty", "v=;uri=https://api.{host}/mcp;proto=mcp"),
            ("v-as-key", "aid1;uri=https://api.{host}/mcp;proto=mcp"))


@clause("AID-2.3-06")
def test_2_3_client_requires_v_aid1(client: AidClient, scenarios: AidScenarios) -> None:
    """It **MUST** verify that `v=aid1` is present. (No v pair, another version, other
    spellings; AMB-45: "no AID record" or an unsupported-version error both verify it.)"""
    plain_record_works(client, scenarios)
    for name, text in NOT_AID1:
        scenario = scenarios.new(name, text)
        reply = client.discover(scenario)
        if reply.get("outcome") in ("connect", "execute") or scenario.requests():
            violation(f"the only record is {text.replace('{host}', scenario.host)!r}, without v=aid1, "
                      f"and {said(reply)}, not that the domain has no AID record (or an unsupported version)")


# ---------------------------------------------------------------- step 3: profile selection

@clause("AID-2.3-07")
def test_2_3_client_uses_record_without_config(client: AidClient, scenarios: AidScenarios) -> None:
    """**If NO `config` key (Simple Profile):** The client uses the `uri`, `proto`, and `auth`
    hint from the TXT record to connect. Discovery is complete."""
    proto = (client.adapter.protocols or ("mcp",))[0]
    # the uri is on the scenario's own name, so that any other request the client sends there shows
    scenario = scenarios.new("simple-profile", record(uri="https://{host}/agent", proto=proto, extra="auth=pat"))
    reply = client.discover(scenario)
    found_record(reply)
    uri = f"https://{scenario.host}/agent"
    if connected_to(reply) != uri:
        violation(f"the record without config names uri {uri}, and {said(reply)}")
    if reply["connect"].get("protocol") != proto:
        violation(f"the record without config names proto={proto}, and the client would connect with "
                  f"protocol {reply['connect'].get('protocol')!r}")
    others = [r for r in scenario.requests() if r.path != "/agent"]
    if others:
        violation(f"the record has no config, and the client still sent {others[0].method} "
                  f"https://{scenario.host}{others[0].path}; discovery was complete with the record")


# ---------------------------------------------------------------- step 4: fetch the manifest

@clause("AID-2.3-10")
def test_2_3_client_gets_exactly_the_config_url(client: AidClient, scenarios: AidScenarios) -> None:
    """**Fetch Manifest:** Perform an HTTPS `GET` request to the URL specified by `config`."""
    client.needs("aid.manifest", "a client without manifest support fetches no manifest (AID-2.3-09)")
    path, query = "/agents/aid-manifest.json", "v=1"
    decoy = manifest(remote("Decoy", "https://decoy.{host}/agent"))
    scenario = scenarios.new(
        "config-url", record(config="https://{host}" + f"{path}?{query}"),
        manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")),
        routes=[{"path": path, "query": query, "body": "document",
                 "headers": {**JSON, "Cache-Control": "no-store"}},
                {"path": MANIFEST_PATH, "body": "text", "text": json.dumps(decoy)}])
    reply = client.discover(scenario)
    found_record(reply)
    config = f"https://{scenario.host}{path}?{query}"
    sent = scenario.requests()
    if not sent:
        untestable(f"the client sent no request for config={config} at all ({said(reply)}; see AID-2.3-08)")
    exact = [r for r in sent if (r.method, r.path, r.query, r.listener) == ("GET", path, query, "https")]
    if not exact:
        seen = ", ".join(f"{r.method} {r.path}{'?' + r.query if r.query else ''} over {r.listener}" for r in sent)
        violation(f"the record holds config={config}, and the client sent {seen}, never GET {path}?{query} over https")
    if connected_to(reply) != f"https://cloud.{scenario.host}/agent":
        violation(f"the manifest at {config} names only https://cloud.{scenario.host}/agent, and {said(reply)}")


@clause("AID-2.3-11")
def test_2_3_client_rejects_manifest_from_untrusted_issuer(client: AidClient, scenarios: AidScenarios) -> None:
    """The client **MUST** perform standard TLS certificate validation."""
    client.needs("aid.manifest", "a client without manifest support fetches no manifest (AID-2.3-09)")
    untrusted_manifest(client, scenarios, "untrusted", "a certificate from a CA the client was not told to trust")

