"""Fixtures of the aiendpoint suite: each resource is fetched once per run and shared."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from conformance.aiendpoint import ALIAS_PATH, WELL_KNOWN_PATH
from conformance.document import Document
from conformance.fetch import Exchange, Fetch, Fetcher
from conformance.harness.adapters import Adapter
from conformance.harness.driver import ClientDriver
from conformance.outcomes import each_case as each, not_applicable, untestable, violation  # noqa: F401 - each: the suite's
from conformance.targets import Target
from conformance.world.scenarios import Scenario, ScenarioWorld
from conformance.world.site import load_reference

#: Non-200 statuses that another clause already explains, and that clause.
EXPLAINED_STATUS = {
    404: "AIE-2.1-01", 410: "AIE-2.1-01",
    401: "AIE-2.2-02", 403: "AIE-2.2-02", 407: "AIE-2.2-02",
    405: "AIE-2.2-01", 501: "AIE-2.2-01",
}

#: Fetch failures and the clause that reports them.
FETCH_ERROR_CLAUSE = {
    "tls": "AIE-6.4-03", "insecure-redirect": "AIE-6.4-03",
    "connect": "AIE-2.1-01", "timeout": "AIE-2.1-01", "protocol": "AIE-2.1-01",
    "too-many-redirects": "AIE-2.1-01", "bad-redirect": "AIE-2.1-01", "transport": "AIE-2.1-01",
    "encoding": "AIE-2.1-01", "private-redirect": "AIE-2.1-01",
}


#: Fetch failures after a response came that leave its body incomplete or unreadable.
BODY_NOT_WHOLE = frozenset({"encoding", "timeout", "protocol", "transport", "connect"})


def response(fetch: Fetch) -> Exchange:
    """The final response of a fetch, or *untestable* naming the clause that reports why not."""
    __tracebackhide__ = True
    final = fetch.final
    # a body that did not arrive whole (cut by the deadline or the connection, or in a coding
    # the kit does not decode) is no document to judge: the clause of the fetch failure says why
    if fetch.error and fetch.error_kind != "too-large" and (final is None or final.status in (301, 302, 303, 307, 308)
                                                             or fetch.error_kind in BODY_NOT_WHOLE):
        untestable(f"no response to {fetch.url}: {fetch.describe_error()} "
                   f"(see {FETCH_ERROR_CLAUSE.get(fetch.error_kind or '', 'AIE-2.1-01')})")
    if final is None:  # pragma: no cover - a fetch without error always has a response
        untestable(f"no response to {fetch.url}")
    return final


def delivered(fetch: Fetch) -> Exchange:
    """The response that delivered the document (2xx), or *untestable* naming the clause."""
    __tracebackhide__ = True
    final = response(fetch)
    if not 200 <= final.status < 300:
        clause = EXPLAINED_STATUS.get(final.status, "AIE-2.2-05")
        untestable(f"{fetch.url} answered {final.status} {final.reason}, not the document (see {clause})")
    return final


@pytest.fixture(scope="session")
def origin(adck_target: Target) -> str:
    """``scheme://host[:port]`` of the publisher under test."""
    assert adck_target.origin, "publisher-role tests run only on origin targets"
    return adck_target.origin


@pytest.fixture(scope="session")
def well_known(origin: str, adck_fetcher: Fetcher) -> Fetch:
    """GET /.well-known/ai, once per run."""
    return adck_fetcher.get(origin + WELL_KNOWN_PATH)


@pytest.fixture(scope="session")
def alias(origin: str, adck_fetcher: Fetcher) -> Fetch:
    """GET /ai (the optional alias of 2.1), once per run, only if a test asks for it."""
    return adck_fetcher.get(origin + ALIAS_PATH)


#: Statuses of a GET that say why the document was not served and name the clause that
#: reports it: no other method is tried then.
_SAID_WHY = {401, 403, 407, 405, 501}


def yields_document(fetch: Fetch | None) -> bool:
    """Did the fetch end in a 2xx response (the document, whatever else is wrong with it)?"""
    final = fetch.final if fetch else None
    return bool(final is not None and 200 <= final.status < 300
                and (not fetch.error or fetch.error_kind == "too-large"))


class OtherMethod:
    """/.well-known/ai asked with POST, once per run and only when the GET answered with a
    status that does not itself say why (AMB-30): it tells "the document is not at this URI"
    (AIE-2.1-01) from "it is there, but not for GET" (AIE-2.2-01)."""

    def __init__(self, fetch: Fetch | None) -> None:
        self.fetch = fetch

    @property
    def yields(self) -> bool:
        return yields_document(self.fetch)

    def evidence(self) -> list[Exchange]:
        return self.fetch.evidence() if self.fetch else []


@pytest.fixture(scope="session")
def other_method(well_known: Fetch, adck_fetcher: Fetcher) -> OtherMethod:
    final = well_known.final
    if (well_known.error and well_known.error_kind != "too-large") or final is None or yields_document(well_known) \
            or final.status in _SAID_WHY or final.status in (301, 302, 303, 307, 308):
        return OtherMethod(None)
    return OtherMethod(adck_fetcher.fetch(well_known.url, method="POST", content=b""))


@pytest.fixture(scope="session")
def document(adck_target: Target, adck_fetcher: Fetcher, request: pytest.FixtureRequest) -> Document:
    """The AI Discovery Document under test: the file of a document target, or the body
    served at /.well-known/ai."""
    if adck_target.kind == "document":
        assert adck_target.document_path is not None
        return Document.from_file(adck_target.document_path, adck_target.http.limits.max_body_bytes)
    fetch = request.getfixturevalue("well_known")
    delivered(fetch)
    return Document.from_fetch(fetch)


# ---------------------------------------------------------------- agent role (client under test)

#: The clients' clock starts here; steps move it forward (no test sleeps for real time).
T0 = datetime(2026, 3, 15, 12, 0, tzinfo=timezone.utc)


#: The /ai alias of 2.1, an identical copy of the document: a scenario's ``alias=True`` serves it
#: (a route for /ai given with it then changes it, e.g. a JSON patch of the copy).
ALIAS_ROUTE = {"path": ALIAS_PATH, "body": "document",
               "headers": {"Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=86400"}}


class Scenarios:
    """The scenarios one test sets up (the reference publisher's site, changed like a mutant)."""

    def __init__(self, world: ScenarioWorld) -> None:
        self.world = world
        self.created: list[Scenario] = []

    def new(self, name: str, *, patch: list[dict] | None = None, routes: list[dict] | None = None,
            listener: str = "https", alias: bool = False) -> Scenario:
        """A scenario; ``/ai`` is not served unless ``alias`` (or a route) says so, so that a
        client's use of the alias never muddles a scenario about something else."""
        routes = list(routes or [])
        if alias:  # the reference publisher serves no /ai (-01 calls the alias NOT RECOMMENDED): an identical copy
            routes.insert(0, dict(ALIAS_ROUTE))
        elif not any(r["path"] == "/ai" for r in routes):
            routes.append({"path": "/ai", "status": 404, "body": "text", "text": "not found",
                           "headers": {"Content-Type": "text/plain"}, "remove_headers": ["Cache-Control"]})
        scenario = self.world.add(name, load_reference("aiendpoint"), patch=patch, routes=routes,
                                  listener=listener)  # type: ignore[arg-type]
        self.created.append(scenario)
        return scenario

    def evidence(self) -> list:
        """What a report shows: the requests the client sent, and each step with its reply."""
        return [e for s in self.created for e in s.evidence()]


class Client(ClientDriver):
    """Drives the client under test through its adapter, one scenario step at a time."""

    def discover(self, scenario: Scenario, *, at: timedelta = timedelta(0), session: str | None = None,
                 authority: str | None = None, credentials: dict[str, str] | None = None) -> dict:
        params: dict = {"authority": authority or scenario.authority}
        if credentials:
            params["credentials"] = credentials
        return self._run(scenario, "aiendpoint.discover", params, at, session)

    def invoke(self, scenario: Scenario, capability: str, arguments: dict | None = None, *,
               at: timedelta = timedelta(0), session: str | None = None) -> dict:
        params = {"authority": scenario.authority, "capability": capability, "arguments": arguments or {}}
        return self._run(scenario, "aiendpoint.invoke", params, at, session)

    def session(self, scenario: Scenario) -> str:
        """A session id for several steps against one scenario (the client keeps its state)."""
        return f"{self.run_id}-{scenario.host}"

    def _run(self, scenario: Scenario, operation: str, params: dict, at: timedelta, session: str | None) -> dict:
        __tracebackhide__ = True
        return self.step(operation, params, now=T0 + at, network=scenario.network(), world=scenario.world,
                         record=scenario.steps, session=session)


@pytest.fixture
def scenarios(scenario_world: ScenarioWorld) -> Scenarios:
    return Scenarios(scenario_world)


@pytest.fixture(scope="session")
def client(adck_adapter: Adapter, request: pytest.FixtureRequest) -> Client:
    from conformance.plugin import STATE

    return Client(adck_adapter, f"r{request.config.stash[STATE].seed}")


def said(reply: dict) -> str:
    """A client's reply in a few words, for failure messages."""
    kind = reply.get("error_kind")
    return f"the client answered {reply.get('outcome')!r}" + (f" ({kind})" if kind else "")


def accepted_document(reply: dict) -> dict:
    """The document a client accepted, or *untestable* when it accepted none where a
    conforming client would have (the basic discovery of AIE-4.1-01 is the prerequisite)."""
    __tracebackhide__ = True
    if reply.get("outcome") != "document" or not isinstance(reply.get("document"), dict):
        untestable(f"{said(reply)} where the reference publisher serves a valid document (see AIE-4.1-01)")
    return reply["document"]


def redirect_chain(count: int, start: str = "/.well-known/ai") -> list[dict]:
    """Routes: ``start`` redirects ``count`` times, then the document is served."""
    hops = [start] + [f"/hop/{i}" for i in range(1, count + 1)]
    routes = [{"path": a, "status": 302, "body": "empty", "headers": {"Location": b},
               "remove_headers": ["Content-Type", "Cache-Control"]} for a, b in zip(hops, hops[1:])]
    routes.append({"path": hops[-1], "body": "document",
                   "headers": {"Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"}})
    return routes


def second_visit(client: Client, scenario: Scenario, later: timedelta) -> tuple[dict, dict, list, list]:
    """Discover twice in one session, the second time ``later``: both replies, and the
    requests the client sent on each visit (caching and backoff show in the second list)."""
    session = client.session(scenario)
    first_reply = client.discover(scenario, session=session)
    first = scenario.requests()
    reply = client.discover(scenario, session=session, at=later)
    return first_reply, reply, first, scenario.requests()[len(first):]


def refused_over_tls(client: Client, scenario: Scenario, why: str) -> None:
    """The client must neither accept a document nor send a request over a connection whose
    certificate fails validation (6.4)."""
    __tracebackhide__ = True
    reply = client.discover(scenario)
    sent = scenario.requests()
    if reply["outcome"] == "document" or sent:
        violation(f"{why} and {said(reply)}" + (f", after sending {sent[0].method} {sent[0].path}" if sent else ""))


