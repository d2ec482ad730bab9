"""Hypothesis inside clause tests: the settings every suite uses for generated checks.

A clause test may try several generated inputs (documents, records, manifests) against the
target. Each example is a real exchange, so there are few of them; they are seeded from the
run's seed, so a report's seed and its replay command reproduce every example; and no example
database is written into the user's folder. A failing example is reduced to its smallest
failing forms, one per cause (:func:`reduce`), so a failure never mixes several causes.
"""

from __future__ import annotations

import json


def generated(adck_seed: int, max_examples: int = 6):
    """A decorator for a ``@given`` check inside a clause test (see the module docstring)."""
    from hypothesis import HealthCheck, Phase, seed, settings

    def wrap(fn):
        # no hypothesis shrinking: against a live target each smaller example is one more exchange;
        # a clause test reduces its failing example itself, within a budget and naming each cause
        # (reduce below), and the seed replays the example as it was found
        return seed(adck_seed)(settings(max_examples=max_examples, deadline=None, database=None,
                                        phases=[Phase.explicit, Phase.reuse, Phase.generate],
                                        suppress_health_check=list(HealthCheck))(fn))

    return wrap


def shown(value: object, limit: int = 300) -> str:
    """A generated value in a failure message (redacted, cut)."""
    from conformance import redact

    text = json.dumps(redact.json_value(value), ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


#: At most this many extra exchanges are spent reducing one failing example.
REDUCTION_BUDGET = 40


def reduce(example, simpler, fails, *, budget: int = REDUCTION_BUDGET) -> list[tuple[object, list[str]]]:
    """The smallest failing forms of a failing generated ``example``, one per cause.

    A generated example mixes several features (keys in another order, optional members,
    unknown keys...); a failure may need one of them, several together, or be caused twice
    over. ``simpler(x)`` lists ``(name, y)``: ``y`` is ``x`` without one feature, ``name`` says
    which (in words for the report); ``fails(y)`` runs ``y`` against the target (one exchange,
    remembered). From ``example``, each way of starting the reduction (each feature removed
    first) is followed greedily to a form where removing any feature left makes the failure go
    away: each such form is one cause, the names of the features it still holds say what the
    cause needs (none: the plainest form fails). Distinct forms are distinct causes of the
    failure, so the report shows each on its own. Against a target each try is an exchange:
    ``budget`` caps them, an untried form counts as not failing (its feature is kept)."""
    memo: dict[str, bool] = {}

    def failing(x) -> bool:
        key = repr(x)
        if key not in memo:
            if len(memo) >= budget:
                return False
            memo[key] = bool(fails(x))
        return memo[key]

    def shrink(x, first: int | None):
        options = simpler(x)
        if first is not None:
            if first >= len(options) or not failing(options[first][1]):
                return None  # that feature is needed: no other cause begins there
            x = options[first][1]
        while True:
            for _name, y in simpler(x):
                if failing(y):
                    x = y
                    break
            else:
                return x

    found: list = []
    for first in [None, *range(len(simpler(example)))]:
        m = shrink(example, first)
        if m is not None and all(repr(m) != repr(f) for f in found):
            found.append(m)
    return [(m, [name for name, _ in simpler(m)]) for m in found]


def causes(reduced: list[tuple[object, list[str]]], show) -> str:
    """The reduced forms of :func:`reduce` in words: ``show(form)`` for each, and what it needs."""
    parts = []
    for form, needs in reduced:
        why = " + ".join(needs) if needs else "its plainest form, no generated feature"
        parts.append(f"{show(form)} (needs: {why})")
    if len(parts) == 1:
        return "smallest failing form: " + parts[0]
    return f"{len(parts)} separate causes, each in its smallest failing form: " + "; ".join(
        f"({i}) {p}" for i, p in enumerate(parts, 1))
