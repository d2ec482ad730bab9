"""§4.2 Caching."""

from __future__ import annotations

import re

from datetime import timedelta

from conformance.aiendpoint.conftest import Client, Scenarios, accepted_document, delivered, said, second_visit
from conformance.fetch import Fetch
from conformance.outcomes import clause, untestable, violation

RECOMMENDED_MAX_AGE = 86400
_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?\s*(?:,|$)", re.IGNORECASE)


@clause("AIE-4.2-01")
def test_4_2_caching_headers_present(well_known: Fetch) -> None:
    """Service providers SHOULD include appropriate HTTP caching headers in the response."""
    final = delivered(well_known)
    if final.header("cache-control") is None and final.header("expires") is None:
        violation("the response has neither Cache-Control nor Expires")


@clause("AIE-4.2-02")
def test_4_2_max_age_86400(well_known: Fetch) -> None:
    """A Cache-Control max-age value of 86400 (24 hours) is RECOMMENDED for most services."""
    final = delivered(well_known)
    cache_control = final.header("cache-control")
    if cache_control is None:
        if final.header("expires") is None:
            untestable("the response has no caching headers (see AIE-4.2-01)")
        violation("freshness is given by Expires only; Cache-Control max-age is absent")
    m = _MAX_AGE.search(cache_control)
    if not m:
        violation(f"Cache-Control {cache_control!r} has no max-age")
    if int(m.group(1)) != RECOMMENDED_MAX_AGE:
        violation(f"Cache-Control max-age is {m.group(1)} s, not {RECOMMENDED_MAX_AGE}")


# ------------------------------------------------------------------ agent role


@clause("AIE-4.2-03")
def test_4_2_agent_respects_http_caching(client: Client, scenarios: Scenarios) -> None:
    """AI agents SHOULD respect standard HTTP caching semantics. (Cache-Control: public,
    max-age=86400; the client asks again one hour later.)"""
    s = scenarios.new("cacheable")
    first_reply, reply, _, again = second_visit(client, s, timedelta(hours=1))
    accepted_document(first_reply)
    if again:
        violation(f"one hour into a max-age of 86400 s the client sent {again[0].method} {again[0].path} again")
    if reply["outcome"] != "document":
        violation(f"from its cache the client should have the document; {said(reply)}")
