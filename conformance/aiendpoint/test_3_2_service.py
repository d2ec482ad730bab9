"""§3.2 The "service" Object."""

from __future__ import annotations

import json
import re

from conformance.aiendpoint.conftest import Client, Scenarios, each, said
from conformance.document import Document, kind_name
from conformance.outcomes import clause, violation

CATEGORIES = frozenset({
    "productivity", "ecommerce", "finance", "news", "weather", "maps", "search", "data",
    "communication", "calendar", "storage", "media", "health", "education", "travel", "food",
    "government", "developer",
})

# RFC 5646 section 2.1 (langtag / privateuse / grandfathered), case-insensitive.
_LANGTAG = (
    r"(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4}|[a-z]{5,8})"  # language (with extlang)
    r"(?:-[a-z]{4})?"                                        # script
    r"(?:-(?:[a-z]{2}|[0-9]{3}))?"                           # region
    r"(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*"              # variants
    r"(?:-[0-9a-wy-z](?:-[a-z0-9]{2,8})+)*"                  # extensions
    r"(?:-x(?:-[a-z0-9]{1,8})+)?"                            # private use
)
_GRANDFATHERED = (
    "en-gb-oed|i-ami|i-bnn|i-default|i-enochian|i-hak|i-klingon|i-lux|i-mingo|i-navajo|i-pwn|"
    "i-tao|i-tay|i-tsu|sgn-be-fr|sgn-be-nl|sgn-ch-de|art-lojban|cel-gaulish|no-bok|no-nyn|"
    "zh-guoyu|zh-hakka|zh-min|zh-min-nan|zh-xiang"
)
# re.ASCII: without it IGNORECASE lets [a-z] match KELVIN SIGN, LONG S and dotless/dotted I;
# \Z, not $: $ also matches before a final newline.
BCP47 = re.compile(rf"^(?:{_LANGTAG}|x(?:-[a-z0-9]{{1,8}})+|{_GRANDFATHERED})\Z", re.IGNORECASE | re.ASCII)


@clause("AIE-3.2-01")
def test_3_2_service_contains_required_fields(document: Document) -> None:
    """It MUST contain the following fields: name, description."""
    service = document.member("service", kind=dict)
    missing = [f for f in ("name", "description") if f not in service]
    if missing:
        violation(f"service lacks {', '.join(missing)}")


@clause("AIE-3.2-02")
def test_3_2_name_is_string(document: Document) -> None:
    """name: (string, REQUIRED)"""
    name = document.member("service", "name")
    if not isinstance(name, str):
        violation(f"service.name is a JSON {kind_name(name)}, not a string")


@clause("AIE-3.2-04")
def test_3_2_name_length_1_to_100(document: Document) -> None:
    """The value MUST be between 1 and 100 characters in length."""
    name = document.member("service", "name", kind=str)
    if not 1 <= len(name) <= 100:
        violation(f"service.name has {len(name)} characters")


@clause("AIE-3.2-05")
def test_3_2_description_is_string(document: Document) -> None:
    """description: (string, REQUIRED)"""
    description = document.member("service", "description")
    if not isinstance(description, str):
        violation(f"service.description is a JSON {kind_name(description)}, not a string")


@clause("AIE-3.2-07")
def test_3_2_description_length_1_to_300(document: Document) -> None:
    """The value MUST be between 1 and 300 characters in length."""
    description = document.member("service", "description", kind=str)
    if not 1 <= len(description) <= 300:
        violation(f"service.description has {len(description)} characters")


@clause("AIE-3.2-08")
def test_3_2_description_under_200(document: Document) -> None:
    """Authors SHOULD aim for descriptions under 200 characters to optimize token consumption."""
    description = document.member("service", "description", kind=str)
    if len(description) >= 200:
        violation(f"service.description has {len(description)} characters")


def _string_array(document: Document, name: str) -> None:
    value = document.member("service", name, required=False)
    if not isinstance(value, list):
        violation(f"service.{name} is a JSON {kind_name(value)}, not an array")
    bad = [f"[{i}] is a JSON {kind_name(v)}" for i, v in enumerate(value) if not isinstance(v, str)]
    if bad:
        violation(f"service.{name} holds non-strings: {'; '.join(bad[:5])}")


@clause("AIE-3.2-10")
def test_3_2_category_is_array_of_strings(document: Document) -> None:
    """category: (array of strings, OPTIONAL)"""
    _string_array(document, "category")


@clause("AIE-3.2-11")
def test_3_2_category_from_defined_list(document: Document) -> None:
    """Service providers SHOULD select from the above list to maximize interoperability."""
    categories = document.member("service", "category", kind=list, required=False)
    unknown = [c for c in categories if isinstance(c, str) and c not in CATEGORIES]
    if unknown:
        violation(f"categories not in the list of 3.2: {', '.join(map(repr, unknown[:8]))}")


def _non_empty(document: Document, name: str) -> None:
    value = document.member("service", name, kind=list, required=False)
    if not value:
        violation(f"service.{name} is an empty array")


def _no_duplicates(document: Document, name: str) -> None:
    value = document.member("service", name, kind=list, required=False)
    seen, dups = set(), []
    for v in value:
        key = json.dumps(v, sort_keys=True)
        if key in seen:
            dups.append(v)
        seen.add(key)
    if dups:
        violation(f"service.{name} repeats {', '.join(json.dumps(d, ensure_ascii=False) for d in dups[:5])}")


@clause("AIE-3.2-14")
def test_3_2_category_not_empty(document: Document) -> None:
    """The array MUST contain at least one element if present (category)."""
    _non_empty(document, "category")


@clause("AIE-3.2-15")
def test_3_2_category_no_duplicates(document: Document) -> None:
    """The array ... MUST NOT contain duplicate values (category)."""
    _no_duplicates(document, "category")


@clause("AIE-3.2-16")
def test_3_2_language_is_array_of_bcp47_tags(document: Document) -> None:
    """language: (array of strings, OPTIONAL) ... expressed as BCP 47 language tags."""
    _string_array(document, "language")
    tags = document.member("service", "language", kind=list)
    bad = [t for t in tags if not BCP47.match(t)]
    if bad:
        violation(f"service.language values that are not BCP 47 tags: {', '.join(map(repr, bad[:5]))}")


@clause("AIE-3.2-17")
def test_3_2_language_not_empty(document: Document) -> None:
    """The array MUST contain at least one element if present (language)."""
    _non_empty(document, "language")


@clause("AIE-3.2-18")
def test_3_2_language_no_duplicates(document: Document) -> None:
    """The array ... MUST NOT contain duplicate values (language)."""
    _no_duplicates(document, "language")


# ------------------------------------------------------------------ agent role


@clause("AIE-3.2-13")
def test_3_2_agent_ignores_unrecognized_category(client: Client, scenarios: Scenarios) -> None:
    """A discovery system encountering an unrecognized category value SHOULD ignore it without
    error. (An unknown value beside known ones, only unknown values, values a future version
    might add in other spellings, many of them.)"""
    families = [["productivity", "quantum-notes"], ["quantum-notes"], ["Notes", "ai_agents", "notes/v2"],
                ["productivity"] + [f"future-{i}" for i in range(20)], ["ünïcode-kategorie", "storage"]]

    def check(categories: list[str]) -> None:
        s = scenarios.new("unknown-category", patch=[{"op": "replace", "path": "/service/category", "value": categories}])
        reply = client.discover(s)
        if reply["outcome"] != "document":
            shown_list = ", ".join(categories[:4]) + (", ..." if len(categories) > 4 else "")
            violation(f"a document with the categories [{shown_list}] was served and {said(reply)}")

    each(families, check)
