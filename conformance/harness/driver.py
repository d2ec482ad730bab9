"""Driving a client under test, one harness step at a time: the one place a ``run`` message is
built, the clients' clock is set, and the step's transcript is kept with its scenario.

Each draft's client fixtures (aiendpoint's agent, AID, WoA, AIDRE and ADP clients) subclass
:class:`ClientDriver` with the operations of their draft and call :meth:`ClientDriver.step`.
"""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any

from conformance.harness.adapters import Adapter
from conformance.outcomes import not_applicable


class ClientDriver:
    """The client under test behind its adapter, and the numbering of the run's steps."""

    def __init__(self, adapter: Adapter, run: str) -> None:
        self.adapter = adapter
        self.run_id = run
        self._steps = itertools.count(1)

    def needs(self, feature: str, why: str) -> None:
        """*Not applicable* unless the client claims ``feature`` in its hello."""
        __tracebackhide__ = True
        if feature not in self.adapter.features:
            not_applicable(f"the client does not claim {feature} ({why})")

    def step(self, operation: str, params: dict[str, Any], *, now: datetime, network: dict, world: Any,
             record: list, session: str | None = None) -> dict:
        """Run one step: ``params`` with the clients' clock (``now``, also set on ``world`` so that
        responses carry it) and ``network``; the steps it took are appended to ``record`` (the
        scenario's evidence), whatever happens. *Not applicable* when the adapter does not offer
        ``operation``."""
        __tracebackhide__ = True
        if operation not in self.adapter.operations:
            not_applicable(f"the client's adapter does not offer {operation}")
        step = f"{self.run_id}-{next(self._steps)}"
        request = {"type": "run", "id": step, "session": session or step, "operation": operation,
                   "params": params | {"now": now.isoformat().replace("+00:00", "Z"), "network": network}}
        before = len(self.adapter.steps)
        world.clock = now
        try:
            return self.adapter.run(request)
        finally:
            record.extend(self.adapter.steps[before:])
