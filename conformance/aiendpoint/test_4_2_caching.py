"""§4.2 Caching."""

from __future__ import annotations

import re

from datetime import timedelta

from conformance.aiendpoint.conftest import (T0, Client, Scenarios, accepted_document, delivered, each, said,
                                            second_visit)
from conformance.fetch import Fetch
from conformance.outcomes import clause, untestable, violation

RECOMMENDED_MAX_AGE = 86400
_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?\s*(?:,|$)", re.IGNORECASE)
#: Response directives of Cache-Control a cache acts on: RFC 9111 5.2.2, and the registered
#: extensions immutable (RFC 8246), stale-while-revalidate and stale-if-error (RFC 5861).
_DIRECTIVES = {"max-age", "s-maxage", "no-cache", "no-store", "private", "public", "must-revalidate",
               "proxy-revalidate", "must-understand", "no-transform", "immutable", "stale-while-revalidate",
               "stale-if-error"}


def _directives(cache_control: str) -> set[str]:
    """The directive names a cache recognizes in a Cache-Control value (case-insensitive)."""
    names = {part.split("=", 1)[0].strip().lower() for part in cache_control.split(",")}
    return names & _DIRECTIVES


@clause("AIE-4.2-01")
def test_4_2_caching_headers_present(well_known: Fetch) -> None:
    """Service providers SHOULD include appropriate HTTP caching headers in the response.
    (Cache-Control with a directive a cache acts on, or Expires: AMB-32.)"""
    final = delivered(well_known)
    cache_control, expires = final.header("cache-control"), final.header("expires")
    if cache_control is None and expires is None:
        violation("the response has neither Cache-Control nor Expires")
    if expires is None and not _directives(cache_control or ""):
        violation(f"Cache-Control {cache_control!r} holds no directive a cache acts on (RFC 9111 5.2.2), "
                  "and there is no Expires")


@clause("AIE-4.2-02")
def test_4_2_max_age_86400(well_known: Fetch) -> None:
    """A Cache-Control max-age value of 86400 (24 hours) is RECOMMENDED for most services."""
    final = delivered(well_known)
    cache_control = final.header("cache-control")
    if cache_control is None or not _directives(cache_control):
        if final.header("expires") is None:
            untestable("the response has no caching headers a cache acts on (see AIE-4.2-01)")
    if cache_control is None:
        violation("freshness is given by Expires only; Cache-Control max-age is absent")
    m = _MAX_AGE.search(cache_control)
    if not m:
        violation(f"Cache-Control {cache_control!r} has no max-age")
    if int(m.group(1)) != RECOMMENDED_MAX_AGE:
        violation(f"Cache-Control max-age is {m.group(1)} s, not {RECOMMENDED_MAX_AGE}")


# ------------------------------------------------------------------ agent role


#: The space of 4.2-03 (AMB-17): (name, response headers, when the client asks again, whether the
#: stored copy is still fresh then). The clock starts at T0, which is also the responses' Date.
def _caching_cases() -> list[tuple[str, dict[str, str], timedelta, bool]]:
    from werkzeug.http import http_date

    def at(delta: timedelta) -> str:
        return http_date(T0 + delta)

    hour, minute = timedelta(hours=1), timedelta(minutes=1)
    return [
        ("max-age=86400, an hour later", {"Cache-Control": "public, max-age=86400"}, hour, True),
        ("max-age=60, 5 minutes later", {"Cache-Control": "max-age=60"}, 5 * minute, False),
        ("max-age=0, a minute later", {"Cache-Control": "max-age=0"}, minute, False),
        ("no-store, max-age=86400", {"Cache-Control": "no-store, max-age=86400"}, minute, False),
        ("no-cache, max-age=86400", {"Cache-Control": "no-cache, max-age=86400"}, minute, False),
        ("Expires in 2 hours, an hour later", {"Expires": at(2 * hour)}, hour, True),
        ("Expires an hour ago", {"Expires": at(-hour)}, minute, False),
        ("max-age=60 with Expires in a day, 5 minutes later",
         {"Cache-Control": "max-age=60", "Expires": at(24 * hour)}, 5 * minute, False),
        ('max-age=60 with ETag "v1", 5 minutes later', {"Cache-Control": "max-age=60", "ETag": '"v1"'},
         5 * minute, False),
    ]


def _judge_caching(client: Client, scenarios: Scenarios, name: str, headers: dict[str, str], later: timedelta,
                   fresh: bool) -> None:
    """One caching case: discover, discover again ``later``, judge as AMB-17 reads 4.2-03."""
    __tracebackhide__ = True
    s = scenarios.new("caching", routes=[{"path": "/.well-known/ai", "headers": headers,
                                          "remove_headers": ["Cache-Control"]}])
    first_reply, reply, _, again = second_visit(client, s, later)
    accepted_document(first_reply)
    stores = first_reply.get("cached") is not None
    if stores and "no-store" in headers.get("Cache-Control", ""):
        violation(f"{name}: the client stores the response (its reply's cached is not null)")
    if not again and reply["outcome"] == "document" and not fresh:
        violation(f"{name}: the stored copy is stale and the client reused it without asking the server")
    if again and stores and fresh:
        violation(f"{name}: the copy the client stores is fresh and it sent {again[0].method} {again[0].path} again")
    if reply["outcome"] != "document":
        not_modified = " after a 304 Not Modified" if any(r.status == 304 for r in again) else ""
        violation(f"{name}: asked again{not_modified}, {said(reply)}, not the document")


@clause("AIE-4.2-03")
def test_4_2_agent_respects_http_caching(client: Client, scenarios: Scenarios) -> None:
    """AI agents SHOULD respect standard HTTP caching semantics. (RFC 9111 makes storing
    optional, AMB-17: a client that stores nothing passes. A client fails when it reuses a
    stored copy that is stale without asking the server (max-age, Expires, no-cache, an
    answered revalidation), stores a no-store response, or asks again while the copy it says
    it stores is fresh.)"""
    each(_caching_cases(), lambda case: _judge_caching(client, scenarios, *case))


@clause("AIE-4.2-03")
def test_4_2_agent_respects_generated_max_age(client: Client, scenarios: Scenarios, adck_seed: int) -> None:
    """AI agents SHOULD respect standard HTTP caching semantics. Hypothesis draws a max-age and
    when the client asks again, before or after the copy goes stale (never within 2 seconds
    of it)."""
    from hypothesis import given
    from hypothesis import strategies as st

    from conformance.generated import generated

    @generated(adck_seed, max_examples=4)
    @given(max_age=st.integers(0, 2 * 86400), later=st.integers(1, 3 * 86400))
    def check(max_age: int, later: int) -> None:
        if abs(later - max_age) < 2:
            later = max_age + 2
        _judge_caching(client, scenarios, f"max-age={max_age}, {later} s later", {"Cache-Control": f"max-age={max_age}"},
                       timedelta(seconds=later), later < max_age)

    check()
