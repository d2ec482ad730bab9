"""What the v2.1 client tests of discovery share: prerequisites, zones of several records,
reading the result a client returns (2.3 step 10)."""

from __future__ import annotations

from datetime import timedelta

from conformance.aid.clients import ERROR_CODES, AidClient, AidScenario, AidScenarios, connected_to, error_code, said, txt
from conformance.outcomes import untestable

WELL_KNOWN = "/.well-known/agent"
#: Table 1's codes by name (a reply may give the number: :func:`error_code` reads both).
FAMILY = tuple(ERROR_CODES)


def aid2_works(client: AidClient, scenarios: AidScenarios) -> None:
    """*Untestable* unless the client connects to the u of one plain aid2 record."""
    __tracebackhide__ = True
    scenario = scenarios.new("plain-aid2", txt())
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://{scenario.host}/mcp":
        untestable(f"with the one record {txt()!r} {said(reply)}, not a connection to its u (see AID-2.3-58)")


def reads_aid1(client: AidClient, scenarios: AidScenarios) -> bool:
    """Whether the client uses a plain aid1 record (supporting aid1 is optional: AMB-60)."""
    scenario = scenarios.new("plain-aid1", txt("aid1"))
    return connected_to(client.discover(scenario)) == f"https://{scenario.host}/mcp"


def zone_of(*texts: str, ttl: int = 300) -> str:
    """Zone lines publishing each text as one TXT record at _agent, in this order."""
    return "".join(f'_agent {ttl} IN TXT "{t}"\n' for t in texts)


def several(scenarios: AidScenarios, name: str, *texts: str, ttl: int = 300) -> AidScenario:
    """A scenario whose _agent name holds these TXT records (a mock server answers in zone order)."""
    return scenarios.new(name, None, zone=zone_of(*texts, ttl=ttl))


def shown(text: str, scenario: AidScenario) -> str:
    return repr(text.replace("{host}", scenario.host))


def record_of(reply: dict) -> dict:
    """The record a connecting client returns (connect.record), {} without one."""
    connect = reply.get("connect") if reply.get("outcome") in ("connect", "execute") else None
    if reply.get("outcome") == "execute":
        connect = reply.get("execute")
    record = (connect or {}).get("record")
    return record if isinstance(record, dict) else {}


def failed(reply: dict) -> bool:
    """Discovery gave no result to use (no connection, nothing to run)."""
    return reply.get("outcome") not in ("connect", "execute")


def family_code(reply: dict, clause: str) -> str:
    """The Table 1 code a failing client reported; *untestable* when it reported none of the
    family (whether it must is AID-2.3-38 and AID-A-04, not ``clause``)."""
    __tracebackhide__ = True
    code = error_code(reply)
    if code is None:
        untestable(f"{said(reply)} and reported no code of Table 1 ({reply.get('error_kind')!r}), so which one it "
                   f"uses cannot be judged here (see AID-2.3-38, AID-A-04)")
    return code


def after(ttl: int) -> timedelta:
    """Just past a TTL of ``ttl`` seconds."""
    return timedelta(seconds=ttl + 1)
