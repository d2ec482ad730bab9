"""The AIDRE server role: the reference retrieval service passes every server clause; each
broken variant fails exactly its clause; unusual but conforming servers are not failed; the
metamorphic relation of 19.3 tells the declared distance from the ones a server might use."""

from __future__ import annotations

import json
import math

import pytest

from conformance import catalog
from conformance.aidre import reference_server as reference
from conformance.aidre.test_19_server_embedding_compatibility import distance, monotone_breaks
from conformance.world.site import load_mutants
from tests.conftest import failing, quiet_run

DRAFT = "aidre"
PROFILE = catalog.load(DRAFT)
MUTANTS = load_mutants(DRAFT)
CONFORMING = load_mutants(DRAFT, "conforming")


def test_reference_server_passes_every_server_clause() -> None:
    result = quiet_run(DRAFT, "builtin")
    report = result.report
    assert result.exit_code == 0 and report.summary.level == "full", report.summary
    assert failing(report) == set()
    tested = {cid for cid, c in PROFILE.coverage().items() if c.status == "tested" and c.clause.role == "server"}
    outcomes = {r.clause: r.outcome for r in report.results}
    not_passed = {cid: outcomes.get(cid) for cid in tested if outcomes.get(cid) != "pass"}
    # the reference is never over a rate limit, so the 429 row has nothing to judge
    assert not_passed == {"AIDRE-15.4-11": "not-applicable"}, f"the reference should pass every tested server clause: {not_passed}"
    # each distinct request once, shared by the clauses that judge it; well within the budget
    assert 60 <= report.requests_sent <= 120, report.requests_sent


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_server_mutant_fails_exactly_its_clause(name: str) -> None:
    mutant = MUTANTS[name]
    result = quiet_run(DRAFT, f"builtin:{name}")
    report = result.report
    assert report is not None
    expected = {mutant.clause} | set(mutant.also_fails)
    assert failing(report) == expected, (
        f"{name} should fail {sorted(expected)}; failed {sorted(failing(report))}: "
        + "; ".join(f"{r.clause}: {r.message}" for r in report.results if r.outcome in ("fail", "error")))
    must_failed = any(PROFILE.clause(c).level == "MUST" for c in expected)
    # a broken SHOULD can leave a MUST that needs it unchecked, or a variant rate-limit the kit
    # (could not judge): then the run is partial (exit 1)
    assert result.exit_code == (1 if must_failed or report.summary.must_unverified or report.summary.partial else 0)
    result_of = {r.clause: r for r in report.results}[mutant.clause]
    assert result_of.replay and f"--clause {mutant.clause}" in result_of.replay
    assert result_of.evidence, "a failing clause shows the exchanges it judged"


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CONFORMING))
def test_conforming_server_variant_is_not_failed(name: str) -> None:
    """A conforming variant fails nothing, but the SHOULD of an optional feature it does not
    offer (its also_fails: AIDRE-8-01, AIDRE-5.3-01), and is then conformant, not full."""
    variant = CONFORMING[name]
    result = quiet_run(DRAFT, f"builtin:{name}")
    report = result.report
    assert failing(report) == set(variant.also_fails), [f"{r.clause}: {r.message}" for r in report.failing()]
    assert report.summary.level == variant.expect
    if variant.expect in ("full", "conformant"):
        assert not report.summary.must_unverified and result.exit_code == 0


#: Conforming variants without chunk retrieval, and those without vector queries (AMB-31, AMB-32).
NO_CHUNKS = sorted(n for n, v in CONFORMING.items() if "AIDRE-8-01" in v.also_fails)
NO_VECTORS = sorted(n for n, v in CONFORMING.items() if "AIDRE-5.3-01" in v.also_fails)


@pytest.mark.mutants
@pytest.mark.parametrize("name", NO_CHUNKS)
def test_chunk_clauses_do_not_apply_without_chunk_retrieval(name: str) -> None:
    """Without chunk retrieval, the clause that judges the chunk resource alone is not applicable,
    saying why, and no clause judged a chunk answer but AIDRE-8-01."""
    report = quiet_run(DRAFT, f"builtin:{name}").report
    by = {r.clause: r for r in report.results}
    row = by["AIDRE-15.1-03"]
    assert row.outcome == "not-applicable" and "does not offer chunk retrieval" in row.message, row
    assert by["AIDRE-8-01"].outcome == "fail"
    for cid in ("AIDRE-10-01", "AIDRE-17.1-01", "AIDRE-17.1-03", "AIDRE-14.1-01", "AIDRE-15.4-07", "AIDRE-9-04",
                "AIDRE-16.3-01", "AIDRE-17.3-02"):
        assert by[cid].outcome == "pass", (cid, by[cid].outcome, by[cid].message)


@pytest.mark.mutants
@pytest.mark.parametrize("name", NO_VECTORS)
def test_vector_clauses_do_not_apply_without_vector_queries(name: str) -> None:
    """Without vector queries, the clauses that judge vector queries alone are not applicable,
    saying why; the clauses that mix them with text cases pass on the text ones."""
    report = quiet_run(DRAFT, f"builtin:{name}").report
    by = {r.clause: r for r in report.results}
    for cid in ("AIDRE-19.2-01", "AIDRE-19.3-01", "AIDRE-15.4-10"):
        assert by[cid].outcome == "not-applicable" and "does not offer vector queries" in by[cid].message, by[cid]
    assert by["AIDRE-5.3-01"].outcome == "fail"
    for cid in ("AIDRE-11.6-01", "AIDRE-17.3-02", "AIDRE-5.1-02", "AIDRE-11.5-01", "AIDRE-18.1-03", "AIDRE-10-01"):
        assert by[cid].outcome == "pass", (cid, by[cid].outcome, by[cid].message)


def test_mutant_declarations_are_sound() -> None:
    for m in MUTANTS.values():
        assert m.clause in PROFILE.clauses, f"{m.name} names unknown clause {m.clause}"
        assert PROFILE.clause(m.clause).role in ("server", "document"), m.name
        for cid, why in m.also_fails.items():
            assert cid in PROFILE.clauses and len(why) > 15, f"{m.name}: also_fails {cid} needs a reason"
    for v in CONFORMING.values():  # a conforming variant may miss only the SHOULD of a feature it lacks
        assert v.expect == "conformant" if v.also_fails else v.expect != "conformant", v.name
        for cid, why in v.also_fails.items():
            assert PROFILE.clause(cid).level == "SHOULD" and len(why) > 15, f"{v.name}: also_fails {cid}"


def test_a_search_budget_leaves_the_rest_untestable() -> None:
    """--request-budget bounds the searches of a run; what it no longer covers is untestable,
    never passed, and the run is partial."""
    result = quiet_run(DRAFT, "builtin", invoke_budget=10)
    report = result.report
    assert report.requests_sent <= 10 + 6  # the budget counts searches; GETs are the run's reads
    spent = [r for r in report.results if r.outcome == "untestable" and "budget" in r.message]
    assert spent and report.summary.level == "partial" and result.exit_code == 1


# ---------------------------------------------------------------- the 19.3 relation itself

def test_monotone_relation_accepts_either_direction_and_ties() -> None:
    assert monotone_breaks([(0.1, 0.9), (0.2, 0.8), (0.3, 0.1)]) == []
    assert monotone_breaks([(0.1, 0.1), (0.2, 0.5), (0.3, 0.9)]) == []
    assert monotone_breaks([(0.1, 0.5), (0.1, 0.2), (0.3, 0.1)]) == []  # equal values, any scores
    assert monotone_breaks([(0.1, 0.5), (0.2, 0.9), (0.3, 0.1)]) != []


@pytest.mark.parametrize("wrong", ["cosine", "dot"])
def test_wrong_distance_breaks_the_relation_in_the_l2_space(wrong: str) -> None:
    """Scores computed by another function than the declared l2 are not monotone in the l2
    distance of the returned vectors for most queries built as the test builds them (mixes of
    two stored vectors at several scales), and the declared function's scores always are."""
    space = "adck:hash-48:l2:v1"
    data = reference.corpus()
    vectors = [reference.embed(c["text"], space) for c in data.chunks[:40]]

    def pairs(query, function):
        ranked = reference.scores(query, space, function, "docs")[:8]
        return [(distance("l2", query, reference.embed(data.by_id[cid]["text"], space)), score) for cid, score in ranked]

    queries = [[scale * (0.4 * a + 0.6 * b) for a, b in zip(vectors[i], vectors[i + 7])]
               for i in range(10) for scale in (0.5, 2.5, 6.0)]
    caught = sum(bool(monotone_breaks(pairs(q, wrong))) for q in queries)
    assert caught >= len(queries) // 2, f"{wrong}: only {caught} of {len(queries)} queries show the wrong distance"
    assert all(monotone_breaks(pairs(q, "l2")) == [] for q in queries)


def test_reference_embedding_spaces_are_declared_honestly() -> None:
    """What the discovery document says of each space is what the server computes."""
    from conformance.resources import fixtures_dir

    declared = {s["id"]: s for s in json.loads((fixtures_dir(DRAFT) / "server.json").read_text())["embedding_spaces"]}
    assert set(declared) == set(reference.SPACES)
    for space, (dims, dist, normalised) in reference.SPACES.items():
        assert declared[space]["dimensions"] == dims and declared[space]["distance"] == dist
        assert declared[space]["normalized"] is normalised
        vector = reference.embed("Northwind Cloud single sign-on", space)
        assert len(vector) == dims
        norm = math.sqrt(sum(x * x for x in vector))
        assert (abs(norm - 1) < 1e-9) if normalised else norm > 1.5
