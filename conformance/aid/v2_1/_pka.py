"""What the v2.1 client tests of PKA, domain binding and policy share: a keyed aid2 record, the
prerequisite that a valid proof works, and readers of the PKA requests the client sent."""

from __future__ import annotations

from typing import Any

import http_sf

from conformance.aid.clients import (
    AidClient,
    AidScenario,
    AidScenarios,
    connected_to,
    pka_route,
    said,
    scenario_key,
    txt,
)
from conformance.outcomes import untestable


def keyed(**more: str) -> str:
    """An aid2 record with the scenario key as ``k`` (its u: https://{host}/mcp)."""
    return txt(**{"k": scenario_key("aid2"), **more})


def header(headers: dict[str, str], name: str) -> str | None:
    """A request header's value, by name in any case."""
    return next((v for k, v in headers.items() if k.lower() == name.lower()), None)


def pka_requests(scenario: AidScenario, path: str = "/mcp") -> list:
    """The requests to ``path`` carrying an ``Accept-Signature`` (the PKA requests)."""
    return [r for r in scenario.requests(path) if header(r.headers, "Accept-Signature")]


def accept_member(request: Any) -> tuple[list[str], dict[str, Any]] | None:
    """The covered components and parameters of the request's ``aid-pka`` Accept-Signature member."""
    try:
        parsed = http_sf.parse((header(request.headers, "Accept-Signature") or "").encode(), tltype="dictionary")
        items, params = parsed["aid-pka"]
        return [http_sf.ser(i) for i in items], dict(params)
    except Exception:  # noqa: BLE001 - no readable member
        return None


def refused(reply: dict) -> bool:
    """The client neither connects nor runs anything."""
    return connected_to(reply) is None and reply.get("outcome") != "execute"


def pka_state(reply: dict) -> dict | None:
    """The PKA state of the reply's result (``connect.record.pka``), None when not reported."""
    record = (reply.get("connect") or {}).get("record") if reply.get("outcome") == "connect" else None
    pka = record.get("pka") if isinstance(record, dict) else None
    return pka if isinstance(pka, dict) else None


def proof_works(client: AidClient, scenarios: AidScenarios, *, policy: dict | None = None,
                why: str = "the PKA endpoint proof of v2.1 Appendix B") -> dict:
    """*Not applicable* unless the client claims aid.pka; *untestable* unless it connects to the u
    of an aid2 record with ``k`` whose endpoint proves the key (a test of one break of the proof
    would otherwise judge the whole handshake)."""
    __tracebackhide__ = True
    client.needs("aid.pka", why)
    scenario = scenarios.new("valid-proof", keyed(), routes=[pka_route()])
    reply = client.discover(scenario, policy=policy)
    if connected_to(reply) != f"https://{scenario.host}/mcp":
        untestable(f"with the record {keyed()!r} whose endpoint proves the key (a valid Appendix B proof"
                   + (f", policy {policy}" if policy else "") + f") {said(reply)}, not a connection to its u "
                   "(see AID-B-15)")
    return reply


WELL_KNOWN = "/.well-known/agent"


def well_known(body: dict, status: int = 200, **headers: str) -> dict:
    """A route serving ``body`` as JSON at /.well-known/agent (``{host}``: the scenario's name)."""
    import json

    return {"path": WELL_KNOWN, "status": status, "body": "text", "text": json.dumps(body),
            "headers": {"Content-Type": "application/json", "Cache-Control": "no-store", **headers}}


def keyed_json(**more: str) -> dict:
    """The JSON of /.well-known/agent mirroring :func:`keyed`."""
    return {"v": "aid2", "u": "https://{host}/mcp", "p": "mcp", "k": scenario_key("aid2"), **more}
