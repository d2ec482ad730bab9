"""A draft's document-role suite as a function: which clauses does a given document break?

The suite's tests are pytest functions; a property test (and, later, the agent role, which
must know whether a client should accept a generated document) needs their verdict on
thousands of documents without a pytest session for each. :func:`judge` calls every test
bound to a document-role clause directly and reads its outcome the way the suite defines it
(:mod:`conformance.outcomes`): return is *pass*, :class:`ClauseViolation` is *fail*,
:class:`NotApplicable` and :class:`Untestable` are themselves.

The oracle is stricter than the report plugin on purpose: a test that ends any other way (a
bare ``assert``, a bare ``pytest.skip``, a ``KeyError``) is a bug of the kit, and the error
propagates instead of being read as a verdict on the document.
"""

from __future__ import annotations

import importlib
import inspect
from functools import cache
from typing import Any, Callable, Literal

import pytest

from conformance import catalog
from conformance.document import Document
from conformance.outcomes import ClauseViolation, NotApplicable, Untestable

ROLE = "document"

Outcome = Literal["pass", "fail", "not-applicable", "untestable"]
DocumentTest = Callable[[Document], None]

#: Fixtures of a server under test: a document-role test taking one of these judges the
#: documents a server answers (AIDRE's search responses), not a document on its own.
_SERVED = frozenset({"server"})

#: When several tests check one clause, the clause takes the worst outcome (as reports do).
_PRECEDENCE: tuple[Outcome, ...] = ("fail", "untestable", "pass", "not-applicable")


@cache
def document_tests(draft: str) -> dict[str, tuple[DocumentTest, ...]]:
    """Clause id -> the suite's test functions bound to it, for every document-role clause.

    Read from the suite itself (:func:`catalog.suite_bindings`), so a test added to the
    suite is judged without touching the oracle.
    """
    from conformance import revisions

    # the document clauses of the revision the suite judges by default (``DRAFT`` without @)
    profile = revisions.profile_of(draft, revisions.judged(draft).name)
    tests: dict[str, tuple[DocumentTest, ...]] = {}
    for clause_id, names in catalog.suite_bindings(profile.suite).items():
        if clause_id not in profile.clauses or profile.clause(clause_id).role != ROLE:
            continue  # a sentence of another revision (the document's are the same in all today)
        functions = []
        for name in names:
            module_name, function_name = name.split("::")
            function = getattr(importlib.import_module(f"{profile.suite}.{module_name}"), function_name)
            parameters = list(inspect.signature(function).parameters)
            if parameters == ["document"]:
                functions.append(function)
            elif "document" in parameters or not set(parameters) & _SERVED:
                raise TypeError(f"{name} checks a document-role clause but does not take exactly (document)")
            # else: it judges a document a live server answers (a search response): not a file's test
        if functions:
            tests[clause_id] = tuple(functions)
    return tests


def _outcome(test: DocumentTest, document: Document) -> Outcome:
    try:
        test(document)
    except ClauseViolation:
        return "fail"
    except NotApplicable:
        return "not-applicable"
    except Untestable:
        return "untestable"
    except pytest.skip.Exception as exc:
        # a BaseException: left alone it would silently skip the caller's test
        raise RuntimeError(f"{test.__name__} skipped without saying not-applicable or untestable: {exc}") from exc
    return "pass"


def as_document(doc: Any) -> Document:
    """A :class:`Document` from raw bytes (taken as they are, encoding included), from a
    Document, or from any other JSON value (serialized as UTF-8 JSON)."""
    if isinstance(doc, Document):
        return doc
    if isinstance(doc, (bytes, bytearray)):
        return Document(raw=bytes(doc), source="<bytes>")
    return Document.from_value(doc)


def judge(draft: str, doc: Any) -> dict[str, Outcome]:
    """Clause id -> outcome of every document-role clause of ``draft`` its suite tests, for
    ``doc`` (a JSON value, raw bytes, or a :class:`Document`). Unexpected exceptions propagate:
    they are kit bugs."""
    document = as_document(doc)
    verdict: dict[str, Outcome] = {}
    for clause_id, tests in document_tests(draft).items():
        outcomes = [_outcome(test, document) for test in tests]
        verdict[clause_id] = min(outcomes, key=_PRECEDENCE.index)
    return verdict


def failing(draft: str, doc: Any) -> set[str]:
    """The clauses ``doc`` fails (MUST and SHOULD alike; the catalog tells them apart)."""
    return {clause_id for clause_id, outcome in judge(draft, doc).items() if outcome == "fail"}


def explain(draft: str, doc: Any) -> str:
    """The clauses ``doc`` fails or leaves untestable, one ``id=outcome`` each (for assertion messages)."""
    return ", ".join(f"{c}={o}" for c, o in sorted(judge(draft, doc).items()) if o in ("fail", "untestable"))


class DocumentOracle:
    """The oracle of one draft: ``judge(doc)`` and ``failing(doc)`` without naming the draft."""

    def __init__(self, draft: str) -> None:
        self.draft = draft

    def judge(self, doc: Any) -> dict[str, Outcome]:
        return judge(self.draft, doc)

    def failing(self, doc: Any) -> set[str]:
        return failing(self.draft, doc)

    def explain(self, doc: Any) -> str:
        return explain(self.draft, doc)

    def document_tests(self) -> dict[str, tuple[DocumentTest, ...]]:
        return document_tests(self.draft)
