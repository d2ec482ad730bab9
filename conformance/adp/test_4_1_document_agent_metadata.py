"""§4.1 Agent Metadata Fields: one JSON object, the field table's members (presence at the
Requirement column's level, type from the Type column, AMB-04), case-sensitive names."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.adp._kinds import BINDING_FIELDS, EXAMPLE_FIELDS, METADATA_FIELDS
from conformance.document import Document
from conformance.outcomes import clause, violation


@clause("ADP-4.1-01")
def test_4_1_metadata_is_a_single_json_object(document: Document) -> None:
    """An Agent Metadata object describes an agent for discovery. It MUST be a single JSON
    object unless another serialization is explicitly selected by a binding profile that
    preserves the data model defined in this document."""
    _checks.single_json_object(document, "metadata")


@clause("ADP-4.1-02")
def test_4_1_id_is_a_string(document: Document) -> None:
    """| id | string | MUST | Stable identifier of the agent |"""
    _checks.present(_checks.metadata(document), "id", "string")


@clause("ADP-4.1-03")
def test_4_1_name_is_a_string(document: Document) -> None:
    """| name | string | MUST | Human-readable name |"""
    _checks.present(_checks.metadata(document), "name", "string")


@clause("ADP-4.1-04")
def test_4_1_description_is_a_string(document: Document) -> None:
    """| description | string | MUST | Natural-language context description |"""
    _checks.present(_checks.metadata(document), "description", "string")


@clause("ADP-4.1-05")
def test_4_1_tags_present(document: Document) -> None:
    """| tags | array of string | SHOULD | Normalized capability tags |"""
    _checks.present(_checks.metadata(document), "tags")


@clause("ADP-4.1-06")
def test_4_1_tags_type(document: Document) -> None:
    """| tags | array of string |"""
    _checks.typed(_checks.metadata(document), "tags", "array of string")


@clause("ADP-4.1-07")
def test_4_1_examples_present(document: Document) -> None:
    """| examples | array of object | SHOULD | Example tasks or request patterns |"""
    _checks.present(_checks.metadata(document), "examples")


@clause("ADP-4.1-08")
def test_4_1_examples_type(document: Document) -> None:
    """| examples | array of object |"""
    _checks.typed(_checks.metadata(document), "examples", "array of object")


@clause("ADP-4.1-09")
def test_4_1_bindings_is_an_array_of_objects(document: Document) -> None:
    """| bindings | array of object | MUST | Protocol and endpoint bindings |"""
    _checks.present(_checks.metadata(document), "bindings", "array of object")


@clause("ADP-4.1-10")
def test_4_1_auth_present(document: Document) -> None:
    """| auth | object | SHOULD | Authentication requirements |"""
    _checks.present(_checks.metadata(document), "auth")


@clause("ADP-4.1-11")
def test_4_1_auth_type(document: Document) -> None:
    """| auth | object |"""
    _checks.typed(_checks.metadata(document), "auth", "object")


@clause("ADP-4.1-13")
def test_4_1_constraints_type(document: Document) -> None:
    """| constraints | object |"""
    _checks.typed(_checks.metadata(document), "constraints", "object")


@clause("ADP-4.1-14")
def test_4_1_status_present(document: Document) -> None:
    """| status | string | SHOULD | Operational status |"""
    _checks.present(_checks.metadata(document), "status")


@clause("ADP-4.1-15")
def test_4_1_status_type(document: Document) -> None:
    """| status | string |"""
    _checks.typed(_checks.metadata(document), "status", "string")


@clause("ADP-4.1-17")
def test_4_1_expires_at_type(document: Document) -> None:
    """| expires_at | string |"""
    _checks.typed(_checks.metadata(document), "expires_at", "string")


@clause("ADP-4.1-18")
def test_4_1_version_present(document: Document) -> None:
    """| version | string | SHOULD | Metadata version or capability version |"""
    _checks.present(_checks.metadata(document), "version")


@clause("ADP-4.1-19")
def test_4_1_version_type(document: Document) -> None:
    """| version | string |"""
    _checks.typed(_checks.metadata(document), "version", "string")


@clause("ADP-4.1-20")
def test_4_1_updated_at_present(document: Document) -> None:
    """| updated_at | string | SHOULD | Timestamp for freshness checks |"""
    _checks.present(_checks.metadata(document), "updated_at")


@clause("ADP-4.1-21")
def test_4_1_updated_at_type(document: Document) -> None:
    """| updated_at | string |"""
    _checks.typed(_checks.metadata(document), "updated_at", "string")


@clause("ADP-4.1-23")
def test_4_1_signature_type(document: Document) -> None:
    """| signature | object |"""
    _checks.typed(_checks.metadata(document), "signature", "object")


def _case_variants(where: str, obj: dict, defined: tuple[str, ...]) -> list[str]:
    """Members spelled like a field of ``defined`` in another case where that field itself is
    absent: the object relies on a case-insensitive reading of the name (AMB-28). Beside the
    field, such a member is only an unknown member, which the draft lets any object hold."""
    folded = {name.casefold(): name for name in defined}
    return [f"{where} has {key!r} and no {folded[key.casefold()]!r}" for key in obj
            if key not in defined and key.casefold() in folded and folded[key.casefold()] not in obj]


@clause("ADP-4.1-24")
def test_4_1_field_names_are_case_sensitive(document: Document) -> None:
    """Field names are case-sensitive.: a member of the metadata, a binding or an example
    spelled like a defined field in another case, where the field itself is absent, stands for
    it only under a case-insensitive reading (AMB-28); beside the field it is an unknown member,
    which the draft allows."""
    value = _checks.top(document, "metadata")
    found = _case_variants("the Agent Metadata object", value, METADATA_FIELDS)
    for member, fields in (("examples", EXAMPLE_FIELDS), ("bindings", BINDING_FIELDS)):
        if isinstance(value.get(member), list):
            for i, obj in enumerate(value[member]):
                if isinstance(obj, dict):
                    found += _case_variants(f"{member}[{i}]", obj, fields)
    if found:
        violation("members spelled in another case than the field they stand for, which is absent (AMB-28): "
                  + "; ".join(found[:5]), readings=("AMB-28",))
