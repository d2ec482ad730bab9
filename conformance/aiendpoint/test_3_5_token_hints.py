"""§3.5 The "token_hints" Object."""

from __future__ import annotations

from conformance.document import Document, kind_name
from conformance.outcomes import clause, not_applicable, violation


@clause("AIE-3.5-01")
def test_3_5_token_hints_fields_are_boolean(document: Document) -> None:
    """All fields in the "token_hints" object are boolean and OPTIONAL."""
    hints = document.member("token_hints", kind=dict, required=False)
    if not hints:
        not_applicable("token_hints is empty")
    bad = [f"token_hints.{k} is a JSON {kind_name(v)}" for k, v in hints.items() if not isinstance(v, bool)]
    if bad:
        violation("; ".join(bad))
