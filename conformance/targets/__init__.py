"""Targets: what a suite runs against.

A target is named on the command line (``--target``). ``PREFIX:rest`` picks the target kind
registered under PREFIX in the ``adck.targets`` entry-point group (``builtin``, ``http``,
``https``, ``file`` come with the kit; a third party adds its own there); anything else is a
path to a document. A kind is a class with ``help`` and ``create(spec, options) -> Target``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Literal, Protocol

from conformance.fetch import ConnectTo, HttpConfig, Limits

if TYPE_CHECKING:
    from conformance.dns import DnsConfig
    from conformance.harness.adapters import Adapter

ENTRY_POINT_GROUP = "adck.targets"


class TargetError(ValueError):
    """The target cannot be used as given; the message says what to do instead."""


@dataclass(frozen=True)
class TargetOptions:
    """What the user said about reaching the target."""

    draft: str
    #: The newest revision of the draft the run judges ("" for the draft's default): it picks
    #: the reference client a ``builtin`` client target is (a revision may name its own).
    revision: str = ""
    #: The roles the user asked for (empty: the target's own).
    roles: tuple[str, ...] = ()
    ca_bundle: Path | None = None
    connect_to: tuple[ConnectTo, ...] = ()
    limits: Limits = Limits()
    #: DNS servers to ask ("HOST:PORT"); empty: the system's resolver.
    nameservers: tuple[tuple[str, int], ...] = ()
    #: DNSSEC trust anchors (zone, DS record set) the user gave.
    trust_anchors: tuple = ()
    #: Follow redirects to loopback or private addresses the user did not name.
    allow_private: bool = False
    #: Invoke the target's agents (a request that may cost money or change state): opt-in
    #: for live hosts (``--invoke``), always on for the built-in ones.
    invoke: bool = False
    #: Invocation requests sent at most in one run (``--invoke-budget``).
    invoke_budget: int = 50

    def dns_config(self) -> "DnsConfig":
        from conformance.dns import DnsConfig

        return DnsConfig(nameservers=self.nameservers, trust_anchors=self.trust_anchors)

    def http_config(self) -> HttpConfig:
        return HttpConfig(ca_bundle=self.ca_bundle, connect_to=self.connect_to, limits=self.limits,
                          allow_private=self.allow_private)


@dataclass
class Target:
    """A resolved target, ready to be checked."""

    #: The target as the user named it, with any credentials removed.
    spec: str
    kind: Literal["origin", "document", "agent", "domain"]
    description: str
    #: The roles of the draft this target can be checked in.
    roles: tuple[str, ...]
    #: ``scheme://host[:port]`` of an origin target.
    origin: str | None = None
    #: For a draft whose operations hang off a base URL (a ``[binding]`` in its profile: ADP),
    #: the target URL with its path (``https://dir.example.com/adp``): the base the binding's
    #: paths are joined to. None: the origin is the base.
    base: str | None = None
    http: HttpConfig = field(default_factory=HttpConfig)
    #: The file of a document target.
    document_path: Path | None = None
    #: The harness adapter of a client (agent) target.
    adapter: "Adapter | None" = None
    #: The domain of a DNS-published provider (AID); its resolver configuration.
    domain: str | None = None
    dns: "DnsConfig | None" = None
    #: A record on its own (``txt:``): its character-strings, and TTL when a zone line gave one.
    record: "tuple[list[bytes], int | None] | None" = None
    #: Things the report should say about how the target was reached.
    notes: list[str] = field(default_factory=list)
    #: The kit may invoke the target's agents (built-in targets; live ones with ``--invoke``).
    invoke: bool = False
    #: Declarations the target makes itself (``NAME[=VALUE]``, as ``--declare`` takes them): a
    #: built-in variant's ``declare``, applied to every run of it.
    declares: tuple[str, ...] = ()
    _on_close: Callable[[], None] | None = None

    def close(self) -> None:
        if self._on_close is not None:
            self._on_close()
            self._on_close = None


class TargetKind(Protocol):
    help: str
    #: Optional: the drafts this kind of target serves (absent: every draft).
    # drafts: tuple[str, ...]
    #: Optional: ``serves(profile) -> bool``, whether it serves a draft, from the draft's profile
    #: (``conformance.preflight.kind_serves`` reads both).

    def create(self, spec: str, options: TargetOptions) -> Target: ...


def kinds() -> dict[str, TargetKind]:
    """The registered target kinds, by prefix."""
    found: dict[str, TargetKind] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep.load()())
    if not found:  # running from a source tree that was never installed
        from conformance.targets.builtin import BuiltinTargets
        from conformance.targets.document import DocumentTargets
        from conformance.targets.origin import OriginTargets

        from conformance.targets.agent import CommandTargets, PythonTargets

        from conformance.targets.domain import RecordTargets
        from conformance.targets.recorded import RecordedTargets

        found = {"builtin": BuiltinTargets(), "http": OriginTargets(), "https": OriginTargets(),
                 "file": DocumentTargets(), "python": PythonTargets(), "cmd": CommandTargets(),
                 "txt": RecordTargets(), "warc": RecordedTargets()}
    return found


_PREFIX = re.compile(r"^([a-z][a-z0-9+.\-]*):")


def resolve(spec: str, options: TargetOptions) -> Target:
    """Turn ``--target`` into a started :class:`Target` (close it when done)."""
    registry = kinds()
    m = _PREFIX.match(spec)
    prefix = m.group(1) if m and m.group(1) in registry else spec if spec in registry else None
    if prefix is not None:  # PREFIX:rest, or a bare prefix such as "builtin"
        from conformance import catalog, preflight

        try:
            refusal = preflight.kind_refusal(prefix, spec, catalog.load(options.draft), registry)
        except catalog.CatalogError:
            refusal = None
        if refusal:  # a kind of another draft (txt: is AID's; AID takes a DOMAIN, not a URL)
            raise TargetError(refusal)
        return registry[prefix].create(spec, options)
    if not Path(spec).exists() and _looks_like_domain(spec) and _bare_target(options.draft) == "domain":
        from conformance.targets.domain import DomainTargets

        return DomainTargets().create(spec, options)
    if m and len(m.group(1)) > 1 and not Path(spec).exists():
        raise TargetError(
            f"unknown target kind {m.group(1)!r} in {spec!r}; known kinds: "
            + ", ".join(sorted(registry)) + ", or a path to a document"
        )
    return registry["file"].create(spec, options)


_DOMAIN = re.compile(r"^(?=.{1,253}$)([^\s/:.@]+\.)+[^\s/:.@]+\.?$")


def _looks_like_domain(spec: str) -> bool:
    return bool(_DOMAIN.match(spec)) and not spec.endswith((".json", ".txt", ".toml"))


def _bare_target(draft: str) -> str:
    from conformance import catalog

    try:
        return catalog.load(draft).bare_target
    except catalog.CatalogError:
        return "document"
