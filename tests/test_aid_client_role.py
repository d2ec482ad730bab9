"""The AID client role: each revision's reference client passes every client clause of its
revision, each broken client fails exactly its clause (judged under the revision it is pinned
to), and the cmd: and python: paths give the same verdicts."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from conformance import catalog, revisions
from conformance.aid.variants import VARIANTS as V1_VARIANTS
from conformance.aid.versioned_variants import VARIANTS as VERSIONED_VARIANTS
from conformance.world.site import load_mutants
from tests.conftest import assert_broken_client_fails_exactly_its_clause, every_revision, outcomes, quiet_run

DRAFT = "aid@v1"  # the v1 client role (v1.2 and v2.1: conformance/aid/v1_2, v2_1)
PROFILE = catalog.load("aid")
#: every revision's broken clients (client-mutants.toml and its topic files, v1.2/v2.1's among them)
CLIENT_MUTANTS = load_mutants("aid", file="client-mutants.toml")
VARIANTS = {**V1_VARIANTS, **VERSIONED_VARIANTS}
IN_PROCESS = "python:conformance.aid.adapter:handle"
AS_PROCESS = f"cmd:{sys.executable} -m conformance.aid.adapter"


def _tested_client_clauses() -> set[str]:
    return {cid for cid, c in PROFILE.coverage().items() if c.status == "tested" and c.clause.role == "client"}


def test_reference_client_passes_every_client_clause() -> None:
    result = quiet_run(DRAFT, "builtin", roles=["client"])
    report = result.report
    assert report.roles == ["client"]
    tested = _tested_client_clauses()
    assert {cid: o for cid, o in outcomes(report).items() if cid in tested and o != "pass"} == {}
    assert result.exit_code == 0 and report.summary.level == "full"
    adapter = report.target["adapter"]
    assert adapter["protocol"] == "adck-harness/1" and adapter["steps"] >= len(tested)
    assert adapter["client_dns_queries"] > 0


def test_every_client_variant_is_declared() -> None:
    assert set(CLIENT_MUTANTS) == set(VARIANTS)
    assert any(m.via == "cmd" for m in CLIENT_MUTANTS.values()), "one variant runs through the cmd: path"


def test_every_tested_client_clause_has_a_mutant() -> None:
    proven = {m.clause for m in CLIENT_MUTANTS.values()}
    tested = {cid for cid, c in every_revision("aid").coverage().items()
              if c.status == "tested" and c.clause.role == "client"}
    assert tested - proven == set()


@pytest.mark.parametrize("revision", ["v1.2", "v2.1"])
def test_the_versioned_reference_client_passes_every_tested_clause(revision: str) -> None:
    """The reference client of v1.2 and v2.1 (conformance/aid/versioned_client.py) passes each
    tested client clause of the revision (the run is partial while some have no test yet)."""
    report = quiet_run(f"aid@{revision}", "builtin", roles=["client"]).report
    held = revisions.profile_of("aid", revision).clauses
    tested = {cid for cid, c in every_revision("aid").coverage().items()
              if c.status == "tested" and c.clause.role == "client" and cid in held}
    assert tested, f"aid@{revision} has client tests"
    assert {cid: o for cid, o in outcomes(report).items() if cid in tested and o not in ("pass", "not-applicable")} == {}
    assert report.summary.level in ("full", "conformant", "partial")
    assert not any(r.outcome == "fail" and r.level == "MUST" for r in report.results)


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CLIENT_MUTANTS))
def test_client_mutant_fails_exactly_its_clause(name: str) -> None:
    assert_broken_client_fails_exactly_its_clause("aid", name, "client")


def test_cmd_and_python_paths_give_the_same_verdicts() -> None:
    in_process = quiet_run(DRAFT, IN_PROCESS, roles=["client"]).report
    as_process = quiet_run(DRAFT, AS_PROCESS, roles=["client"]).report
    assert outcomes(in_process) == outcomes(as_process)


def _adapter(tmp_path: Path, reply: str, features: str = '["aid.manifest", "aid.local"]') -> str:
    """A stdlib adapter that answers every step with ``reply`` (a Python expression using ``m``)."""
    script = tmp_path / "adapter.py"
    script.write_text(textwrap.dedent(f'''
        import json, sys
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "stop":
                break
            if m["type"] == "hello":
                print(json.dumps({{"type": "hello", "protocol": "adck-harness/1", "client": {{"name": "toy"}},
                                  "operations": ["aid.discover"], "features": {features}}}), flush=True)
                continue
            print(json.dumps({reply}), flush=True)
    '''), encoding="utf-8")
    return f"cmd:{sys.executable} {script}"


def test_a_connect_reply_without_its_connection_is_an_adapter_error(tmp_path: Path) -> None:
    target = _adapter(tmp_path, '{"type": "result", "id": m["id"], "outcome": "connect"}')
    report = quiet_run(DRAFT, target, roles=["client"]).report
    judged = [r for r in report.results if r.outcome not in ("not-applicable",) and r.untestable_reason != "not-observable"]
    assert judged and all(r.outcome == "error" for r in judged), {r.clause: r.outcome for r in judged}
    assert all("adapter error, not a verdict on the client" in r.message for r in judged)
    assert not report.summary.conformant


def test_features_the_client_does_not_claim_are_not_applicable_never_failed(tmp_path: Path) -> None:
    """A client that always says "no AID record" and claims no features: the manifest and local
    clauses are not applicable; the record clauses fail or are untestable, never pass."""
    target = _adapter(tmp_path, '{"type": "result", "id": m["id"], "outcome": "none"}', features="[]")
    report = quiet_run(DRAFT, target, roles=["client"]).report
    got = outcomes(report)
    assert got["AID-2.3-08"] == got["AID-4.1-03"] == got["AID-B-03"] == "not-applicable"
    assert got["AID-2.3-02"] == "fail"
    # where "none" is the right answer the tests first check the client uses a plain record
    assert got["AID-2.3-03"] == got["AID-2.3-06"] == "untestable"
    assert {cid for cid, o in got.items() if o == "pass"} == set()
    assert not report.summary.conformant


def test_a_generated_record_failing_for_two_reasons_names_each_cause() -> None:
    """A client broken twice for AID-2.3-05 (it needs v first, and it stops at the first key it
    does not know) is served a record with both faults: the reduction gives one smallest record
    per cause, each naming only what it needs (conformance.generated.reduce)."""
    from conformance.aid.strategies import simpler_records, text
    from conformance.aid.variants.discovery import RequiresVFirst, StopsAtUnknownKey
    from conformance.generated import causes, reduce

    class Both(StopsAtUnknownKey, RequiresVFirst):
        pass

    client = Both.__new__(Both)  # parse() alone: no resolver, no world

    def fails(pairs: list[tuple[str, str]]) -> bool:
        read = client.parse(text(pairs))
        return read.get("v") != "aid1" or read.get("uri") is None or read.get("proto") is None

    record = [("x-ab", "1"), ("uri", "https://a.{host}/m"), ("auth", "pat"), ("env", "prod"), ("v", "aid1"),
              ("proto", "mcp,a2a")]
    assert fails(record)
    forms = reduce(record, simpler_records, fails)
    assert [text(f) for f, _ in forms] == ["uri=https://a.{host}/m;v=aid1;proto=mcp",
                                           "v=aid1;x-ab=1;uri=https://a.{host}/m;proto=mcp"]
    assert forms[0][1] == ["v is not the first key (it is key 2)"]
    assert forms[1][1] == ["the key x-ab=1, which v1 does not define", "the order of the keys after v (x-ab, uri, proto)"]
    said = causes(forms, lambda f: repr(text(f)))
    assert said.startswith("2 separate causes") and "auth" not in said and "env" not in said
    # one fault alone: one smallest record, naming only it
    alone = reduce(record, simpler_records, lambda p: RequiresVFirst.__new__(RequiresVFirst).parse(text(p)) == {})
    assert [(text(f), needs) for f, needs in alone] == [("uri=https://a.{host}/m;v=aid1;proto=mcp",
                                                         ["v is not the first key (it is key 2)"])]


def test_a_generated_manifest_failure_is_reduced_to_its_cause() -> None:
    """A manifest failing only because of one member of one implementation (a client that skips
    implementations with tags) reduces to one implementation with its tags, nothing else."""
    from conformance.aid.strategies import simpler_manifests
    from conformance.generated import reduce

    doc = {"name": "A", "metadata": {"contentVersion": "1"}, "schemaVersion": "1",
           "implementations": [{"name": "B", "type": "remote", "uri": "https://b", "tags": ["x"], "status": "active"},
                               {"name": "C", "type": "remote", "uri": "https://c", "tags": ["y"]}]}
    forms = reduce(doc, simpler_manifests, lambda d: any("tags" in i for i in d["implementations"]))
    assert len(forms) == 2  # B's tags or C's tags: each on its own
    for form, needs in forms:
        assert list(form) == ["schemaVersion", "name", "implementations"]
        assert len(form["implementations"]) == 1 and set(form["implementations"][0]) == {"name", "type", "uri", "tags"}
        assert len(needs) == 1 and needs[0].startswith("tags ")


@pytest.mark.parametrize("name, cause", [("requires-v-first", "v is not the first key"),
                                         ("stops-at-unknown-key", "which v1 does not define")])
def test_a_failing_record_shows_its_smallest_form(name: str, cause: str) -> None:
    """In a run, AID-2.3-05's failure message carries the reduced record and names its cause."""
    report = quiet_run("aid@v1", f"builtin:{name}", roles=["client"], clauses=["AID-2.3-05"]).report
    failed = next(r for r in report.results if r.clause == "AID-2.3-05")
    assert failed.outcome == "fail" and "smallest failing form" in failed.message and cause in failed.message, failed.message
