"""§6.3 Scores and Score Components, judged on the candidates of a Discovery Response on its own."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document
from conformance.outcomes import clause, not_applicable, violation

#: The component names 6.3's table recommends.
RECOMMENDED = ("tag", "context", "example", "protocol", "freshness", "policy")


@clause("ADP-6.3-02")
def test_6_3_score_components_use_recommended_names(document: Document) -> None:
    """When score_components is returned, the following component names are RECOMMENDED:"""
    returned = [(where, obj["score_components"]) for where, obj in _checks.candidates(document)
                if isinstance(obj.get("score_components"), dict)]
    if not returned:
        not_applicable("no candidate returns score_components as an object")
    bad = [f"{where}.score_components holds {', '.join(map(repr, list(comps)[:5])) or 'no component'}"
           for where, comps in returned if not set(comps) & set(RECOMMENDED)]
    if bad:
        violation("none of the recommended names tag, context, example, protocol, freshness, policy (other names "
                  "may be added, ADP-6.3-03, but not instead; AMB-32): " + "; ".join(bad[:5]))
