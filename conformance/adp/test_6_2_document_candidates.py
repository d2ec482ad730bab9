"""§6.2 Candidate Objects: the candidate table (AMB-04, AMB-05) on each candidate of a Discovery
Response on its own."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document
from conformance.outcomes import clause


@clause("ADP-6.2-02")
def test_6_2_candidate_id_is_a_string(document: Document) -> None:
    """| id | string | MUST | Agent identifier |"""
    _checks.present(_checks.candidates(document), "id", "string")


@clause("ADP-6.2-03")
def test_6_2_candidate_name_present(document: Document) -> None:
    """| name | string | SHOULD | Human-readable name |"""
    _checks.present(_checks.candidates(document), "name")


@clause("ADP-6.2-04")
def test_6_2_candidate_name_type(document: Document) -> None:
    """| name | string |"""
    _checks.typed(_checks.candidates(document), "name", "string")


@clause("ADP-6.2-05")
def test_6_2_candidate_description_present(document: Document) -> None:
    """| description | string | SHOULD | Short description or summary |"""
    _checks.present(_checks.candidates(document), "description")


@clause("ADP-6.2-06")
def test_6_2_candidate_description_type(document: Document) -> None:
    """| description | string |"""
    _checks.typed(_checks.candidates(document), "description", "string")


@clause("ADP-6.2-07")
def test_6_2_candidate_bindings_present(document: Document) -> None:
    """| bindings | array of object | SHOULD | Usable protocol bindings |"""
    _checks.present(_checks.candidates(document), "bindings")


@clause("ADP-6.2-08")
def test_6_2_candidate_bindings_type(document: Document) -> None:
    """| bindings | array of object |"""
    _checks.typed(_checks.candidates(document), "bindings", "array of object")


@clause("ADP-6.2-09")
def test_6_2_candidate_score_present(document: Document) -> None:
    """| score | number | SHOULD | Overall ranking score |"""
    _checks.present(_checks.candidates(document), "score")


@clause("ADP-6.2-10")
def test_6_2_candidate_score_type(document: Document) -> None:
    """| score | number |"""
    _checks.typed(_checks.candidates(document), "score", "number")


@clause("ADP-6.2-12")
def test_6_2_candidate_score_components_type(document: Document) -> None:
    """| score_components | object |"""
    _checks.typed(_checks.candidates(document), "score_components", "object")


@clause("ADP-6.2-14")
def test_6_2_candidate_matched_tags_type(document: Document) -> None:
    """| matched_tags | array of string |"""
    _checks.typed(_checks.candidates(document), "matched_tags", "array of string")


@clause("ADP-6.2-16")
def test_6_2_candidate_matched_examples_type(document: Document) -> None:
    """| matched_examples | array of object |"""
    _checks.typed(_checks.candidates(document), "matched_examples", "array of object")


@clause("ADP-6.2-18")
def test_6_2_candidate_credential_refs_type(document: Document) -> None:
    """| credential_refs | array of string |"""
    _checks.typed(_checks.candidates(document), "credential_refs", "array of string")


@clause("ADP-6.2-20")
def test_6_2_candidate_redacted_type(document: Document) -> None:
    """| redacted | boolean |"""
    _checks.typed(_checks.candidates(document), "redacted", "boolean")


@clause("ADP-6.2-21")
def test_6_2_candidate_status_present(document: Document) -> None:
    """| status | string | SHOULD | Operational status |"""
    _checks.present(_checks.candidates(document), "status")


@clause("ADP-6.2-22")
def test_6_2_candidate_status_type(document: Document) -> None:
    """| status | string |"""
    _checks.typed(_checks.candidates(document), "status", "string")


@clause("ADP-6.2-23")
def test_6_2_candidate_freshness_present(document: Document) -> None:
    """| freshness | object | SHOULD | Index and metadata freshness |"""
    _checks.present(_checks.candidates(document), "freshness")


@clause("ADP-6.2-24")
def test_6_2_candidate_freshness_type(document: Document) -> None:
    """| freshness | object |"""
    _checks.typed(_checks.candidates(document), "freshness", "object")
