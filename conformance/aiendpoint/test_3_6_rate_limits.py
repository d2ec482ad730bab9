"""§3.6 The "rate_limits" Object."""

from __future__ import annotations

from conformance.document import Document, is_kind, kind_name
from conformance.outcomes import clause, violation


@clause("AIE-3.6-01")
def test_3_6_requests_per_minute_is_integer(document: Document) -> None:
    """requests_per_minute: (integer, OPTIONAL)"""
    value = document.member("rate_limits", "requests_per_minute", required=False)
    if not is_kind(value, int):
        violation(f"rate_limits.requests_per_minute is {value!r} (a JSON {kind_name(value)}), not an integer")


@clause("AIE-3.6-02")
def test_3_6_requests_per_minute_positive(document: Document) -> None:
    """The value MUST be a positive integer."""
    value = document.member("rate_limits", "requests_per_minute", kind=int, required=False)
    if value <= 0:
        violation(f"rate_limits.requests_per_minute is {value!r}")


@clause("AIE-3.6-04")
def test_3_6_agent_tier_available_is_boolean(document: Document) -> None:
    """agent_tier_available: (boolean, OPTIONAL)"""
    value = document.member("rate_limits", "agent_tier_available", required=False)
    if not isinstance(value, bool):
        violation(f"rate_limits.agent_tier_available is a JSON {kind_name(value)}, not a boolean")
