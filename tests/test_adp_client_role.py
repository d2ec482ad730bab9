"""The ADP client role: the reference client passes every client clause at level full (and at
the draft's level D2), each broken client fails exactly its clause, unusual but conforming
clients are not failed, and the cmd: and python: paths give the same verdicts."""

from __future__ import annotations

import sys

import pytest

from conformance import catalog
from conformance.adp.adapter import make_handler
from conformance.adp.reference_client import Chosen, Need, ReferenceAdpClient
from conformance.adp.variants import VARIANTS
from conformance.world.site import load_mutants
from tests.conftest import assert_broken_client_fails_exactly_its_clause, failing, outcomes, quiet_run

DRAFT = "adp"
PROFILE = catalog.load(DRAFT)
CLIENT_MUTANTS = load_mutants(DRAFT, file="client-mutants.toml")
IN_PROCESS = "python:conformance.adp.adapter:handle"
AS_PROCESS = f"cmd:{sys.executable} -m conformance.adp.adapter"


def _tested_client_clauses() -> set[str]:
    return {cid for cid, c in PROFILE.coverage().items() if c.status == "tested" and c.clause.role == "client"}


def test_reference_client_passes_every_client_clause() -> None:
    result = quiet_run(DRAFT, "builtin", roles=["client"])
    report = result.report
    assert report.roles == ["client"]
    tested = _tested_client_clauses()
    assert tested >= {"ADP-3.3-06", "ADP-3.3-07", "ADP-4.1-25", "ADP-4.5-09", "ADP-6.3-01", "ADP-6.3-04",
                      "ADP-10-06"} | {f"ADP-5.1-{n}" for n in range(23, 34)}
    assert {cid: o for cid, o in outcomes(report).items() if cid in tested and o != "pass"} == {}
    assert result.exit_code == 0 and report.summary.level == "full"
    assert report.summary.draft_level is None, "a client is judged by MUST and SHOULD, not by the draft's levels"
    adapter = report.target["adapter"]
    assert adapter["protocol"] == "adck-harness/1" and adapter["operations"] == ["adp.discover"]
    assert adapter["steps"] >= len(tested)


def test_every_client_variant_is_declared() -> None:
    assert set(CLIENT_MUTANTS) == set(VARIANTS)
    assert any(m.via == "cmd" for m in CLIENT_MUTANTS.values()), "one variant runs through the cmd: path"


def test_every_tested_client_clause_has_two_mutants() -> None:
    proofs: dict[str, set[str]] = {}
    for name, m in CLIENT_MUTANTS.items():
        proofs.setdefault(m.clause, set()).add(name)
    assert {cid for cid in _tested_client_clauses() if len(proofs.get(cid, ())) < 2} == set()


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CLIENT_MUTANTS))
def test_client_mutant_fails_exactly_its_clause(name: str) -> None:
    """Each broken client fails exactly its clause, and a broken MUST makes it non-conformant:
    the draft's levels (D0, D1, D2) are levels of what is published and served, not of clients
    (Profile.server_draft_levels), so a client is judged by MUST and SHOULD alone."""
    assert_broken_client_fails_exactly_its_clause(DRAFT, name, "client")


def test_cmd_and_python_paths_give_the_same_verdicts() -> None:
    in_process = quiet_run(DRAFT, IN_PROCESS, roles=["client"]).report
    as_process = quiet_run(DRAFT, AS_PROCESS, roles=["client"]).report
    assert outcomes(in_process) == outcomes(as_process)


# ---------------------------------------------------------------- conforming edge cases (no false fails)

class BestScoreWithinEachService(ReferenceAdpClient):
    """Re-ranks each service's candidates by its own score (never across services), takes the
    last service first (another order of preference), and tries every service's Discovery
    endpoint when the level is unknown (AMB-62)."""

    def order(self, candidates: list[dict]) -> list[dict]:
        def score(c: dict) -> float:
            s = c.get("score")
            return float(s) if isinstance(s, (int, float)) and not isinstance(s, bool) else 0.0

        return sorted(candidates, key=lambda c: -score(c))

    def discover(self, need: Need) -> Chosen:
        return super().discover(Need(services=tuple(reversed(need.services)), request=need.request,
                                     agents=need.agents, level=need.level, policy=need.policy))


class ChoosesNothingAmbiguous(ReferenceAdpClient):
    """Across several services it asks the user rather than choose (outcome none): a client may
    decline to choose; the clauses about what it invokes then cannot be judged on those steps."""

    def discover(self, need: Need) -> Chosen:
        if len(need.services) > 1:
            return Chosen("none", messages=["several services answered: asking the user"])
        return super().discover(need)


class LooksAroundD0Publisher(ReferenceAdpClient):
    """Before reading a D0 publisher's metadata it GETs the publisher's base and a well-known
    path (no query string, no body), HEADs each agent's path, and reads each record with a
    query string of its own (?format=json): none of it carries the user's need, so none of it
    is a query (AMB-67)."""

    def metadata(self, base: str, need: Need) -> list[dict]:
        from urllib.parse import quote

        for path in ("/", "/.well-known/agent-discovery"):
            self.fetcher.fetch(self.url(base, path), headers={"Accept": "application/json"})
        for agent_id in need.agents:
            path = need.binding.get("agent", "/agents/{id}").replace("{id}", quote(agent_id, safe=""))
            self.fetcher.fetch(self.url(base, path), method="HEAD")
            self.fetcher.fetch(self.url(base, path + "?format=json"), headers={"Accept": "application/json"})
        return super().metadata(base, need)


class ErrorWhenAllRefused(ReferenceAdpClient):
    """Where every candidate is refused it answers error (no acceptable candidate), not none:
    either is the right answer (AMB-69)."""

    def discover(self, need: Need) -> Chosen:
        chosen = super().discover(need)
        if chosen.outcome == "none" and chosen.refused:
            return Chosen("error", refused=chosen.refused, error_kind="no-acceptable-candidate",
                          messages=["every candidate was refused by local checks"])
        return chosen


class ChecksEverythingFirst(ReferenceAdpClient):
    """Reads every service of the step, checks every candidate of each (4.5, 10) before
    choosing, then takes the first acceptable one in the services' order (AMB-68: every
    candidate checked, eagerly)."""

    def select(self, offered, need: Need) -> Chosen:
        items = list(offered)
        verdicts = [(base, c, *self.check(c, need.policy)) for base, c in items]
        refused = [{"id": str(c.get("id")), "reason": why} for _, c, why, b in verdicts if b is None]
        for base, c, _, b in verdicts:
            if b is not None:
                return Chosen("selected", candidate=str(c["id"]), service=base,
                              invocation={"protocol": b.get("protocol"), "endpoint": b.get("endpoint")},
                              refused=refused)
        return Chosen("none", refused=refused)


class RanksByExampleComponent(ReferenceAdpClient):
    """Re-ranks each service's candidates by the recommended example component (exact name;
    candidates without it last): using a component it understands is its own choice, and names
    that differ in case or by a space are not it (AMB-70)."""

    def order(self, candidates: list[dict]) -> list[dict]:
        def key(c: dict) -> float:
            comps = c.get("score_components")
            value = comps.get("example") if isinstance(comps, dict) else None
            return -float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0

        return sorted(candidates, key=key)


class ShapesItsOwnRequest(ReferenceAdpClient):
    """Sends a Discovery Request of its own, built from the one it is given (AMB-71): members
    in another order, preferred_tags and client_context left out, a member of its own added,
    limit written 10.0 (an integer, as JSON Schema counts it), labelled application/json;
    charset=utf-8; and first a bare GET of the Discovery path (no query string: no Discovery
    Request)."""

    def post(self, url: str, body: dict):
        import json

        self.fetcher.fetch(url, headers={"Accept": "application/json"})
        mine = {k: body[k] for k in reversed(list(body)) if k not in ("preferred_tags", "client_context")}
        if isinstance(mine.get("limit"), int) and not isinstance(mine.get("limit"), bool):
            mine["limit"] = float(mine["limit"])
        mine["x_client"] = {"name": "shaper", "version": 2}
        return self.fetcher.fetch(url, method="POST", content=json.dumps(mine).encode("utf-8"),
                                  headers={"Content-Type": "application/json; charset=utf-8",
                                           "Accept": "application/json"})


best_within_service = make_handler(BestScoreWithinEachService, "best score within each service, last service first")
asks_across_services = make_handler(ChoosesNothingAmbiguous, "asks the user across services")
looks_around_d0 = make_handler(LooksAroundD0Publisher, "looks around a D0 publisher without querying it")
error_when_all_refused = make_handler(ErrorWhenAllRefused, "answers error when every candidate is refused")
checks_everything_first = make_handler(ChecksEverythingFirst, "checks every candidate of every service first")
ranks_by_example = make_handler(RanksByExampleComponent, "ranks by the example component within each service")
shapes_its_own_request = make_handler(ShapesItsOwnRequest, "sends a Discovery Request of its own shape")


@pytest.mark.parametrize("handler", ["best_within_service", "looks_around_d0", "error_when_all_refused",
                                     "checks_everything_first", "ranks_by_example", "shapes_its_own_request"])
def test_conforming_client_reaches_full(handler: str) -> None:
    """Readings the kit holds conforming (AMB-60, AMB-67, AMB-68, AMB-69, AMB-70, AMB-71) fail nothing."""
    report = quiet_run(DRAFT, f"python:tests.test_adp_client_role:{handler}", roles=["client"]).report
    assert {cid: o for cid, o in outcomes(report).items() if o in ("fail", "error")} == {}
    assert report.summary.level == "full"


def test_a_client_that_chooses_nothing_is_untestable_there_never_passed_or_failed() -> None:
    report = quiet_run(DRAFT, "python:tests.test_adp_client_role:asks_across_services", roles=["client"]).report
    got = outcomes(report)
    assert got["ADP-6.3-01"] == "untestable"
    assert {cid: o for cid, o in got.items() if o in ("fail", "error")} == {}


class _IgnoresTheBinding(ReferenceAdpClient):
    """A client that asks the default paths whatever it is told (a client configured for the
    kit's assumed binding, run against services that answer elsewhere)."""

    def discover(self, need: Need) -> Chosen:
        from dataclasses import replace

        return super().discover(replace(need, binding={"discover": "/discover", "agent": "/agents/{id}"}))


IGNORES_THE_BINDING = make_handler(_IgnoresTheBinding, name="ignores the binding")


@pytest.mark.parametrize("name", [None, "queries-d0-publisher", "gives-up-without-discover"])
def test_binding_in_the_client_role(name: str | None) -> None:
    """--binding in the client role (issue 19): the kit's services answer at the bound paths and
    the step tells the client (params.binding); the reference client, which follows it, is
    judged as at the default paths, and broken clients still fail exactly their clause."""
    binding = ["discover=/v1/search", "agent=/v1/agents/{id}/card"]
    if name is None:
        result = quiet_run(DRAFT, "builtin", roles=["client"], binding=binding)
        assert failing(result.report) == set() and result.exit_code == 0, [
            f"{r.clause}: {r.message}" for r in result.report.failing()]
        return
    mutant = load_mutants(DRAFT, file=catalog.load(DRAFT).client.mutants)[name]
    report = quiet_run(DRAFT, f"builtin:{name}", roles=["client"], binding=binding).report
    assert failing(report) == {mutant.clause} | set(mutant.also_fails)


def test_a_client_that_ignores_the_binding_finds_no_service_there() -> None:
    """The services moved: a client that still asks /discover and /agents/{id} is answered 404
    and chooses nothing it should, so the run fails (the option hides no client)."""
    binding = ["discover=/v1/search", "agent=/v1/agents/{id}/card"]
    target = f"python:{__name__}:IGNORES_THE_BINDING"
    moved = quiet_run(DRAFT, target, roles=["client"], binding=binding)
    assert moved.exit_code == 1 and failing(moved.report), moved.report.summary
    assert quiet_run(DRAFT, target, roles=["client"]).exit_code == 0, "at the default paths it is the reference"
