"""A site: what an HTTP origin of the mock world answers, as data.

The reference publishers in ``fixtures/<draft>/`` and their broken variants (mutants) are
written as sites: a JSON document plus routes (path, status, headers, body, delay,
redirects). A mutant is the reference site with a few changes, so each mutant file says in a
few lines exactly what it breaks.
"""

from __future__ import annotations

import copy
import json
import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from conformance.resources import fixtures_dir

#: The bearer token a built-in variant that requires one takes (``[auth]`` of a site, unless it
#: names its own): a demonstration value, published here, that the self-tests give the kit
#: through ``--header-env Authorization=ADCK_TEST_TOKEN`` (``ADCK_TEST_TOKEN="Bearer …"``).
TEST_TOKEN = "adck-test-token-5f2c9e81"


@dataclass(frozen=True)
class Route:
    path: str
    #: Exact query string to match; None matches any query.
    query: str | None = None
    status: int = 200
    headers: tuple[tuple[str, str], ...] = ()
    #: "document" (the site's JSON document), "text" (``text``), or "empty".
    body: str = "empty"
    text: str = ""
    #: How the document or text is encoded into bytes.
    encoding: str = "utf-8"
    #: Spaces appended after the JSON (valid JSON white space), to grow the body.
    pad_bytes: int = 0
    #: JSON Patch operations applied to the document for this route only.
    patch: tuple[dict, ...] = ()
    #: Seconds to wait before answering.
    delay: float = 0.0
    #: When set, a request whose Accept header is not exactly this is answered 406.
    accept_exactly: str | None = None
    #: When set, the route answers only this request method (a route without one answers any).
    method: str | None = None
    #: Gzip the body (Content-Encoding: gzip) when the request's Accept-Encoding admits gzip.
    gzip: bool = False
    #: [header, text]: a request whose header holds text is answered ``refuse_status``.
    refuse_when: tuple[str, ...] = ()
    refuse_status: int = 406
    #: language prefix -> JSON Patch: a request whose Accept-Language starts with the prefix
    #: gets the document so changed, with Content-Language (content negotiation).
    localized: dict = field(default_factory=dict)
    #: A dynamic responder (a name in :func:`conformance.world.handlers.handlers`, such as
    #: ``woa.invoke``) that computes the answer from the request: an invocation endpoint.
    handler: str | None = None
    #: Settings of the handler (a broken variant changes one: ``{ mismatch_status = 200 }``).
    options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Site:
    hostname: str
    document: Any
    routes: tuple[Route, ...]
    scheme: str = "https"
    #: The name the TLS certificate is issued for (default: hostname).
    certificate_hostname: str | None = None
    #: The highest and lowest TLS versions the origin accepts ("TLSv1.2"; default: Python's).
    tls_max: str | None = None
    tls_min: str | None = None
    #: Settings of an MCP server started beside the origin (a WoA host's MCP transport:
    #: ``conformance.woa.reference_mcp_server.McpOptions``); empty: none. A variant's ``site.mcp``
    #: changes single settings (``mutate`` merges it).
    mcp: dict = field(default_factory=dict)
    #: Authentication a variant requires (empty: none): ``paths`` (route paths, templates as
    #: written) and optionally ``methods`` it protects; a request to one without ``Authorization:
    #: Bearer <token>`` (``token``, default :data:`TEST_TOKEN`) is answered ``401`` with
    #: ``WWW-Authenticate: Bearer`` and the draft's error body (``content_type``, ``body``).
    #: ``refuse_all = true`` refuses the right token too (a broken variant); ``echo = true`` sends
    #: every request header back in the 401's body (a hostile target, for the report-safety
    #: self-tests). See ``conformance.world.https.unauthorized``.
    auth: dict = field(default_factory=dict)
    #: Rate limiting a variant applies (empty: none): ``paths`` (route paths, templates as
    #: written) and optionally ``methods``; after ``after`` requests to them in one running
    #: origin, each is answered ``429`` with ``Retry-After`` (``retry_after``, default "60"), the
    #: variant's ``content_type`` and ``body``, and its ``headers`` (RateLimit fields). See
    #: ``conformance.world.https.rate_limited``.
    rate_limit: dict = field(default_factory=dict)

    def route_for(self, path: str, query: str, method: str | None = None) -> Route | None:
        """The route answering ``path``: an exact path first (with its query, then any query),
        then a template path (``/agents/{agent_id}/invoke``: a ``{name}`` matches one segment)."""
        routes = sorted((r for r in self.routes if r.method in (None, method)), key=lambda r: r.method is None)
        for r in routes:
            if r.path == path and r.query is not None and r.query == query:
                return r
        for r in routes:
            if r.path == path and r.query is None:
                return r
        for r in routes:
            if "{" in r.path and r.query is None and path_parameters(r.path, path) is not None:
                return r
        return None

    def render(self, route: Route) -> bytes:
        """The body bytes of a route."""
        if route.body == "document":
            doc = apply_patch(self.document, route.patch)
            data = json.dumps(doc, ensure_ascii=False, indent=2).encode(route.encoding)
        elif route.body == "text":
            data = route.text.encode(route.encoding)
        else:
            data = b""
        return data + b" " * route.pad_bytes


def path_parameters(template: str, path: str) -> dict[str, str] | None:
    """The values of ``{name}`` segments when ``path`` (as the server decoded it) matches
    ``template``, else None (``/agents/{agent_id}/invoke`` and ``/agents/x/invoke`` give
    ``{"agent_id": "x"}``)."""
    import re

    names: list[str] = []

    def group(m: "re.Match[str]") -> str:
        names.append(m.group(1))
        return "([^/]+)"

    pattern = re.sub(r"\\\{(\w+)\\\}", group, re.escape(template))
    m = re.fullmatch(pattern, path)
    return dict(zip(names, m.groups())) if m else None


def apply_patch(document: Any, operations: tuple[dict, ...] | list[dict]) -> Any:
    """Apply JSON Patch (RFC 6902) add/remove/replace operations to a copy of ``document``.

    A string ``value`` may be repeated with ``repeat = N`` (long strings in TOML stay short).
    """
    doc = copy.deepcopy(document)
    for op in operations:
        value = op.get("value")
        if "repeat" in op:
            value = value * op["repeat"]
        if op["path"] == "":
            if op["op"] != "replace":
                raise ValueError("only 'replace' applies to the whole document")
            doc = copy.deepcopy(value)
            continue
        parts = [p.replace("~1", "/").replace("~0", "~") for p in op["path"].split("/")[1:]]
        parent = doc
        for p in parts[:-1]:
            parent = parent[int(p)] if isinstance(parent, list) else parent[p]
        last = parts[-1]
        kind = op["op"]
        if isinstance(parent, list):
            idx = len(parent) if last == "-" else int(last)
            if kind == "add":
                parent.insert(idx, value)
            elif kind == "remove":
                del parent[idx]
            elif kind == "replace":
                parent[idx] = value
            else:
                raise ValueError(f"unsupported patch op {kind!r}")
        else:
            if kind in ("add", "replace"):
                parent[last] = value
            elif kind == "remove":
                del parent[last]
            else:
                raise ValueError(f"unsupported patch op {kind!r}")
    return doc


@dataclass(frozen=True)
class Mutant:
    """A variant of a reference site: deliberately broken (``clause`` names what it breaks,
    proving that clause's test can fail) or conforming (``expect`` names the level it must
    reach, guarding against false fails)."""

    name: str
    clause: str | None
    summary: str
    #: A conforming variant's level: one for every revision, or one per revision (``{"00" = "full"}``).
    expect: str | dict | None = None
    #: For agent variants: how the kit drives it ("python" in-process, "cmd" as a subprocess).
    via: str = "python"
    #: For DNS-published providers: changes to the record (txt, ttl, sign, zone, fault).
    dns: dict = field(default_factory=dict)
    #: Other clauses the variant cannot help failing, each with the reason.
    also_fails: dict[str, str] = field(default_factory=dict)
    site: dict = field(default_factory=dict)
    patch: tuple[dict, ...] = ()
    routes: tuple[dict, ...] = ()
    #: What the variant declares of itself (``NAME[=VALUE]``, as ``adck run --declare`` takes
    #: them: a choice its draft leaves to the implementation, [declarations] of the profile);
    #: every run of ``builtin:NAME`` applies them, and its report says so.
    declare: tuple[str, ...] = ()
    #: The variant requires the kit's test token (``site.auth``): the self-tests' variant matrix
    #: runs it with ``--header-env Authorization=ADCK_TEST_TOKEN`` (``tests/conftest.py``).
    credentials: bool = False
    #: Other origins the token goes to (``--header-origin``, e.g. the MCP server a host's document
    #: names on another origin); the self-tests add them to a run of the variant.
    header_origins: tuple[str, ...] = ()
    #: The revision of the draft it is a proof for (``00``), when its break is judged under an
    #: older text than the newest holding its clause (a -00 agent that probes /ai before the
    #: well-known URI also probes an alternative path, which -01 adds a sentence against);
    #: None: the newest revision the suite judges that holds ``clause`` (:func:`judged_as`).
    revision: str | None = None

    def judged_as(self, draft: str) -> str:
        """``DRAFT@REV``: the revision a run of this variant judges, to fail exactly its clause."""
        from conformance import revisions

        if self.revision:
            return f"{draft}@{self.revision}"
        held = revisions.holding(draft, self.clause) if self.clause else None
        return held.label if held else draft


def _route(entry: dict) -> Route:
    entry = dict(entry)
    entry["headers"] = tuple((k, v) for k, v in entry.get("headers", {}).items())
    entry["patch"] = tuple(entry.get("patch", ()))
    entry["refuse_when"] = tuple(entry.get("refuse_when", ()))
    return Route(**entry)


@cache
def load_reference(draft: str) -> Site:
    """The reference site of a draft, read once: ``fixtures/<draft>/<role>.toml`` named by the
    draft's server role (``publisher.toml``, ``host.toml``, ``server.toml``).

    Shared and never changed in place: mutants and scenarios copy it (``apply_patch`` works
    on a deep copy)."""
    from conformance import catalog

    folder = fixtures_dir(draft)
    path = folder / f"{catalog.load(draft).server_role}.toml"
    spec = tomllib.loads(path.read_text("utf-8"))
    document = json.loads((folder / spec.pop("document")).read_text("utf-8"))
    routes = tuple(_route(r) for r in spec.pop("route"))
    return Site(document=document, routes=routes, **spec)


def load_mutants(draft: str, table: str = "mutants", file: str = "mutants.toml") -> dict[str, Mutant]:
    """The variants of a draft's reference implementations (``fixtures/<draft>/<file>``):
    ``table="mutants"`` the broken ones, ``table="conforming"`` the conforming ones;
    ``file="agent-mutants.toml"`` the broken reference agents."""
    folder = fixtures_dir(draft)
    paths = [folder / file]
    # a file of variants may be split by topic: mutants-*.toml, client-mutants-*.toml, ...
    paths += sorted(folder.glob(file.removesuffix(".toml") + "-*.toml"))
    raw: dict = {}
    for path in paths:
        if path.exists():
            for tbl, entries in tomllib.loads(path.read_text("utf-8")).items():
                dup = raw.setdefault(tbl, {}).keys() & entries.keys()
                if dup:
                    raise ValueError(f"{path}: variants {sorted(dup)} are defined twice")
                raw[tbl].update(entries)
    return {
        name: Mutant(
            name=name,
            clause=m.get("clause"),
            expect=m.get("expect"),
            via=m.get("via", "python"),
            dns=dict(m.get("dns", {})),
            summary=m["summary"],
            also_fails=dict(m.get("also_fails", {})),
            site=dict(m.get("site", {})),
            patch=tuple(m.get("patch", ())),
            routes=tuple(m.get("route", ())),
            declare=tuple(m.get("declare", ())),
            revision=str(m["revision"]) if "revision" in m else None,
            credentials=bool(m.get("credentials", False)),
            header_origins=tuple(m.get("header_origins", ())),
        )
        for name, m in raw.get(table, {}).items()
    }


def mutate(site: Site, mutant: Mutant) -> Site:
    """The reference site with the mutant's changes applied.

    Site keys replace the site's; ``patch`` changes the document; each route entry changes
    the route with the same path and query (``remove_headers`` drops headers, ``headers``
    adds or replaces them) or, for a new path, adds a route.
    """
    document = apply_patch(site.document, mutant.patch)
    routes = list(site.routes)
    for change in mutant.routes:
        change = dict(change)
        remove = {h.lower() for h in change.pop("remove_headers", [])}
        headers = change.pop("headers", {})
        key = (change["path"], change.get("query"), change.get("method"))
        idx = next((i for i, r in enumerate(routes) if (r.path, r.query, r.method) == key), None)
        base = routes[idx] if idx is not None else Route(path=change["path"])
        merged = [(k, v) for k, v in base.headers if k.lower() not in remove and k.lower() not in {h.lower() for h in headers}]
        merged += list(headers.items())
        fields = {k: (tuple(v) if k in ("patch", "refuse_when") else v) for k, v in change.items()}
        if "options" in fields:  # a handler's settings: the variant's override the reference's
            fields["options"] = {**base.options, **fields["options"]}
        new = replace(base, headers=tuple(merged), **fields)
        if idx is None:
            routes.insert(0, new)
        else:
            routes[idx] = new
    # a table-valued site setting (mcp) is merged: a variant names only what it changes
    changes = {k: ({**getattr(site, k), **v} if isinstance(v, dict) and isinstance(getattr(site, k, None), dict) else v)
               for k, v in mutant.site.items()}
    return replace(site, document=document, routes=tuple(routes), **changes)


@dataclass(frozen=True)
class Provider:
    """A DNS-published provider (AID): the _agent record of a domain, and the site hosting
    its manifest."""

    domain: str
    txt: tuple[str, ...]
    ttl: int
    sign: bool
    site: Site
    #: Further TXT records at the same _agent name, each its character-strings (a provider
    #: publishing one record per version during a migration, AID v2.1 2.2).
    more_txt: tuple[tuple[str, ...], ...] = ()
    #: Extra zone-file lines, and a DNS fault for the _agent name (servfail, drop, ...).
    zone: str = ""
    fault: str | None = None
    #: The DS the parent publishes does not match the zone's key (a key rolled without
    #: updating the parent): the signed answer is bogus to a validating resolver.
    stale_ds: bool = False

    def zone_text(self) -> str:
        """Zone-file text of the record (dnspython escapes each byte as a zone file must)."""
        import dns.rdataclass
        import dns.rdatatype
        from dns.rdtypes.ANY.TXT import TXT

        lines = []
        for strings in (self.txt, *self.more_txt) if self.txt else self.more_txt:
            rdata = TXT(dns.rdataclass.IN, dns.rdatatype.TXT, [s.encode("utf-8") for s in strings])
            lines.append(f"_agent {self.ttl} IN TXT {rdata.to_text()}\n")
        return "".join(lines) + self.zone


def load_provider(draft: str) -> Provider:
    """The reference provider of a draft (``fixtures/<draft>/provider.toml``)."""
    folder = fixtures_dir(draft)
    spec = tomllib.loads((folder / "provider.toml").read_text("utf-8"))
    site_spec = dict(spec["site"])
    document = json.loads((folder / site_spec.pop("document")).read_text("utf-8"))
    routes = tuple(_route(r) for r in site_spec.pop("route"))
    site = Site(document=document, routes=routes, **site_spec)
    return Provider(domain=spec["domain"], txt=tuple(spec["txt"]), ttl=spec["ttl"], sign=spec["sign"], site=site,
                    more_txt=tuple(tuple(r) for r in spec.get("more_txt", ())))


def mutate_provider(provider: Provider, mutant: Mutant) -> Provider:
    """The provider with a mutant's record changes (``dns``) and manifest/site changes."""
    changes = {k: (tuple(v) if k == "txt" else tuple(tuple(r) for r in v) if k == "more_txt" else v)
               for k, v in mutant.dns.items()}
    return replace(provider, site=mutate(provider.site, mutant), **changes)


@dataclass(frozen=True)
class Reference:
    """A draft's reference server or publisher as the mock world serves it: its site (or, for a
    DNS-published draft, its provider: zone and site) and its variants, all data of
    ``fixtures/<draft>/``. Each draft's ``reference_server.py`` names its own (``REFERENCE``)."""

    draft: str

    def site(self) -> "Site | Provider":
        """The reference, as ``adck run DRAFT --target builtin`` serves it."""
        if (fixtures_dir(self.draft) / "provider.toml").exists():
            return load_provider(self.draft)
        return load_reference(self.draft)

    def variants(self) -> dict[str, Mutant]:
        """Its broken variants by name (``fixtures/<draft>/mutants*.toml``, ``builtin:NAME``)."""
        return load_mutants(self.draft)
