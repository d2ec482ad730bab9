"""The reference AIDRE client (or one of its broken variants) behind the harness protocol.

In-process:    --target python:conformance.agent.aidre_adapter:handle
As a process:  --target "cmd:python -m conformance.agent.aidre_adapter [--variant NAME]"

One operation, ``aidre.search``: discover the origin, search it, follow cursors for up to
``pages`` pages, and reply with the results in the client's order of relevance (best first).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from conformance import __version__
from conformance.agent import variant_main
from conformance.agent.aidre_client import Found, Query, ReferenceAidreClient
from conformance.fetch import ConnectTo, HttpConfig
from conformance.harness import PROTOCOL


def reply_of(step_id: str, found: Found) -> dict:
    """The harness reply for what the client concluded."""
    return {"type": "result", "id": step_id, "outcome": found.outcome, "error_kind": found.error_kind,
            "results": found.results, "cursors": found.cursors, "messages": found.messages}


def query_of(params: dict) -> Query:
    return Query(text=params.get("query"), vector=params.get("vector"), space=params.get("space"),
                 collection=params.get("collection"), top_k=params.get("top_k"), pages=params.get("pages", 1))


def make_handler(client_class: type[ReferenceAidreClient] = ReferenceAidreClient,
                 name: str = "adck reference AIDRE client") -> Callable[[dict], dict | None]:
    """A harness message handler driving ``client_class`` (one instance per session)."""
    sessions: dict[str, ReferenceAidreClient] = {}

    def handle(message: dict) -> dict | None:
        kind = message.get("type")
        if kind == "hello":
            return {"type": "hello", "protocol": PROTOCOL,
                    "client": {"name": name, "version": __version__, "language": "python"},
                    "operations": ["aidre.search"], "features": list(client_class.features)}
        if kind == "stop":
            sessions.clear()
            return None  # stop has no reply
        params = message["params"]
        try:
            client = sessions.get(message["session"])
            if client is None:
                network = params["network"]
                http = HttpConfig(ca_bundle=Path(network["ca_file"]),
                                  connect_to=tuple(ConnectTo.parse(c) for c in network.get("connect_to", [])))
                client = sessions[message["session"]] = client_class(http)
            found = client.search(params["authority"], query_of(params))
        except Exception as exc:  # noqa: BLE001 - the client broke; the adapter says so
            found = Found("error", error_kind="unhandled", messages=[f"{type(exc).__name__}: {exc}"])
        return reply_of(message["id"], found)

    return handle


#: The reference client, in-process: ``--target python:conformance.agent.aidre_adapter:handle``.
handle = make_handler()


def main(argv: list[str] | None = None) -> int:
    """JSON lines on stdin, JSON lines on stdout, until ``stop`` or end of input."""
    return variant_main(argv, __doc__.splitlines()[0], make_handler, ReferenceAidreClient,
                        "adck reference AIDRE client", "conformance.agent.aidre_mutants")


if __name__ == "__main__":
    sys.exit(main())
