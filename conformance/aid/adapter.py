"""The reference AID client (or one of its broken variants) behind the harness protocol.

In-process:    --target python:conformance.aid.adapter:handle
As a process:  --target "cmd:python -m conformance.aid.adapter [--variant NAME]"

A session is a fresh client; its steps share the client's memory (HTTP cache, consents).
The reply says what the client would do (connect, execute) and never does it.
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Callable

from conformance import __version__
from conformance.aid.reference_client import Found, ReferenceAidClient, User
from conformance.dns import DnsConfig
from conformance.fetch import ConnectTo, HttpConfig
from conformance.harness.session import variant_main
from conformance.harness import PROTOCOL


def reply_of(step_id: str, found: Found) -> dict:
    """The harness reply for what a client concluded."""
    reply: dict = {"type": "result", "id": step_id, "outcome": found.outcome, "error_kind": found.error_kind,
                   "prompts": [p.to_json() for p in found.prompts], "warnings": found.warnings,
                   "messages": found.messages}
    if found.connect is not None:
        reply["connect"] = found.connect
    if found.execute is not None:
        reply["execute"] = found.execute
    if found.offered is not None:
        reply["offered"] = found.offered
    return reply


def network_configs(network: dict) -> tuple[HttpConfig, DnsConfig]:
    """The HTTP and DNS configuration a harness request's ``network`` describes."""
    http = HttpConfig(ca_bundle=Path(network["ca_file"]),
                      connect_to=tuple(ConnectTo.parse(c) for c in network.get("connect_to", [])))
    dns = DnsConfig(nameservers=tuple(DnsConfig.parse_nameserver(s) for s in network.get("nameservers", [])),
                    trust_anchors=tuple(DnsConfig.parse_anchor(a) for a in network.get("dnssec_anchors", [])))
    return http, dns


def make_handler(client_class: type[ReferenceAidClient] = ReferenceAidClient,
                 name: str = "adck reference AID client") -> Callable[[dict], dict | None]:
    """A harness message handler driving ``client_class``."""
    sessions: dict[str, ReferenceAidClient] = {}

    def handle(message: dict) -> dict | None:
        kind = message.get("type")
        if kind == "hello":
            return {"type": "hello", "protocol": PROTOCOL,
                    "client": {"name": name, "version": __version__, "language": "python"},
                    "operations": ["aid.discover"], "features": list(client_class.features),
                    "protocols": list(client_class.protocols)}
        if kind == "stop":
            sessions.clear()
            return None  # stop has no reply
        params = message["params"]
        client = sessions.get(message["session"])
        try:
            if client is None:
                http, dns = network_configs(params["network"])
                client = sessions[message["session"]] = client_class(http, dns)
            now = datetime.fromisoformat(params["now"].replace("Z", "+00:00"))
            # a later revision's params, only when the step has them: the client's policy knobs
            # (AID v1.2 3.2, v2.1 3.3) and the agent protocol the application requests (v1.2 2.4)
            later = {key: params[key] for key in ("policy", "protocol") if params.get(key) is not None}
            found = client.discover(params["domain"], now, User.from_json(params.get("user")),
                                    params.get("platform"), **later)
        except Exception as exc:  # noqa: BLE001 - the client broke; the adapter says so
            found = Found("error", error_kind="unhandled", messages=[f"{type(exc).__name__}: {exc}"])
        return reply_of(message["id"], found)

    return handle


#: The reference client, in-process: ``--target python:conformance.aid.adapter:handle``.
handle = make_handler()


def main(argv: list[str] | None = None) -> int:
    """JSON lines on stdin, JSON lines on stdout, until ``stop`` or end of input."""
    return variant_main(argv, __doc__.splitlines()[0], make_handler, ReferenceAidClient, "adck reference AID client", "conformance.aid.variants")


if __name__ == "__main__":
    sys.exit(main())
