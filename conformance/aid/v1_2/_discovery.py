"""What the v1.2 discovery tests of the client role share (topic "discovery": sections 2.1, 2.3,
2.4 and E): a prerequisite, the fallback route, the records' scenarios."""

from __future__ import annotations

import json

from conformance.aid.clients import AidClient, AidScenario, AidScenarios, connected_to, error_code, said, txt
from conformance.outcomes import untestable

WELL_KNOWN = "/.well-known/agent"


def aid1_works(client: AidClient, scenarios: AidScenarios) -> None:
    """*Untestable* unless the client connects to the u of one plain aid1 record: a test comparing
    another record with it would judge an earlier step (AID-2.3-36)."""
    __tracebackhide__ = True
    scenario = scenarios.new("plain-aid1", txt("aid1"))
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://{scenario.host}/mcp":
        untestable(f"with the one record {txt('aid1')!r} {said(reply)}, not a connection to its u (see AID-2.3-36)")


def well_known(body: str | dict | list, status: int = 200, **headers: str) -> dict:
    """A route serving ``body`` (JSON unless a string) at /.well-known/agent."""
    text = body if isinstance(body, str) else json.dumps(body)
    return {"path": WELL_KNOWN, "status": status, "body": "text", "text": text,
            "headers": {"Content-Type": "application/json", "Cache-Control": "no-store", **headers}}


def fetched_fallback(scenario: AidScenario) -> bool:
    return bool(scenario.requests(WELL_KNOWN))


def shown(text: str, scenario: AidScenario) -> str:
    return repr(text.replace("{host}", scenario.host))


def reported(reply: dict, judged: list) -> str | None:
    """The Table 1 code the client reported for a failure, appended to ``judged``; None when the
    client did not fail (its step's own clause judges that: the caller skips the case, and is
    *untestable* when it judged none); *untestable* when it reported no Table 1 code at all
    (AID-2.3-38)."""
    __tracebackhide__ = True
    if reply.get("outcome") in ("connect", "execute"):
        return None
    code = error_code(reply)
    if code is None:
        untestable(f"{said(reply)}: the client reported no code of Table 1 ({reply.get('error_kind')!r}), "
                   "so which one it uses for this failure cannot be judged (see AID-2.3-38)")
    judged.append(code)
    return code
