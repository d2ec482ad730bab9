"""The woa document-role suite as a function: which clauses does a given WoA document break?

See :mod:`conformance.oracle` (one oracle for every draft); this module binds it to woa.
"""

from __future__ import annotations

from conformance.oracle import DocumentOracle

_ORACLE = DocumentOracle("woa")
judge = _ORACLE.judge
failing = _ORACLE.failing
explain = _ORACLE.explain
document_tests = _ORACLE.document_tests
