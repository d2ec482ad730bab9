"""§5.1 Discovery Request Fields, judged on a Discovery Request on its own (AMB-26)."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document
from conformance.outcomes import clause, not_applicable, violation


@clause("ADP-5.1-01")
def test_5_1_request_is_a_single_json_object(document: Document) -> None:
    """A Discovery Request asks a discovery service to return candidate agents. It MUST be a
    single JSON object unless another serialization is explicitly selected by a binding profile
    that preserves the data model defined in this document."""
    _checks.single_json_object(document, "request")


@clause("ADP-5.1-02")
def test_5_1_query_is_a_string(document: Document) -> None:
    """| query | string | MUST | Natural-language intent or task description |"""
    _checks.present(_checks.request(document), "query", "string")


@clause("ADP-5.1-04")
def test_5_1_required_tags_type(document: Document) -> None:
    """| required_tags | array of string |"""
    _checks.typed(_checks.request(document), "required_tags", "array of string")


@clause("ADP-5.1-06")
def test_5_1_preferred_tags_type(document: Document) -> None:
    """| preferred_tags | array of string |"""
    _checks.typed(_checks.request(document), "preferred_tags", "array of string")


@clause("ADP-5.1-08")
def test_5_1_excluded_tags_type(document: Document) -> None:
    """| excluded_tags | array of string |"""
    _checks.typed(_checks.request(document), "excluded_tags", "array of string")


@clause("ADP-5.1-10")
def test_5_1_protocols_type(document: Document) -> None:
    """| protocols | array of string |"""
    _checks.typed(_checks.request(document), "protocols", "array of string")


@clause("ADP-5.1-12")
def test_5_1_constraints_type(document: Document) -> None:
    """| constraints | object |"""
    _checks.typed(_checks.request(document), "constraints", "object")


@clause("ADP-5.1-14")
def test_5_1_limit_type(document: Document) -> None:
    """| limit | integer |"""
    _checks.typed(_checks.request(document), "limit", "integer")


@clause("ADP-5.1-16")
def test_5_1_include_evidence_type(document: Document) -> None:
    """| include_evidence | boolean |"""
    _checks.typed(_checks.request(document), "include_evidence", "boolean")


DETAIL = ("minimal", "summary", "full")


@clause("ADP-5.1-18")
def test_5_1_detail_is_minimal_summary_or_full(document: Document) -> None:
    """minimal, summary, or full response detail"""
    value = _checks.top(document, "request")
    if "detail" not in value:
        not_applicable("the request has no detail (optional)")
    _checks.typed(_checks.request(document), "detail", "string")
    if value["detail"] not in DETAIL:
        violation(f"detail is {_checks.quote(value['detail'])}, not one of minimal, summary, full (AMB-16)")


@clause("ADP-5.1-20")
def test_5_1_client_context_type(document: Document) -> None:
    """| client_context | object |"""
    _checks.typed(_checks.request(document), "client_context", "object")
