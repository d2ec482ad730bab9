"""Fixtures of the woa suite's host role (see conftest.py).

A host is an origin that serves its WoA document at ``/.well-known/woa.json`` (3, 9.1) and
invokes its agents over the transports the document configures. The document is fetched once
per run and shared by every clause (the document role judges the same bytes). Invocations go
through the run's :class:`~conformance.invoke.Invoker` (``adck_invoker``): always for the
built-in host, only with ``--invoke`` (and within ``--invoke-budget``) for a live one, so a
clause that needs one that is not allowed is *untestable*, never passed. Each kind of
invocation is sent once per run and shared (:class:`Invocations`), whichever test asks first.

The inputs the kit sends are built from each agent's own ``inputs`` schema by
``conformance.woa.inputs`` and validated before they are sent: a valid input the kit sends is
proven valid, and an invalid one proven invalid, so a verdict never rests on the kit's own
mistake.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import pytest

from conformance.document import Document, loads
from conformance.fetch import Exchange, Fetch, Fetcher
from conformance.generated import shown
from conformance.invoke import Invoker
from conformance.outcomes import ClauseViolation, NotApplicable, Untestable, not_applicable, untestable, violation  # noqa: F401
from conformance.outcomes import each_case as _each_case
from conformance.targets import Target
from conformance.woa import inputs as woa_inputs

__all__ = [
    "WELL_KNOWN", "ACCEPT_DOCUMENT", "PROBLEM", "REFUSED", "Call", "problem_issue", "RestServer", "Invocations", "Rest", "Selection",
    "Fetches", "delivered", "each_case", "host_document", "host_origin", "host_value", "invocations", "media_type",
    "own_fetches", "rest", "rest_servers", "selections", "unreachable", "woa_fetch",
]

WELL_KNOWN = "/.well-known/woa.json"
#: What the kit asks for (Appendix B's client sends the same).
ACCEPT_DOCUMENT = "application/woa+json, application/json"
PROBLEM = "application/problem+json"
#: Valid inputs sent per agent and operation: the smallest, the largest, one at random.
VALID_PER_SELECTION = 3
#: Invalid inputs sent per agent (one of each way: missing, wrong type, out of range).
INVALID_PER_AGENT = 3

#: Answers that say the endpoint did not take a POST of application/json at all.
REFUSED = {404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 415: "Unsupported Media Type",
           501: "Not Implemented"}

#: Fetch failures of the document and the clause that reports them.
_FETCH_ERROR_CLAUSE = {"tls": "WOA-8.1-01", "insecure-redirect": "WOA-8.1-01"}
#: Fetch failures that mean the endpoint did not answer at all.
_SILENT = frozenset({"timeout", "connect", "protocol", "transport"})
#: Fetch failures that leave a response's body incomplete or unreadable.
_BODY_NOT_WHOLE = frozenset({"encoding", "timeout", "protocol", "transport", "connect"})


def problem_issue(value: Any) -> str | None:
    """Why a parsed body is not an RFC 9457 problem object (None when it is one)."""
    if not isinstance(value, dict):
        return f"the body is a JSON {type(value).__name__}, not a problem details object"
    for name, kind, what in (("type", str, "a string"), ("title", str, "a string"), ("detail", str, "a string"),
                             ("instance", str, "a string"), ("status", int, "an integer")):
        if name in value and (not isinstance(value[name], kind) or isinstance(value[name], bool)):
            return f"its {name!r} member is {value[name]!r}, not {what} (RFC 9457 3.1)"
    return None


def media_type(exchange: Exchange) -> str:
    """The response's media type, lower case, without parameters ("" when absent)."""
    return (exchange.header("content-type") or "").split(";")[0].strip().lower()


def unreachable(target: Target, url: str) -> str | None:
    """Why the kit will not send to ``url`` (None when it may): a host that ``--connect-to``
    maps on some ports only is not looked up in the real DNS on another port (the user
    pointed the name at a local server; the kit does not reach past it)."""
    import httpx

    try:
        u = httpx.URL(url)
    except Exception as exc:  # noqa: BLE001 - a document's URL may be anything
        return f"{url!r} is not a URL ({exc})"
    if u.scheme not in ("http", "https") or not u.host:
        return f"{url!r} is not an http(s) URL"
    port = u.port or (443 if u.scheme == "https" else 80)
    if target.spec.partition(":")[0] == "builtin" and not any(m.maps(u.host, port) for m in target.http.connect_to):
        return (f"{u.host}:{port} is not part of the kit's mock world: a built-in host's run reaches nothing "
                "outside it")
    named = [m for m in target.http.connect_to if not m.host or m.host == u.host.lower()]
    if named and not any(m.maps(u.host, port) for m in named):
        return (f"--connect-to maps {u.host} only on other ports than {port}: the kit does not send to the "
                "real name (add a --connect-to mapping for this port to check it)")
    return None


def delivered(fetch: Fetch) -> Exchange:
    """The 2xx response that delivered the document, or *untestable* naming the clause that
    reports why there is none (WOA-3-01, or WOA-8.1-01 for a TLS failure)."""
    __tracebackhide__ = True
    final = fetch.final
    if fetch.error and fetch.error_kind != "too-large" and (final is None or final.status in (301, 302, 303, 307, 308)
                                                             or fetch.error_kind in _BODY_NOT_WHOLE):
        untestable(f"no document from {fetch.url}: {fetch.describe_error()} "
                   f"(see {_FETCH_ERROR_CLAUSE.get(fetch.error_kind or '', 'WOA-3-01')})")
    if final is None:  # pragma: no cover - a fetch without error always has a response
        untestable(f"no response from {fetch.url} (see WOA-3-01)")
    if not 200 <= final.status < 300:
        untestable(f"{fetch.url} answered {final.status} {final.reason}, not the document (see WOA-3-01)")
    return final


def _kit_limit(case: Any) -> str | None:
    """The kit's own limit that cut ``case`` short (its --timeout, its --max-body), in words, or
    None: a case of a clause's space is a :class:`Call`, a (Call, ...) pair, or a
    :class:`RestServer`."""
    if isinstance(case, tuple) and case:
        case = case[0]
    fetch = case.fetch if isinstance(case, (Call, RestServer)) else None
    if fetch is None:
        return None
    if fetch.error_kind == "timeout":
        limit = case.time_limit if isinstance(case, Call) else None
        return ("no answer within the kit's --timeout" + (f" of {limit:g} s" if limit else "")
                + "; raise --timeout to judge it")
    if fetch.error_kind == "too-large" or (fetch.final is not None and fetch.final.body_truncated):
        return "the answer is larger than the kit reads (--max-body); raise --max-body to judge it"
    return None


def each_case(cases: Iterable[Any], check: Callable[[Any], None]) -> None:
    """:func:`conformance.outcomes.each_case` for the host's invocations, which never counts a
    clause as passed when the kit's own limits cut one of its cases short: a case left
    untestable because the kit's --timeout (or --max-body) ended it makes the clause
    *untestable*, naming the limit, though every other case passed (a MUST whose case space
    was cut short is never passed). A failing case still fails the clause."""
    __tracebackhide__ = True
    cut: list[tuple[Any, str]] = []

    def judged(case: Any) -> None:
        try:
            check(case)
        except Untestable:
            why = _kit_limit(case)
            if why:
                cut.append((case, why))
            raise

    cases = list(cases)
    _each_case(cases, judged)
    if cut:
        case, why = cut[0]
        what = getattr(case[0] if isinstance(case, tuple) else case, "what", None) or getattr(case, "base", "a case")
        untestable(f"{len(cut)} of {len(cases)} cases could not be judged, the others passed: {what}: {why}")


@pytest.fixture(scope="session")
def host_origin(adck_target: Target) -> str:
    """``scheme://host[:port]`` of the host under test (an origin target)."""
    if adck_target.kind != "origin" or not adck_target.origin:
        not_applicable("the host role is checked on an origin (https://HOST or builtin), not on a document file")
    return adck_target.origin


@pytest.fixture(scope="session")
def woa_fetch(host_origin: str, adck_fetcher: Fetcher) -> Fetch:
    """GET /.well-known/woa.json, once per run."""
    return adck_fetcher.get(host_origin + WELL_KNOWN, headers={"Accept": ACCEPT_DOCUMENT})


@pytest.fixture(scope="session")
def host_document(woa_fetch: Fetch) -> Document:
    """The document the host serves (*untestable* when it serves none: see WOA-3-01)."""
    delivered(woa_fetch)
    return Document.from_fetch(woa_fetch)


@pytest.fixture(scope="session")
def host_value(host_document: Document) -> dict:
    """The served document's top-level object (*untestable* when it is not one: the document
    role says why)."""
    value = host_document.value()
    if not isinstance(value, dict):
        untestable("the served document is not a JSON object (see WOA-4-01)")
    return value


class Fetches(list):
    """The fetches a test sends itself (beyond the shared fixtures'): its evidence, so that a
    report shows them and the plugin's rules about the answers it saw (401, 403, 429) apply to
    them as to every other exchange of the test."""

    def evidence(self) -> list[Exchange]:
        return [e for fetch in self for e in fetch.evidence()]


@pytest.fixture
def own_fetches() -> Fetches:
    """An empty :class:`Fetches` per test: append each fetch the test sends itself."""
    return Fetches()


# ------------------------------------------------------------------ the REST transport


@dataclass(frozen=True)
class Rest:
    """The document's rest transport configuration (4.3.1)."""

    base: str
    invoke_path: str

    @property
    def template(self) -> str:
        return self.base + self.invoke_path

    @property
    def per_agent(self) -> bool:
        """Does the URL name the agent (the case-sensitive ``{agent_id}``, 4.3.1)?"""
        return "{agent_id}" in self.invoke_path

    def url(self, agent_id: str) -> str:
        """The invocation URL of 4.3.1: base + invoke_path, every {agent_id} replaced (AMB-12)."""
        return self.template.replace("{agent_id}", agent_id)


@pytest.fixture(scope="session")
def rest(host_value: dict) -> Rest:
    """The rest transport of the served document (*not-applicable* when there is none)."""
    transports = host_value.get("transports")
    config = transports.get("rest") if isinstance(transports, dict) else None
    if config is None:
        not_applicable("the document configures no rest transport")
    base = config.get("base") if isinstance(config, dict) else None
    path = config.get("invoke_path") if isinstance(config, dict) else None
    if not isinstance(base, str) or not isinstance(path, str):
        untestable("the rest transport has no string base and invoke_path (see WOA-4.3.1-01, WOA-4.3.1-06)")
    return Rest(base, path)


@dataclass(frozen=True)
class Selection:
    """One way to invoke an agent: the agent, the operation named in the envelope (None:
    omitted), and the inputs and outputs schemas that apply (the operation's override, else
    the agent's: 5.1, 5.2)."""

    agent: str
    operation: str | None
    inputs: Any
    outputs: Any

    @property
    def label(self) -> str:
        return f"agent {self.agent!r}" + (f" operation {self.operation!r}" if self.operation is not None else "")


#: The agent-id ABNF of 4.1: only such ids are put into a URL (an id like "../admin" is the
#: document role's failure, never a path the kit sends to).
_AGENT_ID = re.compile(r"[A-Za-z0-9_-]+")


def _agents(value: dict) -> list[dict]:
    agents = value.get("agents")
    return [a for a in agents if isinstance(a, dict) and isinstance(a.get("id"), str)
            and _AGENT_ID.fullmatch(a["id"])] if isinstance(agents, list) else []


def _rest_agents(value: dict) -> list[dict]:
    return [a for a in _agents(value) if isinstance(a.get("transports"), list) and "rest" in a["transports"]]


def _operations(agent: dict) -> list[dict]:
    ops = agent.get("operations")
    return [o for o in ops if isinstance(o, dict) and isinstance(o.get("name"), str)] if isinstance(ops, list) else []


def selections(value: dict) -> list[Selection]:
    """Every agent that lists rest, with each operation it defines named (an agent without
    operations: the operation omitted)."""
    out = []
    for agent in _rest_agents(value):
        ops = _operations(agent)
        if not ops:
            out.append(Selection(agent["id"], None, agent.get("inputs"), agent.get("outputs")))
        for op in ops:
            out.append(Selection(agent["id"], op["name"], op.get("inputs", agent.get("inputs")),
                                 op.get("outputs", agent.get("outputs"))))
    return out


@dataclass
class Call:
    """One invocation the kit sent: what it was, what was sent, and what came back."""

    kind: str  # valid, omitted, invalid, malformed, unknown-operation, mismatch, no-agent, charset
    what: str
    url: str
    fetch: Fetch
    selection: Selection | None = None
    envelope: Any = None
    #: The agent the URL names (mismatches), for failure messages.
    url_agent: str | None = None
    #: The kit's --timeout when the call was sent (a case it cut short names it).
    time_limit: float | None = None

    @property
    def final(self) -> Exchange | None:
        return self.fetch.final

    def evidence(self) -> list[Exchange]:
        return self.fetch.evidence()

    def answer(self) -> Exchange:
        """The response to judge, or *untestable* naming the clause that reports why there is
        none (WOA-8.1-01 for TLS, WOA-4.3.1-12 for no answer)."""
        __tracebackhide__ = True
        fetch, final = self.fetch, self.fetch.final
        if fetch.error and fetch.error_kind != "too-large" and (final is None or final.status in (301, 302, 303, 307, 308)
                                                                 or fetch.error_kind in _BODY_NOT_WHOLE):
            clause = "WOA-8.1-01" if fetch.error_kind in ("tls", "insecure-redirect") else "WOA-4.3.1-12"
            untestable(f"{self.what}: no answer from {self.url}: {fetch.describe_error()} (see {clause})")
        assert final is not None
        return final

    def said(self) -> str:
        """The answer in a few words."""
        final = self.final
        if final is None:
            return f"no answer ({self.fetch.describe_error()})"
        return f"{final.status} {media_type(final) or 'without Content-Type'}"

    def json(self) -> tuple[bool, Any]:
        """(parsed, value) of the answer's body."""
        final = self.answer()
        if final.body_truncated:
            return False, None
        try:
            return True, loads(final.body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return False, None


#: The kinds of invocation, in words (a clause cut short names them).
_KINDS = {"valid": "those with valid inputs", "errors": "those that must fail",
          "mismatches": "the mismatched envelopes", "no-agent": "the envelope without agent",
          "omitted": "those without operation", "charset": "the one with a charset parameter"}


class Invocations:
    """The run's invocations of the host's REST endpoint, each kind sent once and shared."""

    def __init__(self, invoker: Invoker, target: Target, value: dict, rest: Rest, seed: int) -> None:
        self.invoker = invoker
        self.target = target
        self.value = value
        self.rest = rest
        self.seed = seed
        self.calls: list[Call] = []
        self._done: dict[str, list[Call]] = {}
        #: The calls the current test judges: what its report shows as evidence.
        self.focus: list[Call] = []
        #: Kinds of invocation cut short (budget spent, not allowed), with why.
        self.blocked: dict[str, str] = {}

    def evidence(self) -> list[Exchange]:
        return [e for c in self.focus for e in c.evidence()]

    def whole(self, *keys: str) -> None:
        """*untestable* when a kind of invocation the clause needs was cut short (the budget ran
        out, or invoking is not allowed): the calls sent passed, but not the clause's whole
        space was tried. Called after the sent calls were judged (a failure among them stands)."""
        __tracebackhide__ = True
        cut = [(k, self.blocked[k]) for k in (keys or tuple(self.blocked)) if k in self.blocked]
        if cut:
            kinds = ", ".join(_KINDS.get(k, k) for k, _ in cut)
            untestable(f"the invocations the kit sent passed, but not all of {kinds} could be sent: {cut[0][1]}")

    def judge(self, calls: list[Call]) -> list[Call]:
        """Mark ``calls`` as what the current test judges (its evidence), and return them."""
        self.focus = list(calls)
        return calls

    # -------------------------------------------------------------- sending

    def _send(self, kind: str, what: str, agent_id: str, body: bytes, envelope: Any = None,
              selection: Selection | None = None, content_type: str = "application/json",
              url_agent: str | None = None) -> Call:
        __tracebackhide__ = True
        url = self.rest.url(url_agent if url_agent is not None else agent_id)
        why = unreachable(self.target, url)
        if why:
            untestable(why)
        silent = next((c for c in self.calls if c.final is None and c.fetch.error_kind in _SILENT), None)
        if silent is not None:  # a hostile endpoint that never answers costs the run one timeout, not one each
            untestable(f"the endpoint did not answer an earlier invocation ({silent.what}: "
                       f"{silent.fetch.describe_error()}); no more are sent (see WOA-4.3.1-12)")
        fetch = self.invoker.post(url, body, content_type=content_type)
        call = Call(kind, what, url, fetch, selection, envelope, url_agent,
                    time_limit=self.invoker.fetcher.limits.total_timeout)
        self.calls.append(call)
        return call

    def _envelope(self, agent: str | None, operation: str | None, value: Any) -> dict:
        env: dict[str, Any] = {} if agent is None else {"agent": agent}
        if operation is not None:
            env["operation"] = operation
        env["input"] = value
        return env

    def _json_call(self, kind: str, what: str, agent_id: str, envelope: Any, selection: Selection | None = None,
                   url_agent: str | None = None, content_type: str = "application/json") -> Call:
        __tracebackhide__ = True
        body = json.dumps(envelope, ensure_ascii=False).encode("utf-8")
        return self._send(kind, what, agent_id, body, envelope, selection, content_type, url_agent)

    def _once(self, key: str, build: Callable[[], Iterable[Callable[[], Call]]]) -> list[Call]:
        """The calls of ``key``, sent the first time (each call a thunk, so that a budget that
        runs out part-way leaves the ones sent so far, and the rest untestable)."""
        __tracebackhide__ = True
        if key in self._done:
            return self._done[key]
        sent: list[Call] = []
        blocked: Untestable | None = None
        for thunk in build():
            try:
                sent.append(thunk())
            except Untestable as exc:
                blocked = exc
                break
        if blocked is not None:
            self.blocked.setdefault(key, str(blocked.msg))
        if not sent and blocked is not None:
            raise blocked
        self._done[key] = sent
        return sent

    # -------------------------------------------------------------- what each clause needs

    def selections(self) -> list[Selection]:
        return selections(self.value)

    def valid_inputs(self, selection: Selection, n: int = VALID_PER_SELECTION) -> list[dict]:
        return woa_inputs.valid_inputs(selection.inputs, self._seed(selection), n)

    def _seed(self, selection: Selection) -> int:
        import zlib

        return self.seed ^ zlib.crc32(f"{selection.agent}\0{selection.operation}".encode())

    def valid(self) -> list[Call]:
        """Each selection invoked with inputs its inputs schema accepts (WOA-5.2-06, WOA-4.2-05,
        WOA-4.3.1-12). *untestable* when the kit could build no valid input for any."""
        __tracebackhide__ = True
        sels = self.selections()
        if not sels:
            not_applicable("no agent of the document lists the rest transport")
        why = {s.label: woa_inputs.why_not(s.inputs) for s in sels}
        if all(why.values()):
            untestable("the kit could build no input the inputs schema accepts: "
                       + "; ".join(f"{k}: {v}" for k, v in why.items()))

        if any(why.values()):
            self.blocked["valid"] = ("the kit could build no input the inputs schema accepts for "
                                     + "; ".join(f"{k} ({v})" for k, v in why.items() if v))

        def build():
            # one input per selection first, so that a small budget still covers every agent
            rounds = [[(s, v) for v in self.valid_inputs(s)] for s in sels if not why[s.label]]
            for i in range(max(map(len, rounds), default=0)):
                for row in rounds:
                    if i < len(row):
                        s, v = row[i]
                        yield lambda s=s, v=v: self._json_call(
                            "valid", f"{s.label} with valid input {shown(v, 120)}", s.agent,
                            self._envelope(s.agent, s.operation, v), s)
        return self._once("valid", build)

    def _buildable(self) -> list[Selection]:
        """The selections the kit can build a valid input for (*not-applicable* without any
        selection, *untestable* when it can build none)."""
        __tracebackhide__ = True
        all_ = self.selections()
        if not all_:
            not_applicable("no agent of the document lists the rest transport")
        sels = [s for s in all_ if not woa_inputs.why_not(s.inputs)]
        if not sels:
            untestable("the kit could build no valid input for any agent: " + "; ".join(self.unbuildable()))
        return sels

    def unbuildable(self) -> list[str]:
        """The selections the kit could build no valid input for, with why."""
        return [f"{s.label}: {r}" for s in self.selections() if (r := woa_inputs.why_not(s.inputs))]

    def omitted(self) -> list[tuple[Call, Selection]]:
        """For each agent whose operations include "default": a valid input of that operation
        sent without ``operation`` (WOA-5.1-05), with the default selection."""
        __tracebackhide__ = True
        targets = [s for s in self.selections() if s.operation == "default" and not woa_inputs.why_not(s.inputs)]
        if not targets:
            not_applicable("no agent that lists rest defines an operation named \"default\" (AMB-16)")
        calls = self._once("omitted", lambda: [
            (lambda s=s: self._json_call("omitted", f"agent {s.agent!r} without operation, valid input "
                                         f"{shown(self.valid_inputs(s, 1)[0], 120)}", s.agent,
                                         self._envelope(s.agent, None, self.valid_inputs(s, 1)[0]), s))
            for s in targets])
        return [(c, c.selection) for c in calls if c.selection is not None]

    def errors(self) -> list[Call]:
        """Invocations that must fail (WOA-5.2-07): inputs the schema rejects (one of each
        way), a body that is not JSON, an unknown operation."""
        __tracebackhide__ = True
        sels = self.selections()
        if not sels:
            not_applicable("no agent of the document lists the rest transport")

        def build():
            per_agent: dict[str, Selection] = {}
            for s in sels:
                per_agent.setdefault(s.agent, s)
            for s in per_agent.values():
                for way, v in woa_inputs.invalid_inputs(s.inputs, self._seed(s), INVALID_PER_AGENT):
                    yield lambda s=s, way=way, v=v: self._json_call(
                        "invalid", f"{s.label} with an invalid input ({way}): {shown(v, 120)}", s.agent,
                        self._envelope(s.agent, s.operation, v), s)
            for s in sels:
                if s is per_agent[s.agent] or s.operation is None:
                    continue
                agent_inputs = next((a.get("inputs") for a in _agents(self.value) if a["id"] == s.agent), None)
                if s.inputs is agent_inputs:
                    continue
                # an input the operation's own inputs reject though the agent's would accept it:
                # only a host that applies the override (5.1) rejects it
                for way, v in woa_inputs.invalid_inputs(s.inputs, self._seed(s), 6):
                    if woa_inputs.accepts(agent_inputs, v):
                        yield lambda s=s, way=way, v=v: self._json_call(
                            "invalid", f"{s.label} with an input its operation's inputs reject ({way}), though the "
                            f"agent's inputs accept it: {shown(v, 120)}", s.agent, self._envelope(s.agent, s.operation, v), s)
                        break
            first = sels[0]
            yield lambda: self._send("malformed", f"agent {first.agent!r}: a body that is not JSON", first.agent,
                                     b'{"agent": "' + first.agent.encode() + b'", "input": {', None, first)
            with_ops = [s for s in sels if s.operation is not None and not woa_inputs.why_not(s.inputs)]
            if with_ops:
                s = with_ops[0]
                names = {x.operation for x in sels if x.agent == s.agent}
                unknown = next(n for n in ("zz-no-such-operation", "zz-no-such-operation-2") if n not in names)
                v = self.valid_inputs(s, 1)[0]
                yield lambda: self._json_call("unknown-operation", f"agent {s.agent!r} with an unknown operation "
                                              f"{unknown!r}", s.agent, self._envelope(s.agent, unknown, v), s)
        return self._once("errors", build)

    def mismatches(self) -> list[Call]:
        """Otherwise valid envelopes POSTed to agent A's URL naming another agent (WOA-5.2-04):
        another listed agent, an id the document does not list, A's id in another case."""
        __tracebackhide__ = True
        if not self.rest.per_agent:
            not_applicable(f"invoke_path {self.rest.invoke_path!r} holds no {{agent_id}}: the host learns the "
                           "agent from the envelope only, so no envelope can disagree with the URL (5.2)")
        sels = self._buildable()
        ids = {a["id"] for a in _agents(self.value)}

        def build():
            per_agent: dict[str, Selection] = {}
            for s in sels:
                per_agent.setdefault(s.agent, s)
            agents = list(per_agent.values())
            first = agents[0]
            v = self.valid_inputs(first, 1)[0]
            forms: list[tuple[Selection, str, str]] = []
            others = [a for a in ids if a != first.agent]
            if others:
                forms.append((first, sorted(others)[0], "another agent of the document"))
            unknown = next(f"zz-unknown-agent-{i}" for i in range(len(ids) + 1) if f"zz-unknown-agent-{i}" not in ids)
            forms.append((first, unknown, "an id the document does not list"))
            for s in agents:
                changed = s.agent.swapcase()
                if changed != s.agent and changed not in ids:
                    forms.append((s, changed, "the URL's id in another case (AMB-24)"))
                    break
            if len(agents) > 1:
                forms.append((agents[1], first.agent, "another agent of the document"))
            for s, named, why in forms:
                vs = v if s is first else self.valid_inputs(s, 1)[0]
                yield lambda s=s, named=named, why=why, vs=vs: self._json_call(
                    "mismatch", f"POST to the URL of agent {s.agent!r} naming agent {named!r} ({why})", named,
                    self._envelope(named, s.operation, vs), s, url_agent=s.agent)
        return self._once("mismatches", build)

    def no_agent(self) -> list[Call]:
        """An envelope without agent POSTed to an agent's URL (WOA-5.2-03)."""
        __tracebackhide__ = True
        if not self.rest.per_agent:
            not_applicable(f"invoke_path {self.rest.invoke_path!r} holds no {{agent_id}}: without agent in the "
                           "envelope the host has no way to know the agent (5.2)")
        sels = self._buildable()
        s = sels[0]
        return self._once("no-agent", lambda: [lambda: self._json_call(
            "no-agent", f"POST to the URL of agent {s.agent!r} with an envelope without agent", s.agent,
            self._envelope(None, s.operation, self.valid_inputs(s, 1)[0]), s, url_agent=s.agent)])

    def charset(self) -> list[Call]:
        """A valid envelope sent as ``application/json; charset=utf-8`` (WOA-4.3.1-12: the
        media type application/json, with its optional parameter)."""
        __tracebackhide__ = True
        sels = self._buildable()
        s = sels[-1]
        return self._once("charset", lambda: [lambda: self._json_call(
            "charset", f"{s.label} with Content-Type application/json; charset=utf-8", s.agent,
            self._envelope(s.agent, s.operation, self.valid_inputs(s, 1)[0]), s,
            content_type="application/json; charset=utf-8")])

    def everything(self) -> list[Call]:
        """Every kind of invocation (the clauses about every response of the endpoint)."""
        __tracebackhide__ = True
        if not self.selections():
            not_applicable("no agent of the document lists the rest transport")
        for kind in (self.valid, self.errors, self.mismatches, self.no_agent, self.omitted, self.charset):
            try:
                kind()
            except NotApplicable:  # a kind that does not apply
                continue
            except Untestable as exc:  # not allowed, or no input could be built
                self.blocked.setdefault(kind.__name__.replace("_", "-"), str(exc.msg))
                continue
        if not self.calls:
            self.invoker.require()
            untestable("the kit sent no invocation (no agent lists rest, or no input could be built)")
        return list(self.calls)


@pytest.fixture(scope="session")
def invocations(adck_invoker: Invoker, adck_target: Target, host_value: dict, rest: Rest,
                adck_seed: int) -> Invocations:
    return Invocations(adck_invoker, adck_target, host_value, rest, adck_seed)


@dataclass
class RestServer:
    """What the kit saw of the server of one REST base (8.1, 4.3.1)."""

    base: str
    scheme: str
    #: The exchange whose connection shows the server's TLS facts (None: not reached).
    exchange: Exchange | None = None
    fetch: Fetch | None = None
    #: Why the server was not reached (a prerequisite failed, or the kit would not send).
    unreached: str | None = None
    notes: list[str] = field(default_factory=list)


class RestServers(list):
    """The REST servers of a document; a report shows how each was reached."""

    def evidence(self) -> list[Exchange]:
        return [e for server in self if server.fetch is not None for e in server.fetch.evidence()]


@pytest.fixture(scope="session")
def rest_servers(host_value: dict, woa_fetch: Fetch, adck_target: Target, adck_fetcher: Fetcher) -> RestServers:
    """The server of each REST base the document lists: a base on the document's own origin
    is the server the document came from (its exchange shows the TLS facts, no request); a
    base elsewhere is reached once with GET (reading costs nothing)."""
    import httpx

    transports = host_value.get("transports")
    rest_config = transports.get("rest") if isinstance(transports, dict) else None
    if not isinstance(rest_config, dict):
        not_applicable("the document configures no rest transport")
    base = rest_config.get("base")
    if not isinstance(base, str):
        untestable("the rest transport has no string base (see WOA-4.3.1-01)")
    try:
        u = httpx.URL(base)
    except Exception:  # noqa: BLE001
        untestable(f"base {base!r} is not a URL (see WOA-4.3.1-02)")
    server = RestServer(base, u.scheme)
    doc_url = httpx.URL(woa_fetch.final_url)
    same = (u.scheme, u.host, u.port) == (doc_url.scheme, doc_url.host, doc_url.port)
    if u.scheme != "https":
        return RestServers([server])
    if same and woa_fetch.final is not None:
        server.exchange, server.fetch = woa_fetch.final, woa_fetch
        return RestServers([server])
    why = unreachable(adck_target, base)
    if why:
        server.unreached = why
        return RestServers([server])
    host = httpx.URL(adck_target.origin).host if adck_target.origin else None
    server.fetch = adck_fetcher.fetch(base, named_host=host)
    server.exchange = server.fetch.final
    return RestServers([server])
