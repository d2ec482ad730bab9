"""The aiendpoint document-role suite as a function: which clauses does a given AI Discovery Document break?

See :mod:`conformance.oracle` (one oracle for every draft); this module binds it to aiendpoint.
"""

from __future__ import annotations

from conformance.oracle import DocumentOracle

_ORACLE = DocumentOracle("aiendpoint")
judge = _ORACLE.judge
failing = _ORACLE.failing
explain = _ORACLE.explain
document_tests = _ORACLE.document_tests
