"""Fixtures of the aidre suite's client role (see conftest.py): the kit plays AIDRE servers on
loopback and drives the client under test through its adapter (harness operation
``aidre.search``), then judges from the replies and the requests the client sent.

Each scenario is an origin of its own (``plain-3.adck.test``): its discovery document at
/.well-known/ai-discovery (written here, :func:`discovery_document`, with its endpoints on the
scenario's own name) and a search endpoint answered by
:mod:`conformance.aidre.scenario_server` (the reference's ranking over its corpus; cursor
formats, unknown members and embedding spaces as the test asks). A step's ``network`` maps
the scenario's name to the loopback listener and names no DNS server at all: the scenarios
have no DNS records, SRV or other (3.3).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from conformance.aidre import scenario_server
from conformance.aidre.scenario_server import declaration
from conformance.harness.adapters import Adapter
from conformance.harness.driver import ClientDriver
from conformance.outcomes import untestable
from conformance.world.scenarios import Recorded, Scenario, ScenarioWorld
from conformance.world.site import Route, Site

#: What conftest.py's star import takes: the fixtures only.
__all__ = ["aidre_client", "aidre_scenarios"]
#: The clients' clock (the AIDRE client role has no time-dependent rule; steps carry it anyway).
T0 = datetime(2026, 4, 10, 12, 0, tzinfo=timezone.utc)
WELL_KNOWN = "/.well-known/ai-discovery"
SEARCH = "/search"
MEDIA = "application/aidre+json"
COSINE, L2, DOT, DOT_UNIT = ("adck:hash-64:cosine:v1", "adck:hash-48:l2:v1", "adck:hash-48:dot:v1",
                             "adck:hash-64:dot-unit:v1")
#: An l2 space whose id has capitals and a non-ASCII letter (AMB-62).
L2_CASED = "ADCK:Hash-48:L2:R\u00e9vision-2"
#: A text query the corpus answers with many results (several pages at a small top_k).
TEXT = "single sign-on setup"


#: The members the draft defines (in its text, its examples and its ABNF: 3.4, 7.2, 7.3, 16.2,
#: 17.1, 18.3, 19.1, 20.1, 24.1, 24.2, 25) in each object a client reads: the scenarios' control
#: documents and answers hold these only (AMB-61); members the draft does not define appear in
#: the unknown-member scenarios alone, under names chosen to be found (UNKNOWN_IN_DISCOVERY,
#: scenario_server._unknown).
DRAFT_MEMBERS: dict[str, frozenset[str]] = {
    "document": frozenset({"version", "service", "organization", "endpoints", "capabilities", "embedding_spaces",
                           "auth"}),
    "endpoints": frozenset({"search", "collections", "chunk"}),
    "capabilities": frozenset({"query_text", "query_vector", "return_text", "return_semantic_payload",
                               "return_vectors", "delta_sync"}),
    "embedding_space": frozenset({"id", "dimensions", "distance", "normalized", "provider", "model", "revision"}),
    "auth": frozenset({"type"}),
    "answer": frozenset({"request_id", "collection", "results", "meta"}),
    "meta": frozenset({"returned", "top_k", "next_cursor"}),
    "result": frozenset({"id", "score", "metadata", "text", "semantic_payload", "source", "vectors"}),
    "metadata": frozenset({"updated_at", "canonical", "visibility", "content_hash"}),
    "error": frozenset({"error", "message", "details", "request_id"}),
}
#: The request member the scenarios' servers take a cursor back in (the draft names none:
#: AMB-08). Not announced anywhere a client reads: a client may put the cursor, unchanged, in
#: any member the draft does not define, and the scenario server finds it there (AMB-50).
CURSOR_MEMBER = "cursor"


def discovery_document(spaces: tuple[str, ...] = (COSINE, L2)) -> dict:
    """A scenario's discovery document, its endpoints on its own name (``{host}``): the members
    of the draft's 24.1 example and 19.1, nothing else (AMB-61)."""
    return {
        "version": "1",
        "service": "AIDRE",
        "organization": "adck client scenario",
        "endpoints": {"collections": "https://{host}/collections", "search": "https://{host}/search",
                      "chunk": "https://{host}/chunks/{id}"},
        "capabilities": {"query_text": True, "query_vector": True, "return_text": True,
                         "return_semantic_payload": False, "return_vectors": False, "delta_sync": False},
        "embedding_spaces": [declaration(s) for s in spaces],
        "auth": {"type": "none"},
    }


def raw_vector(text: str, dims: int) -> list[float]:
    """A vector a user might hold for ``text``: word counts hashed into ``dims`` dimensions
    (the reference's feature hashing), scaled by 1.5 and not normalised (norm well above 1)."""
    from conformance.aidre.reference_server import SPACES, embed

    base = next(s for s, (d, _, normalised) in SPACES.items() if d == dims)
    values = embed(text, base)
    if SPACES[base][2]:  # the reference normalises its cosine space: undo it with the word count
        values = [x * len(text.split()) for x in values]
    return [round(x * 1.5 + (0.25 if i % 7 == 0 else 0.0), 6) for i, x in enumerate(values)]


class AidreScenario:
    """One origin for one client check."""

    def __init__(self, web: Scenario, document: dict, cursor_member: str = CURSOR_MEMBER) -> None:
        self.web, self.document = web, document
        #: The request member the scenario's server takes a cursor back in (AMB-50).
        self.cursor_member = cursor_member

    @property
    def host(self) -> str:
        return self.web.host

    @property
    def authority(self) -> str:
        return f"https://{self.host}"

    def requests(self, path: str | None = None) -> list[Recorded]:
        return [r for r in self.web.requests() if path is None or r.path == path]

    def searches(self) -> list[Recorded]:
        """The requests the client sent to the search endpoint, in order."""
        return self.requests(SEARCH)

    def served(self) -> list[scenario_server.Served]:
        return scenario_server.served(self.host)

    def evidence(self) -> list:
        return self.web.evidence()


class AidreScenarios:
    """The scenarios one client test sets up."""

    def __init__(self, world: ScenarioWorld) -> None:
        self.world = world
        self.created: list[AidreScenario] = []

    def new(self, name: str, *, spaces: tuple[str, ...] = (COSINE, L2), cursor_styles: tuple[str, ...] = ("token",),
            top_k: int = 3, unknown: bool = False, patch: list[dict] | None = None,
            fail: tuple[int, str] | None = None, total: int | None = None,
            vectors: list[tuple[str, list[float]]] | None = None) -> AidreScenario:
        """An origin whose search endpoint pages ``top_k`` results at a time with cursors of
        ``cursor_styles`` in turn; ``unknown`` adds unknown members to every search answer (an
        error object too); ``patch`` (JSON Patch) changes the discovery document; ``fail``
        (status, error value) answers every search with that error object instead; ``total``
        caps the results a search finds; ``vectors`` (id, vector) is the collection vector
        queries search, each result carrying its vector (``vectors``), and the document says
        ``return_vectors: true``."""
        from conformance.world.site import apply_patch

        if vectors:
            patch = [{"op": "replace", "path": "/capabilities/return_vectors", "value": True}, *(patch or [])]
        document = apply_patch(discovery_document(spaces), patch or [])
        site = Site(hostname="", document=document, routes=(
            Route(WELL_KNOWN, body="document", method="GET",
                  headers=(("Content-Type", "application/json"), ("Cache-Control", "max-age=300"))),
            Route(SEARCH, handler="aidre.scenario_search",
                  options={"cursor_styles": list(cursor_styles), "top_k": top_k, "unknown": unknown,
                           "cursor_member": CURSOR_MEMBER, "fail": list(fail or []), "total": total,
                           "vectors": [[cid, list(v)] for cid, v in vectors or []],
                           "return_vectors": bool(vectors)}),
            Route("/collections", handler="aidre.collections"),
            Route("/chunks/{id}", handler="aidre.chunk"),
        ))
        web = self.world.add(name, site)
        scenario_server.forget(web.host)
        scenario = AidreScenario(web, web.site.document, CURSOR_MEMBER)
        self.created.append(scenario)
        return scenario

    def evidence(self) -> list:
        return [e for s in self.created for e in s.evidence()]


class AidreClient(ClientDriver):
    """Drives the AIDRE client under test through its adapter, one ``aidre.search`` step at a time."""

    def __init__(self, adapter: Adapter, run: str) -> None:
        super().__init__(adapter, run)
        #: Observations two clauses share (a sentence the draft states twice), made once per run.
        self.observed: dict[str, Any] = {}

    @property
    def vectors(self) -> bool:
        """The client sends vector queries (it claims the feature ``aidre.vector``)."""
        return "aidre.vector" in self.adapter.features

    def search(self, scenario: AidreScenario, *, query: str | None = None, vector: list[float] | None = None,
               space: str | None = None, top_k: int | None = None, pages: int = 1) -> dict:
        __tracebackhide__ = True
        params: dict[str, Any] = {"authority": scenario.authority}
        if vector is not None:
            params.update(vector=vector, space=space)
        else:
            params["query"] = query if query is not None else TEXT
        if top_k is not None:
            params["top_k"] = top_k
        if pages != 1:
            params["pages"] = pages
        return self.step("aidre.search", params, now=T0, network=scenario.web.network(), world=scenario.web.world,
                         record=scenario.web.steps)


@pytest.fixture(scope="session")
def aidre_client(adck_adapter, request: pytest.FixtureRequest) -> AidreClient:
    """The AIDRE client under test, driven through its adapter."""
    from conformance.plugin import STATE

    return AidreClient(adck_adapter, f"r{request.config.stash[STATE].seed}")


@pytest.fixture
def aidre_scenarios(scenario_world) -> AidreScenarios:
    """The origins one client test sets up (on the session's loopback world)."""
    return AidreScenarios(scenario_world)


# ---------------------------------------------------------------- reading what the client did

def said(reply: dict) -> str:
    """A client's reply in a few words, for failure messages."""
    text = f"the client answered {reply.get('outcome')!r}"
    if reply.get("error_kind"):
        text += f" ({reply['error_kind']}"
        text += f": {reply['messages'][0]}" if reply.get("messages") else ""
        text += ")"
    if reply.get("outcome") == "results":
        text += f" with {len(reply.get('results') or [])} results"
    return text


def body_of(request: Recorded) -> Any:
    """The JSON value of a request's body, or None when it is not UTF-8 JSON."""
    try:
        return json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def describe(request: Recorded) -> str:
    return f"{request.method} {request.path} (body {request.body[:160]!r})"


def searched(scenario: AidreScenario, reply: dict, what: str) -> list[Recorded]:
    """The client's requests to the search endpoint; *untestable* when it sent none (reaching
    the search endpoint is checked under AIDRE-3.3-01)."""
    __tracebackhide__ = True
    sent = scenario.searches()
    if not sent:
        untestable(f"asked for {what}, the client sent no request to {scenario.authority}{SEARCH}; "
                   f"{said(reply)} (see AIDRE-3.3-01)")
    return sent


def ids(reply: dict) -> list[str]:
    return [str(r.get("id")) for r in reply.get("results") or [] if isinstance(r, dict)]


# ---------------------------------------------------------------- observations two clauses share
#
# The draft states three client rules twice (AMB-13): Content-Type in 14.1 and 15.2, Accept in
# 14.1 and 15.2, unknown fields in 20.3 and 23.2. Each pair is judged by one observation, made
# once per run: the second test judges the same steps again (and shows them as its evidence).

def shared(client: AidreClient, scenarios: AidreScenarios, key: str, make):
    """``make()`` the first time ``key`` is asked for in a run, its value afterwards."""
    if key not in client.observed:
        before = len(scenarios.created)
        client.observed[key] = (make(), scenarios.created[before:])
    value, made = client.observed[key]
    scenarios.created.extend(s for s in made if s not in scenarios.created)
    return value


def media_type(value: str | None) -> str:
    """The type/subtype of a Content-Type value, lower-case, without parameters."""
    return (value or "").split(";")[0].strip().lower()


def header(request: Recorded, name: str) -> str | None:
    return next((v for k, v in request.headers.items() if k.lower() == name.lower()), None)


def check_content_type(client: AidreClient, scenarios: AidreScenarios) -> None:
    """Every request with a body the client sends carries Content-Type application/aidre+json
    (parameters allowed, AMB-51): text and vector searches, first and next pages."""
    __tracebackhide__ = True
    from conformance.outcomes import violation

    def make() -> tuple[AidreScenario, list[dict]]:
        scenario = scenarios.new("content-type")
        replies = [client.search(scenario, query=TEXT, pages=3)]
        if client.vectors:
            replies.append(client.search(scenario, vector=raw_vector(TEXT, 64), space=COSINE, pages=2))
        return scenario, replies

    scenario, replies = shared(client, scenarios, "content-type", make)
    with_body = [r for r in scenario.requests() if r.body]
    if not with_body:
        untestable(f"the client sent no request with a body to {scenario.authority}; "
                   f"{'; '.join(said(r) for r in replies)} (see AIDRE-3.3-01)")
    wrong = [r for r in with_body if media_type(header(r, "Content-Type")) != MEDIA]
    if wrong:
        shown = "; ".join(f"{r.method} {r.path} with Content-Type {header(r, 'Content-Type')!r}" for r in wrong[:4])
        violation(f"{len(wrong)} of the {len(with_body)} requests with a body the client sent are not labelled "
                  f"{MEDIA}: {shown}")


def accepts_aidre(value: str | None) -> bool:
    """Accept lists application/aidre+json with a q-value above 0 (AMB-52)."""
    for item in (value or "").split(","):
        parts = [p.strip() for p in item.split(";")]
        if parts[0].lower() != MEDIA:
            continue
        q = 1.0
        for param in parts[1:]:
            name, _, val = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(val.strip())
                except ValueError:
                    q = 0.0
        if q > 0:
            return True
    return False


def check_accept(client: AidreClient, scenarios: AidreScenarios) -> None:
    """Every request the client sends (the discovery GET included, AMB-02) has an Accept
    listing application/aidre+json with q above 0 (AMB-52)."""
    __tracebackhide__ = True
    from conformance.outcomes import violation

    def make() -> tuple[AidreScenario, dict]:
        scenario = scenarios.new("accept")
        return scenario, client.search(scenario, query=TEXT, pages=2)

    scenario, reply = shared(client, scenarios, "accept", make)
    sent = scenario.requests()
    if not sent:
        untestable(f"the client sent no request to {scenario.authority}; {said(reply)} (see AIDRE-3.3-01)")
    wrong = [r for r in sent if not accepts_aidre(header(r, "Accept"))]
    if wrong:
        shown = "; ".join(f"{r.method} {r.path} with Accept {header(r, 'Accept')!r}" for r in wrong[:4])
        violation(f"{len(wrong)} of the {len(sent)} requests the client sent do not list {MEDIA} as acceptable: {shown}")


#: Members the draft does not define, at every level of the discovery document (AMB-57): x_
#: names holding every kind of JSON value; limits, the kit's reference server's extension member
#: (AMB-61); and case twins of members the draft defines, after them, holding values a client
#: that read them would act on: another search endpoint, another distance, no vector queries (AMB-60).
UNKNOWN_IN_DISCOVERY = [
    {"op": "add", "path": "/x_vendor", "value": {"plan": "enterprise", "regions": ["eu", "us"], "sla": None}},
    {"op": "add", "path": "/x_list", "value": [1, "two", {"three": 3}]},
    {"op": "add", "path": "/x_null", "value": None},
    {"op": "add", "path": "/limits", "value": {"default_top_k": 5, "max_top_k": 50, "top_k_above_max": "clamp",
                                               "unsupported_return": "ignore", "cursor_member": "cursor"}},
    {"op": "add", "path": "/limits/x_burst", "value": 10},
    {"op": "add", "path": "/endpoints/x_stream", "value": "https://{host}/stream"},
    {"op": "add", "path": "/capabilities/x_rerank", "value": True},
    {"op": "add", "path": "/embedding_spaces/0/x_quantization", "value": {"type": "int8", "scale": 0.5}},
    {"op": "add", "path": "/embedding_spaces/1/x_tags", "value": ["beta"]},
    {"op": "add", "path": "/auth/x_scopes", "value": ["read"]},
    {"op": "add", "path": "/Endpoints", "value": {"search": "https://{host}/x-search"}},
    {"op": "add", "path": "/capabilities/Query_Vector", "value": False},
    {"op": "add", "path": "/embedding_spaces/0/Distance", "value": "l2"},
]


def check_unknown_members(client: AidreClient, scenarios: AidreScenarios) -> None:
    """The client reports the same results with and without members the draft does not define,
    in the discovery document (top level, endpoints, capabilities, each embedding space, limits,
    auth) and in every search answer (top level, meta, each result, its metadata); and the same
    error (outcome, error_kind) for an error object with and without them."""
    __tracebackhide__ = True
    from conformance.outcomes import violation

    def steps(scenario: AidreScenario) -> list[tuple[str, dict]]:
        replies = [("a text query over two pages", client.search(scenario, query=TEXT, pages=2))]
        if client.vectors:
            replies.append(("a vector query", client.search(scenario, vector=raw_vector(TEXT, 64), space=COSINE)))
        return replies

    def make() -> tuple[list, list]:
        baseline = steps(scenarios.new("known-members-only"))
        if any(reply.get("outcome") != "results" or not ids(reply) for _, reply in baseline):
            return baseline, []
        return baseline, [
            ("members the draft does not define at every level of the discovery document "
             "(x_vendor, x_list, x_null and limits at the top, x_stream in endpoints, x_rerank in capabilities, "
             "x_quantization and x_tags in the embedding spaces, x_burst in limits, x_scopes in auth; and, "
             "after the members they differ from in letter case only, Endpoints with another search endpoint, "
             "capabilities.Query_Vector false, Distance l2 in the cosine space)",
             steps(scenarios.new("unknown-discovery-members", patch=UNKNOWN_IN_DISCOVERY))),
            ("members the draft does not define at every level of each search answer (objects, arrays, "
             "null and numbers at the top, in meta, in each result and in its metadata; and, after the "
             "members they differ from in letter case only, Results [] at the top, Next_Cursor and Returned "
             "in meta, ID and Score in each result)",
             steps(scenarios.new("unknown-response-members", unknown=True)))]

    def errors() -> tuple[dict, dict]:
        failing = (422, "invalid_embedding_dimension")
        return (client.search(scenarios.new("error-known-members", fail=failing), query=TEXT),
                client.search(scenarios.new("error-unknown-members", fail=failing, unknown=True), query=TEXT))

    baseline, cases = shared(client, scenarios, "unknown-members", make)
    for what, reply in baseline:
        if reply.get("outcome") != "results" or not ids(reply):
            untestable(f"for {what} on an origin whose answers hold only members the draft names, "
                       f"{said(reply)} (see AIDRE-3.3-01)")
    for where, replies in cases:
        for (what, before), (_, after) in zip(baseline, replies):
            if after.get("outcome") != "results" or ids(after) != ids(before):
                violation(f"with {where}, for {what} {said(after)} ({ids(after)[:5]}), where without them it "
                          f"reported {len(ids(before))} results ({ids(before)[:5]})",
                          readings=("AMB-57", "AMB-60", "AMB-61"))
    plain, extended = shared(client, scenarios, "unknown-error-members", errors)
    if (plain.get("outcome"), plain.get("error_kind")) != (extended.get("outcome"), extended.get("error_kind")):
        violation(f"a search answered 422 with the error object {{error, message, details, request_id}}: {said(plain)}; "
                  f"the same error object with members the draft does not define (at its top level and in "
                  f"details, and Error after error): {said(extended)}", readings=("AMB-57", "AMB-60"))
