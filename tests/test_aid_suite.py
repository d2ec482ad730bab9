"""The aid suite (record and provider clauses so far): reference, mutant proof, corpus."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from conformance import proofs
from conformance.aid.record import parse_zone_line
from conformance.world.dns import MockDNS
from conformance.world.site import load_mutants
from tests.conftest import every_revision, failing, quiet_run

#: Every revision's clauses (v1, v1.2, v2.1): what a variant may name (each judged under its own).
PROFILE = every_revision("aid")
MUTANTS = load_mutants("aid")
EXPECTED = tomllib.loads((Path(__file__).parent / "data" / "aid_corpus.toml").read_text("utf-8"))



#: The level the reference provider reaches under each revision: its aid1 record keeps v1's long
#: keys so that v1 clients read it, which v1.2's SHOULD of the short-key form finds (AID-2.1-32).
REFERENCE_LEVEL = {"v1": "full", "v1.2": "conformant", "v2.1": "full"}
REFERENCE_SHOULD_FAILS = {"v1": set(), "v1.2": {"AID-2.1-32"}, "v2.1": set()}


@pytest.mark.parametrize("revision", sorted(REFERENCE_LEVEL))
def test_reference_provider_passes(revision: str) -> None:
    from conformance import revisions

    result = quiet_run(f"aid@{revision}", "builtin")
    report = result.report
    assert result.exit_code == 0 and report.summary.level == REFERENCE_LEVEL[revision], report.summary.partial_reasons
    held = revisions.profile_of("aid", revision).clauses
    tested = {cid for cid, c in PROFILE.coverage().items() if c.status == "tested" and cid in held}
    assert {r.clause: r.outcome for r in report.results if r.clause in tested and r.outcome not in
            ("pass", "not-applicable")} == {cid: "fail" for cid in REFERENCE_SHOULD_FAILS[revision]}
    assert report.target["dns_queries"] >= 1


def test_one_run_judges_every_revision_of_the_reference() -> None:
    """`adck run aid@all --target builtin`: v1, v1.2 and v2.1 each reach the level a run of that
    revision alone gives, from one set of requests."""
    report = quiet_run("aid@all", "builtin").report
    assert {r["name"]: r["level"] for r in report.revisions} == REFERENCE_LEVEL


def assert_verdict_names_its_failures(report) -> None:
    """A non-conformant verdict names at least one failing clause, and each MUST it could not
    check because a prerequisite failed names the clause that failed (``see AID-...``)."""
    __tracebackhide__ = True
    if report.summary.level != "non-conformant":
        return
    failed = {r.clause for r in report.results if r.outcome == "fail"}
    assert failed, "non-conformant, yet no clause failed: " + repr(
        [(r.clause, r.outcome, r.message[:80]) for r in report.results if r.outcome not in ("pass", "not-applicable")][:8])
    unnamed = [(r.clause, r.message) for r in report.results
               if r.outcome == "untestable" and r.untestable_reason == "prerequisite" and r.level == "MUST"
               and not any(cid in r.message for cid in failed)]
    assert unnamed == [], "untestable MUSTs that do not name the failing clause they depend on"


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_fails_exactly_its_clause(name: str) -> None:
    """Walks every broken provider (and the document variants served by one): each fails
    exactly its clause, and its non-conformant verdict names that failing clause."""
    mutant = MUTANTS[name]
    result = quiet_run(mutant.judged_as("aid"), f"builtin:{name}")
    report = result.report
    expected = {mutant.clause} | set(mutant.also_fails)
    assert failing(report) == expected, [
        (r.clause, r.message) for r in report.results if r.outcome in ("fail", "error")]
    assert_verdict_names_its_failures(report)
    assert result.exit_code == (1 if any(PROFILE.clause(c).level == "MUST" for c in expected) else 0)


CONFORMING = load_mutants("aid", "conforming")


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CONFORMING))
def test_conforming_provider_is_not_failed(name: str) -> None:
    """An unusual provider every revision it is judged under allows (a key proved for aid1, short
    keys, a 900 s TTL, a served fallback ...): no MUST fails, and the level is the one it names."""
    variant = CONFORMING[name]
    judged = variant.judged_as("aid")
    report = quiet_run(judged, f"builtin:{name}").report
    assert not [r.clause for r in report.results if r.level == "MUST" and r.outcome in ("fail", "error")]
    if variant.expect:
        expect = variant.expect.get(judged.split("@")[1]) if isinstance(variant.expect, dict) else variant.expect
        assert expect is None or report.summary.level == expect, (report.summary.level, sorted(failing(report)))


#: Documents that are not a manifest (no JSON text, or JSON that is no object), as files: each
#: fails AID-2.2.1-01 (AMB-30), every other manifest clause it blocks names AID-2.2.1-01.
NOT_A_MANIFEST = {
    "html-page": b"<!doctype html><html><head><title>Notes</title></head><body><h1>Not found</h1></body></html>",
    "cut-short": b'{"schemaVersion": "1", "name": "Notes", "implementations": [',
    "empty-file": b"",
    "json-array": b'[{"schemaVersion": "1", "name": "Notes", "implementations": []}]',
    "json-string": b'"https://provider.adck.test/.well-known/aid.json"',
    "json-null": b"null",
    "latin-1": '{"schemaVersion": "1", "name": "Référence", "implementations": []}'.encode("latin-1"),
    "utf-16": '{"schemaVersion": "1", "name": "Notes", "implementations": []}'.encode("utf-16"),
    "yaml": b"schemaVersion: '1'\nname: Notes\nimplementations: []\n",
}


@pytest.mark.parametrize("name", sorted(NOT_A_MANIFEST))
def test_a_document_that_is_not_a_manifest_fails_the_clause_that_says_it_is(name: str, tmp_path: Path) -> None:
    path = tmp_path / "aid.json"
    path.write_bytes(NOT_A_MANIFEST[name])
    report = quiet_run("aid@v1", str(path)).report
    assert report.roles == ["document"] and failing(report) == {"AID-2.2.1-01"}
    assert_verdict_names_its_failures(report)
    blocked = [(r.clause, r.message) for r in report.results if r.outcome == "untestable"
               and r.untestable_reason == "prerequisite" and "AID-2.2.1-01" not in r.message]
    assert blocked == []


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(n for n, m in MUTANTS.items() if m.dns.get("txt") and not m.routes))
def test_broken_record_as_document_names_its_failure(name: str) -> None:
    """Every record break, checked as a txt: target (document role): a non-conformant verdict
    names a failing clause, and only clauses the variant declares fail."""
    mutant = MUTANTS[name]
    report = quiet_run(mutant.judged_as("aid"), "txt:" + "".join(mutant.dns["txt"])).report
    declared = {c for c in {mutant.clause, *mutant.also_fails} if PROFILE.clauses[c].role == "document"}
    assert failing(report) == declared
    assert_verdict_names_its_failures(report)


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(n for n, m in MUTANTS.items() if m.also_fails and m.dns.get("txt")))
def test_record_breaks_are_clean_as_txt_targets(name: str) -> None:
    """A record break that takes AID-2.1-01 with it on a domain fails exactly its clause on its own,
    with only what its clause restates or always implies (mutant-floor.toml: v1.2 says kid-with-pka
    three times, and a key beside its alias in an aid1 record is a full key)."""
    mutant = MUTANTS[name]
    report = quiet_run(mutant.judged_as("aid"), "txt:" + "".join(mutant.dns["txt"])).report
    kin = proofs._restatement_groups("aid").get(mutant.clause, set()) | proofs.implies(PROFILE).get(mutant.clause, set())
    assert report.roles == ["document"] and failing(report) == {mutant.clause} | (set(mutant.also_fails) & kin)


#: Clauses no break can isolate (in v1 they are implied by other clauses): the [exempt] table
#: of profiles/aid/mutant-floor.toml, each with its reason (AID-2.4-01: AMB-09).
RESTATED = proofs.exempt(PROFILE)


def test_exempt_clauses_are_still_proven_able_to_fail() -> None:
    """An exempt clause has no single-clause proof, but its test fails on a broken variant
    that names it (as its clause or in also_fails), and the exemption says why."""
    assert RESTATED, "mutant-floor.toml lists the version interlock (AMB-09)"
    for cid, why in RESTATED.items():
        assert PROFILE.coverage()[cid].status == "tested" and len(why) > 40
        assert any(cid == m.clause or cid in m.also_fails for m in MUTANTS.values()), cid
        assert not proofs.proofs(PROFILE).get(cid), f"{cid} has a clean proof now: drop its exemption"


def test_every_tested_clause_has_a_clean_proof() -> None:
    # a record break is clean as a txt: target; [restates] and [implies] of mutant-floor.toml count
    clean = ({m.clause for m in MUTANTS.values() if not m.also_fails or m.dns.get("txt")} | set(RESTATED)
             | set(proofs.proofs(PROFILE)))
    tested = {cid for cid, c in PROFILE.coverage().items() if c.status == "tested" and c.clause.level != "MAY"
              and c.clause.role != "client"}  # client proofs: tests/test_aid_client_role.py
    assert tested - clean == set()


def test_txt_target_forms() -> None:
    value = "v=aid1;uri=https://api.example.com/mcp;proto=mcp;auth=pat"
    assert failing(quiet_run("aid@v1", f"txt:{value}").report) == set()
    line = f'_agent.example.com. 300 IN TXT "{value}"'
    report = quiet_run("aid@v1", f"txt:{line}").report
    assert report.target["description"].startswith("TXT record of _agent.example.com.")
    assert failing(report) == set()


# ---------------------------------------------------------------- the authors' seven services

def _examples(corpora_dir: Path) -> list[Path]:
    return sorted((corpora_dir / "aid-2025-06" / "examples").glob("*/aid.txt"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_record_as_document(name: str, corpora_dir: Path) -> None:
    line = (corpora_dir / "aid-2025-06" / "examples" / name / "aid.txt").read_text("utf-8").strip()
    report = quiet_run("aid@v1", f"txt:{line}").report
    assert sorted(failing(report)) == EXPECTED[name]["record_failing"]


def serve_example(corpora_dir: Path, name: str):
    """An example service in the mock world: its TXT line on a mock DNS server, its aid.json
    at its config URL on a mock HTTPS origin; returns (domain, DNS server, origin or None)."""
    import json
    from urllib.parse import urlsplit

    from conformance.aid.record import parse
    from conformance.world import https
    from conformance.world.site import Route, Site

    folder = corpora_dir / "aid-2025-06" / "examples" / name
    line = parse_zone_line((folder / "aid.txt").read_text("utf-8").strip())
    domain = line.name.rstrip(".").removeprefix("_agent.")
    dns_server = MockDNS()
    quoted = " ".join('"' + s.decode().replace('"', '\\"') + '"' for s in line.strings)
    dns_server.add_zone(domain, f"_agent {line.ttl} IN TXT {quoted}\n")
    config = parse(line.text()).get("config")
    origin = None
    if config:
        url = urlsplit(config)
        site = Site(hostname=url.hostname, document=json.loads((folder / "aid.json").read_text("utf-8")),
                    routes=(Route(path=url.path, body="document", headers=(("Content-Type", "application/json"),)),))
        origin = https.serve(site)
    return domain, dns_server, origin


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_service_as_provider(name: str, corpora_dir: Path) -> None:
    """Served by the mock world (TXT line on the mock DNS, manifest on the mock HTTPS world),
    checked as users check a live domain: --nameserver, --connect-to and --ca-bundle keep every
    query and request on loopback (hosts the example names but the world does not serve are
    mapped to a closed loopback port)."""
    from conformance.world import tls

    domain, dns_server, origin = serve_example(corpora_dir, name)
    try:
        connect = ([f"{origin.site.hostname}:443:127.0.0.1:{origin.port}"] if origin else []) + ["::127.0.0.1:9"]
        result = quiet_run("aid@v1", domain, nameservers=[f"127.0.0.1:{dns_server.port}"], connect_to=connect,
                           ca_bundle=str(tls.ca_bundle()), timeout=2)
    finally:
        dns_server.stop()
        if origin:
            origin.stop()
    report = result.report
    assert all(q.name.endswith(domain + ".") for q in dns_server.log), "only the mock DNS was asked"
    assert sorted(failing(report)) == EXPECTED[name]["provider_failing"]
    assert report.summary.level == EXPECTED[name]["provider_level"]


def test_the_drafts_own_example_manifests(specs_dir: Path, tmp_path: Path) -> None:
    """The manifests of Appendices D, E and I fail no MUST: a guard against false fails
    (Appendix I's minimal manifest lacks the RECOMMENDED contentVersion, and only that)."""
    import json
    import re

    from conformance import revisions

    text = (specs_dir / revisions.profile_of("aid", "v1").spec_file).read_text("utf-8")  # v1 has manifests
    manifests = []
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        try:
            manifests.append(json.loads(block))
        except ValueError:
            continue  # the schema sketch of 2.2.1 holds comments
    assert [m["name"] for m in manifests] == ["Simple Cloud Agent", "Grafana Agent (Local)", "Example Service"]
    verdicts = {}
    for i, manifest in enumerate(manifests):
        path = tmp_path / f"appendix-{i}.json"
        path.write_text(json.dumps(manifest), encoding="utf-8")
        report = quiet_run("aid@v1", str(path)).report
        verdicts[manifest["name"]] = (report.summary.level, sorted(failing(report)))
    assert verdicts == {"Simple Cloud Agent": ("full", []), "Grafana Agent (Local)": ("full", []),
                        "Example Service": ("conformant", ["AID-2.2.1-05"])}


def _signed_domain(dns_server: MockDNS) -> str:
    """A signed zone with a conforming Simple Profile record; returns its DS record text."""
    zone = dns_server.add_zone("signed.adck.test",
                               '_agent 300 IN TXT "v=aid1;uri=https://api.signed.adck.test/mcp;proto=mcp;auth=pat"',
                               sign=True)
    return f"signed.adck.test. IN DS {zone.keys.ds[0].to_text()}"


def test_dnssec_anchor_lets_a_live_domain_validate() -> None:
    """--dnssec-anchor: with the zone's DS the signature is validated (AID-4-01 passes); without
    it the kit cannot tell (untestable); with another zone's DS it is invalid (fails)."""
    with MockDNS() as dns_server, MockDNS() as other:
        ds = _signed_domain(dns_server)
        wrong = _signed_domain(other)
        ns = [f"127.0.0.1:{dns_server.port}"]
        common = {"nameservers": ns, "connect_to": ["::127.0.0.1:9"], "timeout": 2}
        outcome = {}
        for label, anchors in (("anchored", [ds]), ("none", []), ("wrong", [wrong])):
            report = quiet_run("aid@v1", "signed.adck.test", dnssec_anchors=anchors, **common).report
            outcome[label] = next(r.outcome for r in report.results if r.clause == "AID-4-01")
    assert outcome == {"anchored": "pass", "none": "untestable", "wrong": "fail"}


def test_a_malformed_anchor_is_a_usage_error(capsys: pytest.CaptureFixture) -> None:
    from conformance import cli

    code = cli.main(["run", "aid@v1", "--target", "example.test", "--dnssec-anchor", "example.test. IN A 1.2.3.4",
                     "--format", ""])
    out = capsys.readouterr()
    assert code == 2 and "expected a DS record" in out.out + out.err
