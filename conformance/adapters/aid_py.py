"""aid-discovery (import name ``aid_py``), the AID client library on PyPI, behind the harness protocol.

In-process:    adck run aid@v1 --role client --target python:conformance.adapters.aid_py:discover
               adck run aid@v2.1 --role client --target python:conformance.adapters.aid_py:discover_v2_1_fallback
As a process:  adck run aid@v1 --role client --target "cmd:python -m conformance.adapters.aid_py"
               adck run aid@v1.2 --role client --target "cmd:python -m conformance.adapters.aid_py --revision v1.2 [--fallback]"
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

Later revisions (AID v1.2, v2.1). The kit does not tell an adapter which revision it judges, so
the adapter is told (``--revision v1.2`` / ``v2.1`` as a process; in-process the handlers
:data:`discover_v1_2`, :data:`discover_v2_1` and their ``_fallback`` forms; :func:`make_handler`).
Under them:

- the hello claims ``aid.v1.2`` and ``aid.v2.1`` (aid_py reads aid1 records with their short keys
  and aid2 records, and prefers aid2), ``aid.pka`` (aid_py runs the endpoint proof itself inside
  ``discover()`` whenever a record holds ``pka``/``k``: v1.2's aid1 handshake with ``kid``, v2.1's
  aid2 one with ``AID-Domain``) and, only with the fallback on, ``aid.well-known``. Never
  ``aid.policy`` (aid_py has no policy knobs), ``aid.local`` or ``aid.manifest``. Its
  ``protocols`` are the tokens aid_py accepts at a uri of their own kind (``zeroconf:``, ``wss://``)
  as well as at ``https://``; ``local`` is left out (the adapter runs nothing);
- the ``.well-known`` fallback is a MAY of both texts: off unless the run asks for it
  (``--fallback``, the ``_fallback`` handlers). aid_py's own default is on;
- aid_py's HTTPS (the PKA handshake, the fallback: ``urllib`` with default contexts) reaches the
  scenario hosts through the step's ``network.connect_to`` and trusts exactly its ``ca_file``:
  during the step, and for the thread running it only, ``socket.create_connection`` maps
  ``HOST:PORT`` as ``connect_to`` says (SNI, Host and the certificate check keep the original
  name) and refuses any other host that is not loopback, and ``ssl._create_default_https_context``
  gives a context trusting only ``ca_file``. No real network is reached;
- a reply's ``connect.record`` holds what aid_py returns: ``version`` (its ``v``),
  ``trust_source`` (``dns``, or ``well-known-tls`` when the DNS lookup before it failed: aid_py
  falls back only then, and does not return the source itself; see :func:`lookup`),
  ``pka`` (``performed``/``verified``: aid_py raises ERR_SECURITY on a failed proof, so a returned
  record with a key was verified; ``domain_bound``: aid_py's own ``domain_bound``) and the
  optional keys ``auth``, ``desc``, ``docs``, ``dep``;
- only ``ERR_NO_RECORD`` is ``none`` (v1.2 and v2.1 give each failure its code: ERR_INVALID_TXT is
  an error there, as in the kit's reference client); error codes pass unchanged.

Under v1 (``discover``, no option) only the network scope applies (a record holding ``pka`` would
start aid_py's handshake): v1 has no fallback, no PKA, no short keys, and the hello claims no feature.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import ipaddress
import json
import socket
import ssl
import sys
import threading
from importlib import metadata
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import dns.nameserver
import dns.resolver

from conformance.dns import DnsConfig
from conformance.fetch import ConnectTo
from conformance.harness import PROTOCOL, serve_lines

DISTRIBUTION = "aid-discovery"
EXTRA = "aid-py"
CLIENT_NAME = "aid-discovery (aid_py)"
#: The adapter's name in the report's DNS evidence (it redirects the library's resolver).
ADAPTER = "conformance.adapters.aid_py"
HOMEPAGE = "https://github.com/agentcommunity/agent-identity-discovery"
#: aid_py error codes meaning "this domain has no usable AID record" (outcome none).
NO_RECORD = frozenset({"ERR_NO_RECORD", "ERR_INVALID_TXT"})
#: Under v1.2 and v2.1 every failure has its code; only a missing record is "none".
NO_RECORD_LATER = frozenset({"ERR_NO_RECORD"})
#: The revisions the adapter can be told about.
REVISIONS = ("v1", "v1.2", "v2.1")
#: Uris of their own kind, per token aid_py ties to one (v1.2 Appendix B, v2.1 7.2).
OWN_URIS = ("zeroconf:_mcp._tcp", "wss://agent.example/", "docker:agent/image")
#: Tokens the adapter never claims: it runs no local agent.
NEVER_CLAIMED = frozenset({"local"})
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


def protocols(lib: ModuleType, revision: str = "v1") -> list[str]:
    """The proto tokens aid_py knows that it accepts in a record with an https:// uri (v1), or
    at an https:// uri or one of their own kind (later revisions), less :data:`NEVER_CLAIMED`."""
    constants = importlib.import_module(f"{lib.__name__}.constants")
    uris = ("https://agent.example/",) + (OWN_URIS if revision != "v1" else ())
    spoken = []
    for token in constants.PROTOCOL_TOKENS:
        if revision != "v1" and token in NEVER_CLAIMED:
            continue
        for uri in uris:
            try:
                lib.parse(f"v=aid1;uri={uri};proto={token}")
            except lib.AidError:
                continue
            spoken.append(token)
            break
    return spoken


@dataclass(frozen=True)
class Options:
    """What the adapter is told: the revision judged, and whether aid_py may fall back to
    ``/.well-known/agent`` (never under v1)."""

    revision: str = "v1"
    fallback: bool = False

    def __post_init__(self) -> None:
        if self.revision not in REVISIONS:
            raise ValueError(f"revision {self.revision!r}: expected one of {', '.join(REVISIONS)}")
        if self.revision == "v1" and self.fallback:
            raise ValueError("AID v1 has no .well-known fallback: --fallback needs --revision v1.2 or v2.1")

    @property
    def later(self) -> bool:
        return self.revision != "v1"

    def features(self) -> list[str]:
        if not self.later:
            return []  # no manifests (aid.manifest), no local execution (aid.local); v1 has no PKA
        return ["aid.v1.2", "aid.v2.1", "aid.pka", *(["aid.well-known"] if self.fallback else [])]

    def description(self) -> str:
        """What the adapter changes around aid_py, in one paragraph (the hello's description)."""
        parts = [f"judged as AID {self.revision}",
                 "DNS: dnspython's default_resolver set to the step's nameservers",
                 f".well-known fallback {'on' if self.fallback else 'off'} (aid_py's default: on"
                 + ("; v1 has none)" if not self.later else ")")]
        parts.append("HTTPS (PKA, fallback): socket.create_connection mapped per connect_to for the step's "
                     "thread, other non-loopback hosts refused; ssl default context trusting exactly ca_file")
        return "; ".join(parts)


def hello(options: Options = Options()) -> dict:
    """The adapter's hello: who the client is and what it claims."""
    lib = library()
    return {"type": "hello", "protocol": PROTOCOL,
            "client": {"name": CLIENT_NAME, "version": _version(), "language": "python", "homepage": HOMEPAGE},
            "operations": ["aid.discover"],
            "features": options.features(),
            "protocols": protocols(lib, options.revision),
            # aid_py sends its own queries, through dnspython's module-level resolver, which the
            # adapter points at the step's nameservers (the report's DNS evidence says so)
            "dns": {"asked_by": "client", "adapter": ADAPTER,
                    "how": "the adapter sets dnspython's dns.resolver.default_resolver, which aid_py uses, "
                           "to a resolver asking only the step's nameservers"},
            # what the adapter switched (the hello's optional description, never judged)
            "description": options.description()}


class StepResolver(dns.resolver.Resolver):
    """dnspython's resolver, remembering whether each lookup failed (``failures``): aid_py does
    not say where a record came from, and it falls back only after a failed lookup."""

    failures: list[str]

    def resolve(self, *args, **kwargs):  # type: ignore[override]
        try:
            return super().resolve(*args, **kwargs)
        except Exception as exc:
            self.failures.append(type(exc).__name__)
            raise


def resolver_for(network: dict) -> dns.resolver.Resolver:
    """A fresh resolver asking exactly the step's nameservers (the system's when none are given)."""
    servers = [DnsConfig.parse_nameserver(s) for s in network.get("nameservers") or []]
    if not servers:
        resolver = StepResolver()
        resolver.failures = []
        return resolver
    resolver = StepResolver(configure=False)
    resolver.failures = []
    resolver.nameservers = [dns.nameserver.Do53Nameserver(host, port) for host, port in servers]
    resolver.timeout, resolver.lifetime = TRY_TIMEOUT, LIFETIME
    return resolver


def _loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Refused(OSError):
    """A connection the adapter does not let aid_py open (off loopback, not in connect_to)."""


@contextlib.contextmanager
def scoped_network(network: dict, log: list[str]):
    """For the calling thread, while the block runs: TCP connections go where the step's
    ``connect_to`` maps them (others to a host that is not loopback are refused), and the
    default HTTPS context trusts exactly ``ca_file``. Other threads are untouched. Call with
    :data:`_SWAP` held (the patched names are module globals)."""
    mappings = [ConnectTo.parse(c) for c in network.get("connect_to") or []]
    ca_file = network.get("ca_file")
    thread = threading.get_ident()
    real_connect, real_context = socket.create_connection, ssl._create_default_https_context

    def create_connection(address, *args, **kwargs):
        if threading.get_ident() != thread:
            return real_connect(address, *args, **kwargs)
        host, port = address[0], int(address[1])
        target = next((m.maps(host, port) for m in mappings if m.maps(host, port)), None)
        if target is None:
            if not _loopback(host):
                log.append(f"refused a connection to {host}:{port} (not in connect_to, not loopback)")
                raise Refused(f"adck aid_py adapter: no connection to {host}:{port} outside the kit's world")
            target = (host, port)
        log.append(f"connect {host}:{port} -> {target[0]}:{target[1]}")
        return real_connect(target, *args, **kwargs)

    def https_context(*args, **kwargs):
        if threading.get_ident() != thread or not ca_file:
            return real_context(*args, **kwargs)
        return ssl.create_default_context(cafile=ca_file)  # exactly ca_file: no system roots

    socket.create_connection, ssl._create_default_https_context = create_connection, https_context
    try:
        yield
    finally:
        socket.create_connection, ssl._create_default_https_context = real_connect, real_context


def lookup(domain: str, network: dict, options: Options = Options(),
           log: list[str] | None = None, protocol: str | None = None) -> tuple[dict, int, str]:
    """``aid_py.discover(domain)`` against the step's nameservers (the resolver is put back
    after), with the step's ``protocol`` when it names one: ``(record, ttl, trust_source)``. aid_py does not say where a record came from; it
    asks DNS first and falls back only after that lookup failed (NXDOMAIN, no answer, a DNS
    error): a record returned after a failed lookup came from ``/.well-known/agent``."""
    lib = library()
    resolver = resolver_for(network)
    log = [] if log is None else log
    with _SWAP:
        previous = dns.resolver.default_resolver
        dns.resolver.default_resolver = resolver
        try:
            # under v1 too: a record holding pka would start aid_py's handshake, never off loopback
            with scoped_network(network, log):
                asked = {"protocol": protocol} if protocol is not None else {}
                found, ttl = lib.discover(domain, well_known_fallback=options.fallback, timeout=LIFETIME, **asked)
                failed = options.fallback and bool(getattr(resolver, "failures", None))
                return found, ttl, "well-known-tls" if failed else "dns"
        finally:
            dns.resolver.default_resolver = previous


def _reply(step_id: str, outcome: str, *, error_kind: str | None = None, messages: list[str] | None = None,
           connect: dict | None = None) -> dict:
    reply: dict[str, Any] = {"type": "result", "id": step_id, "outcome": outcome, "error_kind": error_kind,
                             "prompts": [], "warnings": [], "messages": list(messages or [])}
    if connect is not None:
        reply["connect"] = connect
    return reply


def record_of(found: dict, source: str) -> dict:
    """``connect.record``: what aid_py returned about the record (v1.2/v2.1 replies)."""
    keyed = bool(found.get("pka"))
    proof: dict[str, Any] = {"performed": keyed}
    if keyed:  # aid_py raises ERR_SECURITY when the proof fails: a returned keyed record was verified
        proof.update(verified=True, domain_bound=bool(found.get("domain_bound")))
    record: dict[str, Any] = {"version": found.get("v"), "trust_source": source, "pka": proof}
    record.update({k: found[k] for k in ("auth", "desc", "docs", "dep") if found.get(k) is not None})
    return record


def run_step(message: dict, options: Options = Options()) -> dict:
    """One ``aid.discover`` step: what aid_py finds for the domain, as a harness reply."""
    step_id, params = message["id"], message["params"]
    lib = library()
    log: list[str] = []
    network_lines = (lambda: [f"adapter network: {'; '.join(log)}"] if log else [])
    try:
        found, ttl, source = lookup(params["domain"], params.get("network") or {}, options, log,
                                   params.get("protocol"))
        proto = str(found.get("proto") or "")
        first = next((p.strip() for p in proto.split(",") if p.strip()), None)
        connect = {"uri": str(found["uri"]), "protocol": first, "implementation": None, "headers": {}, "query": {}}
        if options.later:
            connect["record"] = record_of(found, source)
        shown = {k: v for k, v in found.items() if isinstance(v, (str, int, bool))}
        return _reply(step_id, "connect", connect=connect,
                      messages=[f"aid_py.discover returned {json.dumps(shown, sort_keys=True)} (ttl {ttl})",
                                *network_lines()])
    except lib.AidError as exc:
        code = str(getattr(exc, "error_code", "") or "AidError")
        none = NO_RECORD_LATER if options.later else NO_RECORD
        return _reply(step_id, "none" if code in none else "error", error_kind=code,
                      messages=[str(exc), *network_lines()])
    except Exception as exc:  # noqa: BLE001 - the library broke; the adapter says so
        return _reply(step_id, "error", error_kind="unhandled",
                      messages=[f"{type(exc).__name__}: {exc}", *network_lines()])


def make_handler(revision: str = "v1", fallback: bool = False):
    """A harness message handler for aid_py judged as ``revision``, the fallback on or off."""
    options = Options(revision, fallback)

    def handle(message: dict) -> dict | None:
        kind = message.get("type")
        if kind == "hello":
            return hello(options)
        if kind == "stop":
            return None  # stop has no reply; aid_py keeps no state to drop
        return run_step(message, options)

    handle.options = options  # type: ignore[attr-defined]
    return handle


#: The harness message handler: ``--target python:conformance.adapters.aid_py:discover`` (AID v1).
discover = make_handler()
#: AID v1.2 and v2.1, the fallback off (``python:conformance.adapters.aid_py:discover_v2_1``) or on.
discover_v1_2 = make_handler("v1.2")
discover_v2_1 = make_handler("v2.1")
discover_v1_2_fallback = make_handler("v1.2", fallback=True)
discover_v2_1_fallback = make_handler("v2.1", fallback=True)


def main(argv: list[str] | None = None) -> int:
    """JSON lines on stdin, JSON lines on stdout, until ``stop`` or end of input."""
    parser = argparse.ArgumentParser(prog="python -m conformance.adapters.aid_py",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--revision", choices=REVISIONS, default="v1",
                        help="the AID revision the kit judges (the kit does not say): v1 (default), v1.2, v2.1")
    parser.add_argument("--fallback", action="store_true",
                        help="let aid_py fall back to https://<domain>/.well-known/agent (v1.2, v2.1 only)")
    args = parser.parse_args(argv)
    if args.fallback and args.revision == "v1":
        parser.error("AID v1 has no .well-known fallback: --fallback needs --revision v1.2 or v2.1")
    try:
        library()
    except MissingLibrary as exc:
        print(f"adck: {exc}", file=sys.stderr)
        return 2
    return serve_lines(make_handler(args.revision, args.fallback))


if __name__ == "__main__":
    sys.exit(main())
