"""v2.1 2.5 Protocol-Specific Names (client): no compatibility lookup at _agent.<proto>.<domain>."""

from __future__ import annotations

import re

from conformance.aid.clients import AidClient, AidScenarios, connected_to, said, txt
from conformance.aid.v2_1._discovery import aid2_works
from conformance.outcomes import clause, violation

COMPAT = '_agent.mcp 300 IN TXT "v=aid2;u=https://{host}/compat;p=mcp"\n_agent.a2a 300 IN TXT "v=aid2;u=https://{host}/compat;p=a2a"\n'
#: The base name's answer: none, no TXT, a record of each protocol.
BASES = (("NXDOMAIN", None, ""), ("NODATA", None, "_agent 300 IN A 127.0.0.1\n"),
         ("an invalid record", "v=aid2;u=https://{host}/mcp", ""),
         ("a record with p=mcp", txt(), ""), ("a record with p=a2a", txt(p="a2a"), ""))


@clause("AID-2.5-13")
def test_2_5_client_never_looks_up_agent_proto_without_underscore(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST NOT** perform a compatibility lookup at `_agent.<proto>.<domain>`. (Whatever
    the base name answers; _agent.mcp and _agent.a2a hold records a client doing so would find.)"""
    aid2_works(client, scenarios)
    policy = {"well-known": "disable"} if "aid.policy" in client.features else None
    for how, text, zone in BASES:
        scenario = scenarios.new("compat-name", text, zone=zone + COMPAT)
        reply = client.discover(scenario, policy=policy if text is None else None)
        compat = re.compile(r"_agent\.[^_.][^.]*\." + re.escape(scenario.zone_name.lower()) + r"\.")
        asked = [f"{q.name} {q.rdtype}" for q in scenario.dns.log[scenario._first_query:] if compat.fullmatch(q.name.lower())]
        if asked or connected_to(reply) == f"https://{scenario.host}/compat":
            violation(f"_agent.{scenario.zone_name} answers {how}; expected no query at _agent.<proto>.{scenario.zone_name}, "
                      f"and the client asked {', '.join(asked) or 'none'}; {said(reply)}")
