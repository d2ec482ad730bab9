"""The reference WoA client (or one of its broken variants) behind the harness protocol.

In-process:    --target python:conformance.agent.woa_adapter:handle
As a process:  --target "cmd:python -m conformance.agent.woa_adapter [--variant NAME]"

A session is a fresh client; its steps share the client's memory (the document cache).
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Callable

from conformance import __version__
from conformance.agent import variant_main
from conformance.agent.woa_client import Found, ReferenceWoaClient
from conformance.fetch import ConnectTo, HttpConfig
from conformance.harness import PROTOCOL

OPERATIONS = ["woa.discover", "woa.invoke"]


def reply_of(step_id: str, found: Found) -> dict:
    """The harness reply for what a client concluded."""
    reply: dict = {"type": "result", "id": step_id, "outcome": found.outcome, "error_kind": found.error_kind,
                   "messages": found.messages}
    if found.outcome == "document":
        reply |= {"document": found.document, "capabilities": [], "cached": found.cached}
    if found.outcome == "invoked":
        reply |= {"status": found.status, "output": found.output}
    return reply


def resolve_map(entries: list[str]) -> dict[str, tuple[str, ...]]:
    """``network.resolve`` (``HOST:ADDRESS``, IPv6 in brackets) as host -> addresses."""
    out: dict[str, tuple[str, ...]] = {}
    for entry in entries:
        host, _, address = entry.partition(":")
        out[host.lower()] = out.get(host.lower(), ()) + (address.strip("[]"),)
    return out


def make_client(client_class: type[ReferenceWoaClient], network: dict) -> ReferenceWoaClient:
    http = HttpConfig(ca_bundle=Path(network["ca_file"]),
                      connect_to=tuple(ConnectTo.parse(c) for c in network.get("connect_to", [])))
    return client_class(http, resolve_map(network.get("resolve", [])), bool(network.get("allow_private", False)))


def make_handler(client_class: type[ReferenceWoaClient] = ReferenceWoaClient,
                 name: str = "adck reference WoA client") -> Callable[[dict], dict | None]:
    """A harness message handler driving ``client_class``."""
    sessions: dict[str, ReferenceWoaClient] = {}

    def handle(message: dict) -> dict | None:
        kind = message.get("type")
        if kind == "hello":
            return {"type": "hello", "protocol": PROTOCOL,
                    "client": {"name": name, "version": __version__, "language": "python"},
                    "operations": OPERATIONS, "features": list(client_class.features)}
        if kind == "stop":
            for client in sessions.values():
                client.close()
            sessions.clear()
            return None  # stop has no reply
        params = message["params"]
        try:
            client = sessions.get(message["session"])
            if client is None:
                client = sessions[message["session"]] = make_client(client_class, params["network"])
            now = datetime.fromisoformat(params["now"].replace("Z", "+00:00"))
            if message["operation"] == "woa.discover":
                found = client.discover(params["authority"], now)
            else:
                found = client.invoke(params["authority"], params["agent"], now, params.get("operation"),
                                      params.get("input"))
        except Exception as exc:  # noqa: BLE001 - the client broke; the adapter says so
            found = Found("error", error_kind="unhandled", messages=[f"{type(exc).__name__}: {exc}"])
        return reply_of(message["id"], found)

    return handle


#: The reference client, in-process: ``--target python:conformance.agent.woa_adapter:handle``.
handle = make_handler()


def main(argv: list[str] | None = None) -> int:
    """JSON lines on stdin, JSON lines on stdout, until ``stop`` or end of input."""
    return variant_main(argv, __doc__.splitlines()[0], make_handler, ReferenceWoaClient, "adck reference WoA client",
                        "conformance.agent.woa_mutants")


if __name__ == "__main__":
    sys.exit(main())
