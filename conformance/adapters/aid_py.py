"""aid-discovery (import name ``aid_py``), the AID client library on PyPI, behind the harness protocol.

In-process:    adck run aid --role client --target python:conformance.adapters.aid_py:discover
As a process:  adck run aid --role client --target "cmd:python -m conformance.adapters.aid_py"
Install:       pip install 'adck[aid-py]'   (pins aid-discovery==2.1.1)

``aid_py.discover(domain)`` resolves the TXT record at ``_agent.<domain>`` with dnspython's
module-level resolver (``dns.resolver.default_resolver``), validates it and returns
``(record, ttl)``, or raises ``aid_py.AidError`` whose ``error_code`` names what went wrong.
It is a record library: it fetches no manifest (``config`` is not read) and runs nothing, so
the hello claims no features, and a record it returns is a connection to the record's uri
(the Simple Profile). Its ``protocols`` are the proto tokens aid_py knows
(``aid_py.constants.PROTOCOL_TOKENS``) that it accepts at an ``https://`` uri, the only kind
of uri AID v1 has (§4): aid_py also knows ``local``, ``zeroconf`` and ``websocket``, but ties
them to URIs of their own (``docker:``/``npx:``/``pip:``, ``zeroconf:``, ``wss://``), so
claiming them would have the kit serve records that name them at an https uri.

Each step points ``dns.resolver.default_resolver`` at a fresh resolver asking exactly the
step's nameservers, calls ``aid_py.discover(domain, well_known_fallback=False, ...)`` and puts
the previous resolver back; the hello's ``dns`` says so, and the report's DNS evidence names
the adapter beside the client that asked (docs/harness-protocol.md). The well-known fallback is switched off because AID v1 has none
(AID-2.3-03): aid_py's default fetches ``https://<domain>/.well-known/agent`` after a failed
lookup, which a user of it for v1 turns off the same way. DNSSEC trust anchors are not
passed on: aid_py does not validate. aid_py keeps no state, so sessions are not kept either.

How a result becomes a reply:

- a record: ``connect`` to its uri, with the first token of its proto;
- ``ERR_NO_RECORD`` (NXDOMAIN, NODATA, no TXT string at all) and ``ERR_INVALID_TXT`` (a record
  aid_py cannot use: a key missing, a bad value, an unsupported version, several records):
  ``none``, as AID v1 §2.5 says "Missing mandatory TXT keys → treat as no AID record";
- any other error code (``ERR_DNS_LOOKUP_FAILED``, ``ERR_UNSUPPORTED_PROTO``: a valid record
  naming a protocol aid_py does not know, ``ERR_SECURITY``, ``ERR_FALLBACK_FAILED``): ``error``;
- any other exception: ``error`` with error_kind ``unhandled``.

aid_py's error code goes into ``error_kind`` and its message into ``messages``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import threading
from importlib import metadata
from types import ModuleType
from typing import Any

import dns.nameserver
import dns.resolver

from conformance.dns import DnsConfig
from conformance.harness import PROTOCOL, serve_lines

DISTRIBUTION = "aid-discovery"
EXTRA = "aid-py"
CLIENT_NAME = "aid-discovery (aid_py)"
#: The adapter's name in the report's DNS evidence (it redirects the library's resolver).
ADAPTER = "conformance.adapters.aid_py"
HOMEPAGE = "https://github.com/agentcommunity/agent-identity-discovery"
#: aid_py error codes meaning "this domain has no usable AID record" (outcome none).
NO_RECORD = frozenset({"ERR_NO_RECORD", "ERR_INVALID_TXT"})
#: The reference client's DNS patience: seconds per try, and for a whole lookup (aid_py's
#: ``timeout``, which it hands dnspython as the lookup's lifetime).
_DNS = DnsConfig()
TRY_TIMEOUT, LIFETIME = _DNS.timeout, _DNS.lifetime

#: Swapping the module-level resolver is a process-wide change: one step at a time.
_SWAP = threading.Lock()


class MissingLibrary(ImportError):
    """aid_py is not importable: the adapter has nothing to drive."""


def library() -> ModuleType:
    """The aid_py module, or :class:`MissingLibrary` saying what to install."""
    try:
        module = importlib.import_module("aid_py")
    except ImportError as exc:
        cause = f"{type(exc).__name__}: {exc}"
    else:
        if callable(getattr(module, "discover", None)) and isinstance(getattr(module, "AidError", None), type):
            return module
        cause = f"the module aid_py found at {getattr(module, '__file__', '?')} has no discover() and AidError"
    raise MissingLibrary(f"the aid_py adapter drives the {DISTRIBUTION} package (import name aid_py), which is "
                         f"not importable here ({cause}); install it with: pip install 'adck[{EXTRA}]'")


def _version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def protocols(lib: ModuleType) -> list[str]:
    """The proto tokens aid_py knows that it accepts in a record with an https:// uri."""
    constants = importlib.import_module(f"{lib.__name__}.constants")
    spoken = []
    for token in constants.PROTOCOL_TOKENS:
        try:
            lib.parse(f"v=aid1;uri=https://agent.example/;proto={token}")
        except lib.AidError:
            continue
        spoken.append(token)
    return spoken


def hello() -> dict:
    """The adapter's hello: who the client is and what it claims."""
    lib = library()
    return {"type": "hello", "protocol": PROTOCOL,
            "client": {"name": CLIENT_NAME, "version": _version(), "language": "python", "homepage": HOMEPAGE},
            "operations": ["aid.discover"],
            "features": [],  # no manifests (aid.manifest), no local execution (aid.local)
            "protocols": protocols(lib),
            # aid_py sends its own queries, through dnspython's module-level resolver, which the
            # adapter points at the step's nameservers (the report's DNS evidence says so)
            "dns": {"asked_by": "client", "adapter": ADAPTER,
                    "how": "the adapter sets dnspython's dns.resolver.default_resolver, which aid_py uses, "
                           "to a resolver asking only the step's nameservers"}}


def resolver_for(network: dict) -> dns.resolver.Resolver:
    """A fresh resolver asking exactly the step's nameservers (the system's when none are given)."""
    servers = [DnsConfig.parse_nameserver(s) for s in network.get("nameservers") or []]
    if not servers:
        return dns.resolver.Resolver()
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers = [dns.nameserver.Do53Nameserver(host, port) for host, port in servers]
    resolver.timeout, resolver.lifetime = TRY_TIMEOUT, LIFETIME
    return resolver


def lookup(domain: str, network: dict) -> tuple[dict, int]:
    """``aid_py.discover(domain)`` against the step's nameservers (the resolver is put back after)."""
    lib = library()
    resolver = resolver_for(network)
    with _SWAP:
        previous = dns.resolver.default_resolver
        dns.resolver.default_resolver = resolver
        try:
            return lib.discover(domain, well_known_fallback=False, timeout=LIFETIME)
        finally:
            dns.resolver.default_resolver = previous


def _reply(step_id: str, outcome: str, *, error_kind: str | None = None, messages: list[str] | None = None,
           connect: dict | None = None) -> dict:
    reply: dict[str, Any] = {"type": "result", "id": step_id, "outcome": outcome, "error_kind": error_kind,
                             "prompts": [], "warnings": [], "messages": list(messages or [])}
    if connect is not None:
        reply["connect"] = connect
    return reply


def run_step(message: dict) -> dict:
    """One ``aid.discover`` step: what aid_py finds for the domain, as a harness reply."""
    step_id, params = message["id"], message["params"]
    lib = library()
    try:
        found, ttl = lookup(params["domain"], params.get("network") or {})
        proto = str(found.get("proto") or "")
        first = next((p.strip() for p in proto.split(",") if p.strip()), None)
        connect = {"uri": str(found["uri"]), "protocol": first, "implementation": None, "headers": {}, "query": {}}
        shown = {k: v for k, v in found.items() if isinstance(v, (str, int, bool))}
        return _reply(step_id, "connect", connect=connect,
                      messages=[f"aid_py.discover returned {json.dumps(shown, sort_keys=True)} (ttl {ttl})"])
    except lib.AidError as exc:
        code = str(getattr(exc, "error_code", "") or "AidError")
        return _reply(step_id, "none" if code in NO_RECORD else "error", error_kind=code, messages=[str(exc)])
    except Exception as exc:  # noqa: BLE001 - the library broke; the adapter says so
        return _reply(step_id, "error", error_kind="unhandled", messages=[f"{type(exc).__name__}: {exc}"])


def discover(message: dict) -> dict | None:
    """The harness message handler: ``--target python:conformance.adapters.aid_py:discover``."""
    kind = message.get("type")
    if kind == "hello":
        return hello()
    if kind == "stop":
        return None  # stop has no reply; aid_py keeps no state to drop
    return run_step(message)


def main(argv: list[str] | None = None) -> int:
    """JSON lines on stdin, JSON lines on stdout, until ``stop`` or end of input."""
    parser = argparse.ArgumentParser(prog="python -m conformance.adapters.aid_py",
                                     description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    try:
        library()
    except MissingLibrary as exc:
        print(f"adck: {exc}", file=sys.stderr)
        return 2
    return serve_lines(discover)


if __name__ == "__main__":
    sys.exit(main())
