"""Judge an AID TXT record, or a manifest, with the suite's own document tests (no DNS, no
HTTP, no pytest run).

Used by the property self-tests (every named break of conformance/aid/strategies.py is run
through it), and by client scenarios to know whether a generated record is one a client
should accept.
"""

from __future__ import annotations

import importlib
import inspect
from functools import cache
from typing import Callable

from conformance import catalog
from conformance.aid.conftest import Manifest, RecordUnderTest
from conformance.outcomes import ClauseViolation, NotApplicable, Untestable

_RANK = ("fail", "untestable", "pass", "not-applicable")


@cache
def record_tests() -> tuple[tuple[str, Callable], ...]:
    """(clause id, test function) of every document-role test that takes only the record."""
    return _tests("record")


@cache
def manifest_tests() -> tuple[tuple[str, Callable], ...]:
    """(clause id, test function) of every document-role test that takes only the manifest."""
    return _tests("manifest")


def _tests(fixture: str) -> tuple[tuple[str, Callable], ...]:
    profile = catalog.load("aid")
    found = []
    for cid, names in catalog.suite_bindings(profile.suite).items():
        if cid not in profile.clauses or profile.clauses[cid].role != "document":
            continue  # a sentence of a later revision (its tests take the published records)
        for name in names:
            module, fn_name = name.split("::")
            fn = getattr(importlib.import_module(f"{profile.suite}.{module}"), fn_name)
            if list(inspect.signature(fn).parameters) == [fixture]:
                found.append((cid, fn))
    return tuple(found)


def judge(strings: list[bytes]) -> dict[str, str]:
    """Clause id -> outcome for a record published as these character-strings."""
    return _judge(record_tests(), RecordUnderTest(strings=list(strings), ttl=None, source="<generated>"))


def judge_manifest(value: object) -> dict[str, str]:
    """Clause id -> outcome for a manifest holding this JSON value."""
    return _judge(manifest_tests(), Manifest.from_value(value))


def _judge(tests: tuple[tuple[str, Callable], ...], target: object) -> dict[str, str]:
    results: dict[str, str] = {}
    for cid, fn in tests:
        try:
            fn(target)
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
