"""The adp document-role suite as a function: which clauses does a given Agent Metadata object,
Discovery Request, Discovery Response or error object break?

See :mod:`conformance.oracle` (one oracle for every draft); this module binds it to adp.
"""

from __future__ import annotations

from conformance.oracle import DocumentOracle

_ORACLE = DocumentOracle("adp")
judge = _ORACLE.judge
failing = _ORACLE.failing
explain = _ORACLE.explain
document_tests = _ORACLE.document_tests
