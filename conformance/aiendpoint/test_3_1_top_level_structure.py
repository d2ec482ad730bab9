"""§3.1 Top-Level Structure."""

from __future__ import annotations

from conformance.document import Document, kind_name
from conformance.outcomes import clause, untestable, violation

REQUIRED = ("aiendpoint", "service", "capabilities")
DEFINED = REQUIRED + ("auth", "token_hints", "rate_limits", "meta")
#: Members the draft defines inside each nested object (3.2-3.7).
NESTED_DEFINED = {
    "service": ("name", "description", "category", "language"),
    "auth": ("type", "header", "docs"),
    "token_hints": ("compact_mode", "field_filtering", "delta_support"),
    "rate_limits": ("requests_per_minute", "agent_tier_available"),
}
CAPABILITY_DEFINED = ("id", "description", "endpoint", "method", "params", "returns")


@clause("AIE-3.1-01")
def test_3_1_top_level_contains_required_fields(document: Document) -> None:
    """The top-level JSON object MUST contain the following fields: aiendpoint, service, capabilities."""
    if document.unreadable:
        untestable(f"{document.unreadable} (see AIE-2.4-01, AIE-4.5-01)")
    if document.too_deep:
        first = document.raw.lstrip(b" \t\r\n\xef\xbb\xbf")[:1]
        if first != b"{":
            violation(f"the top-level value is not an object: it starts with {first!r} ({document.parse_error})")
        untestable(f"{document.parse_error}; the kit cannot tell whether it is a conforming object")
    if document.parse_error:
        violation(f"there is no top-level JSON object: {document.parse_error}")
    value = document.value()
    if not isinstance(value, dict):
        violation(f"the document is a JSON {kind_name(value)}, not an object")
    missing = [f for f in REQUIRED if f not in value]
    if missing:
        violation(f"the top-level object lacks {', '.join(missing)}")


@clause("AIE-3.1-12")
def test_3_1_aiendpoint_is_string(document: Document) -> None:
    """aiendpoint: (string, REQUIRED) The version of this specification to which the document conforms."""
    version = document.member("aiendpoint")
    if not isinstance(version, str):
        violation(f"aiendpoint is {version!r}, a JSON {kind_name(version)}, not a string")


@clause("AIE-3.1-02")
def test_3_1_aiendpoint_is_1_0(document: Document) -> None:
    """For documents conforming to this specification, the value MUST be "1.0"."""
    version = document.member("aiendpoint", kind=str)
    if version != "1.0":
        violation(f"aiendpoint is {version!r}, not \"1.0\"")


def _object_typed(document: Document, name: str, required: bool) -> None:
    value = document.member(name, required=required)
    if not isinstance(value, dict):
        violation(f"{name} is a JSON {kind_name(value)}, not an object")


@clause("AIE-3.1-03")
def test_3_1_service_is_object(document: Document) -> None:
    """service: (object, REQUIRED)"""
    _object_typed(document, "service", required=True)


@clause("AIE-3.1-04")
def test_3_1_capabilities_is_array_of_objects(document: Document) -> None:
    """capabilities: (array, REQUIRED) A non-empty array of capability objects."""
    value = document.member("capabilities")
    if not isinstance(value, list):
        violation(f"capabilities is a JSON {kind_name(value)}, not an array")
    bad = [f"[{i}] is a JSON {kind_name(e)}" for i, e in enumerate(value) if not isinstance(e, dict)]
    if bad:
        violation(f"capabilities elements that are not objects: {'; '.join(bad[:5])}")


@clause("AIE-3.1-06")
def test_3_1_auth_is_object(document: Document) -> None:
    """auth: (object, OPTIONAL)"""
    _object_typed(document, "auth", required=False)


@clause("AIE-3.1-07")
def test_3_1_token_hints_is_object(document: Document) -> None:
    """token_hints: (object, OPTIONAL)"""
    _object_typed(document, "token_hints", required=False)


@clause("AIE-3.1-08")
def test_3_1_rate_limits_is_object(document: Document) -> None:
    """rate_limits: (object, OPTIONAL)"""
    _object_typed(document, "rate_limits", required=False)


@clause("AIE-3.1-09")
def test_3_1_meta_is_object(document: Document) -> None:
    """meta: (object, OPTIONAL)"""
    _object_typed(document, "meta", required=False)


@clause("AIE-3.1-10")
def test_3_1_no_undefined_top_level_fields(document: Document) -> None:
    """A conformant AI Discovery Document MUST NOT contain fields not defined in this
    specification at the top level."""
    extra = [k for k in document.top() if k not in DEFINED]
    if extra:
        violation(f"top-level fields the draft does not define: {', '.join(map(repr, extra))}")


@clause("AIE-3.1-11")
def test_3_1_custom_metadata_in_meta(document: Document) -> None:
    """Service providers requiring custom metadata SHOULD use the "meta" object for this purpose."""
    top = document.top()
    found = []
    for name, defined in NESTED_DEFINED.items():
        obj = top.get(name)
        if isinstance(obj, dict):
            found += [f"{name}.{k}" for k in obj if k not in defined]
    caps = top.get("capabilities")
    if isinstance(caps, list):
        for i, cap in enumerate(caps):
            if isinstance(cap, dict):
                found += [f"capabilities[{i}].{k}" for k in cap if k not in CAPABILITY_DEFINED]
    if not any(isinstance(top.get(n), dict) for n in NESTED_DEFINED) and not isinstance(caps, list):
        untestable("none of the objects that could hold custom members is present")
    if found:
        violation(f"custom members outside meta: {', '.join(found[:8])}" + (" …" if len(found) > 8 else ""))
