"""Invocation: the kit's requests that run a target's agents (WoA REST invocations, ...).

Reading a discovery document costs the target nothing; invoking one of its agents may cost
money or change state. So the kit invokes a live target only when the user asked for it
(``--invoke``), and never more than ``--invoke-budget`` times in one run. The built-in
targets are the kit's own, and always invoked. An invocation URL comes from the target's
document: it may not reach a loopback or private address unless the user named that host
(or passed ``--allow-private``).

Clauses whose check needs an invocation that was not allowed (or that the budget no longer
covers) are *untestable*: never a pass, and the run is partial (the report says why).
"""

from __future__ import annotations

import json
import threading
from typing import Any

from conformance.fetch import Fetch, Fetcher
from conformance.outcomes import untestable

#: Invocation requests one run sends at most, unless ``--invoke-budget`` says otherwise.
DEFAULT_BUDGET = 50
#: What the kit accepts back from an invocation: the JSON of 5.2, or its problem details.
ACCEPT = "application/json, application/problem+json"


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
        return max(self.budget - self.sent, 0) if self.allowed else 0

    def require(self, count: int = 1) -> None:
        """*untestable* unless ``count`` more invocations may be sent."""
        __tracebackhide__ = True
        if not self.allowed:
            untestable("invoking a live host's agents is opt-in, since it may cost money or change state: "
                       "pass --invoke (and --invoke-budget N) to check this clause")
        if self.remaining < count:
            untestable(f"the run's invocation budget ({self.budget}, --invoke-budget) is spent: "
                       f"{self.sent} invocations were sent")

    def post(self, url: str, content: bytes, content_type: str | None = "application/json",
             headers: dict[str, str] | None = None) -> Fetch:
        """POST ``content`` to ``url`` (one invocation of the budget)."""
        __tracebackhide__ = True
        with self._lock:
            self.require()
            self.sent += 1
        sent = {"Accept": ACCEPT} | ({"Content-Type": content_type} if content_type else {}) | (headers or {})
        return self.fetcher.fetch(url, method="POST", headers=sent, content=content, named_host=self.named_host)

    def post_json(self, url: str, value: Any, headers: dict[str, str] | None = None) -> Fetch:
        """POST ``value`` as ``application/json`` to ``url``."""
        __tracebackhide__ = True
        return self.post(url, json.dumps(value, ensure_ascii=False).encode("utf-8"), headers=headers)
