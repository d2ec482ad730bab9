"""v2.1 2.4 Exact-Host Semantics And Delegation (client): no implicit retry of parent hosts."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, connected_to, said, txt
from conformance.aid.v2_1._discovery import aid2_works
from conformance.outcomes import clause, violation

PARENTS = ('_agent.team 300 IN TXT "v=aid2;u=https://{host}/team;p=mcp"\n'
           '_agent 300 IN TXT "v=aid2;u=https://{host}/apex;p=mcp"\n')
#: What the exact host's _agent name answers: a record there that cannot be used, or a failed
#: lookup (no record at all is AID-2.3-48's: AMB-90).
UNUSABLE = (("an aid2 record without p", '_agent.app.team 300 IN TXT "v=aid2;u=https://{host}/child"\n', None),
            ("an aid2 record holding kid", '_agent.app.team 300 IN TXT "%s"\n' % txt(u="https://{host}/child", kid="g1"), None),
            ("a record of a version no client knows", '_agent.app.team 300 IN TXT "v=aid9;u=https://{host}/child;p=mcp"\n', None),
            ("two valid aid2 records", '_agent.app.team 300 IN TXT "%s"\n_agent.app.team 300 IN TXT "%s"\n'
             % (txt(u="https://{host}/c1"), txt(u="https://{host}/c2")), None),
            ("SERVFAIL", "", "servfail"))


@clause("AID-2.4-06")
def test_2_4_client_never_retries_parent_hosts(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST NOT** implicitly retry parent hosts such as `_agent.team.example.com` or
    `_agent.example.com`. (When the exact host's answer cannot be used: AMB-90.)"""
    aid2_works(client, scenarios)
    policy = {"well-known": "disable"} if "aid.policy" in client.features else None
    for how, child, fault in UNUSABLE:
        scenario = scenarios.new("retry-parent", None, zone=PARENTS + child)
        entered = f"app.team.{scenario.domain}"
        if fault:
            scenario.dns.fault(f"_agent.{entered}", fault)  # type: ignore[arg-type]
        reply = client.discover(scenario, domain=entered, policy=policy)
        parents = {f"_agent.team.{scenario.zone_name}.", f"_agent.{scenario.zone_name}."}
        labels = scenario.zone_name.split(".")
        parents |= {"_agent." + ".".join(labels[i:]) + "." for i in range(1, len(labels))}
        asked = [f"{q.name} {q.rdtype}" for q in scenario.dns.log[scenario._first_query:] if q.name.lower() in parents]
        if fault:
            scenario.dns.fault(f"_agent.{entered}", None)
        if asked or connected_to(reply) in (f"https://{scenario.host}/team", f"https://{scenario.host}/apex"):
            violation(f"the user entered {entered}, whose _agent name answers {how}; _agent.team.{scenario.domain} and "
                      f"_agent.{scenario.domain} hold records; expected no query for a parent host's _agent name, and "
                      f"the client asked {', '.join(asked) or 'none'}; {said(reply)}", readings=("AMB-90",))
