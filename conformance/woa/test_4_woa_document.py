"""§4 The WoA Document: one JSON object with woa_version, agents and transports."""

from __future__ import annotations

from conformance.document import Document, kind_name
from conformance.outcomes import clause, untestable, violation


@clause("WOA-4-01")
def test_4_document_is_one_json_object(document: Document) -> None:
    """A WoA document is a single JSON object with the following top level fields:"""
    if document.unreadable or document.parse_error:
        untestable(f"{document.unreadable or document.parse_error} (see WOA-9.2-02)")
    value = document.value()
    if not isinstance(value, dict):
        violation(f"the document is a JSON {kind_name(value)}, not an object")


@clause("WOA-4-02")
def test_4_woa_version_is_a_string(document: Document) -> None:
    """woa_version: A string identifying the WoA document version."""
    top = document.top()
    if "woa_version" not in top:
        violation("the document has no woa_version")
    if not isinstance(top["woa_version"], str):
        violation(f"woa_version is {top['woa_version']!r}, a JSON {kind_name(top['woa_version'])}, not a string")


@clause("WOA-4-03")
def test_4_woa_version_is_1(document: Document) -> None:
    """For this specification the value MUST be the string "1"."""
    version = document.member("woa_version", kind=str)
    if version != "1":
        violation(f"woa_version is {version!r}, not \"1\"")


@clause("WOA-4-04")
def test_4_agents_is_an_array(document: Document) -> None:
    """agents: An array of agent objects as defined in Section 4.1."""
    top = document.top()
    if "agents" not in top:
        violation("the document has no agents")
    if not isinstance(top["agents"], list):
        violation(f"agents is a JSON {kind_name(top['agents'])}, not an array")


@clause("WOA-4-05")
def test_4_transports_is_an_object_of_objects(document: Document) -> None:
    """transports: An object whose keys are transport names and whose values are transport
    configuration objects as defined in Section 4.3."""
    top = document.top()
    if "transports" not in top:
        violation("the document has no transports")
    value = top["transports"]
    if not isinstance(value, dict):
        violation(f"transports is a JSON {kind_name(value)}, not an object")
    bad = [f"transports[{name!r}] is a JSON {kind_name(v)}" for name, v in value.items() if not isinstance(v, dict)]
    if bad:
        violation("transport configurations that are not objects: " + "; ".join(bad[:5]))
