"""The AIDRE client role: the reference client passes every client clause at level full, each
broken client fails exactly its clause (and the twin a duplicated sentence names), unusual but
conforming clients are not failed, and the cmd: and python: paths give the same verdicts."""

from __future__ import annotations

import json
import sys

import pytest

from conformance import catalog
from conformance.aidre.adapter import make_handler
from conformance.aidre.reference_client import MEDIA, ReferenceAidreClient
from conformance.aidre.variants import VARIANTS
from conformance.world.site import load_mutants
from tests.conftest import assert_broken_client_fails_exactly_its_clause, outcomes, quiet_run

DRAFT = "aidre"
PROFILE = catalog.load(DRAFT)
CLIENT_MUTANTS = load_mutants(DRAFT, file="client-mutants.toml")
IN_PROCESS = "python:conformance.aidre.adapter:handle"
AS_PROCESS = f"cmd:{sys.executable} -m conformance.aidre.adapter"


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
    (AMB-59: no cosine assumed), and escapes every non-ASCII character as \\uXXXX (AMB-58)."""

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


class SortsHigherScoreFirst(ReferenceAidreClient):
    """Sorts the results of every vector search by descending score, whatever the declared
    distance (l2 included): the draft gives score no direction (AMB-06), so an order by score,
    either way, assumes no cosine (AMB-59)."""

    def better(self, declared: dict | None) -> str | None:
        return "higher" if declared is not None else None


class TextOnly(ReferenceAidreClient):
    """Sends text queries only and reads one page: claims neither aidre.vector nor aidre.pagination."""

    features = ()


keeps_server_order = make_handler(KeepsServerOrder, "keeps the server's order, escapes non-ASCII")
unusual_headers = make_handler(UnusualHeaders, "charset parameter, Accept among others")
sorts_higher_score_first = make_handler(SortsHigherScoreFirst, "sorts by descending score in every space")
text_only = make_handler(TextOnly, "text queries, one page")


@pytest.mark.mutants
@pytest.mark.parametrize("handler", ["keeps_server_order", "unusual_headers", "sorts_higher_score_first"])
def test_conforming_clients_reach_full(handler: str) -> None:
    """Readings the kit holds conforming (AMB-51, AMB-52, AMB-58, AMB-59) must not fail anything."""
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



# ---------------------------------------------------------------- what the scenarios hold

def _members_beyond_the_draft(value: dict, kind: str, where: str) -> list[str]:
    from conformance.aidre._client_fixtures import DRAFT_MEMBERS

    return [f"{where}.{name}" for name in value if name not in DRAFT_MEMBERS[kind]]


def test_control_documents_hold_only_what_the_draft_defines() -> None:
    """The discovery documents, search answers and error objects the kit serves a client hold
    only members the draft defines (AMB-61), so that a client refusing unknown members fails
    the unknown-member clauses (AIDRE-20.3-01, AIDRE-23.2-02) and no other: the member a
    cursor comes back in is the scenario server's own knowledge, never announced (AMB-50)."""
    from werkzeug.test import EnvironBuilder
    from werkzeug.wrappers import Request

    from conformance.aidre import scenario_server
    from conformance.aidre._client_fixtures import COSINE, DOT, DOT_UNIT, L2, L2_CASED, discovery_document
    from conformance.world.site import Route, Site

    document = discovery_document((COSINE, L2, DOT, DOT_UNIT, L2_CASED))
    beyond = _members_beyond_the_draft(document, "document", "document")
    for member, kind in (("endpoints", "endpoints"), ("capabilities", "capabilities"), ("auth", "auth")):
        beyond += _members_beyond_the_draft(document[member], kind, member)
    for index, space in enumerate(document["embedding_spaces"]):
        beyond += _members_beyond_the_draft(space, "embedding_space", f"embedding_spaces[{index}]")

    def answer(host: str, body: dict, **options) -> dict:
        scenario_server.forget(host)
        route = Route("/search", handler="aidre.scenario_search",
                      options={"cursor_styles": ["base64"], "top_k": 2, "cursor_member": "cursor", **options})
        request = Request(EnvironBuilder(method="POST", path="/search", json=body).get_environ())
        site = Site(hostname=host, document=document, routes=(route,))
        return json.loads(scenario_server.search(site, route, request).get_data())

    first = answer("members-1.adck.test", {"query": "single sign-on setup", "return": {"vectors": True}})
    vectors = answer("members-2.adck.test", {"query_vector": [3.0, 4.0] + [0.0] * 46, "embedding_space": L2},
                     vectors=[["doc_1#chunk_1", [1.0] * 48], ["doc_1#chunk_2", [2.0] * 48]], return_vectors=True)
    error = answer("members-3.adck.test", {"query": "x"}, fail=[422, "invalid_embedding_dimension"])
    for name, value in (("text answer", first), ("vector answer", vectors)):
        beyond += _members_beyond_the_draft(value, "answer", name)
        beyond += _members_beyond_the_draft(value["meta"], "meta", f"{name}.meta")
        for item in value["results"]:
            beyond += _members_beyond_the_draft(item, "result", f"{name}.result")
            beyond += _members_beyond_the_draft(item["metadata"], "metadata", f"{name}.result.metadata")
    beyond += _members_beyond_the_draft(error, "error", "error")
    assert beyond == []
    assert first["meta"]["next_cursor"] and all("vectors" in r for r in vectors["results"])
