"""A draft's revisions as data, and what one changes relative to another (issue #23).

``profiles/<draft>/revisions.toml`` lists the revisions the kit knows, oldest first. The
first is the draft's catalog (``clauses.toml``); each later one is the revision before it
changed by ``changes`` (``revisions/<name>.toml``):

* ``[sections]``: an unchanged sentence whose section number moved keeps its id;
* ``[removed]``: a sentence the revision no longer holds (id -> what became of it);
* ``[[clause]]``: a sentence that is new or changed, with a new id (``replaces`` names the
  entry it is the changed form of), in the format of clauses.toml;
* ``[[ambiguity]]`` opened and ``[resolved]`` (id -> how the text resolves it).

No whole-catalog copy per revision: a clause whose sentence is unchanged is one entry, one id,
in every revision. A draft without ``revisions.toml`` has one revision, its catalog's. Nothing
here is particular to a draft: the next draft's revisions are data only.

``DRAFT@REV`` names a revision (``aiendpoint@01``), ``DRAFT@A,B`` several, ``DRAFT@all``
every one; :func:`parse` reads it. :func:`diff` says what changed between two revisions, in
data first (:class:`Diff`), then Markdown (:func:`to_markdown`) and JSON (:func:`to_json`).
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field, replace
from functools import cache

from conformance import catalog
from conformance.catalog import Ambiguity, CatalogError, Clause
from conformance.resources import profile_dir


@dataclass(frozen=True)
class Revision:
    """One revision of a draft: its name after ``@``, the draft's id, date, text and source."""

    short: str
    name: str
    draft: str
    date: str = ""
    spec_file: str = ""
    source: str = ""
    #: The file of what it changes relative to the revision before it (None: the first).
    changes: str | None = None
    #: How reports title it (the profile's title when not given).
    title: str = ""
    #: Whether ``adck run`` judges it yet (the suite knows its sentences): a revision whose
    #: catalog is recorded before its tests are built is listed, diffed and shown, not run.
    judged: bool = True
    #: The reference client of this revision and its variants, where it is not the draft's
    #: ([client] of the profile): ``adapter``, ``variants``, ``mutants`` (a revision whose
    #: client sentences a client of the revision before cannot meet, AID v1 -> v1.2).
    client: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        """``aiendpoint@01``: how a report, a verdict and a badge name it."""
        return f"{self.short}@{self.name}"


@dataclass(frozen=True)
class Catalog:
    """The clauses and ambiguities of one revision; ``sections`` holds each clause's section
    in this revision (an unchanged sentence keeps its id where its section number moved)."""

    revision: Revision
    clauses: dict[str, Clause]
    ambiguities: dict[str, Ambiguity]
    #: Id -> what became of it, for each clause of earlier revisions this one no longer holds.
    removed: dict[str, str] = field(default_factory=dict)
    #: New id -> the id of the earlier clause whose sentence it is the changed form of.
    replaces: dict[str, str] = field(default_factory=dict)
    #: Ambiguity id -> how this revision's text, or an earlier one's, resolved it.
    resolved: dict[str, str] = field(default_factory=dict)


def _implicit(short: str) -> Revision:
    profile = catalog.load(short)
    tail = profile.draft.rsplit("-", 1)[-1]
    # draft-gaikwad-woa-00 -> "00"; aid-v1-2025-06-19 -> "v1"
    name = tail if profile.draft.startswith("draft-") and tail.isdigit() else \
        profile.draft.removeprefix(f"{short}-").split("-", 1)[0]
    return Revision(short=short, name=name, draft=profile.draft, spec_file=profile.spec_file,
                    source="the text the project received (../shared/specs/README.md)")


@cache
def revisions(short: str) -> tuple[Revision, ...]:
    """Every revision of ``short`` the kit knows, oldest first."""
    catalog.load(short)  # an unknown draft is the catalog's one-line error
    path = profile_dir(short) / "revisions.toml"
    if not path.is_file():
        return (_implicit(short),)
    raw = tomllib.loads(path.read_text("utf-8")).get("revision", [])
    out = []
    for n, entry in enumerate(raw):
        if not entry.get("name") or not entry.get("draft"):
            raise CatalogError(f"{path}: revision {n + 1} needs a name and a draft")
        if n and not entry.get("changes"):
            raise CatalogError(f"{path}: revision {entry['name']} is not the first: it needs `changes`")
        out.append(Revision(short=short, name=str(entry["name"]), draft=entry["draft"], date=str(entry.get("date", "")),
                            spec_file=entry.get("spec_file", ""), source=" ".join(str(entry.get("source", "")).split()),
                            changes=entry.get("changes") if n else None, judged=bool(entry.get("judged", True)),
                            title=str(entry.get("title", "")),
                            client=tuple((str(k), str(v)) for k, v in entry.get("client", {}).items())))
    names = [r.name for r in out]
    if not out or len(names) != len(set(names)):
        raise CatalogError(f"{path}: revisions must be listed, each name once (got {names})")
    return tuple(out)


def judged(short: str) -> Revision:
    """The revision ``adck run DRAFT`` judges without ``@``: the newest the suite judges."""
    return [r for r in revisions(short) if r.judged][-1]


def parse(spec: str) -> tuple[str, list[Revision]]:
    """``DRAFT``, ``DRAFT@REV``, ``DRAFT@A,B`` or ``DRAFT@all`` -> (draft, revisions named);
    a bare draft names the revision ``adck run`` judges (:func:`judged`). :class:`CatalogError`
    (one line) for a revision the kit does not know, naming those it does."""
    short, at, names = spec.partition("@")
    known = revisions(short)
    if not at:
        return short, [judged(short)]
    if names.strip() == "all":
        return short, list(known)
    by_name = {r.name: r for r in known}
    chosen = []
    for name in (n.strip().removeprefix("-") for n in names.split(",")):
        if name not in by_name:
            raise CatalogError(f"{short} has no revision {name!r}; the kit knows "
                               f"{', '.join(r.name for r in known)} (adck revisions {short})")
        if by_name[name] not in chosen:
            chosen.append(by_name[name])
    if not chosen:
        raise CatalogError(f"{spec!r}: name a revision after @ ({', '.join(r.name for r in known)}, or all)")
    return short, chosen


def judgeable(spec: str) -> tuple[str, list[Revision]]:
    """:func:`parse`, and a :class:`CatalogError` (one line) when a revision named is catalogued
    but not judged yet: what ``adck run`` and ``pytest --adck-draft`` take."""
    short, chosen = parse(spec)
    waiting = [r for r in chosen if not r.judged]
    if waiting:
        raise CatalogError(f"{waiting[0].label} is catalogued (adck clauses {waiting[0].label}, adck diff) but the "
                           f"suite does not judge it yet; judge {judged(short).label}")
    return short, chosen


@cache
def catalog_of(short: str, name: str) -> Catalog:
    """The clauses and ambiguities of revision ``name`` of ``short``."""
    profile = catalog.load(short)
    known = revisions(short)
    index = next((i for i, r in enumerate(known) if r.name == name), None)
    if index is None:
        raise CatalogError(f"{short} has no revision {name!r}; the kit knows {', '.join(r.name for r in known)}")
    revision = known[index]
    if index == 0:
        return Catalog(revision=revision, clauses=dict(profile.clauses),
                       ambiguities={a.id: a for a in profile.ambiguities})
    before = catalog_of(short, known[index - 1].name)
    path = profile_dir(short) / str(revision.changes)
    raw = tomllib.loads(path.read_text("utf-8"))
    clauses = dict(before.clauses)
    removed = dict(before.removed)
    for cid, why in raw.get("removed", {}).items():
        if cid not in clauses:
            raise CatalogError(f"{path}: [removed] {cid} is not a clause of {known[index - 1].label}")
        del clauses[cid]
        removed[cid] = " ".join(str(why).split())
    for cid, section in raw.get("sections", {}).items():
        if cid not in clauses:
            raise CatalogError(f"{path}: [sections] {cid} is not a clause of {revision.label}")
        clauses[cid] = replace(clauses[cid], section=str(section))
    replaces = dict(before.replaces)
    meta = {"roles": profile.roles}
    for n, entry in enumerate(raw.get("clause", []), 1):
        where = f"{path} entry {n} ({entry.get('id', '?')})"
        if entry.get("id") in clauses or entry.get("id") in removed:
            raise CatalogError(f"{where}: the id is taken; a new or changed sentence gets a new id")
        old = entry.pop("replaces", None)
        if old is not None and old not in raw.get("removed", {}):
            raise CatalogError(f"{where}: replaces {old}, which [removed] does not list")
        clauses[entry["id"]] = catalog.clause_of(entry, where, meta["roles"])
        if old:
            replaces[entry["id"]] = old
    clauses = _in_text_order(clauses, before.clauses, replaces)
    ambiguities = dict(before.ambiguities)
    newly = {aid: " ".join(str(how).split()) for aid, how in raw.get("resolved", {}).items()}
    for aid in newly:
        if aid not in ambiguities:
            raise CatalogError(f"{path}: [resolved] {aid} is not an ambiguity of {known[index - 1].label}")
        del ambiguities[aid]
    resolved = {**before.resolved, **newly}  # as removed: a diff across several revisions says how each went
    for a in raw.get("ambiguity", []):
        if a["id"] in ambiguities or a["id"] in before.resolved:
            raise CatalogError(f"{path}: ambiguity {a['id']} is taken")
        ambiguities[a["id"]] = Ambiguity(id=a["id"], title=a["title"], sections=tuple(a.get("sections", ())),
                                         clauses=tuple(a.get("clauses", ())), text=" ".join(a["text"].split()),
                                         interpretation=" ".join(a["interpretation"].split()))
    return Catalog(revision=revision, clauses=clauses, ambiguities=ambiguities, removed=removed,
                   replaces=replaces, resolved=resolved)


def _in_text_order(clauses: dict[str, Clause], earlier: dict[str, Clause],
                   replaces: dict[str, str]) -> dict[str, Clause]:
    """The catalog in the order of the text: a changed sentence where the one it replaces stood,
    a new one after the last clause of its section (or of the section before it)."""
    order = [cid for cid in earlier]  # the earlier revision's order, removed ids kept as anchors
    for cid, clause in clauses.items():
        if cid in order:
            continue
        if replaces.get(cid) in order:
            at = order.index(replaces[cid]) + 1
            while at < len(order) and order[at] not in earlier:  # after what already replaced it
                at += 1
        else:
            same = [i for i, o in enumerate(order) if o in clauses and _section_key(clauses[o].section)
                    <= _section_key(clause.section)]
            at = same[-1] + 1 if same else len(order)
        order.insert(at, cid)
    return {cid: clauses[cid] for cid in order if cid in clauses}


def _section_key(section: str) -> tuple:
    """"4.1" < "6" < "7.2" < "A.2": appendices (a letter) after every numbered section."""
    return tuple(int(p) if p.isdigit() else 1000 + ord(p[:1] or "\0") for p in section.split("."))


@cache
def run_profile(short: str, names: tuple[str, ...]) -> catalog.Profile:
    """What one run judging the revisions ``names`` (oldest first) checks: the newest one's
    profile, its clauses widened by every clause only an older one holds. A test runs once for
    its clause, whichever revisions hold it; each revision's verdict is then read from the
    results of its own clauses (:func:`profile_of`)."""
    newest = profile_of(short, names[-1])
    clauses = dict(newest.clauses)
    ambiguities = {a.id: a for a in newest.ambiguities}
    for name in names[:-1]:
        older = profile_of(short, name)
        clauses.update({cid: c for cid, c in older.clauses.items() if cid not in clauses})
        ambiguities.update({a.id: a for a in older.ambiguities if a.id not in ambiguities})
    return replace(newest, clauses=clauses, ambiguities=tuple(ambiguities.values()))


def judged_profile(short: str) -> catalog.Profile:
    """Every revision the suite judges at once (:func:`run_profile` of them all): the clauses a
    test or a built-in variant of the draft may name."""
    return run_profile(short, tuple(r.name for r in revisions(short) if r.judged))


@cache
def profile_of(short: str, name: str) -> catalog.Profile:
    """The draft's profile as revision ``name`` has it: its draft id and text, its clauses (section
    numbers of that revision) and its ambiguities; roles, levels and the rest are the draft's."""
    cat, base = catalog_of(short, name), catalog.load(short)
    client = base.client
    if cat.revision.client and client is not None:
        client = replace(client, **dict(cat.revision.client))
    return replace(base, draft=cat.revision.draft, title=cat.revision.title or base.title, client=client,
                   spec_file=cat.revision.spec_file or base.spec_file, clauses=dict(cat.clauses),
                   ambiguities=tuple(cat.ambiguities.values()), revision=cat.revision.name)


def every_clause(short: str) -> set[str]:
    """Every clause id of every revision of ``short``: what a suite's test may be bound to."""
    return {cid for r in revisions(short) for cid in catalog_of(short, r.name).clauses}


def holding(short: str, clause_id: str) -> Revision | None:
    """The newest judged revision whose catalog holds ``clause_id`` (None: none does)."""
    held = [r for r in revisions(short) if r.judged and clause_id in catalog_of(short, r.name).clauses]
    return held[-1] if held else None


def draft_text(raw: str) -> str:
    """A revision's text as its catalog quotes it: xml2rfc's page furniture (the ``[Page N]``
    footer, the form feed and the running header after it) dropped, white space folded."""
    lines = raw.split("\n")  # not splitlines(): it takes the form feed for a line break
    kept = []
    for i, line in enumerate(lines):
        if "\f" in line or re.search(r"\[Page \d+\]\s*$", line):
            continue
        if i and "\f" in lines[i - 1]:  # the running header after a page break
            continue
        kept.append(line)
    return catalog.normalize_text("\n".join(kept))


# ------------------------------------------------------------------ what changed


@dataclass(frozen=True)
class Changed:
    """A sentence of ``a`` whose changed form is in ``b``: both clauses and the word diff."""

    old: Clause
    new: Clause
    words: str

    @property
    def keyword_changed(self) -> bool:
        return self.old.keyword != self.new.keyword

    @property
    def level_changed(self) -> bool:
        return self.old.level != self.new.level


@dataclass(frozen=True)
class Diff:
    a: Revision
    b: Revision
    added: list[Clause]
    removed: list[tuple[Clause, str]]
    changed: list[Changed]
    moved: list[tuple[Clause, str, str]]
    opened: list[Ambiguity]
    resolved: list[tuple[Ambiguity, str]]
    #: Clause id -> the suite's tests bound to it, for every clause the diff names.
    tests: dict[str, tuple[str, ...]]


def word_diff(old: str, new: str) -> str:
    """``old`` -> ``new`` word by word: ``[-removed-]`` and ``{+added+}``, as git's word diff."""
    a, b = old.split(), new.split()
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out += a[i1:i2]
            continue
        if i2 > i1:
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def diff(short: str, a: str, b: str) -> Diff:
    """What revision ``b`` of ``short`` changes relative to revision ``a``."""
    ca, cb = catalog_of(short, a), catalog_of(short, b)
    gone = [cid for cid in ca.clauses if cid not in cb.clauses]
    # the clauses of b that replace one of a (through any revisions between them)
    replaced_by: dict[str, str] = {}
    for new, old in cb.replaces.items():
        if new not in cb.clauses:  # a link of a revision between them, whose new sentence b removed again
            continue
        while old not in ca.clauses and old in cb.replaces:  # a chain across revisions
            old = cb.replaces[old]
        if old in ca.clauses and new not in ca.clauses:
            replaced_by[old] = new
    changed = [Changed(ca.clauses[old], cb.clauses[new], word_diff(ca.clauses[old].text, cb.clauses[new].text))
               for old, new in replaced_by.items()]
    removed = [(ca.clauses[cid], cb.removed.get(cid, "")) for cid in gone if cid not in replaced_by]
    added = [c for cid, c in cb.clauses.items() if cid not in ca.clauses and cid not in replaced_by.values()]
    moved = [(cb.clauses[cid], ca.clauses[cid].section, cb.clauses[cid].section) for cid in cb.clauses
             if cid in ca.clauses and ca.clauses[cid].section != cb.clauses[cid].section]
    opened = [amb for aid, amb in cb.ambiguities.items() if aid not in ca.ambiguities]
    resolved = [(ca.ambiguities[aid], cb.resolved.get(aid, "")) for aid in ca.ambiguities if aid not in cb.ambiguities]
    bound = catalog.suite_bindings(catalog.load(short).suite)
    named = {c.id for c in added} | {c.id for c, _ in removed} | {x.old.id for x in changed} | {x.new.id for x in changed}
    return Diff(a=ca.revision, b=cb.revision, added=added, removed=removed, changed=changed, moved=moved,
                opened=opened, resolved=resolved, tests={cid: tuple(bound.get(cid, ())) for cid in sorted(named)})


def to_json(d: Diff) -> dict:
    def clause(c: Clause) -> dict:
        return {"id": c.id, "section": c.section, "keyword": c.keyword, "level": c.level, "role": c.role,
                "text": c.text}

    return {
        "draft": d.a.short, "from": {"revision": d.a.name, "draft": d.a.draft, "date": d.a.date},
        "to": {"revision": d.b.name, "draft": d.b.draft, "date": d.b.date},
        "added": [clause(c) for c in d.added],
        "removed": [dict(clause(c), why=why) for c, why in d.removed],
        "changed": [{"from": clause(x.old), "to": clause(x.new), "words": x.words,
                     "keyword_changed": x.keyword_changed, "level_changed": x.level_changed} for x in d.changed],
        "renumbered": [{"id": c.id, "from": old, "to": new} for c, old, new in d.moved],
        "ambiguities_opened": [{"id": a.id, "title": a.title, "clauses": list(a.clauses)} for a in d.opened],
        "ambiguities_resolved": [{"id": a.id, "title": a.title, "how": how} for a, how in d.resolved],
        "tests": {cid: list(t) for cid, t in d.tests.items()},
    }


def _code(text: str) -> str:
    """Text in a Markdown code span that it cannot close (its longest backtick run, plus one)."""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def to_markdown(d: Diff) -> str:
    """The diff a person reads: counts first, then each kind of change, every sentence quoted."""

    named = {c.id: c for c in (*d.added, *(c for c, _ in d.removed), *(x.old for x in d.changed),
                                *(x.new for x in d.changed))}

    def tests(cid: str) -> str:
        bound = d.tests.get(cid, ())
        if bound:
            return ", ".join(f"`{t}`" for t in bound)
        clause = named.get(cid)
        if clause is not None and clause.untestable:
            return "none, catalogued untestable (`adck clauses` says why)"
        if clause is not None and clause.level == "MAY":
            return "none (a MAY: what it permits is judged by the clauses it gates)"
        return "no test yet"

    def rev(r: Revision) -> str:
        return f"-{r.name}" if r.name.isdigit() else r.name

    lines = [f"# {d.a.short}: {rev(d.a)} to {rev(d.b)}", "",
             f"`adck diff {d.a.label} {d.b.label}`: what {d.b.draft} ({d.b.date or 'undated'}) changes relative "
             f"to {d.a.draft} ({d.a.date or 'undated'}), from the kit's catalogs "
             f"(`profiles/{d.a.short}/`). A sentence that is the same, word for word, keeps its id.", "",
             f"| added | removed | changed | renumbered | ambiguities opened | ambiguities resolved |",
             "|---|---|---|---|---|---|",
             f"| {len(d.added)} | {len(d.removed)} | {len(d.changed)} | {len(d.moved)} | {len(d.opened)} | "
             f"{len(d.resolved)} |"]
    if d.changed:
        lines += ["", "## Changed sentences", "",
                  "Each with its word diff (`[-removed-]`, `{+added+}`); the id changes, since a published "
                  "clause's sentence never does."]
        for x in d.changed:
            level = (f" **level {x.old.level} -> {x.new.level}** ({x.old.keyword} -> {x.new.keyword})"
                     if x.level_changed else f" (key word {x.old.keyword} -> {x.new.keyword})" if x.keyword_changed
                     else f" ({x.new.keyword})")
            lines += ["", f"### {x.old.id} (§{x.old.section}) -> {x.new.id} (§{x.new.section}){level}", "",
                      f"- words: {_code(x.words)}", f"- tests of {x.old.id}: {tests(x.old.id)}",
                      f"- tests of {x.new.id}: {tests(x.new.id)}"]
    if d.added:
        lines += ["", "## Added", ""]
        lines += [f"- **{c.id}** (§{c.section}, {c.keyword}, {c.role}): {_code(c.text)}; tests: {tests(c.id)}"
                  for c in d.added]
    if d.removed:
        lines += ["", "## Removed", ""]
        lines += [f"- **{c.id}** (§{c.section}, {c.keyword}, {c.role}): {_code(c.text)}; {why}; tests: {tests(c.id)}"
                  for c, why in d.removed]
    if d.moved:
        lines += ["", "## Renumbered (the sentence unchanged, the id kept)", "",
                  "| id | key word | section in -" + d.a.name + " | section in -" + d.b.name + " |", "|---|---|---|---|"]
        lines += [f"| {c.id} | {c.keyword} | {old} | {new} |" for c, old, new in d.moved]
    if d.opened:
        lines += ["", "## Ambiguities the new text opens", ""]
        lines += [f"- **{a.id}** {a.title} ({', '.join(a.clauses)})" for a in d.opened]
    if d.resolved:
        lines += ["", "## Ambiguities the new text resolves", ""]
        lines += [f"- **{a.id}** {a.title}: {how}" for a, how in d.resolved]
    return "\n".join(lines) + "\n"
