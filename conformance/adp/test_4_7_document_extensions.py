"""§4.7 Unknown Fields and Extensions, judged on an Agent Metadata object on its own."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.adp._kinds import METADATA_FIELDS
from conformance.document import Document
from conformance.outcomes import clause, not_applicable, violation

_DEFINED = {name.casefold() for name in METADATA_FIELDS}


@clause("ADP-4.7-04")
def test_4_7_extension_names_are_collision_resistant(document: Document) -> None:
    """Private extension fields SHOULD use collision-resistant names, such as reverse-DNS names
    or URIs."""
    value = _checks.top(document, "metadata")
    # a case variant of a defined name is ADP-4.1-24's, not an extension
    extensions = [k for k in value if k.casefold() not in _DEFINED]
    if not extensions:
        not_applicable("the metadata has no top-level member the draft does not define")
    plain = [k for k in extensions if "." not in k and ":" not in k]
    if plain:
        violation(f"extension member(s) {', '.join(map(repr, plain[:5]))} hold neither a '.' (reverse-DNS, "
                  "com.example.region) nor a ':' (a URI): the kit's heuristic (AMB-31)")
