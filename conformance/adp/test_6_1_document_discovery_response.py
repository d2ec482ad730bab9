"""§6.1 Discovery Response Fields, judged on a Discovery Response on its own (AMB-26)."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document
from conformance.outcomes import clause


@clause("ADP-6.1-01")
def test_6_1_response_is_a_single_json_object(document: Document) -> None:
    """A Discovery Response contains ranked candidates. It MUST be a single JSON object unless
    another serialization is explicitly selected by a binding profile that preserves the data
    model defined in this document."""
    _checks.single_json_object(document, "response")


@clause("ADP-6.1-02")
def test_6_1_request_id_present(document: Document) -> None:
    """| request_id | string | SHOULD | Identifier for tracing the request |"""
    _checks.present(_checks.response(document), "request_id")


@clause("ADP-6.1-03")
def test_6_1_request_id_type(document: Document) -> None:
    """| request_id | string |"""
    _checks.typed(_checks.response(document), "request_id", "string")


@clause("ADP-6.1-04")
def test_6_1_candidates_is_an_array_of_objects(document: Document) -> None:
    """| candidates | array of object | MUST | Ranked candidate agents |"""
    _checks.present(_checks.response(document), "candidates", "array of object")


@clause("ADP-6.1-05")
def test_6_1_applied_filters_present(document: Document) -> None:
    """| applied_filters | object | SHOULD | Filters applied by the discovery service |"""
    _checks.present(_checks.response(document), "applied_filters")


@clause("ADP-6.1-06")
def test_6_1_applied_filters_type(document: Document) -> None:
    """| applied_filters | object |"""
    _checks.typed(_checks.response(document), "applied_filters", "object")


@clause("ADP-6.1-08")
def test_6_1_unsupported_filters_type(document: Document) -> None:
    """| unsupported_filters | array of string |"""
    _checks.typed(_checks.response(document), "unsupported_filters", "array of string")


@clause("ADP-6.1-10")
def test_6_1_warnings_type(document: Document) -> None:
    """| warnings | array of string |"""
    _checks.typed(_checks.response(document), "warnings", "array of string")


@clause("ADP-6.1-11")
def test_6_1_generated_at_present(document: Document) -> None:
    """| generated_at | string | SHOULD | Response generation timestamp |"""
    _checks.present(_checks.response(document), "generated_at")


@clause("ADP-6.1-12")
def test_6_1_generated_at_type(document: Document) -> None:
    """| generated_at | string |"""
    _checks.typed(_checks.response(document), "generated_at", "string")
