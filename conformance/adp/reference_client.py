"""The reference ADP client of draft-xu-efficient-agent-discovery-profile-00, usable as a library.

    client = ReferenceAdpClient(HttpConfig(ca_bundle=..., connect_to=...))
    chosen = client.discover(Need(services=["https://dir.example"], request={"query": "..."},
                                  policy=Policy(protocols=("https",), schemes=("https",))))
    chosen.outcome      # "selected" | "none" | "error"
    chosen.candidate    # the id of the agent it would invoke
    chosen.invocation   # {"protocol", "endpoint"}: the binding it would invoke (never invoked)
    chosen.refused      # [{"id", "reason"}]: candidates it would not invoke, and why

It speaks the kit's HTTP binding (AMB-01): ``POST {base}/discover`` with the Discovery Request,
``GET {base}/agents/{id}`` for one agent's metadata. It sends no Discovery Request to a
service known to be D0 (3.3), and tolerates lower levels: a D1 answer without evidence or
freshness, or a service with no ``/discover``, whose metadata it then reads (3.3). It takes
each service's candidates in that service's own order and never compares scores across
services (6.3): the first service, in the order given, with an acceptable candidate wins. It
ignores unknown fields (4.1) and unknown score components (6.3: it does not use components at
all), and before choosing a candidate it checks that a binding is acceptable under local
policy (4.5), that the candidate is not revoked and that the endpoint is a valid absolute URL
(10). Descriptions and examples are untrusted text (10): it never reads them to decide.

Each decision is one small method, so that a broken variant
(``conformance.adp.variants``) overrides exactly one of them. Nothing is ever invoked.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import quote, urlsplit

from conformance.fetch import Fetch, Fetcher, HttpConfig

MAX_BODY = 1024 * 1024
DISCOVER = "/discover"
AGENT = "/agents/{id}"
#: Statuses that say a service answers no Discovery Requests (a lower level, not a fault).
NO_QUERIES = {404, 405, 501}

Outcome = Literal["selected", "none", "error"]


@dataclass(frozen=True)
class Policy:
    """Local policy: the binding protocols and endpoint schemes allowed, and the credential
    references known to be revoked."""

    protocols: tuple[str, ...] = ("https",)
    schemes: tuple[str, ...] = ("https",)
    revoked: tuple[str, ...] = ()


@dataclass(frozen=True)
class Need:
    """What the user asks: services (bases, in the user's order of preference), the Discovery
    Request to send (as given: one JSON object, 5.1), the ids of agents to read when a service
    answers no queries, the level every one of the services is known to have (None: unknown),
    and the local policy."""

    services: tuple[str, ...]
    request: dict = field(default_factory=dict)
    agents: tuple[str, ...] = ()
    level: str | None = None
    policy: Policy = Policy()
    #: The paths of the service's operations under its base (the draft defines no binding:
    #: AMB-01): ``discover``, ``agent`` (with ``{id}``); the kit's assumed ones by default.
    binding: dict = field(default_factory=lambda: {"discover": DISCOVER, "agent": AGENT})


@dataclass
class Chosen:
    """What the client concluded (the harness reply's content)."""

    outcome: Outcome
    candidate: str | None = None
    service: str | None = None
    invocation: dict | None = None
    refused: list[dict] = field(default_factory=list)
    error_kind: str | None = None
    messages: list[str] = field(default_factory=list)


class ReferenceAdpClient:
    """Finds candidates at ADP discovery services and chooses the one it would invoke."""

    features: tuple[str, ...] = ()

    def __init__(self, http: HttpConfig) -> None:
        self.http = replace(http, limits=replace(http.limits, max_body_bytes=MAX_BODY))
        self.fetcher = Fetcher(self.http)

    # ------------------------------------------------------------------ the whole choice

    def discover(self, need: Need) -> Chosen:
        errors: list[str] = []

        def offered() -> Iterator[tuple[str, dict]]:
            # one service at a time, in the caller's order: the next is asked only when no
            # candidate of this one was acceptable
            for base in need.services:
                try:
                    candidates = self.candidates_of(base, need)
                except LookupError as why:
                    errors.append(f"{base}: {why}")
                    continue
                for candidate in self.order(candidates):
                    yield base, candidate

        chosen = self.select(offered(), need)
        if chosen.outcome == "selected":
            return chosen
        if errors and not chosen.refused:
            return Chosen("error", refused=chosen.refused, error_kind="discovery", messages=errors)
        return Chosen("none", refused=chosen.refused, messages=errors)

    def select(self, offered: Iterable[tuple[str, dict]], need: Need) -> Chosen:
        """The first (service, candidate) offered that passes the checks before invoking (4.5,
        10), with each refused one and why; ``none`` when every one was refused."""
        refused: list[dict] = []
        for base, candidate in offered:
            reason, binding = self.check(candidate, need.policy)
            if binding is None:
                refused.append({"id": str(candidate.get("id")), "reason": reason})
                continue
            return Chosen("selected", candidate=str(candidate["id"]), service=base,
                          invocation={"protocol": binding.get("protocol"), "endpoint": binding.get("endpoint")},
                          refused=refused)
        return Chosen("none", refused=refused)

    # ------------------------------------------------------------------ reaching a service (3.3)

    def candidates_of(self, base: str, need: Need) -> list[dict]:
        """The service's candidates: its Discovery Response, or the metadata of the agents the
        user named when the service answers no queries (D0)."""
        if not self.queries(need):
            return self.metadata(base, need)
        fetch = self.post(self.discover_url(base, need), need.request)
        final = fetch.final
        if final is not None and final.status in NO_QUERIES and need.agents:
            return self.metadata(base, need)  # a lower level: use what it has
        value = self.json_of(fetch, "discovery")
        return self.candidates_in(value)

    def queries(self, need: Need) -> bool:
        """3.3: a D0 publisher is not assumed to answer Discovery Requests."""
        return need.level != "D0"

    def url(self, base: str, path: str) -> str:
        return base.rstrip("/") + path

    def post(self, url: str, body: dict) -> Fetch:
        return self.fetcher.fetch(url, method="POST", content=json.dumps(body).encode("utf-8"),
                                  headers={"Content-Type": "application/json", "Accept": "application/json"})

    def json_of(self, fetch: Fetch, what: str) -> Any:
        final = fetch.final
        if final is None or fetch.error:
            raise LookupError(f"{what}: {fetch.describe_error()}")
        if not 200 <= final.status < 300:
            raise LookupError(f"{what}: HTTP {final.status}")
        try:
            return json.loads(final.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise LookupError(f"{what}: not JSON ({exc})") from None

    def candidates_in(self, value: Any) -> list[dict]:
        """6.1: the candidates array; members the client does not know are ignored (4.1)."""
        items = value.get("candidates") if isinstance(value, dict) else None
        if not isinstance(items, list):
            raise LookupError("the Discovery Response has no candidates array")
        return [c for c in items if self.usable(c)]

    def usable(self, candidate: Any) -> bool:
        """A candidate the client can consider: an object with a string id. Evidence, freshness,
        score and score components are optional (a D1 or D0 answer has none: 3.3)."""
        return isinstance(candidate, dict) and isinstance(candidate.get("id"), str)

    def discover_url(self, base: str, need: Need) -> str:
        return self.url(base, need.binding.get("discover", DISCOVER))

    def metadata(self, base: str, need: Need) -> list[dict]:
        """D0: each named agent's metadata (GET {base}/agents/{id}), in the user's order."""
        found = []
        for agent_id in need.agents:
            path = need.binding.get("agent", AGENT).replace("{id}", quote(agent_id, safe=""))
            fetch = self.fetcher.fetch(self.url(base, path), headers={"Accept": "application/json"})
            try:
                value = self.json_of(fetch, f"metadata of {agent_id}")
            except LookupError:
                continue
            if self.usable(value):
                found.append(value)
        if not found:
            raise LookupError("no agent metadata could be read")
        return found

    # ------------------------------------------------------------------ choosing (6.2, 6.3)

    def order(self, candidates: list[dict]) -> list[dict]:
        """6.2, 6.3: the service's own ranking (its order); scores are local to it and never
        compared with another service's, and score components are not used (unknown ones are
        ignored by construction)."""
        return list(candidates)

    # ------------------------------------------------------------------ before invocation (4.5, 10)

    def check(self, candidate: dict, policy: Policy) -> tuple[str, dict | None]:
        """Why the candidate may not be invoked, or the binding to invoke."""
        if self.revoked(candidate, policy):
            return "revoked", None
        bindings = self.bindings(candidate)
        if not bindings:
            return "no-binding", None
        valid = [b for b in bindings if self.endpoint_valid(b.get("endpoint"))]
        if not valid:
            return "invalid-endpoint", None
        allowed = [b for b in valid if self.binding_allowed(b, policy)]
        if not allowed:
            return "binding-not-allowed", None
        return "", allowed[0]

    def revoked(self, candidate: dict, policy: Policy) -> bool:
        """10: a candidate any of whose credential references local policy knows as revoked."""
        refs = candidate.get("credential_refs")
        return isinstance(refs, list) and any(isinstance(r, str) and r in policy.revoked for r in refs)

    def bindings(self, candidate: dict) -> list[dict]:
        """4.5: the bindings, by priority (lower first, absent last), else in listed order."""
        items = [b for b in candidate.get("bindings") or [] if isinstance(b, dict)]
        return sorted(items, key=lambda b: b["priority"] if isinstance(b.get("priority"), int)
                      and not isinstance(b.get("priority"), bool) else 1 << 30)

    def endpoint_valid(self, endpoint: Any) -> bool:
        """10: an absolute URL with a scheme and a host, no white space or control characters."""
        if not isinstance(endpoint, str) or not endpoint or any(c.isspace() or ord(c) < 32 for c in endpoint):
            return False
        try:
            parts = urlsplit(endpoint)
            port = parts.port  # noqa: F841 - raises on a malformed port
        except ValueError:
            return False
        scheme = parts.scheme
        return bool(scheme) and scheme[0].isalpha() and bool(parts.hostname)

    def binding_allowed(self, binding: dict, policy: Policy) -> bool:
        """4.5: the protocol and the endpoint's scheme are both allowed by local policy."""
        protocol = binding.get("protocol")
        scheme = urlsplit(str(binding.get("endpoint"))).scheme.lower()
        return isinstance(protocol, str) and protocol.lower() in policy.protocols and scheme in policy.schemes
