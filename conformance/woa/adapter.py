"""The reference WoA client (or one of its broken variants) behind the harness protocol.

In-process:    --target python:conformance.woa.adapter:handle
As a process:  --target "cmd:python -m conformance.woa.adapter [--variant NAME]"

A session is a fresh client; its steps share the client's memory (the document cache).
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Callable

from conformance.harness.session import session_handler, variant_main
from conformance.woa.reference_client import Found, ReferenceWoaClient
from conformance.fetch import ConnectTo, HttpConfig

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


def _step(client: ReferenceWoaClient, message: dict) -> dict:
    params = message["params"]
    now = datetime.fromisoformat(params["now"].replace("Z", "+00:00"))
    if message["operation"] == "woa.discover":
        found = client.discover(params["authority"], now)
    else:
        found = client.invoke(params["authority"], params["agent"], now, params.get("operation"), params.get("input"))
    return reply_of(message["id"], found)


def make_handler(client_class: type[ReferenceWoaClient] = ReferenceWoaClient,
                 name: str = "adck reference WoA client") -> Callable[[dict], dict | None]:
    """A harness message handler driving ``client_class`` (one instance per session)."""
    return session_handler(
        name=name, operations=OPERATIONS, features=list(client_class.features),
        new_client=lambda network: make_client(client_class, network), step=_step,
        failed=lambda step_id, exc: reply_of(step_id, Found("error", error_kind="unhandled",
                                                            messages=[f"{type(exc).__name__}: {exc}"])),
        close=lambda client: client.close())


#: The reference client, in-process: ``--target python:conformance.woa.adapter:handle``.
handle = make_handler()


def main(argv: list[str] | None = None) -> int:
    """JSON lines on stdin, JSON lines on stdout, until ``stop`` or end of input."""
    return variant_main(argv, __doc__.splitlines()[0], make_handler, ReferenceWoaClient, "adck reference WoA client",
                        "conformance.woa.variants")


if __name__ == "__main__":
    sys.exit(main())
