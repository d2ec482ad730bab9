"""Fixtures of the adp suite's service role: the discovery service on the kit's HTTP binding
(AMB-01), and one shared :class:`Service` that sends each distinct request once per run.

A Discovery Request is real work for the target: every POST goes through the run's
:class:`Invoker` (``--request-budget``, ``opt_in=False``: a read); a registration (PUT) changes
the target's state, so it is opt-in (``--invoke``) and sent only when the target declares it
(``Allow: GET, PUT`` on an agent resource, AMB-40). Identical requests are sent once and shared
by the clauses that judge them. Each test gets a :class:`Probe` that remembers which exchanges
it looked at, so a failure shows its own evidence, not the whole run's.
"""

from __future__ import annotations

import json
import random
import re
import threading
import uuid
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote

import pytest

from conformance import answers
from conformance.fetch import Exchange, Fetcher
from conformance.invoke import Invoker
from conformance.outcomes import not_applicable, untestable
from conformance.targets import Target

#: The kit's HTTP binding (AMB-01): every path the service role uses, in one place (a user's
#: ``--binding`` override replaces these).
#: The kit's default binding (profiles/adp/profile.toml [binding], AMB-01); a run's own, with the
#: user's --binding overrides, is the ``adck_binding`` fixture.
BINDING = {"discover": "/discover", "agent": "/agents/{id}"}
#: What the kit accepts back: JSON, or problem details.
ACCEPT = "application/json, application/problem+json"
#: Provenance members of a federated candidate (7.8's table).
PROVENANCE = ("origin_service", "origin_authority", "origin_signature", "received_at")
#: Statuses the kit reads as each recommended error code's (AMB-10).
STATUS_OF = {"invalid_request": (400, 422), "unsupported_filter": (400, 422), "unauthorized": (401,),
             "forbidden": (403,), "not_found": (404, 410), "conflict": (409,), "stale_metadata": (409, 410),
             "rate_limited": (429, 503)}
#: The draft's 5.4 request (detail summary) with include_evidence.
EVIDENCE_REQUEST = {"query": "Find an agent for onboarding validation and API setup.", "required_tags": ["hr"],
                    "preferred_tags": ["onboarding", "api-automation"], "protocols": ["https"], "limit": 10,
                    "detail": "summary", "include_evidence": True}
#: A request with include_evidence and no filter at all: its answer has no applied filter to
#: show, so only the candidates' own evidence can (AMB-08).
EVIDENCE_PLAIN = {"query": "find an agent that can review a contract", "include_evidence": True, "limit": 10}
#: The members of the candidate table (6.2).
CANDIDATE_FIELDS = frozenset({"id", "name", "description", "bindings", "score", "score_components", "matched_tags",
                              "matched_examples", "credential_refs", "redacted", "status", "freshness"})
#: The limit the kit sends again a request with a larger one at, when the service refused that
#: one (the draft's own example asks for 10: AMB-43).
BOUNDED_LIMIT = 10
#: The request that lists the whole catalogue the service will show (limit 50, full detail).
CATALOG = {"query": "find an agent for a task", "limit": 50, "detail": "full"}


NOT_JSON = answers.NOT_JSON


def parse_time(value: Any) -> datetime | None:
    """An RFC 3339 date-time, or None (AMB-13)."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def same_candidates(a: "Answer", b: "Answer") -> bool:
    """Whether two Discovery Responses return the same candidates as far as their ranking can
    tell (AMB-56): the same ids in the same order; or, where every candidate of both carries a
    score, the same scores in the same order and the same ids at each score, but the last (a
    limit may cut candidates of equal score either way); or, without scores, the same ids in
    any order (an order among equal scores is the service's to choose)."""
    if a.ids == b.ids:
        return True
    scores_a = [c.get("score") for c in a.candidates]
    scores_b = [c.get("score") for c in b.candidates]
    if not (all(_number(x) for x in scores_a) and all(_number(x) for x in scores_b)):
        return len(a.ids) == len(b.ids) and sorted(map(repr, a.ids)) == sorted(map(repr, b.ids))
    if scores_a != scores_b:
        return False
    last = scores_a[-1] if scores_a else None
    groups: dict[float, tuple[list, list]] = {}
    for score, x, y in zip(scores_a, a.ids, b.ids):
        groups.setdefault(score, ([], []))
        groups[score][0].append(repr(x))
        groups[score][1].append(repr(y))
    return all(sorted(x) == sorted(y) for score, (x, y) in groups.items() if score != last)


def well_formed_refusal(answer: "Answer") -> bool:
    """A refusal by 8's rules: a 4xx whose body is a JSON object with a non-empty string code."""
    value = answer.value
    return answer.refused and isinstance(value, dict) and isinstance(value.get("code"), str) and bool(value["code"].strip())


def snippet_members(candidate: dict) -> list[str]:
    """Members of a candidate that carry matching evidence the draft lists without a field
    (7.6: "matched description snippets"): a member beyond the candidate table whose name is
    matched_* or holds the word snippet or highlight (AMB-08), holding a string, array or object."""
    found = []
    for name, value in candidate.items():
        if name in CANDIDATE_FIELDS or not isinstance(value, (str, list, dict)):
            continue
        words = {w for w in re.split(r"[^a-z0-9]+", str(name).lower()) if w}
        if str(name).lower().startswith("matched_") or words & {"snippet", "snippets", "highlight", "highlights"}:
            found.append(str(name))
    return found


def matching_evidence(candidate: dict, response: Any) -> list[str]:
    """The matching evidence a candidate of ``response`` carries, by 7.6's list less score
    components and freshness (the D2 row names those apart): matched tags, matched examples,
    matched description snippets (:func:`snippet_members`), and the response's applied filters
    when it holds any (AMB-08)."""
    found = [k for k in ("matched_tags", "matched_examples") if isinstance(candidate.get(k), list)]
    found += snippet_members(candidate)
    applied = response.get("applied_filters") if isinstance(response, dict) else None
    if isinstance(applied, dict) and applied:
        found.append("applied_filters (of the response)")
    return found


def tag_set(values: Any) -> set[str]:
    """Tags compared as the kit does (AMB-41): strings, trimmed, case-folded."""
    return {v.strip().casefold() for v in values if isinstance(v, str)} if isinstance(values, list) else set()


class Answer(answers.Answer):
    """One answer of the service: a Discovery Response, an error object, a metadata record."""

    @property
    def is_response(self) -> bool:
        """A Discovery Response: 2xx, a JSON object with a candidates array."""
        value = self.value
        return self.ok and isinstance(value, dict) and isinstance(value.get("candidates"), list)

    @property
    def candidates(self) -> list[dict]:
        value = self.value
        if not (isinstance(value, dict) and isinstance(value.get("candidates"), list)):
            return []
        return [c for c in value["candidates"] if isinstance(c, dict)]

    @property
    def ids(self) -> list:
        return [c.get("id") for c in self.candidates]

    @property
    def refused(self) -> bool:
        return self.status is not None and 400 <= self.status < 500

    @property
    def code(self) -> Any:
        return self.member("code")

    def list_member(self, name: str) -> list:
        got = self.member(name)
        return got if isinstance(got, list) else []

    def body_summary(self, value: Any) -> str:
        body = "a JSON object"
        if isinstance(value.get("candidates"), list):
            body += f" with {len(value['candidates'])} candidates"
        if "code" in value:
            body += f" with code {value['code']!r}"
        return body


class Service:
    """The discovery service under test: every request the suite sends, each distinct one once."""

    def __init__(self, base: str, fetcher: Fetcher, invoker: Invoker, seed: int) -> None:
        self.binding = dict(BINDING)
        self.base = base.rstrip("/")
        self.fetcher = fetcher
        self.invoker = invoker
        self.seed = seed
        #: Makes the kit's registrations and markers unique to this run (a live service keeps
        #: earlier runs' records).
        self.token = f"{seed % 100000:05d}{uuid.uuid4().hex[:6]}"
        self._cache: dict[tuple, Answer] = {}
        self._lock = threading.Lock()
        self._declared: bool | None = None

    # ------------------------------------------------------------------ urls
    @property
    def discover_url(self) -> str:
        return self.base + self.binding["discover"]

    def agent_url(self, agent_id: str) -> str:
        return self.base + self.binding["agent"].replace("{id}", quote(str(agent_id), safe=""))

    # ------------------------------------------------------------------ requests
    def discover(self, body: Any, fresh: str = "") -> Answer:
        """POST a Discovery Request (once per distinct body, unless ``fresh`` names a separate
        sending). A request of the kit's with a limit above :data:`BOUNDED_LIMIT` that the
        service refuses as such a request (400, 413 or 422 with an error object) is sent again
        with that limit, and the tests judge that answer: a service may bound limit (AMB-43)."""
        __tracebackhide__ = True
        answer = self._post(body, fresh)
        limit = body.get("limit") if isinstance(body, dict) else None
        if isinstance(limit, int) and not isinstance(limit, bool) and limit > BOUNDED_LIMIT \
                and answer.status in (400, 413, 422) and well_formed_refusal(answer):
            bounded = self._post(body | {"limit": BOUNDED_LIMIT}, fresh)
            if bounded.is_response:
                return bounded
        return answer

    def _post(self, body: Any, fresh: str) -> Answer:
        __tracebackhide__ = True
        content = json.dumps(body, ensure_ascii=False).encode("utf-8")
        key = ("POST", content, fresh)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        fetch = self.invoker.post(self.discover_url, content, headers={"Accept": ACCEPT}, opt_in=False)
        answer = Answer(fetch, body)
        with self._lock:
            self._cache[key] = answer
        return answer

    def get_agent(self, agent_id: str, fresh: str = "") -> Answer:
        """GET {base}/agents/{id}; ``fresh`` sends it again (after a registration)."""
        if not fresh:
            return Answer(self.fetcher.get(self.agent_url(agent_id), headers={"Accept": ACCEPT}))
        key = ("GET", agent_id, fresh)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        answer = Answer(self.fetcher.fetch(self.agent_url(agent_id), headers={"Accept": ACCEPT}))
        with self._lock:
            self._cache[key] = answer
        return answer

    def put_agent(self, agent_id: str, metadata: Any, fresh: str = "", if_match: str = "") -> Answer:
        """PUT {base}/agents/{id} (a registration: opt-in, budgeted), once per distinct body;
        ``if_match`` sends that entity tag as If-Match (AMB-53)."""
        __tracebackhide__ = True
        content = json.dumps(metadata, ensure_ascii=False).encode("utf-8")
        key = ("PUT", agent_id, content, fresh, if_match)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        headers = {"Accept": ACCEPT} | ({"If-Match": if_match} if if_match else {})
        fetch = self.invoker.post(self.agent_url(agent_id), content, headers=headers, method="PUT")
        answer = Answer(fetch, metadata)
        with self._lock:
            self._cache[key] = answer
        return answer

    # ------------------------------------------------------------------ what the run knows
    def catalog(self) -> Answer:
        return self.discover(CATALOG)

    def discovers(self) -> bool:
        """Whether the target answers Discovery Requests at all (a D0 service need not, AMB-01)."""
        return self.catalog().is_response

    def registration_declared(self) -> bool:
        """Whether the target declares registration: ``Allow`` lists PUT on an agent resource
        it serves, or (when no candidate names one) in its answer to OPTIONS (AMB-40)."""
        if self._declared is None:
            ids = [i for i in self.catalog().ids if isinstance(i, str)]
            if ids:
                final = self.get_agent(ids[0]).final
            else:  # no candidate to GET (a D0 service has no /discover): the Allow of OPTIONS
                final = self.fetcher.fetch(self.agent_url(self.kit_id("declaration")), method="OPTIONS",
                                           headers={"Accept": ACCEPT}).final
            allow = (final.header("allow") or "") if final is not None else ""
            self._declared = "PUT" in {m.strip().upper() for m in allow.split(",")}
        return self._declared

    def kit_id(self, name: str) -> str:
        """An agent id of the kit's own registrations (a URN: no '/', AMB-42)."""
        return f"urn:adck:test:{self.token}:{name}"

    def kit_metadata(self, slug: str, **extra: Any) -> dict:
        """Agent Metadata the kit registers: a unique tag, one https binding."""
        value = {
            "id": self.kit_id(slug),
            "name": f"adck probe {slug}",
            "description": f"A probe agent the conformance kit registered ({slug}).",
            "tags": [f"adck-{self.token}-{slug}", "adck-probe"],
            "examples": [{"id": "ex-1", "text": f"Run the adck probe {slug}."}],
            "bindings": [{"protocol": "https", "endpoint": f"https://agents.adck.test/probe/{self.token}/{slug}"}],
            "status": "active",
            "version": "1.0.0",
            "updated_at": "2026-05-08T00:00:00Z",
            "expires_at": "2099-01-01T00:00:00Z",
        }
        value.update(extra)
        return {k: v for k, v in value.items() if v is not None}

    def evidence_requests(self) -> list[dict]:
        """The seed's generated requests that ask include_evidence, the draft's 5.4 request
        (detail summary) asking it too, and one with no filter (no applied filter to show): the
        requests whose answers must show evidence."""
        return [*(b for b in self.generated_requests() if b.get("include_evidence")), EVIDENCE_REQUEST, EVIDENCE_PLAIN]

    def generated_requests(self) -> list[dict]:
        """Discovery Requests drawn from the run's seed over the tags and protocols the catalogue
        shows: filter combinations, empty and huge tag lists, limits, unknown members."""
        __tracebackhide__ = True
        catalog = self.catalog()
        if not catalog.is_response:
            untestable(f"the catalogue request was answered {catalog.describe()}, so no request can be drawn "
                       "from its tags (see ADP-3.3-02)")
        rng = random.Random(self.seed)
        tags: set[str] = set()
        protocols: set[str] = set()
        for c in catalog.candidates:
            tags |= {t for t in c.get("tags", []) if isinstance(t, str)} if isinstance(c.get("tags"), list) else set()
            for b in c.get("bindings", []) if isinstance(c.get("bindings"), list) else []:
                if isinstance(b, dict) and isinstance(b.get("protocol"), str):
                    protocols.add(b["protocol"])
        vocabulary = sorted(tags | {"hr", "translation", "qa"})
        protos = sorted(protocols | {"https"})
        out: list[dict] = []
        for n in range(10):
            body: dict[str, Any] = {"query": rng.choice(["find an agent", "translate a document", "book a trip",
                                                          "review code", "summarise a meeting", "check payroll"]),
                                    "include_evidence": True, "detail": "full"}
            if rng.random() < 0.7:
                body["required_tags"] = rng.sample(vocabulary, rng.choice([1, 1, 2]))
            if rng.random() < 0.5:
                body["excluded_tags"] = rng.sample(vocabulary, rng.choice([1, 2, 3]))
            if rng.random() < 0.5:
                body["protocols"] = rng.sample(protos, rng.choice([1, 1, 2]))
            body["limit"] = rng.choice([2, 3, 10, 50])
            if n == 0:
                body["required_tags"] = []  # an empty list filters nothing
                body["excluded_tags"] = []
            if n == 1:  # a huge excluded list of tags nobody has: filters nothing
                body["excluded_tags"] = [f"adck-none-{i}" for i in range(300)]
                body.pop("required_tags", None)
            if n == 2:  # a huge required list: no agent holds them all
                body["required_tags"] = vocabulary[:3] + [f"adck-none-{i}" for i in range(200)]
            if n == 3:
                body["net.adck.unknown"] = {"seed": self.seed}
            out.append(body)
        return out


class Probe:
    """A test's view of the :class:`Service`: the answers it used are its evidence."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.used: list[Answer] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.service, name)

    def _use(self, answer: Answer) -> Answer:
        self.used.append(answer)
        return answer

    def discover(self, body: Any, fresh: str = "") -> Answer:
        __tracebackhide__ = True
        return self._use(self.service.discover(body, fresh))

    def catalog(self) -> Answer:
        return self._use(self.service.catalog())

    def discovers(self) -> bool:
        return self.catalog().is_response

    def generated_requests(self) -> list[dict]:
        """The seed's requests (:meth:`Service.generated_requests`), drawn from the catalogue
        answer, which is this test's evidence too (a refusal of it, a 401 included, shows)."""
        __tracebackhide__ = True
        self.catalog()
        return self.service.generated_requests()

    def evidence_requests(self) -> list[dict]:
        __tracebackhide__ = True
        self.catalog()
        return self.service.evidence_requests()

    def get_agent(self, agent_id: str, fresh: str = "") -> Answer:
        return self._use(self.service.get_agent(agent_id, fresh))

    def put_agent(self, agent_id: str, metadata: Any, fresh: str = "", if_match: str = "") -> Answer:
        __tracebackhide__ = True
        return self._use(self.service.put_agent(agent_id, metadata, fresh, if_match))

    def update(self, metadata: dict, fresh: str = "") -> Answer:
        """PUT ``metadata`` over a registered record, as the service's own freshness mechanism
        asks: a service that takes updates only with a precondition (428 Precondition Required,
        or 412) is sent the update again with If-Match: the entity tag GET serves the record
        with (AMB-53). A refusal the kit caused by leaving out a precondition is never the
        service's failure; the kit's stale updates are never sent so (they must not replace)."""
        __tracebackhide__ = True
        answer = self.put_agent(metadata["id"], metadata, fresh)
        if answer.status in (412, 428):
            current = self.get_agent(metadata["id"], fresh=f"if-match-{fresh}-{metadata.get('updated_at')}-{metadata.get('version')}")
            tag = current.final.header("ETag") if current.ok and current.final is not None else None
            if tag and tag.strip():
                answer = self.put_agent(metadata["id"], metadata, fresh, if_match=tag.strip())
        return answer

    def require_registration(self) -> None:
        """*not applicable* unless the target declares registration (AMB-01, AMB-40)."""
        __tracebackhide__ = True
        if not self.service.registration_declared():
            not_applicable("the target does not declare registration (no Allow: GET, PUT on "
                           f"{self.service.binding['agent']}, AMB-40): the clause speaks of registered records")

    def register(self, metadata: dict, fresh: str = "", what: str = "the registration") -> Answer:
        """PUT ``metadata``; *untestable* unless it succeeds."""
        __tracebackhide__ = True
        answer = self.put_agent(metadata["id"], metadata, fresh)
        if not answer.ok:
            untestable(f"{what} (PUT {self.service.agent_url(metadata['id'])}) was answered {answer.describe()}")
        return answer

    def evidence(self) -> list[Exchange]:
        return answers.EvidenceLog(self.used).evidence()


def reached(answer: Answer, what: str) -> None:
    """*untestable* when ``answer`` is no response at all."""
    __tracebackhide__ = True
    if answer.status is None:
        untestable(f"{what} got no response: {answer.fetch.describe_error()} (see ADP-10-10)")


def response_or_untestable(answer: Answer, what: str) -> None:
    """*untestable* unless ``answer`` is a Discovery Response (see ADP-3.3-02)."""
    __tracebackhide__ = True
    reached(answer, what)
    if not answer.is_response:
        untestable(f"{what} was answered {answer.describe()}, not a Discovery Response (see ADP-3.3-02)")


def same_value(served: Any, sent: Any) -> bool:
    """Whether a member a service serves holds the value the kit registered, as the record's
    data rather than its bytes (AMB-52): equal JSON, or two RFC 3339 strings naming the same
    instant ("2026-06-01T00:00:00Z" is "2026-06-01T00:00:00.000+00:00")."""
    if served == sent:
        return True
    a, b = parse_time(served), parse_time(sent)
    return a is not None and b is not None and a == b and isinstance(served, str) and isinstance(sent, str)


def stale_values(served: Any, stale: dict, newer: dict) -> dict:
    """The members of ``served`` that show ``stale``'s own values (where they differ from
    ``newer``'s): a stale update that replaced the newer record, wholly or in part (AMB-48,
    AMB-52). Members the service normalised or added show nothing."""
    if not isinstance(served, dict):
        return {}
    return {k: served[k] for k in stale if k in served and not same_value(stale[k], newer.get(k))
            and same_value(served[k], stale[k])}


def filter_names(name: str) -> set[str]:
    """The strings that name a request member in unsupported_filters (AMB-12): the member's own
    name, or a path to it in any common notation: dotted (constraints.region), a JSON Pointer
    (/constraints/region, #/constraints/region), a slash path (constraints/region), brackets
    (constraints[region], constraints["region"]) or JSONPath ($.constraints.region). ``name``
    is a top-level member (required_tags) or constraints.NAME."""
    parent, _, member = name.partition(".") if name.startswith("constraints.") else ("", "", name)
    pointer = member.replace("~", "~0").replace("/", "~1")
    names = {member, f"/{pointer}", f"#/{pointer}", f"$.{member}", f"$['{member}']", f'$["{member}"]'}
    if parent:
        names |= {f"{parent}.{member}", f"/{parent}/{pointer}", f"#/{parent}/{pointer}", f"{parent}/{member}",
                  f"{parent}[{member}]", f"{parent}['{member}']", f'{parent}["{member}"]', f"$.{parent}.{member}",
                  f"$['{parent}']['{member}']", f'$["{parent}"]["{member}"]'}
    return names


def names_filter(reported: list, name: str) -> bool:
    """Whether ``unsupported_filters`` names a request member: bare, or as a path to it in any
    notation (:func:`filter_names`, AMB-12). The filter's value, or another member, does not."""
    names = filter_names(name)
    return any(isinstance(r, str) and r.strip() in names for r in reported)


@pytest.fixture(scope="session")
def adp_service(adck_target: Target, adck_fetcher: Fetcher, adck_invoker: Invoker, adck_seed: int,
                adck_binding: dict[str, str]) -> Service:
    if adck_target.kind != "origin" or not adck_target.origin:
        not_applicable("the service role is checked on an origin (https://HOST or builtin)")
    service = Service(adck_target.base or adck_target.origin, adck_fetcher, adck_invoker, adck_seed)
    service.binding = BINDING | adck_binding
    return service


@pytest.fixture
def service(adp_service: Service) -> Probe:
    """The discovery service under test, as one test sees it (its answers are the test's evidence)."""
    return Probe(adp_service)
