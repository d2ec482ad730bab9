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


#: (protocol requested, the child host entered, delegated): the hosts and protocols AID-2.4-05
#: is judged over; "delegated" adds a CNAME from the child's _agent name to its parent's.
PROTOCOL_CASES = (("mcp", "app.team", False), ("a2a", "x.app.team", False), ("mcp", "app.team", True))


@clause("AID-2.4-05")
def test_2_4_client_requesting_a_protocol_never_queries_a_parent(client: AidClient, scenarios: AidScenarios) -> None:
    """If a client explicitly requests `mcp` for `app.team.example.com`, it may query
    `_agent._mcp.app.team.example.com` before `_agent.app.team.example.com`, but it **MUST NOT**
    query parent hosts unless the operator has delegated the exact child name in DNS.

    The application requests a protocol (mcp, a2a) for a child host (two and three labels below
    the zone) without a record of its own, base or protocol-specific, while every ancestor
    publishes both. No _agent name of an ancestor is queried, base or protocol-specific, and no
    ancestor's record is used. Delegated: _agent.<child> is a CNAME to _agent.<parent>; the
    parent's name may then be asked and its record used (following the operator's delegation),
    while the ancestors off that path (the zone's apex) stay out of bounds."""
    for proto, child, delegated in PROTOCOL_CASES:
        ancestors = ("team", "")
        zone = "".join(f'_agent{sub}{"." + a if a else ""} 300 IN TXT '
                       f'"{txt("aid1", u="https://{host}/" + (a or "apex") + sub.replace(".", "/"), p=proto)}"\n'
                       for a in ancestors for sub in ("", f"._{proto}"))
        if delegated:
            zone += f"_agent.{child} 300 IN CNAME _agent.team\n"
        scenario = scenarios.new("protocol-child", None, zone=zone)
        domain = f"{child}.{scenario.domain}"
        reply = client.discover(scenario, domain=domain, protocol=proto)
        asked = [q.name.lower() for q in scenario.queries()]
        exact = {f"_agent.{domain}.".lower(), f"_agent._{proto}.{domain}.".lower()}
        if not exact & set(asked):
            untestable(f"asked for {proto} at {domain!r}, the client queried neither _agent.{domain} nor "
                       f"_agent._{proto}.{domain} (see AID-2.3-22); {said(reply)}")
        labels = domain.split(".")
        parents = [".".join(labels[i:]) for i in range(1, len(labels))]
        allowed = {f"_agent.team.{scenario.domain}.".lower()} if delegated else set()
        walked = [name for name in asked if name not in exact and name not in allowed and any(
            name in (f"_agent.{p}.".lower(), f"_agent._{proto}.{p}.".lower()) for p in parents)]
        case = f"asked for {proto} at {domain!r}" + (" (_agent of it a CNAME to _agent.team)" if delegated else "")
        if walked:
            violation(f"{case}, with no record at the exact host, the client queried parent hosts: "
                      f"{', '.join(dict.fromkeys(walked))}; expected only {' and '.join(sorted(exact))}"
                      + (" and the CNAME's target" if delegated else "") + f"; {said(reply)}")
        used = connected_to(reply)
        delegated_uri = f"https://{scenario.host}/team"
        if used is not None and used.startswith(f"https://{scenario.host}/") and not (delegated and used == delegated_uri):
            violation(f"{case}, the client used an ancestor's record: {said(reply)}")
