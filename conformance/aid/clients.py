"""The client role of AID: scenarios a client under test discovers, and the driver that asks it.

A scenario is a domain of its own (``simple-profile-3.adck.test``): its ``_agent`` TXT record
in a zone on the session's mock DNS server, and (for the Extended Profile) its manifest and
revocation endpoint on the session's mock HTTPS world, under the same name. The client gets
one ``aid.discover`` step per visit, with the nameserver and the CA to use, and says what it
would do: connect (where, how), execute (which argv), or nothing (none, error, declined).
The kit judges from that reply, the DNS queries and the HTTP requests the client sent.

Manifests are written in the tests themselves (:func:`manifest`, :func:`remote`,
:func:`local`), so each test shows in a few lines what its scenario serves. ``{host}`` in a
manifest or route stands for the scenario's own name.
"""

from __future__ import annotations

import copy
import itertools
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

import dns.name
import dns.rdataclass
import dns.rdatatype
from dns.rdtypes.ANY.TXT import TXT

from conformance.harness.adapters import Step
from conformance.harness.driver import ClientDriver
from conformance.outcomes import untestable, violation
from conformance.world.dns import MockDNS, QueryLog
from conformance.world.scenarios import Recorded, Scenario, ScenarioWorld
from conformance.world.site import Route, Site

#: The clients' clock starts here; steps move it forward (no test sleeps for real time).
T0 = datetime(2025, 7, 1, 12, 0, tzinfo=timezone.utc)
MANIFEST_PATH = "/.well-known/aid.json"
STATUS_PATH = "/agent/status"
JSON = {"Content-Type": "application/json"}


# ---------------------------------------------------------------- manifests, written in tests

def remote(name: str = "Cloud", uri: str = "https://api.{host}/mcp", **extra: Any) -> dict:
    """A remote implementation without authentication (``extra`` adds or replaces members)."""
    impl = {"name": name, "type": "remote", "protocol": "mcp", "uri": uri,
            "authentication": {"scheme": "none"}}
    impl.update(extra)
    return impl


def local(args: list[str], name: str = "Local", command: str = "docker", **extra: Any) -> dict:
    """A local implementation running ``command args`` (``extra`` adds or replaces members)."""
    impl = {"name": name, "type": "local", "protocol": "mcp",
            "package": {"manager": "docker", "identifier": "example/agent:1.0"},
            "authentication": {"scheme": "none"},
            "execution": {"command": command, "args": list(args)}}
    impl.update(extra)
    return impl


def manifest(*implementations: dict, schema_version: Any = "1", content_version: str = "2025-07-01.1",
             **metadata: Any) -> dict:
    """An aid.json manifest holding ``implementations`` (``metadata`` adds metadata members)."""
    doc: dict[str, Any] = {"schemaVersion": schema_version, "name": "Scenario Agent",
                           "metadata": {"contentVersion": content_version, **metadata},
                           "implementations": [copy.deepcopy(i) for i in implementations]}
    if schema_version is None:
        del doc["schemaVersion"]
    return doc


def record(*, uri: str | None = "https://api.{host}/mcp", proto: str | None = "mcp", config: bool | str = False,
           extra: str = "") -> str:
    """The text of an _agent record: v=aid1, uri, proto, and config when asked for."""
    pairs = ["v=aid1"]
    if uri is not None:
        pairs.append(f"uri={uri}")
    if proto is not None:
        pairs.append(f"proto={proto}")
    if config:
        pairs.append("config=" + (config if isinstance(config, str) else "https://{host}" + MANIFEST_PATH))
    return ";".join(pairs) + (";" + extra if extra else "")


# ---------------------------------------------------------------- scenarios

@dataclass
class AidScenario:
    """One domain for one client check: its DNS zone and its HTTPS site."""

    name: str
    #: What the user enters (non-ASCII for the IDNA check); the zone is at its A-label form.
    domain: str
    zone_name: str
    web: Scenario
    dns: MockDNS
    anchors: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    _first_query: int = 0

    @property
    def host(self) -> str:
        return self.web.host

    def url(self, path: str) -> str:
        return f"https://{self.host}{path}"

    def network(self) -> dict:
        network = self.web.network()
        network["nameservers"] = [f"127.0.0.1:{self.dns.port}"]
        if self.anchors:
            network["dnssec_anchors"] = list(self.anchors)
        return network

    def requests(self, path: str | None = None) -> list[Recorded]:
        """The HTTP requests the client sent to this scenario's name (to one path, or all)."""
        return [r for r in self.web.requests() if path is None or r.path == path]

    def queries(self) -> list[QueryLog]:
        """The DNS queries the client sent for names in this scenario's zone."""
        zone = dns.name.from_text(self.zone_name)
        return [q for q in self.dns.log[self._first_query:]
                if dns.name.from_text(q.name).is_subdomain(zone)]

    def publish(self, strings: list[bytes], ttl: int = 300) -> None:
        """Publish (again) the _agent TXT record as exactly these character-strings (cut
        positions that depend on the scenario's host name, known only once it exists)."""
        rdata = TXT(dns.rdataclass.IN, dns.rdatatype.TXT, list(strings))
        self.dns.add_zone(self.zone_name, f"_agent {ttl} IN TXT {rdata.to_text()}\n")

    def change(self, *, manifest: dict | None = None, routes: list[dict] | None = None) -> None:
        """The provider changes its site between two steps (a new manifest, other answers)."""
        patch = [{"op": "replace", "path": "", "value": manifest}] if manifest is not None else None
        self.web.world.change(self.web, patch=patch, routes=routes)

    def evidence(self) -> list:
        """What a report shows: the client's DNS queries and requests, and each step with its reply."""
        return list(self.queries()) + [r.exchange() for r in self.web.requests()] + list(self.steps)


class AidScenarios:
    """The scenarios one test sets up."""

    _labels = itertools.count(1)

    def __init__(self, world: ScenarioWorld, server: MockDNS) -> None:
        self.world, self.dns = world, server
        self.created: list[AidScenario] = []

    def new(self, name: str, txt: str | list[str] | None, *, manifest: dict | None = None,
            routes: list[dict] | None = None, listener: str = "https", ttl: int = 300,
            zone: str = "", sign: bool = False, bogus: bool = False, expired: bool = False,
            unicode_label: str | None = None, unicode_parent: bool = False,
            fault: str | None = None) -> AidScenario:
        """A scenario publishing ``txt`` (one string, or a list of character-strings; None: no
        TXT record at all) at ``_agent.<domain>``, and serving ``manifest`` at
        /.well-known/aid.json with ``Cache-Control: no-store`` (``routes`` change or add
        answers: the revocation endpoint answers {"status":"valid"} unless changed).

        ``zone`` adds zone-file lines (relative names), ``sign`` signs the zone (its trust
        anchor goes to the client), ``bogus`` breaks the TXT record's signature, ``fault``
        makes the _agent name fail (servfail, drop). A signed zone's signatures are valid at
        every clock a step passes (from a day before T0) and at the wall clock (30 days on);
        ``expired`` signs it with signatures that expired the day before T0 (a replayed answer).
        With ``unicode_label`` the domain the user enters has that first label (non-ASCII; with
        ``unicode_parent``, the label after an ASCII first label ``shop``) and the zone is at
        its A-label form."""
        base = [Route(MANIFEST_PATH, body="document", headers=tuple({**JSON, "Cache-Control": "no-store"}.items())),
                Route(STATUS_PATH, body="text", text='{"status":"valid"}', headers=tuple(JSON.items()))]
        site = Site(hostname="", document=manifest if manifest is not None else {}, routes=tuple(base))
        web = self.world.add(name, site, routes=routes, listener=listener)  # type: ignore[arg-type]
        host = web.host
        domain = zone_name = host
        if unicode_label is not None:
            domain = f"{'shop.' if unicode_parent else ''}{unicode_label}-{next(self._labels)}.{host}"
            zone_name = dns.name.from_text(domain, idna_codec=dns.name.IDNA_2008).to_text().rstrip(".")
        records = zone.replace("{host}", host)
        if txt is not None:
            strings = [txt] if isinstance(txt, str) else list(txt)
            rdata = TXT(dns.rdataclass.IN, dns.rdatatype.TXT, [s.replace("{host}", host).encode() for s in strings])
            records = f"_agent {ttl} IN TXT {rdata.to_text()}\n" + records
        now = datetime.now(timezone.utc)
        valid = ((T0 - timedelta(days=30), T0 - timedelta(days=1)) if expired
                 else (T0 - timedelta(days=1), max(now, T0) + timedelta(days=30)))
        entry = self.dns.add_zone(zone_name, records, sign=sign or bogus or expired, valid=valid)
        if bogus:
            self.dns.tamper(zone_name, "_agent")
        if fault:
            self.dns.fault(f"_agent.{zone_name}", fault)  # type: ignore[arg-type]
        anchors = [entry.keys.ds.to_text()] if entry.keys and (sign or bogus or expired) else []
        scenario = AidScenario(name=name, domain=domain, zone_name=zone_name, web=web, dns=self.dns,
                               anchors=anchors, _first_query=len(self.dns.log))
        self.created.append(scenario)
        return scenario

    def local_only(self, name: str, impl: dict) -> AidScenario:
        """A scenario whose record holds only config, and whose manifest holds only ``impl``."""
        return self.new(name, record(uri=None, proto=None, config=True), manifest=manifest(impl))

    def evidence(self) -> list:
        return [e for s in self.created for e in s.evidence()]


# ---------------------------------------------------------------- the driver

class AidClient(ClientDriver):
    """Drives the AID client under test through its adapter, one step at a time."""

    @property
    def features(self) -> tuple[str, ...]:
        return self.adapter.features

    def session(self, scenario: AidScenario) -> str:
        """A session id for several steps against one scenario (the client keeps its state)."""
        return f"{self.run_id}-{scenario.host}"

    def discover(self, scenario: AidScenario, *, at: timedelta = timedelta(0), session: str | None = None,
                 user: dict | None = None, platform: str | None = None, domain: str | None = None,
                 policy: dict | None = None, protocol: str | None = None) -> dict:
        """One discovery; ``policy`` sets the client's knobs (AID v1.2 3.2, v2.1 3.3: pka, dnssec,
        well-known, downgrade, domain-binding, or ``mode`` balanced/strict); ``protocol`` is the
        agent protocol the application explicitly requests (v1.2 2.4, 2.5: ``mcp``, ...)."""
        __tracebackhide__ = True
        params: dict[str, Any] = {"domain": domain or scenario.domain}
        if user is not None:
            params["user"] = user
        if platform is not None:
            params["platform"] = platform
        if policy is not None:
            params["policy"] = policy
        if protocol is not None:
            params["protocol"] = protocol
        return self.step("aid.discover", params, now=T0 + at, network=scenario.network(), world=scenario.web.world,
                         record=scenario.steps, session=session)


# ---------------------------------------------------------------- prerequisites many tests share

def plain_record_works(client: AidClient, scenarios: AidScenarios) -> None:
    """*Untestable* unless the client connects to the uri of a plain one-string Simple Profile
    record: a test comparing another record with it would judge an earlier step."""
    __tracebackhide__ = True
    scenario = scenarios.new("plain-record", record())
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://api.{scenario.host}/mcp":
        untestable(f"with the plain record {record()!r} {said(reply)}, not a connection to its uri (see AID-2.3-02)")


def manifest_works(client: AidClient, scenarios: AidScenarios) -> None:
    """*Untestable* unless the client uses a plain Extended Profile record's manifest."""
    __tracebackhide__ = True
    scenario = scenarios.new("plain-manifest", record(config=True),
                             manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")))
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://cloud.{scenario.host}/agent":
        untestable(f"with a plain record holding config, whose manifest's only implementation is at "
                   f"https://cloud.{scenario.host}/agent, {said(reply)} (see AID-2.3-08)")


def untrusted_manifest(client: AidClient, scenarios: AidScenarios, listener: str, what: str) -> None:
    """The manifest served by a server whose certificate fails validation (``listener``): the
    client must send it no request and use nothing from it."""
    __tracebackhide__ = True
    manifest_works(client, scenarios)
    scenario = scenarios.new(f"manifest-{listener}", record(config=True), listener=listener,
                             manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")))
    reply = client.discover(scenario)
    sent = scenario.requests()
    if sent:
        violation(f"{scenario.host} presents {what}, and the client completed the TLS handshake and sent "
                  f"{sent[0].method} {sent[0].path}; {said(reply)}")
    if connected_to(reply) == f"https://cloud.{scenario.host}/agent":
        violation(f"{scenario.host} presents {what}, and the client used its manifest: {said(reply)}")


def run_local(client: AidClient, scenario: AidScenario, user: dict | None = None) -> tuple[dict, list[str]]:
    """The reply, and the argv the client would run (untestable when it runs nothing: AID-2.3-17)."""
    __tracebackhide__ = True
    reply = client.discover(scenario, user=user)
    found_record(reply)
    return reply, argv(reply, "AID-2.3-17")


# ---------------------------------------------------------------- reading replies

def said(reply: dict) -> str:
    """A client's reply in a few words, for failure messages."""
    kind = reply.get("error_kind")
    text = f"the client answered {reply.get('outcome')!r}" + (f" ({kind})" if kind else "")
    if reply.get("outcome") == "connect":
        text += f", connecting to {reply['connect'].get('uri')!r}"
    if reply.get("outcome") == "execute":
        text += f", running {json.dumps(reply['execute'].get('argv'))}"
    return text


def found_record(reply: dict) -> None:
    """*Untestable* when the client found no AID record where the scenario publishes one:
    a later step cannot be judged (the lookup itself is AID-2.3-02)."""
    __tracebackhide__ = True
    if reply.get("outcome") == "none":
        untestable(f"{said(reply)} where the scenario publishes a valid record (see AID-2.3-02)")


def fetched_manifest(scenario: AidScenario, reply: dict) -> None:
    """*Untestable* when the client never asked for the scenario's manifest (whatever it
    answered: having fetched the manifest, it found the record)."""
    __tracebackhide__ = True
    if not scenario.requests(MANIFEST_PATH):
        untestable(f"the record holds config={scenario.url(MANIFEST_PATH)} and the client never fetched it; "
                   f"{said(reply)} (see AID-2.3-08)")


def attention(reply: dict) -> tuple[list[str], list[str]]:
    """The warnings, and the texts of the confirmation prompts, the client showed the user."""
    confirms = [str(p.get("text")) for p in reply.get("prompts") or [] if isinstance(p, dict) and p.get("kind") == "confirm"]
    return list(reply.get("warnings") or []), confirms


def ends_with(run: list[str], expected: list[str]) -> bool:
    """``run`` ends with ``expected`` (a wrapper before the command is judged elsewhere: AID-4.1-07)."""
    return len(run) >= len(expected) and run[len(run) - len(expected):] == expected


def connected_to(reply: dict) -> str | None:
    """The URI the client would connect to, or None."""
    return reply["connect"].get("uri") if reply.get("outcome") == "connect" else None


def argv(reply: dict, prerequisite: str) -> list[str]:
    """The argv the client would run, or *untestable* naming the prerequisite clause."""
    __tracebackhide__ = True
    if reply.get("outcome") != "execute":
        untestable(f"{said(reply)}, not a command to run, where a conforming client would run one (see {prerequisite})")
    return list(reply["execute"]["argv"])


def connection(reply: dict, prerequisite: str) -> dict:
    """The connection the client would open, or *untestable* naming the prerequisite clause."""
    __tracebackhide__ = True
    if reply.get("outcome") != "connect":
        untestable(f"{said(reply)}, not a connection, where a conforming client would connect (see {prerequisite})")
    return reply["connect"]


def prompts(reply: dict, kind: str | None = None, key: str | None = None) -> list[dict]:
    """The client's prompts (of one kind, for one key); untestable when the adapter reports none."""
    __tracebackhide__ = True
    if "prompts" not in reply:
        untestable("the adapter does not report the client's prompts (reply member prompts)")
    return [p for p in reply["prompts"] if (kind is None or p.get("kind") == kind)
            and (key is None or p.get("key") == key)]


def asked_for(reply: dict, key: str, kind: str = "config", clause: str = "AID-2.3-16", *,
              what: str | None = None, reported: bool = False) -> None:
    """*Untestable* when no prompt of ``kind`` asked for ``key``: a value the client never
    asked for says nothing of how it substitutes one (asking is ``clause``). A reply without
    prompts is judged on the rest, unless ``reported`` requires the prompts."""
    __tracebackhide__ = True
    if "prompts" not in reply and not reported:
        return
    if not prompts(reply, kind, key):
        untestable(f"the client never asked the user for the {what or kind + ' value'} {key!r} (no {kind} prompt "
                   f"for it), so no value of the user's can be substituted (see {clause})")


def warned(reply: dict) -> bool:
    """The client warned the user (a warning, or an error it reported)."""
    return bool(reply.get("warnings")) or (reply.get("outcome") == "error" and bool(reply.get("messages")))


# ---------------------------------------------------------------- AID v1.2 and v2.1 (short keys, codes, PKA)

#: Table 1 of v1.2 and v2.1: the error codes, by name, and their numeric constants (Appendix C of v1.2).
ERROR_CODES = {"ERR_NO_RECORD": 1000, "ERR_INVALID_TXT": 1001, "ERR_UNSUPPORTED_PROTO": 1002,
               "ERR_SECURITY": 1003, "ERR_DNS_LOOKUP_FAILED": 1004, "ERR_FALLBACK_FAILED": 1005}


def error_code(reply: dict) -> str | None:
    """The Table 1 code a client reported (its ``error_kind``), by name: a client may give the
    name (``ERR_INVALID_TXT``) or the number (1001, "1001"); None for anything else."""
    kind = reply.get("error_kind")
    if kind is None:
        return None
    text = str(kind).strip()
    by_number = {str(n): name for name, n in ERROR_CODES.items()}
    return text.upper() if text.upper() in ERROR_CODES else by_number.get(text)


def txt(version: str = "aid2", *, u: str | None = "https://{host}/mcp", p: str | None = "mcp", **more: str) -> str:
    """An AID record in the short-key form (``v``, ``u``, ``p``, then ``more`` in order)."""
    pairs = [f"v={version}"] + ([f"u={u}"] if u is not None else []) + ([f"p={p}"] if p is not None else [])
    return ";".join(pairs + [f"{k}={v}" for k, v in more.items()])


#: A published test key (never a secret): the seed of the Ed25519 key the scenario endpoints sign with.
SCENARIO_SEED = "Zo2e0nKuKE2V0JrhOLOYg1xbnHlbyk0cQB14ZRyHBEI"


def scenario_key(version: str = "aid2", seed: str = SCENARIO_SEED) -> str:
    """The record's ``k`` for the scenario key: unpadded base64url (aid2) or base58btc multibase (aid1)."""
    import base64

    from conformance.aid import pka
    raw = base64.urlsafe_b64decode(seed + "=" * (-len(seed) % 4))
    return pka.encode_key(pka.public_bytes(raw), version)


def pka_route(version: str = "aid2", *, path: str = "/mcp", breaks: tuple[str, ...] = (), kid: str | None = None,
              serves: list[str] | None = None, seed: str = SCENARIO_SEED, status: int = 200, **changes: Any) -> dict:
    """A route proving possession of the scenario key (handler ``aid.pka``,
    conformance.aid.reference_server.prove); ``breaks`` names the rules its proof violates
    (conformance.aid.pka.BREAKS); ``serves``: the domains whose AID-Domain it signs (default: the
    scenario's own host); ``changes``: the handler's other options (offset, window, alg, nonce,
    order, sign_domain, claim_domain, unbound), for proofs the named breaks do not reach."""
    options: dict[str, Any] = {"seed": seed, "version": version, "breaks": list(breaks), "status": status,
                               "serves": serves if serves is not None else ["{host}"], **changes}
    if kid is not None:
        options["kid"] = kid
    return {"path": path, "handler": "aid.pka", "options": options}
