"""§3.3 The "capabilities" Array.

Checks run over every capability that is an object; a capability lacking the member a
clause speaks of is left to the clause that requires the member (AIE-3.3-04).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Callable
from urllib.parse import urlsplit

from conformance.aiendpoint.conftest import Client, Scenarios, accepted_document
from conformance.document import Document, is_kind, kind_name
from conformance.outcomes import clause, not_applicable, untestable, violation

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
PARAM_TYPES = ("string", "integer", "number", "boolean", "array")
# "<type>, <required|optional>[, <qualifier>]* [-- <description>]" (ambiguity AMB-09):
# the description follows " -- " or an em dash.
_PARAM_HEAD = re.compile(rf"^({'|'.join(PARAM_TYPES)}), (required|optional)((?:, [^,]+)*)$")
_PARAM_SPLIT = re.compile(r"\s+--\s+|\s*\u2014\s*")
# A path segment (or id word) naming an internal or administrative function (AMB-10).
_INTERNAL = re.compile(r"(^|[/_.\-])(admin|internal|debug|staging)($|[/_.\-])", re.IGNORECASE)


def _members(document: Document, member: str, kind: type | tuple[type, ...] | None = None,
             required: bool = True) -> list[tuple[int, Any]]:
    """(index, value) of ``member`` across the capabilities that have it (with ``kind``)."""
    caps = document.objects("capabilities")
    found = [(i, c[member]) for i, c in caps if member in c and (kind is None or is_kind(c[member], kind))]
    if not found:
        if not required and caps and not any(member in c for _, c in caps):
            not_applicable(f"no capability has {member} (optional)")
        untestable(f"no capability has a {member} of the type this clause checks")
    return found


def _check_each(found: list[tuple[int, Any]], member: str, bad: Callable[[Any], str | None]) -> None:
    problems = [f"capabilities[{i}].{member} {why}" for i, v in found if (why := bad(v))]
    if problems:
        violation("; ".join(problems[:6]) + (f"; and {len(problems) - 6} more" if len(problems) > 6 else ""))


@clause("AIE-3.3-01")
def test_3_3_capabilities_not_empty(document: Document) -> None:
    """The array MUST contain at least one element."""
    caps = document.member("capabilities", kind=list)
    if not caps:
        violation("capabilities is an empty array")


@clause("AIE-3.3-03")
def test_3_3_internal_and_admin_endpoints_omitted(document: Document) -> None:
    """Internal endpoints, administrative functions, and endpoints that require complex
    multi-step human interaction SHOULD be omitted. (Heuristic, see AMB-10.)"""
    caps = document.objects("capabilities")
    if not caps:
        untestable("there is no capability object to look at")
    flagged = []
    for i, cap in caps:
        for member in ("id", "endpoint"):
            value = cap.get(member)
            if isinstance(value, str):
                path = re.sub(r"^[a-z][a-z0-9+.\-]*://[^/]*", "", value, flags=re.IGNORECASE)
                if _INTERNAL.search(path):
                    flagged.append(f"capabilities[{i}].{member} = {value!r}")
    if flagged:
        violation("capabilities that look internal or administrative: " + "; ".join(flagged[:6]))


@clause("AIE-3.3-04")
def test_3_3_capability_contains_required_fields(document: Document) -> None:
    """Each capability object MUST contain the following fields: id, description, endpoint, method."""
    caps = document.objects("capabilities")
    if not caps:
        untestable("there is no capability object (see AIE-3.3-01, AIE-3.1-04)")
    problems = [f"capabilities[{i}] lacks {', '.join(m)}"
                for i, c in caps if (m := [f for f in ("id", "description", "endpoint", "method") if f not in c])]
    if problems:
        violation("; ".join(problems[:6]))


@clause("AIE-3.3-05")
def test_3_3_id_is_string(document: Document) -> None:
    """id: (string, REQUIRED)"""
    _check_each(_members(document, "id"), "id",
                lambda v: None if isinstance(v, str) else f"is a JSON {kind_name(v)}")


@clause("AIE-3.3-06")
def test_3_3_id_unique_within_service(document: Document) -> None:
    """id: A unique identifier for this capability within the service."""
    ids = [v for _, v in _members(document, "id", str)]
    repeated = [i for i, n in Counter(ids).items() if n > 1]
    if repeated:
        violation(f"capability ids used more than once: {', '.join(map(repr, repeated))}")


@clause("AIE-3.3-07")
def test_3_3_id_matches_pattern(document: Document) -> None:
    """The identifier MUST match the regular expression ^[a-z][a-z0-9_]*$."""
    _check_each(_members(document, "id", str), "id",
                lambda v: None if ID_PATTERN.match(v) and "\n" not in v else f"{v!r} does not match ^[a-z][a-z0-9_]*$")


@clause("AIE-3.3-08")
def test_3_3_id_length_1_to_64(document: Document) -> None:
    """The identifier MUST be between 1 and 64 characters in length."""
    _check_each(_members(document, "id", str), "id",
                lambda v: None if 1 <= len(v) <= 64 else f"has {len(v)} characters")


@clause("AIE-3.3-10")
def test_3_3_description_is_string(document: Document) -> None:
    """description: (string, REQUIRED)"""
    _check_each(_members(document, "description"), "description",
                lambda v: None if isinstance(v, str) else f"is a JSON {kind_name(v)}")


@clause("AIE-3.3-11")
def test_3_3_description_length_1_to_200(document: Document) -> None:
    """The value MUST be between 1 and 200 characters in length."""
    _check_each(_members(document, "description", str), "description",
                lambda v: None if 1 <= len(v) <= 200 else f"has {len(v)} characters")


@clause("AIE-3.3-13")
def test_3_3_endpoint_is_string(document: Document) -> None:
    """endpoint: (string, REQUIRED) The URI or URI path at which this capability is accessible."""
    _check_each(_members(document, "endpoint"), "endpoint",
                lambda v: None if isinstance(v, str) else f"is a JSON {kind_name(v)}")


@clause("AIE-3.3-14")
def test_3_3_endpoint_not_empty(document: Document) -> None:
    """The value MUST be non-empty."""
    _check_each(_members(document, "endpoint", str), "endpoint",
                lambda v: None if v else "is the empty string")


@clause("AIE-3.3-16")
def test_3_3_method_is_string(document: Document) -> None:
    """method: (string, REQUIRED)"""
    _check_each(_members(document, "method"), "method",
                lambda v: None if isinstance(v, str) else f"is a JSON {kind_name(v)}")


@clause("AIE-3.3-17")
def test_3_3_method_is_allowed(document: Document) -> None:
    """The value MUST be one of: "GET", "POST", "PUT", "DELETE", "PATCH"."""
    _check_each(_members(document, "method", str), "method",
                lambda v: None if v in METHODS else f"is {v!r}")


@clause("AIE-3.3-19")
def test_3_3_params_is_object_of_strings(document: Document) -> None:
    """params: (object, OPTIONAL) A JSON object describing the parameters; each value is a string."""

    def bad(v: Any) -> str | None:
        if not isinstance(v, dict):
            return f"is a JSON {kind_name(v)}, not an object"
        wrong = [f"{k!r} is a JSON {kind_name(x)}" for k, x in v.items() if not isinstance(x, str)]
        return f"has non-string descriptions: {', '.join(wrong[:4])}" if wrong else None

    _check_each(_members(document, "params", required=False), "params", bad)


def param_pattern_problem(description: str) -> str | None:
    """Why a parameter description does not follow the pattern of 3.3 (AMB-09), or None."""
    head, *rest = _PARAM_SPLIT.split(description, maxsplit=1)
    if rest and not rest[0].strip():
        return "has an empty description after the separator"
    if not _PARAM_HEAD.match(head.strip()):
        return "does not start '<type>, required|optional' with type one of " + "|".join(PARAM_TYPES)
    return None


@clause("AIE-3.3-20")
def test_3_3_param_description_pattern(document: Document) -> None:
    """The parameter description string SHOULD follow this pattern: <type>, <requirement>[, <constraints>] [-- <description>]"""
    problems = []
    for i, params in _members(document, "params", dict, required=False):
        for name, desc in params.items():
            if isinstance(desc, str) and (why := param_pattern_problem(desc)):
                problems.append(f"capabilities[{i}].params.{name} = {desc[:60]!r} {why}")
    if problems:
        violation("; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else ""))


@clause("AIE-3.3-21")
def test_3_3_returns_is_string(document: Document) -> None:
    """returns: (string, OPTIONAL)"""
    _check_each(_members(document, "returns", required=False), "returns",
                lambda v: None if isinstance(v, str) else f"is a JSON {kind_name(v)}")


@clause("AIE-3.3-22")
def test_3_3_returns_at_most_300(document: Document) -> None:
    """The value MUST NOT exceed 300 characters in length."""
    _check_each(_members(document, "returns", str, required=False), "returns",
                lambda v: None if len(v) <= 300 else f"has {len(v)} characters")


# ------------------------------------------------------------------ agent role


#: Relative endpoints ("/" first) and what they resolve to against https://HOST. "//..." begins
#: with "/" too: by the sentence a path on the document's authority, never another host (a
#: client may also leave it out as not well-formed).
RELATIVE = {
    "/api/notes/search": "/api/notes/search",
    "/": "/",
    "/api/search?q=a&limit=5": "/api/search?q=a&limit=5",
    "/api/notes/:id": "/api/notes/:id",
    "//elsewhere.adck.test/api/steal": "//elsewhere.adck.test/api/steal",
}


@clause("AIE-3.3-15")
def test_3_3_agent_resolves_relative_endpoints(client: Client, scenarios: Scenarios) -> None:
    """If the value begins with "/" (U+002F), it is a relative path and MUST be resolved
    against the authority of the AI Discovery Document's URI. (Paths of several shapes, a
    query, a bare "/", and "//host/..." which stays on the document's authority; beside an
    absolute endpoint, used as-is.)"""
    caps = [{"id": f"cap_{i}", "description": f"Capability {i}", "endpoint": e, "method": "GET",
             "params": {"q": "string, optional"}} for i, e in enumerate(RELATIVE)]
    caps.append({"id": "create_note", "description": "Create a new text note", "params": {"title": "string, required"},
                 "endpoint": "https://write.publisher.adck.test/api/notes", "method": "POST"})
    s = scenarios.new("relative-endpoints", patch=[{"op": "replace", "path": "/capabilities", "value": caps}])
    reply = client.discover(s)
    accepted_document(reply)
    urls = {c.get("id"): c.get("url") for c in reply.get("capabilities", []) if isinstance(c, dict)}
    expected = {f"cap_{i}": f"https://{s.host}{path}" for i, path in enumerate(RELATIVE.values())}
    expected["create_note"] = "https://write.publisher.adck.test/api/notes"
    if not any(cid in urls for cid in ("cap_0", "create_note")):
        untestable("the client did not report the well-formed capabilities cap_0 and create_note")
    wrong = []
    for i, endpoint in enumerate(RELATIVE):
        cid = f"cap_{i}"
        if cid not in urls:
            continue
        got = str(urls[cid])
        if endpoint.startswith("//"):
            if urlsplit(got).netloc.lower() != s.host:
                wrong.append(f"{endpoint!r} -> {got!r} (another authority than {s.host})")
        elif got != expected[cid]:
            wrong.append(f"{endpoint!r} -> {got!r} (expected {expected[cid]})")
    if "create_note" in urls and urls["create_note"] != expected["create_note"]:
        wrong.append(f"an absolute endpoint -> {urls['create_note']!r} (used as-is: {expected['create_note']})")
    if wrong:
        violation("endpoints resolved wrongly: " + "; ".join(wrong))
