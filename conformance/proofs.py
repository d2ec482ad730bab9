"""Which broken variants prove each clause test able to fail (the mutant floor).

A clause test is only as good as the broken implementations it is proven against. Two kinds
of proof count, and both are run by the kit's self-tests:

* a **built-in broken variant** (``fixtures/<draft>/mutants*.toml`` for publishers, providers
  and documents; the client role's file, e.g. ``agent-mutants.toml``): a reference
  implementation changed so that it violates exactly one clause (no ``also_fails``);
* a **named generated break** (``named_breaks()`` in ``conformance/<draft>/strategies.py``):
  a hypothesis strategy that turns any valid document drawn by the draft's strategies into one
  that violates exactly that clause, each name one *way* of breaking it.

Every tested MUST and SHOULD clause needs at least :data:`FLOOR` proofs that break it in
different ways, unless its sentence allows only one way (``[one_way]`` in
``profiles/<draft>/mutant-floor.toml``, one proof needed) or no break can violate it alone
(``[exempt]``: its test is proven by variants that also fail another clause), each listed
with the reason.

A draft that says one thing twice (a sentence restated in another section, judged by the same
observation) lists the restatement under ``[restates]``: ``"ID" = { same_as = "ID2", why =
"..." }``. A variant that fails a clause and only its restatements proves each of them.
A clause whose every violation is also a violation of broader ones lists them under
``[implies]``: ``"ID" = { also = ["ID2"], why = "..." }``; a variant that fails the clause
and only what it implies proves the clause.
"""

from __future__ import annotations

import importlib
import tomllib
from functools import cache

from conformance.catalog import Profile
from conformance.resources import profile_dir

#: The number of distinct proofs each tested MUST/SHOULD clause needs.
FLOOR = 2


def proofs(profile: Profile) -> dict[str, tuple[str, ...]]:
    """Clause id -> the names of the broken variants proven to fail exactly it.

    ``builtin:NAME`` is a built-in broken implementation (``adck run DRAFT --target
    builtin:NAME``, with ``--role`` for a client); ``generated:NAME`` a named break of the
    draft's hypothesis strategies.
    """
    return _proofs(profile.short)


@cache
def _proofs(short: str) -> dict[str, tuple[str, ...]]:
    from conformance import catalog
    from conformance.world.site import load_mutants

    profile = catalog.load(short)
    found: dict[str, list[str]] = {}
    files = ["mutants.toml"] + ([profile.client.mutants] if profile.client else [])
    groups = _restatement_groups(short)
    implied = _implied(short)
    for file in files:
        for m in load_mutants(profile.short, file=file).values():
            if not m.clause:
                continue
            group = groups.get(m.clause, {m.clause})
            if set(m.also_fails) <= group:  # fails exactly one statement, said once or several times
                for cid in sorted(group if m.also_fails else {m.clause}):
                    found.setdefault(cid, []).append(f"builtin:{m.name}")
            elif set(m.also_fails) <= group | implied.get(m.clause, set()):  # and what it always implies
                found.setdefault(m.clause, []).append(f"builtin:{m.name}")
    try:
        strategies = importlib.import_module(f"{profile.suite}.strategies")
    except ModuleNotFoundError:
        strategies = None
    named = getattr(strategies, "named_breaks", None)
    if callable(named):
        for cid, names in named().items():
            found.setdefault(cid, []).extend(f"generated:{n}" for n in names)
    return {cid: tuple(names) for cid, names in found.items()}


def restates(profile: Profile) -> dict[str, dict]:
    """Clauses that restate another (``[restates]``): id -> {same_as, why}."""
    return _floor_table(profile.short, "restates")  # type: ignore[return-value]


def _restatement_groups(short: str) -> dict[str, set[str]]:
    """Clause id -> the set of clauses saying the same thing (itself included)."""
    groups: dict[str, set[str]] = {}
    for cid, entry in _floor_table(short, "restates").items():
        other = entry["same_as"] if isinstance(entry, dict) else str(entry)
        group = groups.get(cid, {cid}) | groups.get(other, {other})
        for member in group:
            groups[member] = group
    return groups


def implies(profile: Profile) -> dict[str, set[str]]:
    """Clauses whose every violation is also one of broader clauses (``[implies]``): id -> those."""
    return _implied(profile.short)


def _implied(short: str) -> dict[str, set[str]]:
    return {cid: set(entry["also"]) for cid, entry in _floor_table(short, "implies").items()}


def one_way(profile: Profile) -> dict[str, str]:
    """Tested clauses whose sentence allows a single way of breaking it, with the reason:
    ``[one_way]`` of ``mutant-floor.toml`` (one proof needed)."""
    return _floor_table(profile.short, "one_way")


def exempt(profile: Profile) -> dict[str, str]:
    """Tested clauses no break can violate alone (another clause always fails with it), with
    the reason: ``[exempt]`` of ``mutant-floor.toml``. Their tests are still proven able to
    fail, by broken variants that name the other clause in ``also_fails``."""
    return _floor_table(profile.short, "exempt")


@cache
def _floor_table(short: str, table: str) -> dict[str, str]:
    folder = profile_dir(short)
    out: dict[str, str] = {}
    # mutant-floor.toml, and mutant-floor-<role>.toml when a draft's list is split by role
    for path in [folder / "mutant-floor.toml"] + sorted(folder.glob("mutant-floor-*.toml")):
        if path.exists():
            out.update(tomllib.loads(path.read_text("utf-8")).get(table, {}))
    return out


def floor(profile: Profile, clause_id: str) -> int:
    """How many distinct proofs the clause needs."""
    if clause_id in exempt(profile):
        return 0
    return 1 if clause_id in one_way(profile) else FLOOR
