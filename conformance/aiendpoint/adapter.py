"""The reference agent (or one of its broken variants) behind the harness protocol.

In-process:    --target python:conformance.aiendpoint.adapter:handle
As a process:  --target "cmd:python -m conformance.aiendpoint.adapter [--variant NAME]"

A session is a fresh agent; its steps share the agent's memory (cache, backoff).
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Callable

from conformance import __version__
from conformance.aiendpoint.reference_client import Discovery, ReferenceAgent
from conformance.fetch import ConnectTo, HttpConfig
from conformance.harness.session import variant_main
from conformance.harness import PROTOCOL


def _reply(step_id: str, found: Discovery) -> dict:
    reply = {"type": "result", "id": step_id, "outcome": found.outcome, "error_kind": found.error_kind,
             "messages": found.messages}
    if found.outcome == "document":
        reply |= {"document": found.document, "capabilities": found.capabilities, "cached": found.cached,
                  "auth_required": found.auth_required}
    if found.outcome in ("invoked", "refused"):
        reply["status"] = found.status
    return reply


def make_handler(agent_class: type[ReferenceAgent] = ReferenceAgent,
                 name: str = "adck reference agent") -> Callable[[dict], dict | None]:
    """A harness message handler driving ``agent_class``."""
    sessions: dict[str, ReferenceAgent] = {}

    def handle(message: dict) -> dict | None:
        kind = message.get("type")
        if kind == "hello":
            return {"type": "hello", "protocol": PROTOCOL,
                    "client": {"name": name, "version": __version__, "language": "python"},
                    "operations": ["aiendpoint.discover", "aiendpoint.invoke"]}
        if kind == "stop":
            sessions.clear()
            return None  # stop has no reply
        params = message["params"]
        agent = sessions.get(message["session"])
        if agent is None:
            network = params["network"]
            http = HttpConfig(ca_bundle=Path(network["ca_file"]),
                              connect_to=tuple(ConnectTo.parse(c) for c in network.get("connect_to", [])))
            agent = sessions[message["session"]] = agent_class(http, credentials=params.get("credentials"))
        now = datetime.fromisoformat(params["now"].replace("Z", "+00:00"))
        try:
            if message["operation"] == "aiendpoint.invoke":
                found = agent.invoke(params["authority"], params.get("capability", ""), params.get("arguments", {}), now)
            else:
                found = agent.discover(params["authority"], now)
        except Exception as exc:  # noqa: BLE001 - the client broke; the adapter says so
            found = Discovery("error", error_kind="unhandled", messages=[f"{type(exc).__name__}: {exc}"])
        return _reply(message["id"], found)

    return handle


#: The reference agent, in-process: ``--target python:conformance.aiendpoint.adapter:handle``.
handle = make_handler()


def main(argv: list[str] | None = None) -> int:
    """JSON lines on stdin, JSON lines on stdout, until ``stop`` or end of input."""
    return variant_main(argv, __doc__.splitlines()[0], make_handler, ReferenceAgent, "adck reference agent", "conformance.aiendpoint.variants")


if __name__ == "__main__":
    sys.exit(main())
