"""A simulated internet for ``adck scan``: thousands of virtual hosts on loopback.

``simulated_internet(n)`` names ``n`` hosts (``d-1.adck.test`` ... as :class:`ScenarioWorld`
names them), serves them all from the one ``https`` listener of a :class:`ScenarioWorld`
(dispatched by Host header, one ``*.adck.test`` certificate of the mock CA) and publishes their
names in one zone ``adck.test`` of a :class:`MockDNS`: an ``A`` record per host (groups of hosts
share an address, so that a per-IP politeness limit can be tested) and, for AID publishers, the
``_agent`` TXT records. Nothing per host runs: a host is a :class:`Site` in a dictionary and a
few lines of a zone, so 5000 hosts start in a couple of seconds. Every connection goes to
127.0.0.1 through ``connect_to`` (curl's ``--connect-to``); nothing else is contacted.

What the hosts publish, per draft (``Host.kinds``) and what a scan of them should report
(``Host.expected``):

===================  ==================================================================  ============
kind                 served at the draft's well-known path (HTTP drafts)                  expected
===================  ==================================================================  ============
``none``             404 (no route); for aid: no ``_agent`` name (NXDOMAIN)               not-found
``reference``        the reference document of ``fixtures/<draft>/``; for aid the          found
                     reference provider's TXT records (their names rewritten to the host)
``broken:NAME``      a broken variant (``Reference(draft).variants()``); its status is    found, not-found
                     worked out from the variant's routes (a 200 JSON document: found;    or error
                     404/410: not-found; another 4xx/5xx, a redirect off the host or
                     more than 5 redirects: error); for aid, a variant whose records
                     still hold one starting ``v=aid``
``soft-404``         200 with an HTML "page not found"                                    soft-404
``redirect``         301 to ``/moved<path>`` on the same host, which serves the document   found
``slow``             the document after ``slow_delay`` seconds (default 3): for a scan     unreachable
                     whose timeout is shorter (no answer came in time)
``oversized``        the document padded past ``Limits.max_body_bytes`` (valid JSON): a    found
                     document, judged (its size clause fails)
``hostile``          one of (``Host.detail`` says which): ``control-characters`` (raw C0    found
                     and ANSI escapes in JSON strings: not JSON), ``deep-nesting``
                     (100 000 nested arrays: JSON no parser takes), ``gzip-bomb`` (16 KiB
                     of gzip that decodes to 16 MiB, sent whatever Accept-Encoding says):
                     a document, judged (it fails)
``unreachable``      the host resolves (A record) but its ``connect_to`` entry sends it    unreachable
                     to a loopback port that was bound and closed: connection refused
===================  ==================================================================  ============

The slow, oversized, hostile, soft-404 and redirect kinds are HTTP-only; aid publishers are
``reference`` or ``broken:NAME``. A publishing host publishes for one to four drafts (each
draft's routes side by side on one site: a route carries its own draft's document). An
unreachable host publishes nothing in DNS but its A record (aid: not-found).

Skipped, and why:

* variants that change the site itself (``site``: plain HTTP, another certificate name, TLS
  versions, authentication, rate limits, a WoA MCP server), declare something, need credentials,
  or whose well-known answer depends on the request (``accept_exactly``, ``refuse_when``,
  ``localized``, a delay, a handler, a method other than GET): one listener, one certificate,
  one answer per URL;
* variants whose well-known answer is a 200 that is neither JSON nor HTML (not JSON, a body in
  another charset, status 203): what a scan calls them is its own choice, not a fact to test;
* variants that change nothing a scan fetches (only the dynamic routes: WoA invocation, AIDRE
  search/chunks/collections, AID's PKA endpoint): every dynamic route (``handler``) is dropped,
  for all hosts, since a route's handler reads its site's one document;
* AID variants that change DNS beyond the records and TTL (DNSSEC: the zone is not signed,
  ``stale_ds``, faults, extra zone lines, other record types), or leave no record starting
  ``v=aid`` (none at all duplicates ``none``; a record without ``v=aid`` is no AID record, and
  whether it is "not-found" or "error" is the scan's choice).
"""

from __future__ import annotations

import gzip
import json
import random
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from functools import cache
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from conformance.fetch import Limits
from conformance.world import tls
from conformance.world.dns import MockDNS, QueryLog
from conformance.world.scenarios import DOMAIN, ScenarioWorld
from conformance.world.site import Mutant, Provider, Reference, Route, Site, mutate, mutate_provider

#: The HTTP drafts and the path a scan fetches for each.
WELL_KNOWN = {"aiendpoint": "/.well-known/ai", "woa": "/.well-known/woa.json", "aidre": "/.well-known/ai-discovery"}
#: Every draft a host has an ``expected`` status for.
DRAFTS = ("aid", *WELL_KNOWN)

#: The order kinds are handed out in, per draft (the first of each draft's publishers cover every
#: kind; later ones repeat the cycle, the reference and broken variants most often).
HTTP_CYCLE = ("reference", "broken", "soft-404", "redirect", "slow", "oversized", "hostile",
              "reference", "broken", "reference", "redirect", "broken", "hostile", "reference")
AID_CYCLE = ("reference", "broken", "reference", "broken", "broken")
HOSTILE = ("control-characters", "deep-nesting", "gzip-bomb")

SOFT_404 = ("<!DOCTYPE html>\n<html><head><title>Page not found</title></head>\n"
            "<body><h1>Sorry!</h1><p>We looked everywhere but could not find that page.</p></body></html>\n")
REDIRECTS = (301, 302, 303, 307, 308)
PLACEHOLDER = "{host}"  # ScenarioWorld.add writes the host's name in its place


@dataclass
class Host:
    """One virtual host: its name, what it publishes per draft, and what a scan should find."""

    domain: str
    #: draft -> "found" | "not-found" | "soft-404" | "unreachable" | "error"
    expected: dict[str, str]
    #: draft -> "reference", "broken:<variant>", "soft-404", "slow", "oversized", "redirect",
    #: "hostile", "unreachable" or "none"
    kinds: dict[str, str]
    #: The A record it publishes (hosts share addresses in groups).
    address: str
    #: draft -> more about a kind: the hostile flavour, the broken variant's summary.
    detail: dict[str, str] = field(default_factory=dict)

    @property
    def publishes(self) -> bool:
        return any(k not in ("none", "unreachable") for k in self.kinds.values())


@dataclass
class SimulatedInternet:
    hosts: list[Host]
    #: ``127.0.0.1:PORT`` of the MockDNS (UDP and TCP).
    nameserver: str
    #: ``--connect-to`` entries, in order (the first match wins): the unreachable hosts to a
    #: closed port, then every other name, any port, to the https listener.
    connect_to: tuple[str, ...]
    #: The mock CA the listener's certificate chains to.
    ca_bundle: Path
    world: ScenarioWorld
    dns: MockDNS
    #: Seconds a ``slow`` host waits before answering.
    slow_delay: float = 3.0

    def domains(self) -> list[str]:
        return [h.domain for h in self.hosts]

    def host(self, domain: str) -> Host:
        return next(h for h in self.hosts if h.domain == domain)

    @property
    def nameserver_address(self) -> tuple[str, int]:
        host, _, port = self.nameserver.rpartition(":")
        return host, int(port)

    def stop(self) -> None:
        try:
            self.world.stop()
        finally:
            self.dns.stop()


@contextmanager
def simulated_internet(n: int, *, seed: int = 0, publishing: float = 0.05, unreachable: float = 0.01,
                       slow_delay: float = 3.0, per_address: int = 8) -> Iterator[SimulatedInternet]:
    """``n`` hosts, a fraction ``publishing`` of them publishing for some draft and a fraction
    ``unreachable`` (at least one, of two hosts or more) refusing connections; ``per_address``
    hosts in a row share an A record. The same ``seed`` gives the same hosts."""
    internet = build(n, seed=seed, publishing=publishing, unreachable=unreachable,
                     slow_delay=slow_delay, per_address=per_address)
    try:
        yield internet
    finally:
        internet.stop()


def build(n: int, *, seed: int = 0, publishing: float = 0.05, unreachable: float = 0.01,
          slow_delay: float = 3.0, per_address: int = 8) -> SimulatedInternet:
    """A running simulated internet (stop it with ``.stop()``); see :func:`simulated_internet`."""
    rng = random.Random(seed)
    n_pub = min(n, max(1, round(n * publishing))) if publishing > 0 and n else 0
    n_down = min(n - n_pub, max(1, round(n * unreachable))) if unreachable > 0 and n >= 2 else 0
    chosen = rng.sample(range(n), n_pub + n_down)
    publishers, down = set(chosen[:n_pub]), set(chosen[n_pub:])
    plans = _plan(sorted(publishers), rng)

    closed = _closed_port()
    world = ScenarioWorld(keep_alive=True)
    dns = None
    try:
        hosts: list[Host] = []
        zone: list[str] = []
        for i in range(n):
            address = f"127.0.{(i // per_address) // 250}.{(i // per_address) % 250 + 1}"
            plan = plans.get(i, {})
            routes: list[dict] = []
            for draft, (kind, variant) in plan.items():
                if draft != "aid":
                    routes += _http_routes(draft, kind, variant, slow_delay)
                elif kind != "none":
                    provider = _aid_provider(variant)
                    routes += _site_routes(provider.site, provider.domain)
            scenario = world.add("d", Site(hostname="", document=None, routes=()), routes=routes)
            domain = scenario.host
            label = domain.removesuffix(f".{DOMAIN}")
            zone.append(f"{label} 300 IN A {address}\n")
            kinds, expected, detail = {}, {}, {}
            for draft in DRAFTS:
                kind, variant = plan.get(draft, ("none", None))
                if i in down and draft != "aid":
                    kind = "unreachable"
                kinds[draft] = f"broken:{variant}" if kind == "broken" else kind
                expected[draft] = _expected(draft, kind, variant)
                if kind == "hostile":
                    detail[draft] = variant
                elif kind == "broken":
                    detail[draft] = _variants(draft)[variant].summary
                if draft == "aid" and kind != "none":
                    zone.append(_agent_lines(_aid_provider(variant), label, domain))
            hosts.append(Host(domain=domain, expected=expected, kinds=kinds, address=address, detail=detail))
        dns = _ZoneOfManyNames()
        dns.add_zone(DOMAIN, "".join(zone))
    except BaseException:
        world.stop()
        if dns is not None:
            dns.stop()
        raise
    listener = world.port("https")
    connect_to = tuple(f"{h.domain}::127.0.0.1:{closed}" for i, h in enumerate(hosts) if i in down)
    return SimulatedInternet(hosts=hosts, nameserver=f"127.0.0.1:{dns.port}",
                             connect_to=connect_to + (f"::127.0.0.1:{listener}",), ca_bundle=tls.ca_bundle(),
                             world=world, dns=dns, slow_delay=slow_delay)


# ---------------------------------------------------------------------------- planning

def _plan(publishers: list[int], rng: random.Random) -> dict[int, dict[str, tuple[str, str | None]]]:
    """host index -> draft -> (kind, variant name or hostile flavour)."""
    turn = {d: 0 for d in DRAFTS}
    plans: dict[int, dict[str, tuple[str, str | None]]] = {}
    for i in publishers:
        count = rng.choices((1, 2, 3, 4), weights=(70, 18, 8, 4))[0]
        plan: dict[str, tuple[str, str | None]] = {}
        for draft in sorted(rng.sample(DRAFTS, count), key=DRAFTS.index):
            cycle = AID_CYCLE if draft == "aid" else HTTP_CYCLE
            kind = cycle[turn[draft] % len(cycle)]
            turn[draft] += 1
            variant = None
            if kind == "broken":
                pool = sorted(_aid_pool() if draft == "aid" else _http_pool(draft))
                variant = rng.choice(pool)
            elif kind == "hostile":
                variant = rng.choice(HOSTILE)
            plan[draft] = (kind, variant)
        plans[i] = plan
    return plans


def _expected(draft: str, kind: str, variant: str | None) -> str:
    if kind == "broken":
        return _aid_pool()[variant] if draft == "aid" else _http_pool(draft)[variant]
    return {"none": "not-found", "reference": "found", "redirect": "found", "soft-404": "soft-404",
            "slow": "unreachable", "oversized": "found", "hostile": "found", "unreachable": "unreachable"}[kind]


# ---------------------------------------------------------------------------- HTTP drafts

@cache
def _reference(draft: str) -> Site | Provider:
    """The draft's reference (read once: never changed in place)."""
    return Reference(draft).site()


@cache
def _variants(draft: str) -> dict[str, Mutant]:
    return Reference(draft).variants()


def _http_routes(draft: str, kind: str, variant: str | None, slow_delay: float) -> list[dict]:
    """The route changes (``mutate``'s form, the host's name as ``{host}``) that publish ``kind``."""
    reference: Site = _reference(draft)  # type: ignore[assignment]
    path = WELL_KNOWN[draft]
    if kind == "broken":
        return _site_routes(mutate(reference, _variants(draft)[variant]), reference.hostname)
    site = reference
    base = reference.route_for(path, "", "GET")
    assert base is not None
    if kind == "soft-404":
        page = Route(path=path, status=200, body="text", text=SOFT_404,
                     headers=(("Content-Type", "text/html; charset=utf-8"),))
        return [_route_dict(page)]
    if kind == "slow":
        site = replace(reference, routes=tuple(replace(r, delay=slow_delay) if r is base else r for r in reference.routes))
    elif kind == "oversized":
        site = replace(reference, routes=tuple(replace(r, pad_bytes=Limits().max_body_bytes + 1)
                                               if r is base else r for r in reference.routes))
    elif kind == "redirect":
        moved = replace(base, status=301, body="empty", headers=(("Location", f"/moved{path}"),))
        site = replace(reference, routes=tuple(moved if r is base else r for r in reference.routes)
                       + (replace(base, path=f"/moved{path}"),))
    elif kind == "hostile":
        return [_route_dict(_hostile(path, variant or HOSTILE[0]))]
    return _site_routes(site, reference.hostname)


def _hostile(path: str, flavour: str) -> Route:
    json_type = (("Content-Type", "application/json"),)
    if flavour == "control-characters":
        text = ('{"name": "\x00\x07\x1b[2J\x1b]0;pwned\x07 \x1b[31mred\x1b[0m", '
                '"description": "\x08\x08\x08\r\x7f\x9b", "capabilities": []}\n')
        return Route(path=path, body="text", text=text, headers=json_type)
    if flavour == "deep-nesting":
        depth = 100_000
        return Route(path=path, body="text", text="[" * depth + "]" * depth, headers=json_type)
    if flavour == "gzip-bomb":
        return Route(path=path, body="text", text=_bomb().decode("latin-1"), encoding="latin-1",
                     headers=json_type + (("Content-Encoding", "gzip"),))
    raise ValueError(f"no hostile flavour {flavour!r}")


@cache
def _bomb() -> bytes:
    """16 KiB of gzip that decodes to 16 MiB of spaces (valid JSON white space, but too much)."""
    return gzip.compress(b" " * (16 * 1024 * 1024), compresslevel=9, mtime=0)


def _site_routes(site: Site, reference_host: str) -> list[dict]:
    """A draft's site as route changes for a shared host: each document route carries its own
    document (a JSON Patch replacing the whole), dynamic routes are dropped, and the reference's
    host name becomes ``{host}``."""
    routes = []
    for route in site.routes:
        if route.handler is not None:
            continue
        if route.body == "document":
            route = replace(route, patch=({"op": "replace", "path": "", "value": site.document}, *route.patch))
        routes.append(_route_dict(route))
    text = json.dumps(routes, ensure_ascii=False)
    return json.loads(re.sub(rf"(?<![a-z0-9-]){re.escape(reference_host)}", PLACEHOLDER, text))


def _route_dict(route: Route) -> dict:
    """A Route in ``mutate``'s form: every field, headers as a table."""
    entry = {f.name: getattr(route, f.name) for f in fields(Route)}
    entry["headers"] = dict(route.headers)
    return entry


@cache
def _http_pool(draft: str) -> dict[str, str]:
    """The broken variants of an HTTP draft a host can publish, each with its expected status."""
    reference: Site = _reference(draft)  # type: ignore[assignment]
    path = WELL_KNOWN[draft]
    pool = {}
    for name, variant in _variants(draft).items():
        if variant.site or variant.dns or variant.declare or variant.credentials or variant.header_origins:
            continue
        if not variant.patch and not any(r.get("path") == path for r in variant.routes):
            continue  # nothing a scan fetches changes
        outcome = _outcome(mutate(reference, variant), path)
        if outcome is not None:
            pool[name] = outcome
    return pool


def _outcome(site: Site, path: str) -> str | None:
    """What a GET of ``path`` on ``site`` comes to, following redirects on the host (at most 5,
    as the kit); None when that depends on the request or is a matter of the scan's judgment."""
    url = f"https://{site.hostname}{path}"
    for _ in range(6):
        parts = urlsplit(url)
        if parts.scheme != "https" or parts.hostname != site.hostname:
            return "error"  # off the host (or to http): the listener does not serve it
        route = site.route_for(parts.path, parts.query, "GET")
        if route is None:
            return "not-found"
        if route.handler or route.delay or route.accept_exactly or route.refuse_when or route.localized:
            return None
        headers = {k.lower(): v for k, v in route.headers}
        if route.status in REDIRECTS:
            if "location" not in headers:
                return "error"
            url = urljoin(url, headers["location"].strip())
            continue
        if route.status in (404, 410):
            return "not-found"
        if route.status >= 400:
            return "error"
        if route.status != 200:
            return None
        if "html" in headers.get("content-type", ""):
            return "soft-404"
        try:
            json.loads(site.render(route))
        except ValueError:
            return None
        return "found"
    return "error"  # more redirects than the kit follows


# ---------------------------------------------------------------------------- aid (DNS)

def _aid_provider(variant: str | None) -> Provider:
    provider: Provider = _reference("aid")  # type: ignore[assignment]
    if variant is None:
        return provider
    return mutate_provider(provider, _variants("aid")[variant])


@cache
def _aid_pool() -> dict[str, str]:
    """The broken AID variants a host can publish: those that change only the records (and TTL)
    and the manifest site, and still hold a record starting ``v=aid`` (a scan finds it)."""
    pool = {}
    for name, variant in _variants("aid").items():
        if set(variant.dns) - {"txt", "more_txt", "ttl"} or variant.site or variant.declare or variant.credentials:
            continue
        provider = _aid_provider(name)
        records = [s for s in (provider.txt, *provider.more_txt) if s]
        if not any("".join(r).startswith("v=aid") for r in records):
            continue
        try:
            _agent_lines(provider, "x", "x.adck.test")
        except Exception:  # noqa: BLE001 - a record the zone cannot hold (a string over 255 bytes)
            continue
        pool[name] = "found"
    return pool


def _agent_lines(provider: Provider, label: str, domain: str) -> str:
    """The ``_agent`` TXT records of ``provider`` for the host ``label`` of zone ``adck.test``,
    names in them rewritten from the reference's domain to the host's."""
    import dns.rdataclass
    import dns.rdatatype
    from dns.rdtypes.ANY.TXT import TXT

    pattern = re.compile(rf"(?<![a-z0-9-]){re.escape(provider.domain)}")
    lines = []
    for strings in (provider.txt, *provider.more_txt):
        if not strings:
            continue
        rdata = TXT(dns.rdataclass.IN, dns.rdatatype.TXT, [pattern.sub(domain, s).encode("utf-8") for s in strings])
        lines.append(f"_agent.{label} {provider.ttl} IN TXT {rdata.to_text()}\n")
    return "".join(lines)


class _ZoneOfManyNames(MockDNS):
    """MockDNS serving one zone, answering NXDOMAIN for a name of it that has nothing at or
    below it straight from a set of the zone's names: MockDNS looks for a name below the one
    asked through every name of the zone (10 ms a query with 5000 hosts, the one cost of a scan
    that grew with ``n``). Every other answer is MockDNS's own."""

    _names: frozenset = frozenset()

    def add_zone(self, origin: str, records: str, **options):  # type: ignore[override]
        if self.zones:
            raise ValueError("the simulated internet's DNS serves one zone")
        entry = super().add_zone(origin, records, **options)
        names = {entry.origin}
        for name in entry.zone.nodes:
            while name not in names and name.is_subdomain(entry.origin):
                names.add(name)
                name = name.parent()
        self._names = frozenset(names)
        return entry

    def answer(self, query, transport):  # type: ignore[override]
        import dns.flags
        import dns.message
        import dns.rcode
        import dns.rdatatype

        question = query.question[0]
        zone = next(iter(self.zones.values()), None)
        if zone is None or question.name in self._names or not question.name.is_subdomain(zone.origin) \
                or question.name in self.faults:
            return super().answer(query, transport)
        dnssec_ok = bool(query.ednsflags & dns.flags.DO)
        with self._lock:
            self.log.append(QueryLog(question.name.to_text(), dns.rdatatype.to_text(question.rdtype), transport,
                                     dnssec_ok))
        response = dns.message.make_response(query)
        response.flags |= dns.flags.AA
        response.set_rcode(dns.rcode.NXDOMAIN)
        soa = zone.zone.get_rdataset(zone.origin, dns.rdatatype.SOA)
        if soa is not None:
            self._add(response.authority, zone, zone.origin, soa, dnssec_ok)
        return response


def _closed_port() -> int:
    """A loopback port that was bound and closed: connecting to it is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


__all__ = ["Host", "SimulatedInternet", "simulated_internet", "build", "WELL_KNOWN", "DRAFTS"]
