"""2.1 The AID DNS Record (client): how a client reads the record's strings and its proto list."""

from __future__ import annotations

import json

from conformance.aid.clients import (AidClient, AidScenario, AidScenarios, connected_to, connection,
                                     plain_record_works, record, said)
from conformance.outcomes import clause, not_applicable, violation

#: The most a DNS character-string holds.
STRING_BYTES = 255


def publish_split(scenario: AidScenario, text: str) -> list[bytes]:
    """Publish ``text`` at the scenario's _agent name cut into 255-byte character-strings (the
    last one shorter), as DNS splits a record longer than 255 bytes."""
    raw = text.encode()
    strings = [raw[i:i + STRING_BYTES] for i in range(0, len(raw), STRING_BYTES)]
    scenario.publish(strings)
    return strings


def _padding(length: int) -> str:
    return ("segment-" + "/segment-".join(f"{i:02d}" for i in range(100)))[:length]


#: Where the 255-byte cut falls in a record "v=aid1;uri=https://api.<host>/mcp/<path>;proto=mcp":
#: how many bytes of the tail ";proto=mcp" come before the cut (a negative count: the cut is
#: that many bytes inside the uri), and the record's length in 255-byte strings.
CUTS = (("inside the uri", -17, 2), ("right after the ';' before proto", 1, 2),
        ("inside the key proto", 3, 2), ("inside the uri, three strings", -40, 3))


@clause("AID-2.1-07")
def test_2_1_client_concatenates_strings_split_mid_value(client: AidClient, scenarios: AidScenarios) -> None:
    """AID Clients **MUST** concatenate these strings before parsing (as per RFC 6763).
    (Records longer than 255 bytes, split into 255-byte strings by DNS: the cut inside the
    uri, right after a ';', inside a key; two and three strings. Short records: AID-2.3-04, AMB-48.)"""
    plain_record_works(client, scenarios)
    for where, offset, count in CUTS:
        scenario = scenarios.new("long-record", None)
        head, tail = f"v=aid1;uri=https://api.{scenario.host}/mcp/", ";proto=mcp"
        length = STRING_BYTES * (count - 1) - len(head) + (-offset if offset < 0 else 0) - max(offset, 0)
        path = _padding(length)
        uri = head.removeprefix("v=aid1;uri=") + path
        strings = publish_split(scenario, head + path + tail)
        assert len(strings) == count, (where, len(strings))
        reply = client.discover(scenario)
        if connected_to(reply) != uri or reply["connect"].get("protocol") != "mcp":
            sizes = " + ".join(str(len(s)) for s in strings)
            cuts = ", ".join(f"{json.dumps(a[-12:].decode())} | {json.dumps(b[:12].decode())}"
                             for a, b in zip(strings, strings[1:]))
            violation(f"the record is {len(strings)} character-strings ({sizes} bytes) cut {where} ({cuts}); "
                      f"concatenated they name uri {uri} and proto mcp, and {said(reply)}")


@clause("AID-2.1-17")
def test_2_1_client_uses_first_listed_protocol(client: AidClient, scenarios: AidScenarios) -> None:
    """Supported protocol(s) at the primary URI. A comma-separated list; the first is preferred."""
    spoken = list(client.adapter.protocols)
    if len(spoken) < 2:
        not_applicable(f"the client declares {len(spoken)} agent protocol(s) ({', '.join(spoken) or 'none'}) in its "
                       "hello: a proto list holding two it speaks is needed to see which one it prefers")
    first, second = spoken[:2]
    single = scenarios.new(f"proto-{first}", record(proto=first))
    connection(client.discover(single), "AID-2.3-07")  # a record with one protocol it speaks: the baseline
    for listed in ((second, first), (first, second)):
        proto = ",".join(listed)
        scenario = scenarios.new(f"proto-{'-'.join(listed)}", record(proto=proto))
        reply = client.discover(scenario)
        if reply.get("outcome") != "connect":
            violation(f"the record's proto={proto} lists two protocols the client speaks, it uses a record with "
                      f"proto={first} alone, and here {said(reply)}: it does not take proto as a list")
        used = reply["connect"].get("protocol")
        if used != listed[0]:
            violation(f"the record's proto={proto} lists {listed[0]} first, the client speaks both, and it would "
                      f"connect with protocol {used!r}")
    # the first listed is one the client does not speak: the preference goes to the next one it does
    unspoken = next((p for p in ("grpc", "graphql", "openapi", "a2a", "mcp") if p not in spoken), None)
    if unspoken is None:
        return
    proto = ",".join((unspoken, second, first))
    scenario = scenarios.new("proto-unspoken-first", record(proto=proto))
    reply = client.discover(scenario)
    used = reply["connect"].get("protocol") if reply.get("outcome") == "connect" else None
    if used != second:
        violation(f"the record's proto={proto} lists {unspoken} first, which the client does not speak (its hello "
                  f"names {spoken}), then {second} and {first}; {said(reply)}" +
                  (f" with protocol {used!r}" if used else "") + f", not with {second}, the first it speaks")
