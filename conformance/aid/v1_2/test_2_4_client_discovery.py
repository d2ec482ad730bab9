"""AID v1.2 2.4 (client): exact-host semantics, no walk up the DNS hierarchy."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, connected_to, said, txt
from conformance.outcomes import clause, untestable, violation


@clause("AID-2.4-03")
def test_2_4_client_never_walks_up_the_hierarchy(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST NOT** walk up the DNS hierarchy looking for `_agent.team.example.com` or
    `_agent.example.com`. (app.team.<host> and deeper names without a record, records at every
    ancestor in the zone: no _agent name of an ancestor is queried, at any distance, none used.)"""
    ancestors = ("team", "")
    for child in ("app.team", "x.app.team", "y.x.app.team"):
        zone = "".join(f'_agent{"." + a if a else ""} 300 IN TXT "{txt("aid1", u="https://{host}/" + (a or "apex"))}"\n'
                       for a in ancestors)
        scenario = scenarios.new("deep-child", None, zone=zone)
        domain = f"{child}.{scenario.domain}"
        reply = client.discover(scenario, domain=domain)
        asked = [q.name.lower() for q in scenario.queries()]
        if f"_agent.{domain}.".lower() not in asked:
            untestable(f"given {domain!r}, the client never queried _agent.{domain} (see AID-2.3-22); {said(reply)}")
        labels = domain.split(".")
        above = [f"_agent.{'.'.join(labels[i:])}.".lower() for i in range(1, len(labels))]
        walked = [name for name in above if name in asked]
        if walked:
            violation(f"given {domain!r}, with no record at _agent.{domain}, the client walked up the hierarchy: "
                      f"it queried {', '.join(walked)}; {said(reply)}")
        used = connected_to(reply)
        if used is not None and used.startswith(f"https://{scenario.host}/"):
            violation(f"given {domain!r}, with no record at _agent.{domain}, the client used an ancestor's record: "
                      f"{said(reply)}")
