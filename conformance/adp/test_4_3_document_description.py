"""§4.3 Description: judged by the kit's documented heuristics (AMB-14, AMB-31), at SHOULD
level only: a hit can deny "full", never fail a MUST. Each failure names the words matched so a
reader can overrule it."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document, kind_name
from conformance.outcomes import clause, untestable, violation

#: Fewer words than this describe no purpose, domain, input or limit (AMB-31).
MIN_WORDS = 3


def _description(document: Document) -> str:
    __tracebackhide__ = True
    value = _checks.top(document, "metadata")
    if "description" not in value:
        untestable("the metadata has no description (see ADP-4.1-04)")
    if not isinstance(value["description"], str):
        untestable(f"description is a JSON {kind_name(value['description'])}, not a string (see ADP-4.1-04)")
    return value["description"]


@clause("ADP-4.3-01")
def test_4_3_description_describes_the_agent(document: Document) -> None:
    """The description field provides broad semantic context. It SHOULD describe: the agent's
    primary purpose; supported domains; important input and output types; operational
    limitations; and safety or policy-relevant boundaries."""
    description = _description(document)
    count = len(_checks.words(description))
    if count < MIN_WORDS:
        violation(f"description is {_checks.quote(description)}: {count} word(s), too few to describe a purpose, "
                  f"domains, inputs and outputs or limits (the kit's heuristic asks for {MIN_WORDS} or more, AMB-31)")
    name = _checks.top(document, "metadata").get("name")
    if isinstance(name, str) and _checks.normalized(name) == _checks.normalized(description):
        violation(f"description {_checks.quote(description)} repeats the name: it describes nothing more (AMB-31)")


@clause("ADP-4.3-02")
def test_4_3_description_is_not_marketing(document: Document) -> None:
    """Descriptions SHOULD be written for discovery and interoperability, not marketing."""
    description = _description(document)
    hits = _checks.marketing(description)
    if hits:
        violation(f"description uses marketing phrasing {', '.join(map(repr, hits[:5]))} (the kit's word list, "
                  f"AMB-31): {_checks.quote(description)}")


@clause("ADP-4.3-03")
def test_4_3_no_unsupported_superlatives(document: Document) -> None:
    """They SHOULD avoid unsupported superlatives such as "best", "perfect", or "guaranteed"."""
    hits = [f"{where} says {', '.join(map(repr, found[:3]))}"
            for where, text in _checks.description_and_examples(document)
            if (found := _checks.superlatives(text))]
    if hits:
        violation("superlatives (the kit's word list; whether one is supported cannot be known, AMB-31): "
                  + "; ".join(hits[:5]))
