"""§4 Collections: each collection the collections resource lists SHOULD define name,
description, visibility and updated_at (AMB-11: the resource is endpoints.collections)."""

from __future__ import annotations

from typing import Any, Callable

from conformance.aidre._server_fixtures import Answer, Endpoints, collection_list
from conformance.document import kind_name
from conformance.outcomes import clause, not_applicable, untestable, violation


def _collections(endpoints: Endpoints, answer: Answer | None) -> list:
    __tracebackhide__ = True
    if endpoints.collections is None or answer is None:
        not_applicable("the discovery document names no collections resource (endpoints.collections)")
    if not answer.ok:
        untestable(f"the collections resource answered {answer.describe()} (see AIDRE-15.1-01)")
    if answer.foreign_encoding and not collection_list(answer):
        untestable(f"the collections resource answered {answer.describe()}, which the kit cannot read "
                   "(see AIDRE-14.2-01)")
    listed = collection_list(answer)
    if not listed:
        not_applicable("the collections resource lists no collection (AMB-11)")
    return listed


def _each(listed: list, member: str, ok: Callable[[Any], bool], what: str) -> None:
    __tracebackhide__ = True
    lacking = []
    for i, item in enumerate(listed):
        if not isinstance(item, dict):
            lacking.append(f"collection {i} is a JSON {kind_name(item)}, not an object")
        elif member not in item:
            lacking.append(f"collection {i} ({item.get('name', '?')!r}) has no {member}")
        elif not ok(item[member]):
            lacking.append(f"collection {i} ({item.get('name', '?')!r}) has {member} = {item[member]!r}, not {what}")
    if lacking:
        violation(f"{len(lacking)} of {len(listed)} collections: " + "; ".join(lacking[:5]))


@clause("AIDRE-4-02")
def test_4_collection_defines_name(endpoints: Endpoints, collections_answer: Answer | None) -> None:
    """Each collection SHOULD define: name (a non-empty string: what a search names, AMB-11)."""
    _each(_collections(endpoints, collections_answer), "name", lambda v: isinstance(v, str) and v != "",
          "a non-empty string")


@clause("AIDRE-4-03")
def test_4_collection_defines_description(endpoints: Endpoints, collections_answer: Answer | None) -> None:
    """Each collection SHOULD define: description (present; the draft states no type, so a
    string, a map of languages or any other value passes, AMB-01, AMB-11)."""
    _each(_collections(endpoints, collections_answer), "description", lambda v: True, "a value")


@clause("AIDRE-4-04")
def test_4_collection_defines_visibility(endpoints: Endpoints, collections_answer: Answer | None) -> None:
    """Each collection SHOULD define: visibility (present; any value, AMB-11)."""
    _each(_collections(endpoints, collections_answer), "visibility", lambda v: True, "a value")


@clause("AIDRE-4-05")
def test_4_collection_defines_updated_at(endpoints: Endpoints, collections_answer: Answer | None) -> None:
    """Each collection SHOULD define: updated_at (present; any value, AMB-11)."""
    _each(_collections(endpoints, collections_answer), "updated_at", lambda v: True, "a value")
