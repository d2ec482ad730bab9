"""The aid suite's §2.2.3, §2.2.4, §4 (manifest), provider-profile and Appendix C clauses:
each mutant of fixtures/aid/mutants-auth.toml fails exactly its clause, the reference passes
them, and no report of a secret mutant shows the fake secret."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from conformance.resources import fixtures_dir
from conformance.world.site import load_mutants
from tests.conftest import failing, quiet_run

MUTANTS = load_mutants("aid")
OURS = sorted(tomllib.loads((fixtures_dir("aid") / "mutants-auth.toml").read_text("utf-8"))["mutants"])
CLAUSES = {MUTANTS[name].clause for name in OURS}
#: The fake secret each secret mutant plants (the part no redaction may let through), and a
#: neighbouring text of the manifest that the report's evidence does show.
SECRETS = {
    "secret-default-in-manifest": ("adckFAKEcredential0000", "Notes API key"),
    "secret-in-documentation-url": ("adck-fake-credential-0000", "Reference Notes Agent"),
    "credential-format-in-manifest": ("IOSFODNN7EXAMPLE", "Reference Notes Agent"),
}



def test_reference_passes_these_clauses() -> None:
    report = quiet_run("aid@v1", "builtin").report
    outcomes = {r.clause: r.outcome for r in report.results if r.clause in CLAUSES}
    assert set(outcomes) == CLAUSES
    assert {c: o for c, o in outcomes.items() if o not in ("pass", "not-applicable")} == {}


@pytest.mark.mutants
@pytest.mark.parametrize("name", OURS)
def test_mutant_fails_exactly_its_clause(name: str) -> None:
    mutant = MUTANTS[name]
    report = quiet_run("aid@v1", f"builtin:{name}").report
    assert failing(report) == {mutant.clause} | set(mutant.also_fails), [
        (r.clause, r.message) for r in report.results if r.outcome in ("fail", "error")]


def test_every_clause_has_a_clean_mutant() -> None:
    assert {MUTANTS[n].clause for n in OURS if not MUTANTS[n].also_fails} == CLAUSES


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_secret_mutant_reports_hold_no_secret(name: str, tmp_path: Path) -> None:
    secret, shown = SECRETS[name]
    assert secret in (fixtures_dir("aid") / "mutants-auth.toml").read_text("utf-8")
    result = quiet_run("aid@v1", f"builtin:{name}", report_dir=tmp_path)
    assert failing(result.report) == {"AID-4-08"}
    texts = {p.name: p.read_text("utf-8", errors="replace") for p in tmp_path.rglob("*") if p.is_file()}
    assert "report.json" in texts and shown in texts["report.json"], "the manifest is in the evidence"
    assert [n for n, t in texts.items() if secret in t] == []


# ---------------------------------------------------------------- conforming edge cases (no false fails)

from conformance.world.site import Mutant  # noqa: E402

#: Providers the widened provider tests must still pass: each is the reference with one change
#: that the draft allows, next to the breaks the new broken variants make.
CONFORMING = {
    # AMB-30: the body decides, not the media type
    "json-served-as-text-html": {"route": [{"path": "/.well-known/aid.json", "headers": {"Content-Type": "text/html"}}]},
    "json-served-without-media-type": {"route": [{"path": "/.well-known/aid.json", "remove_headers": ["Content-Type"]}]},
    "json-with-utf8-bom": {"route": [{"path": "/.well-known/aid.json", "encoding": "utf-8-sig"}]},
    # AID-2.1-18 (AMB-04): equal after RFC 3986 normalisation
    "record-uri-case-and-default-port": {"dns": {"txt": [
        "v=aid1;uri=HTTPS://API.Provider.adck.test:443/mcp;proto=mcp;auth=pat;",
        "config=https://provider.adck.test/.well-known/aid.json"]}},
    # AID-2.1-11/14: the remote implementation listed second, the record holding uri and proto
    "remote-listed-second": {"patch": [
        {"op": "add", "path": "/implementations/-", "value": {
            "name": "Cloud", "type": "remote", "protocol": "mcp", "uri": "https://api.provider.adck.test/mcp",
            "authentication": {"scheme": "none"}}},
        {"op": "remove", "path": "/implementations/0"}]},
    # AID-2.1-12/15 and AID-2.1-23: local only, the record without uri and proto
    "local-only": {"dns": {"txt": ["v=aid1;config=https://provider.adck.test/.well-known/aid.json"]},
                   "patch": [{"op": "remove", "path": "/implementations/0"}]},
    # AID-B-01: the boundary itself
    "ttl-0": {"dns": {"ttl": 0}},
    # AID-C-03: the other body of the table
    "revocation-revoked": {"route": [{"path": "/agent/status", "text": '{"status":"revoked"}'}]},
    # AID-2.2.4-13/14 (AMB-31): the endpoints of the other flow are not required
    "oauth2-service-without-flow-endpoints": {"patch": [
        {"op": "replace", "path": "/implementations/1/authentication/scheme", "value": "oauth2_service"},
        {"op": "add", "path": "/implementations/1/authentication/oauth",
         "value": {"tokenEndpoint": "https://provider.adck.test/oauth/token"}}]},
}


def _serve_and_run(variant: dict):
    """The reference provider with ``variant`` applied, served as builtin serves it (signed
    zone on a mock DNS, manifest on the mock HTTPS world), checked as a live domain."""
    from conformance.world import https, tls
    from conformance.world.dns import MockDNS
    from conformance.world.site import load_provider, mutate_provider

    mutant = Mutant(name="conforming", clause=None, summary="conforming", dns=variant.get("dns", {}),
                    patch=tuple(variant.get("patch", ())), routes=tuple(variant.get("route", ())))
    provider = mutate_provider(load_provider("aid"), mutant)
    with MockDNS() as server:
        zone = server.add_zone(provider.domain, provider.zone_text(), sign=provider.sign)
        origin = https.serve(provider.site)
        try:
            return quiet_run("aid@v1", provider.domain, nameservers=[f"127.0.0.1:{server.port}"],
                             connect_to=[f"{provider.site.hostname}:443:127.0.0.1:{origin.port}", "::127.0.0.1:9"],
                             ca_bundle=str(tls.ca_bundle()), timeout=3,
                             dnssec_anchors=[f"{provider.domain}. IN DS {zone.keys.ds[0].to_text()}"]).report
        finally:
            origin.stop()


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CONFORMING))
def test_conforming_provider_fails_nothing(name: str) -> None:
    report = _serve_and_run(CONFORMING[name])
    assert report.summary.level == "full", [(r.clause, r.outcome, r.message) for r in report.results
                                            if r.outcome not in ("pass", "not-applicable")]
