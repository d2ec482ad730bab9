"""§23.1 Discovery Version."""

from __future__ import annotations

from conformance.aidre._kinds import only
from conformance.document import Document, kind_name
from conformance.outcomes import clause, untestable, violation


@clause("AIDRE-23.1-01")
def test_23_1_version_member(document: Document) -> None:
    """The discovery document MUST contain a version member."""
    if document.unreadable:
        untestable(f"{document.unreadable} (see AIDRE-14.2-01)")
    if document.too_deep:
        untestable(f"{document.parse_error}; the kit cannot tell whether it holds a version member")
    if document.parse_error:
        violation(f"the document is not JSON, so it contains no version member: {document.parse_error}")
    only(document, "discovery")
    value = document.value()
    if not isinstance(value, dict):
        violation(f"the document is a JSON {kind_name(value)}, not an object with members")
    if "version" not in value:
        near = [k for k in value if k.strip().lower() == "version"]
        hint = f" (it has {', '.join(map(repr, near))}: member names are case-sensitive, AMB-23)" if near else ""
        violation(f"the top-level object has no version member{hint}")
