"""ADP discovery services as they are deployed (issue 19): mounted under a path. The target the
user names is the base of the binding (docs/adp-binding.md), path and all."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import pytest

from conformance.world import https, tls
from conformance.world.site import load_mutants, load_reference, mutate
from tests.conftest import failing, quiet_run

DRAFT = "adp"
HOST = "adp.adck.test"


def _mounted(prefix: str, variant: str | None = None):
    """The reference service (or one of its broken variants) with every route under ``prefix``."""
    site = load_reference(DRAFT)
    if variant:
        site = mutate(site, load_mutants(DRAFT, file="mutants-service.toml")[variant])
    return replace(site, routes=tuple(replace(r, path=prefix + r.path) for r in site.routes))


@contextlib.contextmanager
def _live(site):
    origin = https.serve(site)
    try:
        yield dict(connect_to=[f"{HOST}:443:127.0.0.1:{origin.port}"], ca_bundle=str(tls.ca_bundle()), invoke=True)
    finally:
        origin.stop()


def test_a_service_under_a_path_is_judged_there() -> None:
    """`--target https://HOST/v1/adp`: the Discovery Requests go to /v1/adp/discover, metadata to
    /v1/adp/agents/{id}; the reference mounted there is D2 full, as at the root. (The path was
    dropped: every request went to /discover, 404, and the service was judged at most D0.)"""
    with _live(_mounted("/v1/adp")) as reach:
        result = quiet_run(DRAFT, f"https://{HOST}/v1/adp/", seed=7, **reach)
    report = result.report
    assert failing(report) == set(), [f"{r.clause}: {r.message}" for r in report.failing()]
    assert (report.summary.draft_level, report.summary.level, result.exit_code) == ("D2", "full", 0), report.summary
    assert report.target["spec"] == f"https://{HOST}/v1/adp"
    urls = {ev["request"]["url"] for r in report.results for ev in r.evidence if "request" in ev}
    assert all("/v1/adp/" in u for u in urls), urls


def test_a_service_under_a_path_with_a_violation_fails_exactly_that_clause() -> None:
    with _live(_mounted("/directory", "rank-shuffled")) as reach:
        result = quiet_run(DRAFT, f"https://{HOST}/directory", seed=7, **reach)
    assert failing(result.report) == {"ADP-3.3-02"} and result.exit_code == 1
    failed = next(r for r in result.report.results if r.clause == "ADP-3.3-02")
    assert all(ev["request"]["url"].startswith(f"https://{HOST}/directory/discover") for ev in failed.evidence)


def test_drafts_with_well_known_documents_keep_the_origin_only() -> None:
    """aiendpoint, woa and aidre fetch a well-known URI at the origin: a path given is noted and
    not used (RFC 8615), as before."""
    from conformance.targets import TargetOptions
    from conformance.targets.origin import OriginTargets

    target = OriginTargets().create("https://api.example.com/some/path", TargetOptions(draft="woa"))
    assert (target.spec, target.base) == ("https://api.example.com", None)
    assert any("only the origin" in n for n in target.notes)


def test_a_binding_not_found_is_named_with_the_fix_never_failed(capsys) -> None:
    """The draft defines no binding: a service answering 404/405/501 at the assumed path may
    offer D1 elsewhere. The level is 'not found at POST …: name the path with --binding', its
    clauses do not count (exit 0 at the level judged); claimed with --level, the kit cannot judge
    the claim: exit 2 with that one line."""
    from conformance import cli

    result = quiet_run(DRAFT, "builtin", binding=["discover=/v2/search"])
    line = "D1 not found at POST https://adp.adck.test/v2/search (404): name the path with --binding"
    from conformance.reports import render

    assert render.headline(result.report) == f"adp-00: D0 full ({line})" and result.exit_code == 0
    assert failing(result.report) == set()
    capsys.readouterr()
    assert cli.main(["run", DRAFT, "--target", "builtin", "--binding", "discover=/v2/search", "--level", "D1",
                     "--format", ""]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert err == ["adck: D1 is claimed (--level) but D1 was not found at POST https://adp.adck.test/v2/search "
                   "(404): name the path with --binding discover=PATH"], err


@pytest.mark.parametrize("variant", [None, "no-score-components", "filters-refused"])
def test_the_binding_found_again_is_judged(variant: str | None) -> None:
    """--binding that names where the service answers: the reference mounted at /v2 is D2 full
    with --binding discover=/v2/discover --binding agent=/v2/agents/{id} (the braces are data);
    broken services there fail exactly their clause (the option hides no violation)."""
    with _live(_mounted("/v2", variant)) as reach:
        result = quiet_run(DRAFT, f"https://{HOST}", seed=7, binding=["discover=/v2/discover", "agent=/v2/agents/{id}"],
                           **reach)
    if variant is None:
        assert (result.report.summary.draft_level, result.exit_code) == ("D2", 0), result.report.summary
    else:
        clause = load_mutants(DRAFT, file="mutants-service.toml")[variant].clause
        assert failing(result.report) == {clause} and result.exit_code == 1
