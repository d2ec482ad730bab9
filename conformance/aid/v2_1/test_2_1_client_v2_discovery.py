"""v2.1 2.1 Format (client): how a client reads the record's text (white space, unknown keys,
character-strings, aliases)."""

from __future__ import annotations

import json
import random

from conformance.aid.clients import AidClient, AidScenarios, connected_to, pka_route, said, scenario_key, txt
from conformance.aid.v2_1._discovery import aid2_works, record_of, shown
from conformance.outcomes import clause, untestable, violation

#: The plain aid2 record written with white space around keys and values, every way.
SPACED = (("a space after each ';'", "v=aid2; u=https://{host}/mcp; p=mcp"),
          ("spaces around each '='", "v = aid2;u = https://{host}/mcp;p = mcp"),
          ("spaces around every key and value", " v = aid2 ; u = https://{host}/mcp ; p = mcp "),
          ("tabs around keys and values", "v=aid2;\tu\t=\thttps://{host}/mcp\t;p=\tmcp\t"),
          ("several spaces before ';'", "v=aid2;u=https://{host}/mcp   ;p=mcp   "),
          ("long keys with spaces", " version = aid2 ; uri = https://{host}/mcp ; proto = mcp "))


@clause("AID-2.1-48")
def test_2_1_client_trims_keys_and_values(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **SHOULD** trim leading and trailing whitespace from keys and values."""
    aid2_works(client, scenarios)
    for how, text in SPACED:
        scenario = scenarios.new("spaced", text)
        reply = client.discover(scenario)
        uri = f"https://{scenario.host}/mcp"
        if connected_to(reply) != uri or reply["connect"].get("protocol") != "mcp":
            seen = f"protocol {reply['connect'].get('protocol')!r}" if connected_to(reply) == uri else said(reply)
            violation(f"the record {shown(text, scenario)} ({how}) trimmed is u={uri}, p=mcp; expected a connection "
                      f"to {uri} with protocol 'mcp', and {seen}")


#: Records holding keys v2.1 does not define, at every place: they must not change the result.
UNKNOWN = (("x=1 last", txt(x="1")),
           ("an unknown long key between v and u", "v=aid2;future=yes;u=https://{host}/mcp;p=mcp"),
           ("v1's config, unknown in aid2, before p", "v=aid2;u=https://{host}/mcp;config=https://{host}/aid.json;p=mcp"),
           ("an unknown key with an empty value", "v=aid2;u=https://{host}/mcp;p=mcp;z="),
           ("a mixed-case unknown key", "v=aid2;X-Vendor=abc;u=https://{host}/mcp;p=mcp"),
           ("single letters that are no alias", "v=aid2;t=1;u=https://{host}/mcp;q=2;p=mcp;w=3"),
           ("an unknown key first", "x=1;v=aid2;u=https://{host}/mcp;p=mcp"),
           ("an unknown key whose value holds '='", "v=aid2;u=https://{host}/mcp;x=a=b;p=mcp"))


@clause("AID-2.1-49")
def test_2_1_client_ignores_unknown_keys(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST** ignore unknown keys unless the key has a known legacy meaning that this
    specification explicitly rejects for `aid2`. (kid and i, which aid2 rejects, are AID-2.3-50's.)"""
    aid2_works(client, scenarios)
    for how, text in UNKNOWN:
        scenario = scenarios.new("unknown-key", text)
        reply = client.discover(scenario)
        uri = f"https://{scenario.host}/mcp"
        if connected_to(reply) != uri or reply["connect"].get("protocol") != "mcp":
            violation(f"the record {shown(text, scenario)} ({how}) is the plain record plus keys v2.1 does not "
                      f"define; ignoring them, expected a connection to {uri} with protocol 'mcp', and {said(reply)}")


def _cut(raw: bytes, at: list[int]) -> list[bytes]:
    edges = [0, *at, len(raw)]
    return [raw[a:b] for a, b in zip(edges, edges[1:])]


def _splits(text: str, seed: int) -> list[tuple[str, list[bytes]]]:
    """``text`` as several character-strings: at 255 octets as a DNS server splits a long record,
    and (for a short one) at every kind of place: inside a key, inside a value, around a ';',
    with an empty string, one string per pair, one byte each, and at places drawn from the seed."""
    raw = text.encode()
    if len(raw) > 255:
        return [("255-octet strings", _cut(raw, list(range(255, len(raw), 255)))),
                ("strings of 255 octets, then the rest after one more cut", _cut(raw, [255, 300]))]
    draw = random.Random(seed)
    host = text.index("//") + 6
    semi = text.index(";p=")
    return [("cut inside the key 'version'", _cut(raw, [text.index("version") + 3])),
            ("cut inside the uri's host name", _cut(raw, [host])),
            ("cut right after a ';'", _cut(raw, [semi + 1])),
            ("cut right before a ';'", _cut(raw, [semi])),
            ("cut between a key and its '='", _cut(raw, [semi + 2])),
            ("an empty string between two halves", _cut(raw, [host, host])),
            ("one string per pair", _cut(raw, [i + 1 for i, c in enumerate(text) if c == ";"])),
            ("one byte per string", _cut(raw, list(range(1, len(raw))))),
            ("cut at places drawn from the seed", _cut(raw, sorted(draw.sample(range(1, len(raw)), 3))))]


@clause("AID-2.1-50")
def test_2_1_client_concatenates_character_strings(client: AidClient, scenarios: AidScenarios, adck_seed: int) -> None:
    """If a DNS server splits the TXT record into multiple 255-octet character strings, the
    client **MUST** concatenate them in order before parsing. (Long records cut at 255 octets,
    and short ones cut anywhere: "multiple strings" of any length.)"""
    aid2_works(client, scenarios)
    forms = [("short", "version=aid2;u=https://{host}/mcp;p=mcp"),
             ("long", "v=aid2;u=https://{host}/" + "a" * 150 + "/" + "b" * 150 + ";p=mcp;s=Split Agent")]
    for size, template in forms:
        count = len(_splits(template.replace("{host}", "x"), adck_seed))
        for case in range(count):
            scenario = scenarios.new(f"split-{size}", None)
            text = template.replace("{host}", scenario.host)
            how, strings = _splits(text, adck_seed)[case]
            scenario.publish(strings)
            reply = client.discover(scenario)
            uri = [v for k, _, v in (p.partition("=") for p in text.split(";")) if k == "u"][0]
            if connected_to(reply) != uri:
                parts = " + ".join(json.dumps(s.decode()) for s in strings[:5]) + (" + ..." if len(strings) > 5 else "")
                violation(f"the record is {len(strings)} character-strings ({how}): {parts}; concatenated in "
                          f"order they name u={uri[:90]}, expected a connection there, and {said(reply)}")


#: The aliases of 2.1 with the long key each stands for, and a value for it.
METADATA = (("a", "auth", "pat"), ("s", "desc", "Scenario Agent"), ("d", "docs", "https://{host}/docs"),
            ("e", "dep", "2099-01-01T00:00:00Z"))


@clause("AID-2.1-52")
def test_2_1_client_recognizes_single_letter_aliases(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST** recognize single-letter lowercase aliases. (v, u, p, a, s, d, e and k,
    each alone among long keys and all together, judged against the same record in long keys.)"""
    aid2_works(client, scenarios)
    long_meta = ";".join(f"{key}={value}" for _, key, value in METADATA)
    base = scenarios.new("long-keys", f"version=aid2;uri=https://{{host}}/mcp;proto=mcp;{long_meta}")
    reply = client.discover(base)
    returned = {key for _, key, _ in METADATA if record_of(reply).get(key)}
    if connected_to(reply) != f"https://{base.host}/mcp":
        untestable(f"the record in long keys {said(reply)}, not a connection to its uri (see AID-2.3-58)")
    # v, u, p: each written short among long keys, then all three
    core = {"version": "aid2", "uri": "https://{host}/mcp", "proto": "mcp"}
    SHORT = {"version": "v", "uri": "u", "proto": "p"}  # noqa: N806
    for short in (("version",), ("uri",), ("proto",), ("version", "uri", "proto")):
        text = ";".join(f"{SHORT[k] if k in short else k}={v}" for k, v in core.items())
        scenario = scenarios.new("alias", text)
        reply = client.discover(scenario)
        if connected_to(reply) != f"https://{scenario.host}/mcp" or reply["connect"].get("protocol") != "mcp":
            violation(f"the record {shown(text, scenario)} names u (or uri) https://{scenario.host}/mcp and p (or "
                      f"proto) mcp; expected a connection there with protocol 'mcp', and {said(reply)}")
    # a, s, d, e: the metadata the client returns for the long-key record, written short
    for alias, key, value in METADATA:
        if key not in returned:
            continue
        for text in (txt(**{alias: value}), txt(**{a: v for a, _, v in METADATA})):
            scenario = scenarios.new("alias-meta", text)
            reply = client.discover(scenario)
            got = record_of(reply).get(key)
            want = value.replace("{host}", scenario.host)
            if got != want:
                violation(f"the record {shown(text, scenario)} holds {alias}={want}; with {key}= in long form the "
                          f"client returns {key} {want!r}, and with the alias it returned {got!r} ({said(reply)})")
    if not returned:
        untestable(f"the client returns none of {', '.join(k for _, k, _ in METADATA)} for a record holding them "
                   "in long keys, so their aliases cannot be judged (see AID-2.3-58)")
    # k: the proof is performed as for pka=
    if "aid.pka" not in client.features:
        return
    proofs = {}
    for written in ("pka", "k"):
        scenario = scenarios.new(f"alias-{written}", f"{txt()};{written}={scenario_key()}", routes=[pka_route()])
        reply = client.discover(scenario)
        proofs[written] = ((record_of(reply).get("pka") or {}).get("performed"), reply)
    if proofs["pka"][0] is True and proofs["k"][0] is not True:
        reply = proofs["k"][1]
        violation(f"with pka=<key> the client performs the endpoint proof; the record {txt()};k=<key> holds the same "
                  f"key under its alias k, expected the proof performed, and the client returned PKA state "
                  f"{record_of(reply).get('pka')!r} ({said(reply)}): k was not read as pka")
