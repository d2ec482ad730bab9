"""The mutant floor: every tested MUST and SHOULD clause is proven able to fail by at least
two broken variants that break it in different ways, unless its sentence allows only one
(``profiles/<draft>/mutant-floor.toml``, with the reason). See :mod:`conformance.proofs`.

That each listed variant really fails exactly its clause is proven elsewhere: built-in
variants by the mutant tests of each role, named generated breaks by the property tests.
"""

from __future__ import annotations

import pytest

from conformance import catalog, proofs
from tests.conftest import every_revision

SLICES = [(d, role) for d in catalog.available() for role in catalog.load(d).roles_implemented]


@pytest.mark.parametrize(("draft", "role"), SLICES, ids=[f"{d}-{r}" for d, r in SLICES])
def test_each_tested_clause_meets_the_floor(draft: str, role: str) -> None:
    """Every revision's clauses: a sentence of any revision the suite judges is held to it."""
    profile = every_revision(draft)
    proven = proofs.proofs(profile)
    short = {
        cid: list(proven.get(cid, ()))
        for cid, cov in profile.coverage().items()
        if cov.status == "tested" and cov.clause.level in ("MUST", "SHOULD") and cov.clause.role == role
        and len(set(proven.get(cid, ()))) < proofs.floor(profile, cid)
    }
    assert short == {}, (
        f"{len(short)} tested {draft} {role} clause(s) below the mutant floor "
        f"({proofs.FLOOR}, or 1 when mutant-floor.toml says the sentence allows one way): {short}")


@pytest.mark.parametrize("draft", catalog.available())
def test_one_way_entries_are_sound(draft: str) -> None:
    """A clause excused from the floor is a tested clause of the draft, with a reason."""
    profile = every_revision(draft)
    coverage = profile.coverage()
    for cid, why in {**proofs.one_way(profile), **proofs.exempt(profile)}.items():
        assert cid in profile.clauses, f"mutant-floor.toml names unknown clause {cid}"
        assert coverage[cid].status == "tested", f"{cid} is excused from the floor but is not tested"
        assert len(why) > 20, f"{cid}: say why its sentence allows fewer ways of breaking it"
    from conformance.world.site import load_mutants

    files = ["mutants.toml"] + ([profile.client.mutants] if profile.client else [])
    named = {cid for f in files for m in load_mutants(draft, file=f).values() for cid in (m.clause, *m.also_fails)}
    for cid in proofs.exempt(profile):
        assert cid in named, f"{cid} is exempt from the floor, yet no broken variant fails it at all"

