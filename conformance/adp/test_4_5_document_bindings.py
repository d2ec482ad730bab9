"""§4.5 Bindings: the binding object table (AMB-04), on each binding of an Agent Metadata object."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document
from conformance.outcomes import clause


@clause("ADP-4.5-01")
def test_4_5_binding_protocol_is_a_string(document: Document) -> None:
    """| protocol | string | MUST | Protocol identifier defined by the selected binding profile, such as https |"""
    _checks.present(_checks.bindings(document), "protocol", "string")


@clause("ADP-4.5-02")
def test_4_5_binding_endpoint_is_a_string(document: Document) -> None:
    """| endpoint | string | MUST | Endpoint reference or URI |"""
    _checks.present(_checks.bindings(document), "endpoint", "string")


@clause("ADP-4.5-04")
def test_4_5_binding_media_types_type(document: Document) -> None:
    """| media_types | array of string |"""
    _checks.typed(_checks.bindings(document), "media_types", "array of string")


@clause("ADP-4.5-06")
def test_4_5_binding_interaction_model_type(document: Document) -> None:
    """| interaction_model | string |"""
    _checks.typed(_checks.bindings(document), "interaction_model", "string")


@clause("ADP-4.5-08")
def test_4_5_binding_priority_type(document: Document) -> None:
    """| priority | integer |"""
    _checks.typed(_checks.bindings(document), "priority", "integer")
