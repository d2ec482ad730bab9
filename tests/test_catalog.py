"""The clause catalog is complete, quotes the draft, and matches the suite both ways."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from conformance import catalog
from conformance.resources import profile_dir
from tests.conftest import every_revision

DRAFTS = catalog.available()
KEYWORDS = re.compile(r"\b(MUST NOT|MUST|REQUIRED|SHALL NOT|SHALL|SHOULD NOT|SHOULD|NOT RECOMMENDED|RECOMMENDED|MAY|OPTIONAL)\b")


@pytest.fixture(params=DRAFTS)
def profile(request: pytest.FixtureRequest) -> catalog.Profile:
    return catalog.load(request.param)


def test_every_quote_is_in_the_draft(profile: catalog.Profile, specs_dir: Path) -> None:
    text = (specs_dir / profile.spec_file).read_text("utf-8")
    missing = [c.id for c in profile.clauses.values() if not catalog.quote_in_draft(c, text)]
    assert not missing, f"quoted text not found verbatim in {profile.spec_file}: {missing}"


def test_every_lead_is_the_drafts_own_words(profile: catalog.Profile, specs_dir: Path) -> None:
    """A ``lead`` (the context a fragment is shown with: a table's header row, the sentence that
    introduces a list, the first half of a sentence) is display only, and still the draft's own
    words, found verbatim in it (its pilcrows aside)."""
    text = " ".join(catalog.normalize_text((specs_dir / profile.spec_file).read_text("utf-8")).replace("¶", " ").split())
    wrong = [c.id for c in profile.clauses.values() if c.lead and c.lead.replace("¶", " ") not in text]
    assert not wrong, f"leads not found verbatim in {profile.spec_file}: {wrong}"


def test_every_quote_holds_its_key_word(profile: catalog.Profile) -> None:
    wrong = [c.id for c in profile.clauses.values() if not c.implied and c.keyword not in KEYWORDS.findall(c.text)]
    assert not wrong, f"the quote does not contain the entry's key word: {wrong}"


def uncovered_keywords(text: str, quotes: list[str]) -> list[str]:
    """Key-word occurrences of the draft that no quote contains (with a little context).

    The draft is folded to single spaces; each occurrence of an RFC 2119 key word is covered
    when some entry's quote spans it: the quote occurs in the text at a place that includes
    the key word's position.
    """
    spans = []
    for q in quotes:
        start = text.find(q)
        while start != -1:
            spans.append((start, start + len(q)))
            start = text.find(q, start + 1)
    missing = []
    for m in KEYWORDS.finditer(text):
        if text[m.start() - 1: m.start()] == '"' and text[m.end(): m.end() + 1] == '"':
            continue  # "MUST" in quotes: the Requirements Language paragraph naming the key words
        if not any(a <= m.start() and m.end() <= b for a, b in spans):
            missing.append(text[max(0, m.start() - 60): m.end() + 40])
    return missing


def test_every_normative_sentence_is_catalogued(profile: catalog.Profile, specs_dir: Path) -> None:
    """Each key word of the draft (outside the Requirements Language) is inside a quote."""
    text = catalog.normalize_text((specs_dir / profile.spec_file).read_text("utf-8"))
    missing = uncovered_keywords(text, [c.text for c in profile.clauses.values()])
    assert not missing, "key words no catalog entry quotes:\n" + "\n".join(missing)


def test_the_completeness_check_can_fail(profile: catalog.Profile, specs_dir: Path) -> None:
    """Dropping any one MUST entry whose quote is unique leaves a key word uncovered."""
    text = catalog.normalize_text((specs_dir / profile.spec_file).read_text("utf-8"))
    quotes = [c.text for c in profile.clauses.values()]
    unique = [c for c in profile.clauses.values()
              if quotes.count(c.text) == 1 and c.level == "MUST" and not c.implied]
    for c in unique[:: max(1, len(unique) // 10)]:
        assert uncovered_keywords(text, [q for q in quotes if q != c.text]), f"dropping {c.id} went unnoticed"


def test_every_must_and_should_is_tested_or_untestable(profile: catalog.Profile) -> None:
    if not profile.complete:
        pytest.skip(f"the {profile.short} suite is being built (complete = false in its profile)")
    coverage = profile.coverage()
    gaps = [cid for cid, c in coverage.items()
            if c.clause.role in profile.roles_implemented and c.clause.level in ("MUST", "SHOULD")
            and c.status not in ("tested", "untestable")]
    assert not gaps, f"MUST/SHOULD entries neither tested nor marked untestable: {gaps}"


def test_untestable_entries_have_no_tests_and_a_reason(profile: catalog.Profile) -> None:
    for cid, c in profile.coverage().items():
        if c.clause.untestable is not None:
            assert not c.tests, f"{cid} is marked untestable yet {c.tests} check it"
            assert len(c.clause.untestable) > 20, f"{cid}: say why it cannot be tested"


def test_tests_name_only_catalogued_clauses(profile: catalog.Profile) -> None:
    """A test is bound to a clause of some revision of its draft (a -01 sentence has a -01 id)."""
    unknown = set(catalog.suite_bindings(profile.suite)) - every_revision(profile.short).clauses.keys()
    assert not unknown, f"tests bound to ids not in the catalog: {sorted(unknown)}"


def test_tests_bind_only_implemented_roles(profile: catalog.Profile) -> None:
    bound = catalog.suite_bindings(profile.suite)
    clauses = every_revision(profile.short).clauses
    wrong = [cid for cid in bound if clauses[cid].role not in profile.roles_implemented]
    assert not wrong, f"tests bound to clauses of roles without a suite: {wrong}"


def test_every_suite_test_is_bound_to_exactly_one_clause(profile: catalog.Profile) -> None:
    import importlib

    for module_name in catalog.suite_modules(profile.suite):  # a revision's folder too (aid's v2_1)
        module = importlib.import_module(f"{profile.suite}.{module_name}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("test_") and fn.__module__ == module.__name__:
                marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "clause"]
                assert len(marks) == 1, f"{module_name}::{name} has {len(marks)} clause marks"
                assert fn.__doc__, f"{module_name}::{name} should quote its requirement in a docstring"


def test_suite_modules_are_named_by_section(profile: catalog.Profile) -> None:
    """h2spec style: a test of clause §N.M lives in test_N_M_*.py (§N.M of a revision that holds
    it: -00's §6 is -01's §7, and its tests keep -00's names)."""
    from conformance import revisions

    held = [revisions.catalog_of(profile.short, r.name).clauses for r in revisions.revisions(profile.short)]
    for cid, tests in catalog.suite_bindings(profile.suite).items():
        sections = {c[cid].section for c in held if cid in c}
        for t in tests:
            module = t.split("::")[0].rsplit(".", 1)[-1]  # v2_1.test_2_1_x: the module's own name
            assert any(module.startswith("test_" + section.replace(".", "_") + "_")
                       or module.startswith("test_" + section.split(".")[0] + "_") for section in sections), \
                f"{t} checks §{' or §'.join(sorted(sections))}; it belongs in test_{sorted(sections)[0].replace('.', '_')}_*.py"


def test_must_coverage_at_least_85_percent(profile: catalog.Profile) -> None:
    coverage = [c for c in profile.coverage().values()
                if c.clause.role in profile.roles_implemented and c.clause.level == "MUST"]
    if not coverage or not profile.complete:
        pytest.skip(f"the {profile.short} suite is being built")
    tested = sum(c.status == "tested" for c in coverage)
    assert tested / len(coverage) >= 0.85, f"{tested}/{len(coverage)} MUST entries tested"


def test_published_ids_never_change(profile: catalog.Profile) -> None:
    ledger = profile_dir(profile.short) / "published-ids.txt"
    published = {}
    for line in ledger.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            cid, section, keyword = line.split()
            published[cid] = (section, keyword.replace("_", " "))
    for cid, (section, keyword) in published.items():
        assert cid in profile.clauses, f"published id {cid} was removed (retire it, never delete)"
        c = profile.clauses[cid]
        assert (c.section, c.keyword) == (section, keyword), f"published id {cid} changed meaning"
    new = profile.clauses.keys() - published.keys()
    assert not new, f"new ids {sorted(new)}: append them to {ledger.name} when you publish them"


def test_ambiguities_name_real_clauses(profile: catalog.Profile) -> None:
    for a in profile.ambiguities:
        unknown = set(a.clauses) - profile.clauses.keys()
        assert not unknown, f"{a.id} names unknown clauses {unknown}"
        assert a.interpretation, f"{a.id} must say how the kit reads it"
