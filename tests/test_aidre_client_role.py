"""The AIDRE client role: the reference client passes every client clause at level full, each
broken client fails exactly its clause (and the twin a duplicated sentence names), unusual but
conforming clients are not failed, and the cmd: and python: paths give the same verdicts."""

from __future__ import annotations

import json
import sys

import pytest

from conformance import catalog
from conformance.agent.aidre_adapter import make_handler
from conformance.agent.aidre_client import MEDIA, ReferenceAidreClient
from conformance.agent.aidre_mutants import VARIANTS
from conformance.world.site import load_mutants
from tests.conftest import assert_broken_client_fails_exactly_its_clause, outcomes, quiet_run

DRAFT = "aidre"
PROFILE = catalog.load(DRAFT)
CLIENT_MUTANTS = load_mutants(DRAFT, file="client-mutants.toml")
IN_PROCESS = "python:conformance.agent.aidre_adapter:handle"
AS_PROCESS = f"cmd:{sys.executable} -m conformance.agent.aidre_adapter"


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
    assert adapter["protocol"] == "adck-harness/1" and adapter["operations"] == ["aidre.search"]
    assert adapter["steps"] >= len(tested) and adapter["client_requests"] > adapter["steps"]


def test_every_client_variant_is_declared() -> None:
    assert set(CLIENT_MUTANTS) == set(VARIANTS)
    assert any(m.via == "cmd" for m in CLIENT_MUTANTS.values()), "one variant runs through the cmd: path"


def test_every_tested_client_clause_has_a_mutant() -> None:
    proven = {cid for m in CLIENT_MUTANTS.values() for cid in (m.clause, *m.also_fails)}
    assert _tested_client_clauses() - proven == set()


@pytest.mark.mutants
@pytest.mark.parametrize("name", sorted(CLIENT_MUTANTS))
def test_client_mutant_fails_exactly_its_clause(name: str) -> None:
    assert_broken_client_fails_exactly_its_clause(DRAFT, name, "client")


def test_cmd_and_python_paths_give_the_same_verdicts() -> None:
    in_process = quiet_run(DRAFT, IN_PROCESS, roles=["client"]).report
    as_process = quiet_run(DRAFT, AS_PROCESS, roles=["client"]).report
    assert outcomes(in_process) == outcomes(as_process)


# ---------------------------------------------------------------- conforming edge cases (no false fails)

class KeepsServerOrder(ReferenceAidreClient):
    """Presents results in the order the server listed them, page after page, never re-ranking
    (AMB-54: no cosine assumed), and escapes every non-ASCII character as \\uXXXX (AMB-58)."""

    def rank(self, results: list[dict], declared: dict | None) -> list[dict]:
        return list(results)

    def encode(self, body: dict) -> bytes:
        return json.dumps(body, ensure_ascii=True).encode("ascii")


class UnusualHeaders(ReferenceAidreClient):
    """Content-Type with a charset parameter and capital letters (AMB-51); Accept listing other
    types first and application/aidre+json with a low q-value (AMB-52)."""

    def content_type(self) -> str:
        return "Application/AIDRE+JSON; charset=UTF-8"

    def accept(self) -> str:
        return f"application/json, */*;q=0.1, {MEDIA.upper()} ; q=0.5"


class TextOnly(ReferenceAidreClient):
    """Sends text queries only and reads one page: claims neither aidre.vector nor aidre.pagination."""

    features = ()


keeps_server_order = make_handler(KeepsServerOrder, "keeps the server's order, escapes non-ASCII")
unusual_headers = make_handler(UnusualHeaders, "charset parameter, Accept among others")
text_only = make_handler(TextOnly, "text queries, one page")


@pytest.mark.mutants
@pytest.mark.parametrize("handler", ["keeps_server_order", "unusual_headers"])
def test_conforming_clients_reach_full(handler: str) -> None:
    """Readings the kit holds conforming (AMB-51, AMB-52, AMB-54, AMB-58) must not fail anything."""
    report = quiet_run(DRAFT, f"python:tests.test_aidre_client_role:{handler}", roles=["client"]).report
    assert {cid: o for cid, o in outcomes(report).items() if o in ("fail", "error")} == {}
    assert report.summary.level == "full"


def test_features_the_client_does_not_claim_are_not_applicable_never_failed() -> None:
    """Vector queries and pagination are the client's choice (5.3 "If used", 18.2 "MAY"): a
    client claiming neither is not judged on them, and still reaches full on the rest."""
    report = quiet_run(DRAFT, "python:tests.test_aidre_client_role:text_only", roles=["client"]).report
    got = outcomes(report)
    assert {cid for cid, o in got.items() if o == "not-applicable"} == {
        "AIDRE-5.3-02", "AIDRE-18.2-03", "AIDRE-19.3-02", "AIDRE-19.4-01"}
    assert {cid: o for cid, o in got.items() if o in ("fail", "error")} == {}
    assert report.summary.level == "full"

