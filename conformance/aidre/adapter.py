"""The reference AIDRE client (or one of its broken variants) behind the harness protocol.

In-process:    --target python:conformance.aidre.adapter:handle
As a process:  --target "cmd:python -m conformance.aidre.adapter [--variant NAME]"

One operation, ``aidre.search``: discover the origin, search it, follow cursors for up to
``pages`` pages, and reply with the results in the client's order of relevance (best first).
"""

from __future__ import annotations

import sys
from typing import Callable

from conformance.harness.session import http_config_of, session_handler, variant_main
from conformance.aidre.reference_client import Found, Query, ReferenceAidreClient


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
    return session_handler(
        name=name, operations=["aidre.search"], features=list(client_class.features),
        new_client=lambda network: client_class(http_config_of(network)),
        step=lambda client, message: reply_of(message["id"], client.search(message["params"]["authority"],
                                                                           query_of(message["params"]))),
        failed=lambda step_id, exc: reply_of(step_id, Found("error", error_kind="unhandled",
                                                            messages=[f"{type(exc).__name__}: {exc}"])))


#: The reference client, in-process: ``--target python:conformance.aidre.adapter:handle``.
handle = make_handler()


def main(argv: list[str] | None = None) -> int:
    """JSON lines on stdin, JSON lines on stdout, until ``stop`` or end of input."""
    return variant_main(argv, __doc__.splitlines()[0], make_handler, ReferenceAidreClient,
                        "adck reference AIDRE client", "conformance.aidre.variants")


if __name__ == "__main__":
    sys.exit(main())
