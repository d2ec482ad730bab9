"""2.1 The AID DNS Record (client): how a client reads the record's strings and its proto list."""

from __future__ import annotations

import json

import dns.rdataclass
import dns.rdatatype
from dns.rdtypes.ANY.TXT import TXT

from conformance.aid.clients import (AidClient, AidScenario, AidScenarios, connected_to, connection,
                                     plain_record_works, record, said)
from conformance.outcomes import clause, not_applicable, violation

#: The most a DNS character-string holds.
STRING_BYTES = 255


def publish_split(scenario: AidScenario, text: str) -> list[bytes]:
    """Publish ``text`` at the scenario's _agent name cut into 255-byte character-strings (the
    last one shorter). The cut positions depend on the scenario's host name, known only once
    the scenario exists, so the zone is published again (AidScenarios.new takes the strings)."""
    raw = text.encode()
    strings = [raw[i:i + STRING_BYTES] for i in range(0, len(raw), STRING_BYTES)]
    rdata = TXT(dns.rdataclass.IN, dns.rdatatype.TXT, strings)
    scenario.dns.add_zone(scenario.zone_name, f"_agent 300 IN TXT {rdata.to_text()}\n")
    return strings


@clause("AID-2.1-07")
def test_2_1_client_concatenates_strings_split_mid_value(client: AidClient, scenarios: AidScenarios) -> None:
    """AID Clients **MUST** concatenate these strings before parsing (as per RFC 6763)."""
    plain_record_works(client, scenarios)
    scenario = scenarios.new("long-record", None)
    uri = f"https://api.{scenario.host}/mcp/" + "/".join(f"segment-{i:02d}" for i in range(30))
    strings = publish_split(scenario, f"v=aid1;proto=mcp;uri={uri}")
    assert len(strings) > 1 and not strings[0].endswith(b";")  # a cut inside the uri
    reply = client.discover(scenario)
    if connected_to(reply) != uri:
        sizes = " + ".join(str(len(s)) for s in strings)
        cuts = ", ".join(f"{json.dumps(a[-12:].decode())} | {json.dumps(b[:12].decode())}" for a, b in zip(strings, strings[1:]))
        violation(f"the record is {len(strings)} character-strings ({sizes} bytes) cut inside the uri ({cuts}); "
                  f"concatenated they name uri {uri}, and {said(reply)}")


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
