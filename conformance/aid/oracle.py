"""Judge an AID TXT record with the suite's own record tests (no DNS, no pytest run).

Used by the property self-tests, and later by client scenarios to know whether a generated
record is one a client should accept.
"""

from __future__ import annotations

import importlib
import inspect
from functools import cache
from typing import Callable

from conformance import catalog
from conformance.aid.conftest import RecordUnderTest
from conformance.outcomes import ClauseViolation, NotApplicable, Untestable

_RANK = ("fail", "untestable", "pass", "not-applicable")


@cache
def record_tests() -> tuple[tuple[str, Callable], ...]:
    """(clause id, test function) of every document-role test that takes only the record."""
    profile = catalog.load("aid")
    found = []
    for cid, names in catalog.suite_bindings(profile.suite).items():
        if profile.clauses[cid].role != "document":
            continue
        for name in names:
            module, fn_name = name.split("::")
            fn = getattr(importlib.import_module(f"{profile.suite}.{module}"), fn_name)
            if list(inspect.signature(fn).parameters) == ["record"]:
                found.append((cid, fn))
    return tuple(found)


def judge(strings: list[bytes]) -> dict[str, str]:
    """Clause id -> outcome for a record published as these character-strings."""
    record = RecordUnderTest(strings=list(strings), ttl=None, source="<generated>")
    results: dict[str, str] = {}
    for cid, fn in record_tests():
        try:
            fn(record)
            outcome = "pass"
        except ClauseViolation:
            outcome = "fail"
        except Untestable:
            outcome = "untestable"
        except NotApplicable:
            outcome = "not-applicable"
        previous = results.get(cid)
        results[cid] = outcome if previous is None else min(previous, outcome, key=_RANK.index)
    return results


def failing(strings: list[bytes]) -> set[str]:
    return {cid for cid, outcome in judge(strings).items() if outcome == "fail"}
