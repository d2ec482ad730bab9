"""How a clause test reports its verdict.

A test is bound to exactly one clause with :func:`clause`. It passes by returning; it says
what it observed when the clause is violated with :func:`violation`; it says the clause does
not apply to this target (a feature the target does not claim) with :func:`not_applicable`;
and it says the clause could not be checked because a prerequisite failed with
:func:`untestable`. The plugin keeps these apart in the report: an untestable MUST is never
counted as a pass.
"""

from __future__ import annotations

from collections import Counter
from contextvars import ContextVar
from typing import Any, Callable, Iterable, NoReturn, TypeVar

import pytest

F = TypeVar("F", bound=Callable)

#: The outcomes a clause can have in a report.
OUTCOMES = ("pass", "fail", "not-applicable", "untestable", "error")


def clause(clause_id: str, *, judges_rate_limits: bool = False) -> Callable[[F], F]:
    """Bind a test to the catalog entry ``clause_id`` (exactly one per test).

    ``judges_rate_limits``: the clause speaks of rate limiting (a 429, its fields), so a 429 the
    target answered is what it judges. Every other clause that failed on a 429 answered to the
    kit's requests could not be judged (:data:`RATE_LIMITED`, applied by the plugin)."""

    def mark(fn: F) -> F:
        if any(m.name == "clause" for m in getattr(fn, "pytestmark", [])):
            raise TypeError(f"{fn.__name__} is bound to more than one clause")
        kwargs = {"judges_rate_limits": True} if judges_rate_limits else {}
        return pytest.mark.clause(clause_id, **kwargs)(fn)

    return mark


#: Begins the message of a clause whose failure rests on a 429 (Too Many Requests) the target
#: answered to the kit's own requests: a refusal the kit caused by how much it asked, so the kit
#: could not judge (``untestable_reason = rate-limited``), never failed.
RATE_LIMITED = "rate-limited by the target: "

#: Is in the message of a clause the run's request budget (``--invoke-budget``,
#: ``--request-budget``) left unchecked: the kit's own limit, so ``untestable_reason = budget``
#: (raise the budget to judge it), never failed.
BUDGET_SPENT = "the run's budget of requests that make the target work"


class ClauseViolation(AssertionError):
    """The target violates the clause; the message says what was observed.

    ``readings`` are the ids of the draft's ambiguities (``profiles/DRAFT/ambiguities*.toml``)
    whose reading this conclusion rests on; the reports print those readings beside the failure.
    ``evidence`` is the report evidence of the failing case(s) when the test could tell it apart
    from the rest of its exchanges (:func:`each_case` does); None means the test cannot tell,
    and the report shows every exchange of the test."""

    def __init__(self, observed: str = "", readings: Iterable[str] = (),
                 evidence: list[dict[str, Any]] | None = None) -> None:
        super().__init__(observed)
        self.readings = tuple(dict.fromkeys(readings))
        self.evidence = evidence


class NotApplicable(pytest.skip.Exception):  # type: ignore[misc,name-defined]
    """The clause speaks of a feature this target does not have (e.g. no /ai alias)."""


class Untestable(pytest.skip.Exception):  # type: ignore[misc,name-defined]
    """The clause could not be checked because something it depends on failed."""


def violation(observed: str, *, readings: Iterable[str] = ()) -> NoReturn:
    """Fail the bound clause, saying what was observed (never what was expected: the
    report quotes the clause for that). ``readings`` names the ambiguities of the draft whose
    reading the kit applied to reach this conclusion (``readings=("AMB-30",)``): the reports
    print those readings beside the failure, and no other (a failure that names none shows only
    the readings its message names by id)."""
    __tracebackhide__ = True
    raise ClauseViolation(observed, readings=readings)


def not_applicable(reason: str) -> NoReturn:
    __tracebackhide__ = True
    raise NotApplicable(msg=f"not applicable: {reason}", pytrace=False)


def untestable(reason: str) -> NoReturn:
    __tracebackhide__ = True
    raise Untestable(msg=f"untestable: {reason}", pytrace=False)


class NotJudged(Exception):
    """The kit cannot judge the target as the user described it (a level claimed with
    ``--level`` but not found where the kit looks): the run ends without a verdict, exit 2."""


def not_judged(reason: str) -> NoReturn:
    """End the clause, and the run's verdict, with ``reason``: the one line the user reads, with
    the fix. It is an operator's mistake found only by asking the target, never a failure of it."""
    __tracebackhide__ = True
    raise NotJudged(reason)


#: Begins the message of a clause that saw what a choice the draft leaves to the target looks
#: like (a local policy, a documented behaviour: [declarations] of a profile) while the run did not
#: declare it: the kit cannot see the choice, so it could not judge (``untestable_reason =
#: undeclared``); never failed, never passed.
UNDECLARED = "undeclared choice: "


def undeclared_choice(reason: str) -> NoReturn:
    """*untestable*: the target did what the draft allows only under a choice the kit cannot see
    (``reason`` says what was seen, and names the ``--declare`` that states the choice)."""
    __tracebackhide__ = True
    raise Untestable(msg=f"untestable: {UNDECLARED}{reason}", pytrace=False)


#: Begins the message of a clause the world the user chose for the run cannot show (``--world
#: respx`` has no TLS): the run was narrowed, as by ``--clause``; nothing is said of the target.
NARROWED = "not checkable in the world this run chose: "


def outside_world(reason: str) -> NoReturn:
    """*untestable* because the run's world (an option the user chose) cannot show what the
    clause speaks of: the run is partial, naming the clause, and the clause counts neither for
    nor against the target (``untestable_reason = narrowed``)."""
    __tracebackhide__ = True
    raise Untestable(msg=f"untestable: {NARROWED}{reason}", pytrace=False)


#: Set by the plugin while a clause test runs: returns the test's evidence so far, as report
#: evidence (dicts). :func:`each_case` asks it before and after each case, so that a failure
#: shows the exchanges of the cases that failed, not those of the cases that passed.
EVIDENCE_PROBE: ContextVar[Callable[[], list[dict[str, Any]]] | None] = ContextVar("adck_evidence_probe",
                                                                                   default=None)


def _key(item: dict[str, Any]) -> str:
    import json

    return json.dumps(item, sort_keys=True, default=str)


def _probe() -> list[dict[str, Any]] | None:
    probe = EVIDENCE_PROBE.get()
    if probe is None:
        return None
    try:
        return list(probe())
    except Exception:  # noqa: BLE001 - evidence is shown, never judged: a failure here only loses precision
        return None


def _new_items(before: list[dict[str, Any]] | None, after: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """The evidence that appeared between two probes (a multiset difference: the same request
    sent again is new again); None when that cannot be told (no probe, nothing new, or nothing
    the same as before though there was something: items not rendered alike twice)."""
    if before is None or after is None:
        return None
    left = Counter(_key(x) for x in before)
    new = []
    for item in after:
        k = _key(item)
        if left[k]:
            left[k] -= 1
        else:
            new.append(item)
    if not new or (before and len(new) == len(after)):
        return None
    return new


def each_case(cases, check) -> None:
    """Judge every case of a clause's space (a family of scenarios, inputs or requests) with
    ``check`` and fail with every case that violates it. A case whose prerequisite failed is
    left out; the clause is *untestable* when no case could be judged (never a pass for a
    space nobody looked at).

    The failure carries the readings its failing cases named, and as its evidence the exchanges
    made while the failing cases were judged (never those of a case that passed); when a failing
    case made none of its own (it judged what an earlier test fetched), the report falls back to
    every exchange of the test."""
    __tracebackhide__ = True
    failures: list[str] = []
    skipped: list[str] = []
    readings: list[str] = []
    evidence: list[dict[str, Any]] | None = []
    judged = 0
    before = _probe()
    for case in cases:
        try:
            check(case)
        except ClauseViolation as exc:
            failures.append(str(exc))
            readings.extend(exc.readings)
            after = _probe()
            mine = exc.evidence if exc.evidence else _new_items(before, after)
            if mine is None or evidence is None:
                evidence = None
            else:
                shown = {_key(e) for e in evidence}
                evidence += [x for x in mine if _key(x) not in shown]
            before = after
        except Untestable as exc:
            skipped.append(str(exc.msg).removeprefix("untestable: "))
            before = _probe()
            continue
        else:
            before = _probe()
        judged += 1
    if failures:
        raise ClauseViolation(f"{len(failures)} of {judged} cases: " + "; ".join(failures) if judged > 1 else failures[0],
                              readings=readings, evidence=evidence or None)
    if not judged:
        untestable(skipped[0] if skipped else "no case of the clause's space could be built")
