"""Invocation: the kit's requests that make a target work (WoA REST invocations, AIDRE searches).

Reading a discovery document costs the target little; invoking one of its agents may cost
money or change state. So the kit invokes a live target's agents only when the user asked for
it (``--invoke``). Searches (AIDRE) are reads, sent without opting in, but real work for the
target all the same: every such request counts against one budget, never more than
``--invoke-budget`` (alias ``--request-budget``) in one run. The built-in targets are the
kit's own, and always invoked. An invocation URL comes from the target's
document: it may not reach a loopback or private address unless the user named that host
(or passed ``--allow-private``).

Clauses whose check needs an invocation that was not allowed (or that the budget no longer
covers) are *untestable*: never a pass, and the run is partial (the report says why).
"""

from __future__ import annotations

import json
import threading
from typing import Any

from conformance.fetch import PRIVATE_ADDRESS, Fetch, Fetcher
from conformance.outcomes import BUDGET_SPENT, untestable

#: Requests that make the target work one run sends at most, unless ``--invoke-budget`` says
#: otherwise: enough for a full run of any suite, so that only a user who wants to be gentler
#: than that needs to lower it.
DEFAULT_BUDGET = 200
#: What the kit accepts back from an invocation: the JSON of 5.2, or its problem details.
ACCEPT = "application/json, application/problem+json"


def refused(fetch: Fetch) -> None:
    """*untestable* when ``fetch`` was refused before it was sent: its URL, taken from the
    target, names a loopback or private address the user did not name (the guard of
    :meth:`Fetcher.fetch`). Such a request says nothing of the target: never a failure."""
    __tracebackhide__ = True
    if fetch.error_kind == PRIVATE_ADDRESS:
        untestable(f"not fetched: {fetch.error[1]}")  # type: ignore[index]


class Invoker:
    """Sends invocations for one run: allowed or not, counted against the budget."""

    def __init__(self, fetcher: Fetcher, *, allowed: bool, budget: int, named_host: str | None) -> None:
        self.fetcher = fetcher
        self.allowed = allowed
        self.budget = budget
        self.named_host = named_host
        self.sent = 0
        self._lock = threading.Lock()

    @property
    def remaining(self) -> int:
        """Invocations that may still be sent (0 when invoking is not allowed)."""
        return max(self.budget - self.sent, 0) if self.allowed else 0

    def require(self, count: int = 1, opt_in: bool = True) -> None:
        """*untestable* unless ``count`` more requests may be sent (``opt_in``: they run the
        target's agents, which needs ``--invoke`` on a live target)."""
        __tracebackhide__ = True
        if opt_in and not self.allowed:
            untestable("invoking a live host's agents is opt-in, since it may cost money or change state: "
                       "pass --invoke (and --invoke-budget N) to check this clause")
        if self.budget - self.sent < count:
            untestable(self._spent())

    def post(self, url: str, content: bytes, content_type: str | None = "application/json",
             headers: dict[str, str] | None = None, opt_in: bool = True, method: str = "POST",
             credentials: bool = True) -> Fetch:
        """Send ``content`` to ``url`` (one request of the budget; ``opt_in=False`` for a read
        such as a search, which needs no ``--invoke``). The user's credentials go with it when
        its origin is one the user named (``credentials=False``: never, for a clause that judges
        the answer to a request without them)."""
        __tracebackhide__ = True
        with self._lock:
            self.require(opt_in=opt_in)
            self.sent += 1
        sent = {"Accept": ACCEPT} | ({"Content-Type": content_type} if content_type else {}) | (headers or {})
        fetch = self.fetcher.fetch(url, method=method, headers=sent, content=content, named_host=self.named_host,
                                   credentials=credentials, spend=self._spend_hop)
        if fetch.error_kind == "budget":
            untestable(f"{method} {url}: {fetch.error[1]}")  # type: ignore[index]
        refused(fetch)
        return fetch

    def _spend_hop(self) -> str | None:
        """Count one redirect hop against the budget (each hop is one more request), or say why
        it may not be sent."""
        with self._lock:
            if self.sent >= self.budget:
                return self._spent()
            self.sent += 1
            return None

    def _spent(self) -> str:
        return (f"{BUDGET_SPENT} ({self.budget}, --invoke-budget or --request-budget) is spent: {self.sent} were "
                "sent, redirect hops included")

    def count(self) -> None:
        """Count one invocation the kit sends by other means than :meth:`post` (a WoA MCP
        tools/call, sent by the MCP client): *untestable* when it may not be sent."""
        __tracebackhide__ = True
        with self._lock:
            self.require()
            self.sent += 1

    def post_json(self, url: str, value: Any, headers: dict[str, str] | None = None) -> Fetch:
        """POST ``value`` as ``application/json`` to ``url``."""
        __tracebackhide__ = True
        return self.post(url, json.dumps(value, ensure_ascii=False).encode("utf-8"), headers=headers)
