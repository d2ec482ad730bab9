"""AID v1.2 2.1 (client): a record read from DNS TXT, its strings joined, its keys trimmed,
unknown keys ignored, the single-letter aliases recognised."""

from __future__ import annotations

import json

from conformance.aid.clients import (AidClient, AidScenarios, connected_to, pka_route, said, scenario_key,
                                     txt)
from conformance.aid.v1_2._discovery import aid1_works, shown, well_known
from conformance.outcomes import clause, violation


@clause("AID-2.1-24")
def test_2_1_client_discovers_from_the_txt_record(client: AidClient, scenarios: AidScenarios) -> None:
    """For AID v1.x, agents **MUST** use DNS TXT records for discovery. (The TXT record at
    _agent.<host> is used, not the .well-known document of the same host nor a record of another
    type at the same name: SPF, URI, HTTPS.)"""
    others = ('_agent 300 IN SPF "v=aid1;u=https://{host}/spf;p=mcp"\n'
              '_agent 300 IN URI 10 1 "https://{host}/uri"\n'
              '_agent 300 IN HTTPS 1 . alpn="h2"\n')
    scenario = scenarios.new("txt-and-others", txt("aid1", u="https://{host}/txt"), zone=others,
                             routes=[well_known({"v": "aid1", "u": "https://{host}/well-known", "p": "mcp"})])
    reply = client.discover(scenario)
    wanted = f"_agent.{scenario.zone_name}."
    if not [q for q in scenario.queries() if q.name.lower() == wanted and q.rdtype == "TXT"]:
        asked = ", ".join(f"{q.name} {q.rdtype}" for q in scenario.queries()) or "nothing"
        violation(f"the client sent no TXT query for {wanted} (it asked: {asked}); {said(reply)}")
    if connected_to(reply) != f"https://{scenario.host}/txt":
        violation(f"the TXT record at {wanted} names https://{scenario.host}/txt (an SPF and a URI record there, "
                  f"and /.well-known/agent, name others), and {said(reply)}")
    source = ((reply.get("connect") or {}).get("record") or {}).get("trust_source")
    if source not in (None, "dns"):
        violation(f"the record came from DNS TXT, and the client reports its trust source as {source!r}")


def _cut(text: str, at: list[int]) -> list[bytes]:
    raw = text.encode()
    edges = [0, *at, len(raw)]
    return [raw[a:b] for a, b in zip(edges, edges[1:])]


def _splits(text: str, seed: int) -> list[tuple[str, list[bytes]]]:
    """The record cut every way a DNS server may: 255-octet strings (the sentence's case: a
    record padded past 255 and 510 bytes), and short cuts anywhere: inside a key, inside a value,
    beside a ';', an empty string, one string per pair, one byte per string, and cuts drawn from
    the run's seed."""
    import random

    semi = text.index(";p=")
    key, value = text.index("u=") + 1, text.index("://") + 5
    drawn = sorted(random.Random(seed).sample(range(1, len(text)), 3))
    if len(text.encode()) > 255:  # a long record: strings of 255 octets, and of other lengths
        return [(f"{size}-octet strings", _cut(text, list(range(size, len(text.encode()), size))))
                for size in (255, 254, 200, 17)]
    return [("cut between u and =", _cut(text, [key])),
            ("cut inside the u's host name", _cut(text, [value])),
            ("cut right after a ';'", _cut(text, [semi + 1])),
            ("cut right before a ';'", _cut(text, [semi])),
            ("an empty string between two halves", _cut(text, [value, value])),
            ("one string per pair", _cut(text, [i + 1 for i, c in enumerate(text) if c == ";"])),
            ("one byte per string", _cut(text, list(range(1, len(text))))),
            (f"cut at {drawn} (drawn from the seed)", _cut(text, drawn))]


@clause("AID-2.1-28")
def test_2_1_client_joins_the_strings_of_a_record_in_order(client: AidClient, scenarios: AidScenarios,
                                                          adck_seed: int) -> None:
    """If a DNS server splits the record into multiple 255-octet strings, the client **MUST**
    concatenate them in order before parsing. (Joined with nothing between them, in the order
    received; a long record past 255 and 510 bytes, and short records cut anywhere.)"""
    aid1_works(client, scenarios)
    long_path = "/" + "/".join(f"segment-{i:03d}" for i in range(48))
    for length, path in (("long", long_path), ("short", "/mcp")):
        for case in range(4 if length == "long" else 8):
            scenario = scenarios.new(f"split-{length}", None)
            text = txt("aid1", u=f"https://{scenario.host}{path}", s="Split record")
            how, strings = _splits(text, adck_seed)[case]
            scenario.publish(strings)
            reply = client.discover(scenario)
            if connected_to(reply) != f"https://{scenario.host}{path}":
                parts = " + ".join(json.dumps(s.decode()) for s in strings[:5]) + (" + ..." if len(strings) > 5 else "")
                violation(f"the {len(text.encode())}-byte record is {len(strings)} strings ({how}): {parts}; "
                          f"joined in order they name u=https://{scenario.host}{path}, and {said(reply)}")


#: A record written with white space around keys and values (spaces, tabs, both sides).
SPACED = (("spaces around '='", "v = aid1 ; u = https://{host}/mcp ; p = mcp"),
          ("spaces before keys", " v=aid1; u=https://{host}/mcp; p=mcp"),
          ("spaces after values", "v=aid1 ;u=https://{host}/mcp ;p=mcp "),
          ("tabs", "v=\taid1\t;\tu\t=https://{host}/mcp;p=mcp\t"),
          ("long keys, spaced", "version = aid1 ; uri = https://{host}/mcp ; proto = mcp ; desc =  Spaced "))


@clause("AID-2.1-26")
def test_2_1_client_trims_keys_and_values(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **SHOULD** `trim()` leading and trailing whitespace from keys and values."""
    aid1_works(client, scenarios)
    for name, text in SPACED:
        scenario = scenarios.new("spaced", text)
        reply = client.discover(scenario)
        if connected_to(reply) != f"https://{scenario.host}/mcp":
            violation(f"the record {shown(text, scenario)} ({name}) trimmed is v=aid1, "
                      f"u=https://{scenario.host}/mcp, p=mcp, and {said(reply)}")
        if reply["connect"].get("protocol") != "mcp":
            violation(f"the record {shown(text, scenario)} ({name}) names p=mcp once trimmed, and the client "
                      f"would connect with protocol {reply['connect'].get('protocol')!r}")
        desc = (reply["connect"].get("record") or {}).get("desc")
        if "desc" in text and desc is not None and desc != "Spaced":
            violation(f"the record {shown(text, scenario)} holds desc 'Spaced' once trimmed, and the client "
                      f"returned desc {desc!r}")


#: Keys neither 2.1 nor Appendix D defines: short and long, any case, before and after the
#: required keys, with values holding '=' or nothing.
UNKNOWN = (("x=1", "v=aid1;x=1;u=https://{host}/mcp;p=mcp"),
           ("a long key", "v=aid1;u=https://{host}/mcp;p=mcp;x-future=hello"),
           ("v1's config", "config=https://{host}/.well-known/aid.json;v=aid1;u=https://{host}/mcp;p=mcp"),
           ("an empty value", "v=aid1;u=https://{host}/mcp;env=;p=mcp"),
           ("a value with '='", "v=aid1;u=https://{host}/mcp;p=mcp;q=a=b"),
           ("upper case", "v=aid1;u=https://{host}/mcp;p=mcp;X-TRACE=ON"),
           ("several", "z=9;v=aid1;y=8;u=https://{host}/mcp;w=7;p=mcp;zz=6"))


@clause("AID-2.1-27")
def test_2_1_client_ignores_unknown_keys(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST** ignore unknown keys. (The record with an unknown key is used as if the
    key were absent: no error, the same endpoint and protocol.)"""
    aid1_works(client, scenarios)
    for name, text in UNKNOWN:
        scenario = scenarios.new("unknown-key", text)
        reply = client.discover(scenario)
        if connected_to(reply) != f"https://{scenario.host}/mcp":
            violation(f"the record {shown(text, scenario)} ({name}) is the plain record with a key the text "
                      f"does not define, and {said(reply)}, not a connection to https://{scenario.host}/mcp")
        if reply["connect"].get("protocol") != "mcp":
            violation(f"the record {shown(text, scenario)} ({name}) names p=mcp, and the client would connect "
                      f"with protocol {reply['connect'].get('protocol')!r}")


@clause("AID-2.1-30")
def test_2_1_client_reads_lowercase_aliases(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST** recognize single-letter lowercase aliases for all keys. (v, u, p, a, s, d,
    e read as version, uri, proto, auth, desc, docs, dep; k and i as pka and kid, whose handshake
    is performed: each alias beside long keys, and all together.)"""
    aid1_works(client, scenarios)
    optional = {"a": ("auth", "pat"), "s": ("desc", "Alias agent"), "d": ("docs", "https://{host}/docs"),
                "e": ("dep", "2099-01-01T00:00:00Z")}
    cases = [("v", "v=aid1;uri=https://{host}/mcp;proto=mcp"),
             ("u", "version=aid1;u=https://{host}/mcp;proto=mcp"),
             ("p", "version=aid1;uri=https://{host}/mcp;p=mcp")]
    cases += [(alias, f"v=aid1;u=https://{{host}}/mcp;p=mcp;{alias}={value}") for alias, (_, value) in optional.items()]
    cases.append(("all", "v=aid1;u=https://{host}/mcp;p=mcp;" + ";".join(f"{a}={v}" for a, (_, v) in optional.items())))
    for alias, text in cases:
        scenario = scenarios.new(f"alias-{alias}", text)
        reply = client.discover(scenario)
        if connected_to(reply) != f"https://{scenario.host}/mcp" or reply["connect"].get("protocol") != "mcp":
            violation(f"the record {shown(text, scenario)} uses the alias {alias!r}; read with it it names "
                      f"u=https://{scenario.host}/mcp and p=mcp, and {said(reply)}")
        record = reply["connect"].get("record") or {}
        for short, (key, value) in optional.items():
            if f";{short}=" in text and key in record and record[key] != value.replace("{host}", scenario.host):
                violation(f"the record {shown(text, scenario)} holds {short}={value.replace('{host}', scenario.host)}"
                          f" ({key}), and the client returned {key} {record[key]!r}")
            if f";{short}=" in text and "record" in reply["connect"] and key not in record:
                violation(f"the record {shown(text, scenario)} holds {short} ({key}), and the client returned the "
                          f"record's details without {key}: {json.dumps(record)}")
        if f";e=" in text and not reply.get("warnings"):
            violation(f"the record {shown(text, scenario)} holds e=2099-01-01T00:00:00Z (dep, in the future), and "
                      "the client gave no warning: it did not read e as dep")
    if "aid.pka" not in client.features:
        return
    text = f"v=aid1;u=https://{{host}}/mcp;p=mcp;k={scenario_key('aid1')};i=g1"
    scenario = scenarios.new("alias-k-i", text, routes=[pka_route("aid1", kid="g1")])
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://{scenario.host}/mcp":
        violation(f"the record {shown(text, scenario)} uses k and i (pka, kid) and its endpoint proves the key, "
                  f"and {said(reply)}")
    proof = (reply["connect"].get("record") or {}).get("pka")
    if isinstance(proof, dict) and not proof.get("performed"):
        violation(f"the record {shown(text, scenario)} holds k (pka), whose handshake Appendix D asks, and the "
                  f"client reports none performed: it did not read k as pka")
