"""The aidre document-role suite as a function: which clauses does a given discovery document break?

See :mod:`conformance.oracle` (one oracle for every draft); this module binds it to aidre.
"""

from __future__ import annotations

from conformance.oracle import DocumentOracle

_ORACLE = DocumentOracle("aidre")
judge = _ORACLE.judge
failing = _ORACLE.failing
explain = _ORACLE.explain
document_tests = _ORACLE.document_tests
