"""Declarations (issue 19, point 4): the choices a draft leaves to the implementation ("local
policy", "documented behavior") can be stated with ``--declare NAME[=VALUE]`` (``--adck-declare``
on the plain pytest route, ``declare=`` in ``api.run``). Each lives in its draft's profile as
data; a mistake is exit 2 in one line naming the draft's declarations; a declared choice changes
what its clauses accept and is checked, never passed by itself; every report format and the
badge say what the verdict was reached under; a built-in variant that makes a choice declares it
itself, and its runs apply it.

Nothing here leaves loopback.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import replace
from pathlib import Path

import pytest

from conformance import catalog, cli, preflight
from conformance.catalog import CatalogError, Declaration
from conformance.targets import builtin
from conformance.world.site import load_mutants
from tests.conftest import failing, quiet_run
from tests.test_operator_mistakes import no_requests, refused  # noqa: F401 - a fixture, and the one-line check

FIXTURES = Path(__file__).parents[1] / "fixtures"
SCHEMA = Path(__file__).parents[1] / "conformance" / "reports" / "report.schema.json"


def _variants(draft: str, table: str) -> dict:
    profile = catalog.load(draft)
    found = dict(load_mutants(draft, table))
    if profile.client and table == "mutants":
        found |= load_mutants(draft, table, file=profile.client.mutants)
    return found


# -- 1. the profiles ---------------------------------------------------------------------------

def test_the_three_newer_drafts_define_the_declarations_the_kit_needs() -> None:
    assert set(catalog.load("adp").declarations) == {"strict-validation", "stale-results-allowed", "transparent-relay",
                                                     "unknown-constraints-hard"}
    assert set(catalog.load("aidre").declarations) == {"max-top-k", "top-k-above-max", "default-top-k",
                                                       "unsupported-return-field", "normalizes-query-vectors"}
    assert catalog.load("woa").declarations == {}  # no choice of its leaves the kit unable to judge


@pytest.mark.parametrize("draft", ["adp", "aidre"])
def test_each_declaration_quotes_its_draft_and_names_clauses_of_its_role(draft: str, specs_dir: Path) -> None:
    profile = catalog.load(draft)
    text = catalog.normalize_text((specs_dir / profile.spec_file).read_text("utf-8"))
    for d in profile.declarations.values():
        assert d.quote in text, f"{d.name}: its quote is not the draft's sentence"
        assert d.section in {profile.clauses[c].section for c in d.clauses} | {d.section}
        assert d.clauses and all(profile.clauses[c].role == d.role for c in d.clauses), d.name
        assert d.help and len(d.help) > 40, d.name
        # the tests of the clauses it changes read it (the adck_declarations fixture)
        tests = [t for c in d.clauses for t in profile.coverage()[c].tests]
        assert tests, f"{d.name}: no test checks {d.clauses}"


def test_declaration_values_parse_by_their_type() -> None:
    flag = Declaration("strict", "4.7", "q", "service", ("X",), "flag", "h")
    number = Declaration("max", "18.1", "q", "server", ("X",), "integer", "h", minimum=1, maximum=10)
    choice = Declaration("mode", "18.1", "q", "server", ("X",), "enum", "h", values=("reject", "clamp"))
    assert flag.parse(None) is True and number.parse("7") == 7 and choice.parse("clamp") == "clamp"
    for declaration, value, words in [(flag, "yes", "takes no value"), (number, None, "needs a value"),
                                      (number, "0", "out of bounds"), (number, "11", "out of bounds"),
                                      (number, "ten", "not an integer"), (number, "1.5", "not an integer"),
                                      (choice, "drop", "not a value it takes"), (choice, "", "needs a value")]:
        with pytest.raises(ValueError, match=words):
            declaration.parse(value)
    assert (flag.usage(), number.usage(), choice.usage()) == ("strict", "max=N", "mode=reject|clamp")


@pytest.mark.parametrize(("entry", "words"), [
    ({"type": "flag", "clauses": ["ADP-9.9-99"]}, "not a clause of the catalog"),
    ({"type": "flag", "clauses": ["ADP-4.1-01"]}, "is a document clause, not a service one"),
    ({"type": "number"}, "is not flag, integer or enum"),
    ({"type": "enum", "values": ["one"]}, "at least two values"),
    ({"type": "integer", "min": 5, "max": 1}, "bounds min <= max"),
    ({"type": "flag", "min": 1}, "values are for an enum"),
    ({"type": "flag", "extra": 1}, "unknown keys"),
    ({"type": "flag", "role": "nobody"}, "role 'nobody'"),
])
def test_a_malformed_declaration_is_a_catalog_error(entry: dict, words: str) -> None:
    profile = catalog.load("adp")
    base = {"section": "4.7", "quote": "q", "role": "service", "clauses": ["ADP-4.7-01"], "help": "h"}
    with pytest.raises(CatalogError, match=words):
        catalog._declarations({"x-y": base | entry}, Path("profile.toml"), profile.clauses, profile.roles)
    with pytest.raises(CatalogError, match="missing"):
        catalog._declarations({"x-y": {"type": "flag"}}, Path("profile.toml"), profile.clauses, profile.roles)


def test_every_variant_declares_what_its_draft_takes_and_what_its_clause_needs() -> None:
    """A variant's ``declare`` parses against its draft's profile, and a broken variant that
    declares something breaks a clause its declarations change (the proof is about them)."""
    seen = 0
    for draft in catalog.available():
        profile = catalog.load(draft)
        for table in ("mutants", "conforming"):
            for m in _variants(draft, table).values():
                if not m.declare:
                    continue
                seen += 1
                parsed = preflight._parse_declarations(profile, m.declare, f"{m.name}: declare")
                if m.clause:
                    assert m.clause in {c for n in parsed for c in profile.declarations[n].clauses}, m.name
    assert seen >= 20


# -- 2. operator mistakes: exit 2 in one line, naming the draft's declarations -------------------

DOC = str(FIXTURES / "adp" / "document.json")


@pytest.mark.parametrize(("argv", "words"), [
    (["adp", "--target", "builtin", "--declare", "max-top-k=50"],
     "--declare max-top-k=50: a declaration of aidre, not of adp; adp's declarations: strict-validation, "
     "stale-results-allowed, transparent-relay, unknown-constraints-hard"),
    (["adp", "--target", "builtin", "--declare", "lenient"], "not a declaration of adp; adp's declarations:"),
    (["woa", "--target", "builtin", "--declare", "strict-validation"], "woa defines no declarations"),
    (["aidre", "--target", "builtin", "--declare", "max-top-k=0"],
     "--declare max-top-k=0: out of bounds (an integer from 1 to 1000000); aidre's declarations: max-top-k=N, "
     "top-k-above-max=reject|clamp"),
    (["aidre", "--target", "builtin", "--declare", "max-top-k"], "it needs a value: --declare max-top-k=N"),
    (["aidre", "--target", "builtin", "--declare", "top-k-above-max=drop"], "not a value it takes (one of reject, clamp)"),
    (["adp", "--target", "builtin", "--declare", "strict-validation=yes"], "a flag, it takes no value"),
    (["aidre", "--target", "builtin", "--declare", "max-top-k=5", "--declare", "max-top-k=6"], "declared twice"),
    (["adp", "--target", DOC, "--declare", "strict-validation"],
     "--declare strict-validation does not apply: it changes service clauses (ADP-4.7-01, ADP-4.7-02), and a "
     "document on its own is checked in the document role only"),
    (["adp", "--target", "builtin", "--role", "document", "--declare", "strict-validation"],
     "--role document leaves the service role out; drop --declare strict-validation"),
    (["aidre", "--role", "client", "--target", "builtin", "--declare", "max-top-k=50"],
     "the built-in client of aidre is checked in the client role only"),
    (["aidre", "--target", "builtin:clamps-at-documented-maximum", "--declare", "max-top-k=60"],
     "builtin:clamps-at-documented-maximum declares max-top-k=50 itself"),
])
def test_a_wrong_declaration_is_refused_in_one_line(argv, words, capsys, tmp_path, no_requests) -> None:
    reports = tmp_path / "r"
    refused(capsys, ["run", *argv, "--report-dir", str(reports)], words)
    assert not reports.exists() and no_requests == []


def test_the_plain_pytest_route_refuses_the_same(capsys, tmp_path, no_requests) -> None:
    code = pytest.main(["--pyargs", "conformance.adp", "-p", "no:cacheprovider", "-q", "--adck-target", "builtin",
                        "--adck-declare", "max-top-k=5", "--adck-report-dir", str(tmp_path / "r")])
    assert code == pytest.ExitCode.USAGE_ERROR
    assert "ERROR: --declare max-top-k=5: a declaration of aidre, not of adp" in capsys.readouterr().err
    assert no_requests == []


# -- 3. adck targets lists them -----------------------------------------------------------------

def test_adck_targets_lists_the_declarations_and_the_variants_that_make_them(capsys) -> None:
    assert cli.main(["targets", "aidre"]) == 0
    out = capsys.readouterr().out
    assert "--declare top-k-above-max=reject|clamp" in out
    assert '§18.1: "Servers MAY enforce an implementation-defined maximum top_k."' in out
    assert "[declares max-top-k=50, top-k-above-max=clamp]" in out
    assert cli.main(["targets", "adp", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    strict = next(d for d in data["declarations"] if d["name"] == "strict-validation")
    assert strict["usage"] == "--declare strict-validation" and strict["type"] == "flag"
    assert strict["clauses"] == ["ADP-4.7-01", "ADP-4.7-02"] and strict["section"] == "4.7"
    assert "local policy requires strict validation" in strict["quote"]
    variant = next(v for v in data["conforming"] if v["name"] == "strict-validation")
    assert variant["declare"] == ["strict-validation"] and "--declare" not in variant["command"]
    assert cli.main(["targets", "woa", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["declarations"] == []


def test_run_help_lists_each_drafts_declarations(capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    out = capsys.readouterr().out
    assert "--declare NAME[=VALUE]" in out and "strict-validation, stale-results-allowed" in out
    assert "max-top-k=N, top-k-above-max=reject|clamp" in out


# -- 4. a declared choice changes what its clause accepts, never passes it ------------------------

@pytest.mark.parametrize(("draft", "name", "clause", "declaration", "undeclared"), [
    # what a local policy looks like (a well-formed refusal of unknown members, a stale result
    # shown expired): undeclared, the kit cannot see that policy, so it could not judge (an
    # undeclared choice, never a failure, never a pass); declared, it is judged so
    ("adp", "strict-validation", "ADP-4.7-01", "strict-validation", "undeclared"),
    ("adp", "strict-validation", "ADP-4.7-02", "strict-validation", "undeclared"),
    ("adp", "stale-results-by-policy", "ADP-4.9-03", "stale-results-allowed", "undeclared"),
    # what another sentence allows anyway (19.4: a server MAY normalise on receipt): undeclared,
    # either reading passes; declared, only the documented one (the reference fails it declared)
    ("aidre", "normalizes-query-vectors", "AIDRE-19.3-01", "normalizes-query-vectors", "pass"),
])
def test_a_variant_that_makes_a_choice_passes_with_its_declaration_and_is_never_failed_without(
        draft: str, name: str, clause: str, declaration: str, undeclared: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The conforming variant that makes a choice the draft allows passes the clause declared;
    undeclared it is never failed: an undeclared choice the kit cannot see (untestable, naming
    the declaration), or a pass where another sentence allows the choice without one."""
    declared = quiet_run(draft, f"builtin:{name}", clauses=[clause]).report
    assert [(r.clause, r.outcome) for r in declared.results] == [(clause, "pass")], declared.results
    real = builtin.load_mutants
    monkeypatch.setattr(builtin, "load_mutants",
                        lambda *a, **k: {n: replace(m, declare=()) for n, m in real(*a, **k).items()})
    bare = quiet_run(draft, f"builtin:{name}", clauses=[clause])
    report = bare.report
    if undeclared == "undeclared":
        [result] = report.results
        assert (result.clause, result.outcome, result.untestable_reason) == (clause, "untestable", "undeclared"), result
        assert result.message.startswith("undeclared choice: ") and f"--declare {declaration}" in result.message
        assert report.summary.level == "partial" and bare.exit_code == 1, report.summary
        assert any(clause in why and "--declare" in why for why in report.summary.partial_reasons)
    else:
        assert [(r.clause, r.outcome) for r in report.results] == [(clause, undeclared)], report.results
    assert report.target["declarations"] == []


@pytest.mark.parametrize("name", ["relay-drops-unknown-top-level", "relay-drops-unknown-nested"])
def test_a_registry_that_keeps_what_it_knows_is_failed_only_as_a_declared_relay(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """ADP-4.1-26 binds a transparent metadata relay, which the draft does not define: declared
    one, a service that loses unknown members fails; undeclared, it is an undeclared choice."""
    declared = quiet_run("adp", f"builtin:{name}", clauses=["ADP-4.1-26"]).report
    assert [(r.clause, r.outcome) for r in declared.results] == [("ADP-4.1-26", "fail")]
    real = builtin.load_mutants
    monkeypatch.setattr(builtin, "load_mutants",
                        lambda *a, **k: {n: replace(m, declare=()) for n, m in real(*a, **k).items()})
    [bare] = quiet_run("adp", f"builtin:{name}", clauses=["ADP-4.1-26"]).report.results
    assert (bare.outcome, bare.untestable_reason) == ("untestable", "undeclared") and "--declare transparent-relay" in bare.message


def test_a_declaration_lets_the_kit_catch_what_it_cannot_see_undeclared(monkeypatch: pytest.MonkeyPatch) -> None:
    """A service that drops a constraint without a word gives the kit nothing to see: undeclared
    it passes ADP-5.2-02 (AMB-12); declared to treat unknown constraints as hard, it fails."""
    declared = quiet_run("adp", "builtin:hard-declared-silent", clauses=["ADP-5.2-02"]).report
    assert [(r.clause, r.outcome) for r in declared.results] == [("ADP-5.2-02", "fail")]
    assert "AMB-12" in declared.results[0].applied_ambiguities
    real = builtin.load_mutants
    monkeypatch.setattr(builtin, "load_mutants",
                        lambda *a, **k: {n: replace(m, declare=()) for n, m in real(*a, **k).items()})
    bare = quiet_run("adp", "builtin:hard-declared-silent", clauses=["ADP-5.2-02"]).report
    assert [(r.clause, r.outcome) for r in bare.results] == [("ADP-5.2-02", "pass")]


@pytest.mark.parametrize(("draft", "declare", "clause", "outcome"), [
    ("adp", ["strict-validation"], "ADP-4.7-01", "fail"),  # the reference ignores unknown members
    ("adp", ["stale-results-allowed"], "ADP-4.9-03", "pass"),  # it returns no expired record at all
    ("adp", ["unknown-constraints-hard"], "ADP-9.3-01", "pass"),  # it lists them in unsupported_filters
    ("adp", ["transparent-relay"], "ADP-4.1-26", "pass"),  # it serves registered metadata back whole
    ("aidre", ["max-top-k=50", "top-k-above-max=clamp"], "AIDRE-18.1-05", "pass"),  # it clamps at 50
    ("aidre", ["max-top-k=50", "top-k-above-max=reject"], "AIDRE-18.1-05", "fail"),
    ("aidre", ["max-top-k=40"], "AIDRE-18.1-05", "fail"),  # top_k 41 answered with 41 results
    ("aidre", ["default-top-k=5"], "AIDRE-18.1-02", "pass"),
    ("aidre", ["default-top-k=8"], "AIDRE-18.1-02", "fail"),
    ("aidre", ["unsupported-return-field=reject"], "AIDRE-20.2-01", "fail"),
    ("aidre", ["normalizes-query-vectors"], "AIDRE-19.3-01", "fail"),
])
def test_a_declaration_given_by_the_user_is_checked_against_the_target(draft, declare, clause, outcome) -> None:
    """``--declare`` on the reference: what the reference does is judged against what was
    declared; a declaration it does not live up to fails the clause."""
    report = quiet_run(draft, "builtin", clauses=[clause], declare=declare).report
    assert [(r.clause, r.outcome) for r in report.results] == [(clause, outcome)], report.results
    assert [d["shown"] for d in report.target["declarations"]] == declare


ADP_DECLARED = sorted(n for n, m in load_mutants("adp", "conforming").items() if m.declare)


@pytest.mark.mutants
@pytest.mark.parametrize("name", ADP_DECLARED)
def test_a_declared_adp_variant_is_conformant(name: str) -> None:
    """Each conforming ADP service that makes a choice of local policy, run as ``builtin:NAME``
    (its declarations applied), reaches its level; the report says it declared them."""
    variant = load_mutants("adp", "conforming")[name]
    result = quiet_run("adp", f"builtin:{name}")
    report = result.report
    assert failing(report) == set(), [f"{r.clause}: {r.message}" for r in report.failing()]
    assert report.summary.level == variant.expect and result.exit_code == 0
    assert [d["shown"] for d in report.target["declarations"]] == list(variant.declare)
    assert all(d["by"] == f"the built-in variant builtin:{name}" for d in report.target["declarations"])
    assert any("declared by the built-in variant itself" in note for note in report.target["notes"])


# -- 5. every report format and the badge say it; replays carry it ---------------------------------

def test_every_format_names_the_declarations_and_replays_carry_them(tmp_path: Path, capsys) -> None:
    import jsonschema

    reports = tmp_path / "r"
    argv = ["run", "aidre", "--target", "builtin:declared-reject-but-clamps", "--declare", "default-top-k=5",
            "--clause", "AIDRE-18.1-05", "--clause", "AIDRE-18.1-02", "--seed", "7",
            "--format", "json,junit,md,html,badge,shields,sarif", "--report-dir", str(reports)]
    assert cli.main(argv) == 1
    first = capsys.readouterr().out.splitlines()[0]
    words = "declared: max-top-k=50, top-k-above-max=reject, default-top-k=5"
    assert first.startswith("aidre-00 (draft-batum-aidre-00) on builtin:declared-reject-but-clamps") and words in first
    data = json.loads((reports / "report.json").read_text("utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA.read_text("utf-8")))
    by = {d["shown"]: d["by"] for d in data["target"]["declarations"]}
    assert by == {"max-top-k=50": "the built-in variant builtin:declared-reject-but-clamps",
                  "top-k-above-max=reject": "the built-in variant builtin:declared-reject-but-clamps",
                  "default-top-k=5": "--declare"}
    # the replay carries what the user declared; the variant's own come with the variant
    assert "--declare default-top-k=5" in data["command"] and "max-top-k" not in data["command"]
    failed = next(r for r in data["results"] if r["clause"] == "AIDRE-18.1-05")
    assert failed["outcome"] == "fail" and "--declare default-top-k=5" in failed["replay"]
    assert "- declared: `max-top-k=50` (by `the built-in variant" in (reports / "report.md").read_text("utf-8")
    page = (reports / "report.html").read_text("utf-8")
    assert words in page and "<dt>Declared</dt>" in page and "<code>default-top-k=5</code>" in page
    junit = (reports / "junit.xml").read_text("utf-8")
    assert '<property name="declared" value="default-top-k=5 (§18.1, by --declare)" />' in junit
    assert words in json.loads((reports / "badge.json").read_text("utf-8"))["message"]
    assert words in (reports / "badge.svg").read_text("utf-8")
    sarif = json.loads((reports / "report.sarif").read_text("utf-8"))
    assert sarif["runs"][0]["properties"]["verdicts"][0]["declared"] == [
        "max-top-k=50", "top-k-above-max=reject", "default-top-k=5"]
    # adck compare's matrix says what each column's verdict was reached under
    assert cli.main(["compare", str(reports / "report.json"), "-o", str(tmp_path / "cmp")]) == 0
    for name in ("index.md", "matrix.html"):
        assert words in (tmp_path / "cmp" / name).read_text("utf-8"), name
    # the replay, run as printed, reproduces the failure under the same declarations
    argv = shlex.split(failed["replay"])
    assert argv[:2] == ["adck", "run"]
    assert cli.main(argv[1:] + ["--format", ""]) == 1
    assert "declared: max-top-k=50, top-k-above-max=reject, default-top-k=5" in capsys.readouterr().out


def test_a_run_without_declarations_says_none(tmp_path: Path) -> None:
    from conformance.reports import badge, markdown, terminal

    report = quiet_run("aidre", "builtin", clauses=["AIDRE-18.1-05"]).report
    assert report.target["declarations"] == []
    assert "declared" not in badge.parts(report)[1] and "declared:" not in markdown.to_markdown(report)
    assert "declared" not in next(iter(terminal.summary(report))).plain
