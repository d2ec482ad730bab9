"""§4.4 Examples: the example object table (AMB-04), and concrete, specific example tasks
(the kit's documented heuristics, SHOULD level only: AMB-14, AMB-31)."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document
from conformance.outcomes import clause, not_applicable, violation


def _texts(document: Document) -> list[tuple[str, str]]:
    __tracebackhide__ = True
    texts = _checks.example_texts(document)
    if not texts:
        not_applicable("no example has a text that is a string")
    return texts


@clause("ADP-4.4-01")
def test_4_4_examples_describe_a_concrete_task(document: Document) -> None:
    """Each example SHOULD describe a concrete task the agent can handle."""
    description = _checks.top(document, "metadata").get("description")
    bad = []
    for where, text in _texts(document):
        if isinstance(description, str) and _checks.normalized(text) == _checks.normalized(description):
            bad.append(f"{where} copies the description")
        elif _checks.is_tag_list(text):
            bad.append(f"{where} is a bare list of labels, not a task: {_checks.quote(text)}")
    if bad:
        violation("; ".join(bad[:5]) + " (the kit's heuristic, AMB-31)")


@clause("ADP-4.4-02")
def test_4_4_example_id_present(document: Document) -> None:
    """| id | string | SHOULD | Stable example identifier |"""
    _checks.present(_checks.examples(document), "id")


@clause("ADP-4.4-03")
def test_4_4_example_id_type(document: Document) -> None:
    """| id | string |"""
    _checks.typed(_checks.examples(document), "id", "string")


@clause("ADP-4.4-04")
def test_4_4_example_text_is_a_string(document: Document) -> None:
    """| text | string | MUST | Example task or request |"""
    _checks.present(_checks.examples(document), "text", "string")


@clause("ADP-4.4-06")
def test_4_4_example_tags_type(document: Document) -> None:
    """| tags | array of string |"""
    _checks.typed(_checks.examples(document), "tags", "array of string")


@clause("ADP-4.4-08")
def test_4_4_example_input_schema_type(document: Document) -> None:
    """| input_schema | object |"""
    _checks.typed(_checks.examples(document), "input_schema", "object")


@clause("ADP-4.4-10")
def test_4_4_example_output_schema_type(document: Document) -> None:
    """| output_schema | object |"""
    _checks.typed(_checks.examples(document), "output_schema", "object")


@clause("ADP-4.4-12")
def test_4_4_example_language_type(document: Document) -> None:
    """| language | string |"""
    _checks.typed(_checks.examples(document), "language", "string")


#: Fewer words than this name no specific task (AMB-31).
MIN_WORDS = 3


@clause("ADP-4.4-13")
def test_4_4_example_tasks_are_specific(document: Document) -> None:
    """Example tasks SHOULD be specific."""
    bad = []
    for where, text in _texts(document):
        if _checks.is_generic(text):
            bad.append(f"{where} {_checks.quote(text)} is a generic request (the kit's list)")
        elif len(_checks.words(text)) < MIN_WORDS:
            bad.append(f"{where} {_checks.quote(text)} has fewer than {MIN_WORDS} words")
    if bad:
        violation("; ".join(bad[:5]) + " (the kit's heuristic, AMB-31)")
