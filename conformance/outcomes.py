"""How a clause test reports its verdict.

A test is bound to exactly one clause with :func:`clause`. It passes by returning; it says
what it observed when the clause is violated with :func:`violation`; it says the clause does
not apply to this target (a feature the target does not claim) with :func:`not_applicable`;
and it says the clause could not be checked because a prerequisite failed with
:func:`untestable`. The plugin keeps these apart in the report: an untestable MUST is never
counted as a pass.
"""

from __future__ import annotations

from typing import Callable, NoReturn, TypeVar

import pytest

F = TypeVar("F", bound=Callable)

#: The outcomes a clause can have in a report.
OUTCOMES = ("pass", "fail", "not-applicable", "untestable", "error")


def clause(clause_id: str) -> Callable[[F], F]:
    """Bind a test to the catalog entry ``clause_id`` (exactly one per test)."""

    def mark(fn: F) -> F:
        if any(m.name == "clause" for m in getattr(fn, "pytestmark", [])):
            raise TypeError(f"{fn.__name__} is bound to more than one clause")
        return pytest.mark.clause(clause_id)(fn)

    return mark


class ClauseViolation(AssertionError):
    """The target violates the clause; the message says what was observed."""


class NotApplicable(pytest.skip.Exception):  # type: ignore[misc,name-defined]
    """The clause speaks of a feature this target does not have (e.g. no /ai alias)."""


class Untestable(pytest.skip.Exception):  # type: ignore[misc,name-defined]
    """The clause could not be checked because something it depends on failed."""


def violation(observed: str) -> NoReturn:
    """Fail the bound clause, saying what was observed (never what was expected: the
    report quotes the clause for that)."""
    __tracebackhide__ = True
    raise ClauseViolation(observed)


def not_applicable(reason: str) -> NoReturn:
    __tracebackhide__ = True
    raise NotApplicable(msg=f"not applicable: {reason}", pytrace=False)


def untestable(reason: str) -> NoReturn:
    __tracebackhide__ = True
    raise Untestable(msg=f"untestable: {reason}", pytrace=False)


def each_case(cases, check) -> None:
    """Judge every case of a clause's space (a family of scenarios, inputs or requests) with
    ``check`` and fail with every case that violates it. A case whose prerequisite failed is
    left out; the clause is *untestable* when no case could be judged (never a pass for a
    space nobody looked at)."""
    __tracebackhide__ = True
    failures: list[str] = []
    skipped: list[str] = []
    judged = 0
    for case in cases:
        try:
            check(case)
        except ClauseViolation as exc:
            failures.append(str(exc))
        except Untestable as exc:
            skipped.append(str(exc.msg).removeprefix("untestable: "))
            continue
        judged += 1
    if failures:
        violation(f"{len(failures)} of {judged} cases: " + "; ".join(failures) if judged > 1 else failures[0])
    if not judged:
        untestable(skipped[0] if skipped else "no case of the clause's space could be built")
