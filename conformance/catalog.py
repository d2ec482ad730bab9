"""The clause catalog: every normative statement of a draft, as data.

A profile (``profiles/<draft>/``) holds ``profile.toml`` (the draft, its roles and levels),
``clauses.toml`` (one entry per MUST/SHOULD/MAY statement) and ``ambiguities.toml``. Tests
bind themselves to a clause id with :func:`conformance.outcomes.clause`; which tests check
which clause is read from the suite, never written twice (see :func:`Profile.coverage`).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from conformance.resources import profile_dir

Level = Literal["MUST", "SHOULD", "MAY"]

#: How the draft's key words map to the three levels (RFC 2119, RFC 8174).
KEYWORD_LEVEL: dict[str, Level] = {
    "MUST": "MUST",
    "MUST NOT": "MUST",
    "REQUIRED": "MUST",
    "SHALL": "MUST",
    "SHALL NOT": "MUST",
    "SHOULD": "SHOULD",
    "SHOULD NOT": "SHOULD",
    "RECOMMENDED": "SHOULD",
    "NOT RECOMMENDED": "SHOULD",
    "MAY": "MAY",
    "OPTIONAL": "MAY",
}


class CatalogError(ValueError):
    """A profile's data is malformed; the message names the file and entry."""


@dataclass(frozen=True)
class Clause:
    """One normative statement of a draft."""

    id: str
    section: str
    keyword: str
    level: Level
    role: str
    text: str
    untestable: str | None = None
    note: str | None = None
    #: True when the requirement is read from a table or lower-case wording, not from an
    #: RFC 2119 key word in capitals (the note and an ambiguity say how the kit reads it).
    implied: bool = False
    #: For display only: the draft's own words that give a fragment its context (the header row
    #: of a table row's table, the sentence that introduces a list item, the first half of a
    #: sentence whose second half holds the key word). ``text`` stays the quote.
    lead: str | None = None

    def describe(self) -> str:
        """One line a person reads: id, section, level and the quoted sentence."""
        return f'{self.id} (§{self.section}, {self.keyword}): "{self.text}"'


@dataclass(frozen=True)
class Ambiguity:
    id: str
    title: str
    sections: tuple[str, ...]
    clauses: tuple[str, ...]
    text: str
    interpretation: str


@dataclass(frozen=True)
class Coverage:
    """How one clause is covered: the tests bound to it, or why it cannot be tested."""

    clause: Clause
    tests: tuple[str, ...]

    @property
    def status(self) -> str:
        if self.tests:
            return "tested"
        if self.clause.untestable:
            return "untestable"
        if self.clause.level == "MAY":
            return "optional"
        return "untested"


@dataclass(frozen=True)
class Declaration:
    """A choice the draft leaves to the implementation ("local policy", "documented behavior"),
    which the user states with ``--declare NAME[=VALUE]`` (``[declarations.NAME]`` of the
    profile): the clauses it names then accept the declared behaviour, and check it, instead of
    the kit's reading without it."""

    name: str
    #: The draft's section, and its sentence that allows the choice (quoted as written).
    section: str
    quote: str
    #: The role whose clauses it changes (a server's); a target checked in no such role refuses it.
    role: str
    #: The clauses whose judgement it changes.
    clauses: tuple[str, ...]
    #: ``flag`` (no value), ``integer`` (between ``minimum`` and ``maximum``) or ``enum`` (one of ``values``).
    type: str
    help: str
    minimum: int | None = None
    maximum: int | None = None
    values: tuple[str, ...] = ()

    def usage(self) -> str:
        """``strict-validation``, ``max-top-k=N``, ``top-k-above-max=reject|clamp``."""
        if self.type == "flag":
            return self.name
        if self.type == "integer":
            return f"{self.name}=N"
        return f"{self.name}={'|'.join(self.values)}"

    def allowed(self) -> str:
        """The values it takes, in words."""
        if self.type == "flag":
            return "no value (a flag)"
        if self.type == "integer":
            return f"an integer from {self.minimum} to {self.maximum}"
        return "one of " + ", ".join(self.values)

    def parse(self, value: str | None) -> bool | int | str:
        """The declared value from the text after ``=`` (None: none given); ValueError says why not."""
        if self.type == "flag":
            if value is not None:
                raise ValueError(f"a flag, it takes no value: write --declare {self.name}")
            return True
        if value is None or value == "":
            raise ValueError(f"it needs a value: --declare {self.usage()}")
        if self.type == "integer":
            try:
                number = int(value, 10)
            except ValueError:
                raise ValueError(f"not an integer ({self.allowed()})") from None
            if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
                raise ValueError(f"out of bounds ({self.allowed()})")
            return number
        if value not in self.values:
            raise ValueError(f"not a value it takes ({self.allowed()})")
        return value


@dataclass(frozen=True)
class ClientRole:
    role: str
    adapter: str
    variants: str
    mutants: str


@dataclass(frozen=True)
class ScanEntry:
    """Where ``adck scan`` looks for a draft at a domain, and what it judges of what it finds
    (``[scan]`` of profile.toml): data, so a new draft is scanned without code."""

    #: The entry point: a path at ``https://DOMAIN`` (``/.well-known/ai``), or ``dns:LABEL`` for
    #: a TXT record at ``LABEL.DOMAIN`` (``dns:_agent``).
    entry: str
    #: The roles judged when the entry point holds a document (a scan sends only GET and HEAD).
    roles: tuple[str, ...]
    #: The paths at the domain's own names the judged clauses may ask (a prefix each); any
    #: other URL is not asked, and the clauses that need it are not checked.
    paths: tuple[str, ...]

    @property
    def dns_label(self) -> str | None:
        return self.entry.removeprefix("dns:") if self.entry.startswith("dns:") else None


@dataclass(frozen=True)
class Profile:
    short: str
    draft: str
    title: str
    spec_file: str
    id_prefix: str
    suite: str
    roles: dict[str, str]
    roles_implemented: tuple[str, ...]
    levels: tuple[dict, ...]
    clauses: dict[str, Clause] = field(repr=False)
    ambiguities: tuple[Ambiguity, ...] = field(repr=False)
    #: What a target without a prefix is when it is not a file: "document" (a path) or "domain".
    bare_target: str = "document"
    #: False while the suite of the implemented roles is being built (reports say so).
    complete: bool = True
    #: The client role, when the draft has one: its name (``agent``, ``client``), the module of
    #: the reference client's harness adapter, the module of its broken variants (``VARIANTS``)
    #: and the fixtures file listing them.
    client: "ClientRole | None" = None
    #: What ``adck targets`` says of live targets of this draft beyond the kinds (opt-ins, budgets).
    target_note: str = ""
    #: Conformance levels the draft defines itself (ADP's D0, D1, D2), lowest first: each with
    #: the clauses it adds (``[draft_levels]`` of profile.toml); empty for other drafts.
    draft_levels: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: Level -> the clause that defines it (its row of the draft's table, ``[draft_levels_offered_by]``):
    #: its test says whether the target offers the level (pass or fail) or not (not applicable).
    draft_levels_offered_by: dict[str, str] = field(default_factory=dict)
    #: The HTTP binding the kit assumes for a draft that defines none (ADP): operation -> path
    #: under the target's base (``[binding]`` of profile.toml; ``--binding NAME=PATH`` overrides).
    binding: dict[str, str] = field(default_factory=dict)
    #: The choices the draft leaves to the implementation that a user can state (``--declare``),
    #: by name (``[declarations.NAME]`` of profile.toml).
    declarations: dict[str, Declaration] = field(default_factory=dict)
    #: The draft's code the mock world runs (``[world]`` of profile.toml): ``handlers``, route
    #: handler name -> "module:function" (:mod:`conformance.world.handlers`), and ``companion``,
    #: "module:function" of a server started beside the reference origin (a WoA host's MCP
    #: server). Data, so the core names no draft's module.
    world_handlers: dict[str, str] = field(default_factory=dict)
    world_companion: str | None = None
    #: Where ``adck scan`` looks for the draft at a domain (``[scan]``); None: it is not scanned.
    scan: ScanEntry | None = None
    #: The revision whose catalog this is (``00``; :func:`conformance.revisions.profile_of`);
    #: empty for the draft's own catalog as clauses.toml holds it.
    revision: str = ""

    @property
    def label(self) -> str:
        """How a verdict, a report and a badge name what was judged: ``aiendpoint@01``, or the
        bare draft name for a catalog read without a revision."""
        return f"{self.short}@{self.revision}" if self.revision else self.short

    def server_draft_levels(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The draft's levels over the clauses of its server and document roles: a level is a
        conformance level of what is published and served (ADP's D0 metadata, D1 and D2
        discovery services), so a client run is judged by MUST and SHOULD alone."""
        client = self.client.role if self.client else "client"
        return tuple((name, tuple(c for c in ids if c in self.clauses and self.clauses[c].role != client))
                     for name, ids in self.draft_levels)

    def draft_level_of(self) -> dict[str, str]:
        """Clause id -> the draft level it belongs to (the lowest that lists it)."""
        out: dict[str, str] = {}
        for name, ids in self.draft_levels:
            for cid in ids:
                out.setdefault(cid, name)
        return out

    @property
    def server_role(self) -> str:
        """The role an origin target plays: ``publisher``, ``host``, ``server``, ``service``
        (the first role that is neither the document on its own nor the client)."""
        client = {self.client.role} if self.client else set()
        return next(r for r in self.roles if r != "document" and r != "client" and r not in client)

    def clause(self, clause_id: str) -> Clause:
        try:
            return self.clauses[clause_id]
        except KeyError:
            raise KeyError(
                f"{clause_id!r} is not a clause of {self.short}; "
                f"see `adck clauses {self.short}`"
            ) from None

    def coverage(self) -> dict[str, Coverage]:
        """Each clause with the suite's tests bound to it (read from the suite itself)."""
        bound = suite_bindings(self.suite)
        return {
            cid: Coverage(c, tuple(sorted(bound.get(cid, ()))))
            for cid, c in self.clauses.items()
        }


def _level(entry: dict, where: str) -> Level:
    keyword = entry["keyword"]
    if keyword not in KEYWORD_LEVEL:
        raise CatalogError(f"{where}: keyword {keyword!r} is not an RFC 2119 key word")
    level = entry.get("level", KEYWORD_LEVEL[keyword])
    if level not in ("MUST", "SHOULD", "MAY"):
        raise CatalogError(f"{where}: level {level!r} is not MUST, SHOULD or MAY")
    if level != KEYWORD_LEVEL[keyword] and not entry.get("note"):
        raise CatalogError(f"{where}: level differs from the key word; add a note saying why")
    return level


def clause_of(entry: dict, where: str, roles: dict) -> Clause:
    """A catalog entry (``[[clause]]`` of clauses.toml, or of a revision's changes) as a Clause."""
    if entry["role"] not in roles:
        raise CatalogError(f"{where}: role {entry['role']!r} not in {sorted(roles)}")
    if entry.get("implied") and not entry.get("note"):
        raise CatalogError(f"{where}: an implied requirement needs a note saying how the kit reads it")
    return Clause(
        id=entry["id"],
        section=entry["section"],
        keyword=entry["keyword"],
        level=_level(entry, where),
        role=entry["role"],
        text=" ".join(entry["text"].split()),
        untestable=entry.get("untestable"),
        note=entry.get("note"),
        implied=bool(entry.get("implied", False)),
        lead=" ".join(entry["lead"].split()) if entry.get("lead") else None,
    )


@cache
def load(short: str) -> Profile:
    """Load and validate the profile of a draft (``aiendpoint``, ...)."""
    folder = profile_dir(short)
    if not (folder / "profile.toml").is_file():
        known = ", ".join(available()) or "none"
        raise CatalogError(f"no profile for draft {short!r} (known: {known})")
    meta = tomllib.loads((folder / "profile.toml").read_text("utf-8"))
    raw = tomllib.loads((folder / "clauses.toml").read_text("utf-8"))
    clauses: dict[str, Clause] = {}
    id_re = re.compile(rf"^{re.escape(meta['id_prefix'])}-[0-9A-Z.]+-\d\d$")
    for n, entry in enumerate(raw.get("clause", []), 1):
        where = f"{folder / 'clauses.toml'} entry {n} ({entry.get('id', '?')})"
        missing = {"id", "section", "keyword", "role", "text"} - entry.keys()
        if missing:
            raise CatalogError(f"{where}: missing {sorted(missing)}")
        unknown = entry.keys() - {"id", "section", "keyword", "level", "role", "text", "untestable", "note", "implied",
                                  "lead"}
        if unknown:
            raise CatalogError(f"{where}: unknown keys {sorted(unknown)}")
        if not id_re.match(entry["id"]):
            raise CatalogError(f"{where}: id does not match {id_re.pattern}")
        if entry["id"] in clauses:
            raise CatalogError(f"{where}: duplicate id")
        clauses[entry["id"]] = clause_of(entry, where, meta["roles"])
    # ambiguities.toml, and ambiguities-<topic>.toml when a draft's list is split by role
    amb_files = [folder / "ambiguities.toml"] + sorted(folder.glob("ambiguities-*.toml"))
    ambiguities = tuple(
        Ambiguity(
            id=a["id"],
            title=a["title"],
            sections=tuple(a.get("sections", ())),
            clauses=tuple(a.get("clauses", ())),
            text=" ".join(a["text"].split()),
            interpretation=" ".join(a["interpretation"].split()),
        )
        for f in amb_files if f.exists()
        for a in tomllib.loads(f.read_text("utf-8")).get("ambiguity", [])
    )
    seen_amb = [a.id for a in ambiguities]
    if len(seen_amb) != len(set(seen_amb)):
        dup = sorted({i for i in seen_amb if seen_amb.count(i) > 1})
        raise CatalogError(f"{folder}: ambiguities {dup} are defined twice")
    levels = meta.get("draft_levels", {})
    for name, cid in meta.get("draft_levels_offered_by", {}).items():
        if cid not in levels.get(name, ()):
            raise CatalogError(f"{folder}/profile.toml: [draft_levels_offered_by] {name} = {cid!r} is not a clause "
                               f"of [draft_levels] {name}")
    declarations = _declarations(meta.get("declarations", {}), folder / "profile.toml", clauses, meta["roles"])
    return Profile(
        short=meta["short"],
        draft=meta["draft"],
        title=meta["title"],
        spec_file=meta["spec_file"],
        id_prefix=meta["id_prefix"],
        suite=meta["suite"],
        roles=dict(meta["roles"]),
        roles_implemented=tuple(meta["roles_implemented"]),
        levels=tuple(meta["levels"]),
        bare_target=meta.get("bare_target", "document"),
        complete=meta.get("complete", True),
        client=ClientRole(**meta["client"]) if "client" in meta else None,
        target_note=" ".join(meta.get("target_note", "").split()),
        draft_levels=tuple((name, tuple(ids)) for name, ids in meta.get("draft_levels", {}).items()),
        draft_levels_offered_by=dict(meta.get("draft_levels_offered_by", {})),
        binding=dict(meta.get("binding", {})),
        declarations=declarations,
        world_handlers=dict(meta.get("world", {}).get("handlers", {})),
        world_companion=meta.get("world", {}).get("companion"),
        scan=_scan_entry(meta.get("scan"), folder / "profile.toml", meta["roles"]),
        clauses=clauses,
        ambiguities=ambiguities,
    )


def _scan_entry(raw: dict | None, where: Path, roles: dict) -> ScanEntry | None:
    if raw is None:
        return None
    unknown = raw.keys() - {"entry", "roles", "paths"}
    if unknown:
        raise CatalogError(f"{where}: [scan] has unknown keys {sorted(unknown)}")
    entry = str(raw.get("entry", ""))
    if not (entry.startswith("/") or entry.startswith("dns:")):
        raise CatalogError(f"{where}: [scan] entry {entry!r} is neither a path (/...) nor dns:LABEL")
    bad = [r for r in raw.get("roles", []) if r not in roles]
    if bad or not raw.get("roles"):
        raise CatalogError(f"{where}: [scan] roles {bad or '[]'} are not roles of the profile ({', '.join(roles)})")
    paths = tuple(str(p) for p in raw.get("paths", []))
    if any(not p.startswith("/") for p in paths):
        raise CatalogError(f"{where}: [scan] paths must each start with /")
    return ScanEntry(entry=entry, roles=tuple(raw["roles"]), paths=paths)


_DECLARATION_KEYS = {"section", "quote", "role", "clauses", "type", "help", "min", "max", "values"}


def _declarations(raw: dict, where: Path, clauses: dict[str, Clause], roles: dict) -> dict[str, Declaration]:
    """``[declarations.NAME]`` of a profile, checked: every key known, the clauses of the
    catalog and of the declaration's role, the values well formed."""
    out: dict[str, Declaration] = {}
    for name, entry in raw.items():
        at = f"{where} [declarations.{name}]"
        if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name):
            raise CatalogError(f"{at}: a name is lower-case words joined by '-'")
        missing = {"section", "quote", "role", "clauses", "type", "help"} - entry.keys()
        if missing:
            raise CatalogError(f"{at}: missing {sorted(missing)}")
        unknown = entry.keys() - _DECLARATION_KEYS
        if unknown:
            raise CatalogError(f"{at}: unknown keys {sorted(unknown)}")
        if entry["role"] not in roles:
            raise CatalogError(f"{at}: role {entry['role']!r} not in {sorted(roles)}")
        for cid in entry["clauses"]:
            if cid not in clauses:
                raise CatalogError(f"{at}: {cid} is not a clause of the catalog")
            if clauses[cid].role != entry["role"]:
                raise CatalogError(f"{at}: {cid} is a {clauses[cid].role} clause, not a {entry['role']} one")
        kind = entry["type"]
        if kind not in ("flag", "integer", "enum"):
            raise CatalogError(f"{at}: type {kind!r} is not flag, integer or enum")
        if kind == "enum" and len(entry.get("values", ())) < 2:
            raise CatalogError(f"{at}: an enum lists at least two values")
        if kind == "integer" and not (isinstance(entry.get("min"), int) and isinstance(entry.get("max"), int)
                                      and entry["min"] <= entry["max"]):
            raise CatalogError(f"{at}: an integer has bounds min <= max")
        if kind != "enum" and "values" in entry or kind != "integer" and ({"min", "max"} & entry.keys()):
            raise CatalogError(f"{at}: values are for an enum, min and max for an integer")
        out[name] = Declaration(
            name=name, section=entry["section"], quote=" ".join(entry["quote"].split()), role=entry["role"],
            clauses=tuple(entry["clauses"]), type=kind, help=" ".join(entry["help"].split()),
            minimum=entry.get("min"), maximum=entry.get("max"), values=tuple(entry.get("values", ())))
    return out


def available() -> list[str]:
    """The drafts that have a profile."""
    root = profile_dir("x").parent
    return sorted(p.name for p in root.iterdir() if (p / "profile.toml").is_file())


@cache
def suite_bindings(suite: str) -> dict[str, tuple[str, ...]]:
    """Clause id -> names of the suite's test functions bound to it.

    Imports the suite's test modules (without running them) and reads the ``clause`` mark
    that :func:`conformance.outcomes.clause` put on each test.
    """
    bound: dict[str, list[str]] = {}
    for module_name in suite_modules(suite):
        module = importlib.import_module(f"{suite}.{module_name}")
        for name, obj in vars(module).items():
            if not name.startswith("test_") or not callable(obj):
                continue
            for mark in getattr(obj, "pytestmark", []):
                if mark.name == "clause":
                    bound.setdefault(mark.args[0], []).append(f"{module_name}::{name}")
    return {k: tuple(v) for k, v in bound.items()}


def suite_modules(suite: str) -> list[str]:
    """The suite's test modules, relative to it: ``test_2_1_dns_record``, and those of its
    subpackages dotted (``v2_1.test_2_1_record_format``: a revision's tests in a folder)."""
    package = importlib.import_module(suite)
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg:
            found += [f"{info.name}.{m}" for m in suite_modules(f"{suite}.{info.name}")]
        elif info.name.startswith("test_"):
            found.append(info.name)
    return found


def normalize_text(text: str) -> str:
    """Fold white space, as the catalog does, to compare quotes with a draft's text."""
    return " ".join(text.split())


def quote_in_draft(clause: Clause, draft_text: str) -> bool:
    """Is the clause's quoted sentence, as written, in the draft's text?"""
    return clause.text in normalize_text(draft_text)


def spec_path(profile: Profile, specs: Path) -> Path:
    return specs / profile.spec_file
