"""§23.3 Extension Members."""

from __future__ import annotations

from conformance.aidre._kinds import only
from conformance.aidre._spaces import spaces
from conformance.document import Document
from conformance.outcomes import NotApplicable, Untestable, clause, not_applicable, untestable

#: Members the draft's text or examples name in a discovery document (3.4, 19.1, 23.1, 24.1).
NAMED_TOP = {"version", "service", "organization", "endpoints", "capabilities", "embedding_spaces", "auth"}
NAMED_SPACE = {"id", "dimensions", "distance", "normalized", "provider", "model", "revision"}


@clause("AIDRE-23.3-01")
def test_23_3_extension_members_allowed(document: Document) -> None:
    """Deployments MAY define extension members."""
    if document.unreadable:
        untestable(f"{document.unreadable} (see AIDRE-14.2-01)")
    if document.parse_error or not isinstance(document.value(), dict):
        untestable("the document is not a JSON object (see AIDRE-23.1-01)")
    only(document, "discovery")
    found = [k for k in document.top() if k not in NAMED_TOP]
    try:
        found += [f"embedding_spaces[{i}].{k}" for i, s in spaces(document) if isinstance(s, dict)
                  for k in s if k not in NAMED_SPACE]
    except (NotApplicable, Untestable):
        pass
    if not found:
        not_applicable("the document has no member beyond those the draft's text and examples name")
    # members the draft does not name are never failed for it (AMB-09): the permission is used

