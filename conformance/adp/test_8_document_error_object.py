"""§8 Errors, judged on an error object on its own (AMB-26). The table has no Type column:
presence only (AMB-10)."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document
from conformance.outcomes import clause


@clause("ADP-8-02")
def test_8_error_has_code(document: Document) -> None:
    """| code | MUST | Stable machine-readable error code |"""
    _checks.present(_checks.error(document), "code")


@clause("ADP-8-03")
def test_8_error_has_message(document: Document) -> None:
    """| message | SHOULD | Human-readable explanation |"""
    _checks.present(_checks.error(document), "message")


@clause("ADP-8-04")
def test_8_error_has_correlation_id(document: Document) -> None:
    """| correlation_id | SHOULD | Identifier for tracing and support |"""
    _checks.present(_checks.error(document), "correlation_id")
