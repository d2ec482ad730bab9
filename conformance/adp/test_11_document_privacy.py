"""§11 Privacy Considerations, judged on an Agent Metadata object on its own by the kit's
documented heuristics (AMB-14, AMB-31), at SHOULD level only; each hit is shown (redacted in
reports) so a reader can overrule it."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document
from conformance.outcomes import clause, not_applicable, violation


@clause("ADP-11-01")
def test_11_no_internal_names_or_secrets_in_descriptions_and_examples(document: Document) -> None:
    """Publishers SHOULD avoid exposing internal system names, customer identifiers, private
    schemas, or secrets in descriptions and examples."""
    hits = []
    for where, text in _checks.description_and_examples(document):
        found = _checks.secrets(text) + _checks.internal_names(text)
        if found:
            hits.append(f"{where} holds {', '.join(map(repr, found[:3]))}")
    if hits:
        violation("secret-shaped values, private addresses or internal host names (the kit's patterns): "
                  + "; ".join(hits[:5]))


@clause("ADP-11-03")
def test_11_examples_are_sanitized(document: Document) -> None:
    """Publishers SHOULD provide representative but sanitized examples."""
    texts = _checks.example_texts(document)
    if not texts:
        not_applicable("no example has a text that is a string")
    hits = []
    for where, text in texts:
        found = _checks.personal_data(text) + _checks.secrets(text)
        if found:
            hits.append(f"{where} holds {', '.join(map(repr, found[:3]))}")
    if hits:
        violation("personal data or secret-shaped values (e-mail addresses, phone or card numbers, credentials: "
                  "the kit's patterns): " + "; ".join(hits[:5]))
