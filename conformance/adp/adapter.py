"""The reference ADP client (or one of its broken variants) behind the harness protocol.

In-process:    --target python:conformance.adp.adapter:handle
As a process:  --target "cmd:python -m conformance.adp.adapter [--variant NAME]"

One operation, ``adp.discover``: ask the services (or read a D0 publisher's metadata), check
the candidates against the local policy, and reply with the candidate and binding the client
would invoke (never invoking it) and the candidates it refused, with why.
"""

from __future__ import annotations

import sys
from typing import Callable

from conformance.harness.session import http_config_of, session_handler, variant_main
from conformance.adp.reference_client import Chosen, Need, Policy, ReferenceAdpClient


def reply_of(step_id: str, chosen: Chosen) -> dict:
    """The harness reply for what the client concluded."""
    return {"type": "result", "id": step_id, "outcome": chosen.outcome, "error_kind": chosen.error_kind,
            "candidate": chosen.candidate, "service": chosen.service, "invocation": chosen.invocation,
            "refused": chosen.refused, "messages": chosen.messages}


def need_of(params: dict) -> Need:
    policy = params.get("policy") or {}
    extra = {"binding": dict(params["binding"])} if isinstance(params.get("binding"), dict) else {}
    return Need(services=(params["authority"], *params.get("services", [])), request=params.get("request") or {},
                agents=tuple(params.get("agents", [])), level=params.get("level"), **extra,
                policy=Policy(protocols=tuple(p.lower() for p in policy.get("protocols", ["https"])),
                              schemes=tuple(s.lower() for s in policy.get("schemes", ["https"])),
                              revoked=tuple(policy.get("revoked", []))))


def make_handler(client_class: type[ReferenceAdpClient] = ReferenceAdpClient,
                 name: str = "adck reference ADP client") -> Callable[[dict], dict | None]:
    """A harness message handler driving ``client_class`` (one instance per session)."""
    return session_handler(
        name=name, operations=["adp.discover"], features=list(client_class.features),
        new_client=lambda network: client_class(http_config_of(network)),
        step=lambda client, message: reply_of(message["id"], client.discover(need_of(message["params"]))),
        failed=lambda step_id, exc: reply_of(step_id, Chosen("error", error_kind="unhandled",
                                                             messages=[f"{type(exc).__name__}: {exc}"])))


#: The reference client, in-process: ``--target python:conformance.adp.adapter:handle``.
handle = make_handler()


def main(argv: list[str] | None = None) -> int:
    """JSON lines on stdin, JSON lines on stdout, until ``stop`` or end of input."""
    return variant_main(argv, __doc__.splitlines()[0], make_handler, ReferenceAdpClient,
                        "adck reference ADP client", "conformance.adp.variants")


if __name__ == "__main__":
    sys.exit(main())
