"""The embedding spaces a discovery document advertises (19.1, AMB-10, AMB-25)."""

from __future__ import annotations

from typing import Any

from conformance.aidre._kinds import only
from conformance.document import Document, kind_name
from conformance.outcomes import not_applicable, untestable, violation


def spaces(document: Document) -> list[tuple[int, Any]]:
    """(index, item) of the discovery document's embedding_spaces array.

    No embedding_spaces member, or an empty array: *not-applicable* (the draft requires no
    space). A member of another type than an array: *not-applicable* too, saying so, since the
    draft never says the member is an array and the kit reads spaces from an array only (AMB-25).
    """
    __tracebackhide__ = True
    if document.unreadable:
        untestable(f"{document.unreadable} (see AIDRE-14.2-01)")
    if document.parse_error or not isinstance(document.value(), dict):
        untestable("the document is not a JSON object, so it advertises no member (see AIDRE-23.1-01)")
    only(document, "discovery")
    value = document.member("embedding_spaces", required=False)
    if not isinstance(value, list):
        not_applicable(f"embedding_spaces is a JSON {kind_name(value)}, not an array: the kit reads the "
                       "advertised embedding spaces from an array only (AMB-25)")
    if not value:
        not_applicable("embedding_spaces is an empty array: no embedding space is advertised")
    return list(enumerate(value))


def each_space_includes(document: Document, member: str) -> None:
    """Every advertised embedding space includes ``member`` (presence only: AMB-10)."""
    __tracebackhide__ = True
    items = spaces(document)
    lacking = []
    for i, space in items:
        if not isinstance(space, dict):
            lacking.append(f"embedding_spaces[{i}] is a JSON {kind_name(space)}, which includes no {member}")
        elif member not in space:
            near = [k for k in space if k.lower().replace("-", "_") == member or k.lower() == member]
            hint = f" (it has {', '.join(map(repr, near))}: member names are case-sensitive, AMB-23)" if near else ""
            lacking.append(f"embedding_spaces[{i}] has no {member} member{hint}")
    if lacking:
        violation(f"{len(lacking)} of {len(items)} advertised embedding spaces: " + "; ".join(lacking[:5]))
