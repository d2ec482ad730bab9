"""Hypothesis inside clause tests: the settings every suite uses for generated checks.

A clause test may try several generated inputs (documents, records, manifests) against the
target. Each example is a real exchange, so there are few of them; they are seeded from the
run's seed, so a report's seed and its replay command reproduce every example; and no example
database is written into the user's folder.
"""

from __future__ import annotations

import json


def generated(adck_seed: int, max_examples: int = 6):
    """A decorator for a ``@given`` check inside a clause test (see the module docstring)."""
    from hypothesis import HealthCheck, Phase, seed, settings

    def wrap(fn):
        # no shrinking: against a live target each smaller example is one more exchange, and the
        # failing example is reported as it was found (the seed replays it)
        return seed(adck_seed)(settings(max_examples=max_examples, deadline=None, database=None,
                                        phases=[Phase.explicit, Phase.reuse, Phase.generate],
                                        suppress_health_check=list(HealthCheck))(fn))

    return wrap


def shown(value: object, limit: int = 300) -> str:
    """A generated value in a failure message (redacted, cut)."""
    from conformance import redact

    text = json.dumps(redact.json_value(value), ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"
