"""Fixtures of the adp suite's client role (see conftest.py): the kit plays ADP discovery
services on loopback, on its binding (AMB-01: ``POST {base}/discover``, ``GET
{base}/agents/{id}``), and drives the client under test through its adapter (harness operation
``adp.discover``), then judges from the replies and the requests the client sent.

What the services serve holds only the members the draft defines (its tables, and the members
of its own examples where a table leaves an object open: freshness, matched examples, applied
filters), so that a client that refuses what it does not know is still offered a choice; the
only exceptions are the deliberate unknown members of the tests about unknown members, all
named ``x_...`` (AMB-66). :meth:`AdpServices.new` refuses a scenario that breaks this rule.

Each service is a scenario of its own (``plain-3.adck.test``) whose answers are written here,
per test: a Discovery Response (candidates, their bindings, scores, components), a status for
``/discover`` (404 for a D0 publisher), and agents' metadata. The candidates' endpoints are
names under ``agents.adck.test`` that nothing serves: a client reports the invocation it would
make and never makes it (an invocation request is recorded, and judged, if one is sent).
"""

from __future__ import annotations

import copy
import json
from datetime import datetime, timezone
import re
from typing import Any
from urllib.parse import unquote_plus

import pytest
from werkzeug import Request, Response

from conformance.adp._kinds import (BINDING_FIELDS, CANDIDATE_FIELDS, ERROR_FIELDS, EXAMPLE_FIELDS, METADATA_FIELDS,
                                    REQUEST_FIELDS, RESPONSE_FIELDS)
from conformance.harness.driver import ClientDriver
from conformance.outcomes import untestable
from conformance.world.scenarios import Recorded, Scenario, ScenarioWorld
from conformance.world.site import Route, Site, path_parameters

#: What conftest.py's star import takes: the fixtures only.
__all__ = ["adp_client", "adp_services"]
T0 = datetime(2026, 5, 8, 12, 0, tzinfo=timezone.utc)
DISCOVER = "/discover"
AGENTS = "/agents/{id}"
#: The Discovery Request the user's need becomes (the kit's scenarios answer whatever is asked).
REQUEST = {"query": "prepare an onboarding workflow for a new employee", "required_tags": ["hr"], "limit": 5}
#: The local policy of most steps: HTTPS bindings only.
POLICY = {"protocols": ["https"], "schemes": ["https"], "revoked": []}


def binding(name: str, protocol: str = "https", endpoint: str | None = None, **more: Any) -> dict:
    return {"protocol": protocol, "endpoint": endpoint if endpoint is not None else
            f"https://agents.adck.test/{name}/invoke", **more}


def candidate(name: str, score: float, *, bindings: list[dict] | None = None, level: str = "D2",
              **more: Any) -> dict:
    """A candidate as a D2 service returns it (score, components, evidence, freshness); at D1
    without components, evidence or freshness."""
    value: dict[str, Any] = {"id": f"urn:adck:agent:{name}", "name": name.replace("-", " ").title(),
                             "description": f"Handles {name.replace('-', ' ')} tasks.",
                             "bindings": bindings if bindings is not None else [binding(name)],
                             "score": score, "status": "active"}
    if level == "D2":
        value.update(score_components={"tag": round(score, 2), "context": round(score * 0.9, 2),
                                       "example": round(min(score * 1.05, 1.0), 2)},
                     matched_tags=["hr"],
                     freshness={"metadata_updated_at": "2026-05-08T00:00:00Z", "indexed_at": "2026-05-08T00:00:00Z"})
    value.update(more)
    return value


def response(candidates: list[dict], **more: Any) -> dict:
    return {"request_id": "req-adck", "generated_at": "2026-05-08T00:00:01Z", "candidates": candidates, **more}


def metadata(name: str, **more: Any) -> dict:
    """An agent's metadata as a D0 publisher serves it."""
    return {"id": f"urn:adck:agent:{name}", "name": name.replace("-", " ").title(),
            "description": f"Handles {name.replace('-', ' ')} tasks.", "tags": ["hr"],
            "bindings": [binding(name)], "status": "active", "version": "1", **more}


def answer(site: Site, route: Route, request: Request) -> Response:
    """The route handler ``adp.client-scenario``: the answer the scenario was given."""
    options = route.options
    if options.get("kind") == "agent":
        agent_id = (path_parameters(route.path, request.path) or {}).get("id", "")
        record = options.get("agents", {}).get(agent_id)
        if record is None:
            return _json(404, {"code": "not_found", "message": f"no agent {agent_id}"})
        return _json(200, record)
    status = int(options.get("status", 200))
    if status != 200:
        return _json(status, {"code": "not_found", "message": "this service answers no Discovery Requests"})
    return _json(200, options.get("response", {}))


def _json(status: int, value: Any) -> Response:
    response = Response(json.dumps(value, ensure_ascii=False).encode("utf-8"), status=status)
    response.headers["Content-Type"] = "application/json"
    return response


#: The members each object of a scenario may hold (AMB-66): the draft's tables (4.1, 4.4, 4.5,
#: 6.1, 6.2, 8), the score components 6.3 recommends, and where a table leaves an object's
#: members open, those of the draft's own examples (6.1: freshness, matched_examples; 5.1's
#: request members for applied_filters). auth, constraints and signature are open objects.
COMPONENTS = ("tag", "context", "example", "protocol", "freshness", "policy")
_SHAPES: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "response": (RESPONSE_FIELDS, {"candidates": "candidate", "applied_filters": "filters"}),
    "candidate": (CANDIDATE_FIELDS, {"bindings": "binding", "score_components": "components",
                                     "freshness": "freshness", "matched_examples": "matched-example"}),
    "metadata": (METADATA_FIELDS, {"bindings": "binding", "examples": "example"}),
    "error": (ERROR_FIELDS, {}),
    "binding": (BINDING_FIELDS, {}),
    "example": (EXAMPLE_FIELDS, {}),
    "matched-example": (("id", "score", "text"), {}),
    "components": (COMPONENTS, {}),
    "freshness": (("metadata_updated_at", "indexed_at"), {}),
    "filters": (REQUEST_FIELDS, {}),
}


def undefined_members(value: Any, shape: str, at: str = "", unknown: tuple[str, ...] = ()) -> list[str]:
    """Where ``value``, an object of kind ``shape``, holds a member the draft does not define,
    the deliberate unknown members (``x_...``, and the names ``unknown`` a test gives) excepted:
    [] for a control object (AMB-66)."""
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in undefined_members(v, shape, f"{at}[{i}]", unknown)]
    if not isinstance(value, dict):
        return []
    known, nested = _SHAPES[shape]
    found = [f"{at}.{k}".lstrip(".") for k in value if k not in known and not k.startswith("x_") and k not in unknown]
    for member, kind in nested.items():
        if member in value:
            found += undefined_members(value[member], kind, f"{at}.{member}", unknown)
    return found


class AdpService:
    """One discovery service for one client check."""

    def __init__(self, web: Scenario, binding: dict[str, str]) -> None:
        self.web = web
        self.binding = binding

    @property
    def base(self) -> str:
        return f"https://{self.web.host}"

    def requests(self, path: str | None = None) -> list[Recorded]:
        return [r for r in self.web.requests() if path is None or r.path == path]

    def queries(self) -> list[Recorded]:
        """Every request the client sent to the discovery path (any method, any query string)."""
        return [r for r in self.web.requests() if r.path.rstrip("/") == self.binding["discover"]]

    def evidence(self) -> list:
        return self.web.evidence()


class AdpServices:
    """The services one client test sets up."""

    def __init__(self, world: ScenarioWorld, binding: dict[str, str] | None = None) -> None:
        self.world = world
        #: The paths the services answer at: the kit's assumed binding, or the user's (--binding).
        self.binding = {"discover": DISCOVER, "agent": AGENTS} | dict(binding or {})
        self.created: list[AdpService] = []

    def new(self, name: str, candidates: list[dict] | None = None, *, status: int = 200,
            agents: list[dict] | None = None, extra: dict | None = None,
            unknown: tuple[str, ...] = ()) -> AdpService:
        """A service answering ``POST /discover`` with a response of ``candidates`` (plus the
        top-level members ``extra``), or with ``status`` (404: a D0 publisher); and
        ``GET /agents/{id}`` with each of ``agents`` by its id. ``unknown``: names of deliberate
        unknown members the test uses besides ``x_...`` ones (AMB-66)."""
        body = response(copy.deepcopy(candidates or []), **(extra or {}))
        stray = undefined_members(body, "response", unknown=unknown) + [
            f"agent {a.get('id')}: {p}" for a in agents or [] for p in undefined_members(a, "metadata", unknown=unknown)]
        if stray:  # a kit fault: a control scenario must hold only what the draft defines (AMB-66)
            raise ValueError(f"scenario {name!r} holds members the draft does not define, not named x_...: "
                             f"{', '.join(stray[:6])}")
        site = Site(hostname="", document={}, routes=(
            Route(self.binding["discover"], handler="adp.client-scenario",
                  options={"kind": "discover", "status": status, "response": body}),
            Route(self.binding["agent"], handler="adp.client-scenario",
                  options={"kind": "agent", "agents": {a["id"]: copy.deepcopy(a) for a in agents or []}}),
        ))
        service = AdpService(self.world.add(name, site), self.binding)
        self.created.append(service)
        return service

    def evidence(self) -> list:
        return [e for s in self.created for e in s.evidence()]


class AdpClient(ClientDriver):
    """Drives the ADP client under test through its adapter, one ``adp.discover`` step at a time."""

    #: The binding the kit's services answer at (``params.binding`` when it is not the default).
    binding: dict[str, str] | None = None

    def discover(self, service: AdpService, *, also: list[AdpService] | None = None, policy: dict | None = None,
                 agents: list[str] | None = None, level: str | None = None, request: dict | None = None) -> dict:
        __tracebackhide__ = True
        params: dict[str, Any] = {"authority": service.base, "request": request or REQUEST,
                                  "policy": policy or POLICY}
        if also:
            params["services"] = [s.base for s in also]
        if agents:
            params["agents"] = agents
        if level:
            params["level"] = level
        if self.binding and self.binding != {"discover": DISCOVER, "agent": AGENTS}:
            params["binding"] = dict(self.binding)  # the user's --binding: the client is told where
        return self.step("adp.discover", params, now=T0, network=_network([service, *(also or [])]),
                         world=service.web.world, record=service.web.steps)


def _network(services: list[AdpService]) -> dict:
    """One ``network`` for every service of a step: their connect_to lines together."""
    first = services[0].web.network()
    for other in services[1:]:
        first["connect_to"] = first["connect_to"] + other.web.network()["connect_to"]
    return first


@pytest.fixture(scope="session")
def adp_client(adck_adapter, request: pytest.FixtureRequest, adck_binding: dict[str, str]) -> AdpClient:
    """The ADP client under test, driven through its adapter."""
    from conformance.plugin import STATE

    client = AdpClient(adck_adapter, f"r{request.config.stash[STATE].seed}")
    client.binding = adck_binding
    return client


@pytest.fixture
def adp_services(scenario_world, adck_binding: dict[str, str]) -> AdpServices:
    """The discovery services one client test sets up (on the session's loopback world), at the
    paths of the binding (the kit's assumed one, or the user's ``--binding``)."""
    return AdpServices(scenario_world, adck_binding)


# ---------------------------------------------------------------- reading what the client did

def said(reply: dict) -> str:
    """A client's reply in a few words, for failure messages."""
    text = f"the client answered {reply.get('outcome')!r}"
    if reply.get("outcome") == "selected":
        inv = reply.get("invocation") or {}
        text += f" choosing {reply.get('candidate')!r} at {inv.get('endpoint')!r} ({inv.get('protocol')!r})"
    if reply.get("error_kind"):
        text += f" ({reply['error_kind']}: {'; '.join(reply.get('messages') or [])[:200]})"
    if reply.get("refused"):
        text += ", refusing " + ", ".join(f"{r.get('id')} ({r.get('reason')})" for r in reply["refused"][:5])
    return text


def chosen(reply: dict) -> tuple[str | None, str | None]:
    """(candidate id, endpoint) the client would invoke, or (None, None)."""
    if reply.get("outcome") != "selected":
        return None, None
    return reply.get("candidate"), (reply.get("invocation") or {}).get("endpoint")


def must_choose(reply: dict, what: str) -> tuple[str, str | None]:
    """The client's choice; *untestable* when it chose nothing where an acceptable candidate
    was offered (the clause's rule is about what it invokes)."""
    __tracebackhide__ = True
    agent, endpoint = chosen(reply)
    if agent is None:
        untestable(f"offered {what}, the client chose no candidate: {said(reply)}")
    return agent, endpoint



def request_terms(request: dict) -> set[str]:
    """What of a Discovery Request would show in a query sent another way: the words of its
    query (four letters or more) and its tag values, lower case (AMB-67)."""
    words = {w for w in re.findall(r"[a-z0-9]+", str(request.get("query", "")).lower()) if len(w) >= 4}
    tags = {str(t).lower() for k in ("required_tags", "preferred_tags", "excluded_tags")
            for t in request.get(k) or [] if isinstance(t, str)}
    return words | tags


def query_requests(service: AdpService, request: dict) -> list[tuple[Recorded, str]]:
    """The requests sent to ``service`` that ask it to process a query (AMB-67): any request to
    its Discovery path; any request but GET or HEAD; any with a body; any whose path or query
    string carries the Discovery Request's words or tags (percent- and plus-decoded)."""
    terms = request_terms(request)
    found = []
    for r in service.requests():
        where = unquote_plus(f"{r.path}?{r.query}").lower()
        carried = sorted(t for t in terms if re.search(rf"(?<![a-z0-9]){re.escape(t)}(?![a-z0-9])", where))
        if r.path.rstrip("/") == service.binding["discover"]:
            why = "to its Discovery path"
        elif r.method not in ("GET", "HEAD"):
            why = f"a {r.method}"
        elif r.body:
            why = "with a body"
        elif carried:
            why = f"carrying the request's {', '.join(carried[:3])}"
        else:
            continue
        found.append((r, why))
    return found


def shown(r: Recorded) -> str:
    return f"{r.method} {r.path}{'?' + r.query if r.query else ''}"


def no_choice(reply: dict, what: str, readings: list[str]) -> None:
    """Every candidate offered was one the client may not invoke: the right answer is ``none``
    (or ``error``); any choice fails, never a fallback to the top candidate (AMB-69)."""
    __tracebackhide__ = True
    if reply.get("outcome") == "selected":
        from conformance.outcomes import violation

        violation(f"offered {what}, so that every candidate must be refused, {said(reply)} (reading AMB-69: "
                  f"the right answer is none, never a fallback)", readings=[*readings, "AMB-69"])
