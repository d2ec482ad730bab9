"""§3.3 Conformance Levels, judged on an Agent Metadata object on its own: the D0 row."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document, kind_name
from conformance.outcomes import clause, untestable, violation


@clause("ADP-3.3-01")
def test_3_3_d0_metadata_has_id_name_description_and_a_binding(document: Document) -> None:
    """| D0 | Metadata | Publish Agent Metadata with id, name, description, and at least one
    bindings entry. |"""
    value = _checks.top(document, "metadata")
    problems = [f"no {m}" for m in ("id", "name", "description", "bindings") if m not in value]
    bindings = value.get("bindings")
    if "bindings" in value and not isinstance(bindings, list):
        if problems:
            violation(f"the Agent Metadata object has {', '.join(problems)}")
        untestable(f"bindings is a JSON {kind_name(bindings)}, not an array (see ADP-4.1-09)")
    if bindings == []:
        problems.append("an empty bindings array (the D0 level asks for at least one entry, AMB-06)")
    if problems:
        violation(f"the Agent Metadata object has {', '.join(problems)} (members: {', '.join(sorted(value)[:10])})")
