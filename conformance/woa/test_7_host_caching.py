"""§7 Caching (host role)."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

from conformance.fetch import Exchange, Fetch, Fetcher
from conformance.outcomes import clause, untestable, violation
from conformance.woa._host_fixtures import ACCEPT_DOCUMENT, Fetches, delivered

#: The reading of "HTTP caching headers, such as ETag, Last-Modified, and appropriate
#: Cache-Control directives" (an open list, docs/readings.md 1).
READING = "AMB-33"
_DIRECTIVE = re.compile(r'\s*([A-Za-z0-9!#$%&\'*+.^_`|~-]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^,]*))?\s*(?:,|$)')


def directives(value: str) -> dict[str, str | None]:
    """The directives of a Cache-Control value (RFC 9111 5.2), names lower case, values
    unquoted (None: no value)."""
    found: dict[str, str | None] = {}
    for name, arg in _DIRECTIVE.findall(value or ""):
        if name:
            found.setdefault(name.lower(), arg.strip().strip('"') if arg else None)
    return found


def _seconds(value: str | None) -> int | None:
    """delta-seconds (RFC 9111 1.2.2), or None when the value is not one."""
    return int(value) if value is not None and value.isdigit() else None


def _date(value: str | None) -> datetime | None:
    """An HTTP-date (RFC 9110 5.6.7), or None when ``value`` is not one."""
    if not value:
        return None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def caching(final: Exchange) -> tuple[list[str], str | None]:
    """(the caching headers the response carries that let a cache spare a request, why the
    response carries none: None when it carries one). AMB-33: a validator (ETag, or
    Last-Modified holding an HTTP-date), or a freshness lifetime (Cache-Control max-age or
    s-maxage above 0, or, without max-age, an Expires later than the response's Date) that
    no-cache does not cancel; no-store cancels everything."""
    etag, modified = final.header("etag"), final.header("last-modified")
    cache_control, expires = final.header("cache-control"), final.header("expires")
    if not any((etag, modified, cache_control, expires)):
        return [], "no caching header at all: no ETag, no Last-Modified, no Cache-Control, no Expires"
    given = directives(cache_control or "")
    if "no-store" in given:
        return [], (f"Cache-Control {cache_control!r} holds no-store: no cache may keep the document, so none of "
                    "its headers can spare a request (a header that forbids caching is not a caching header "
                    "'to reduce unnecessary network traffic')")
    found = []
    if etag and etag.strip():
        found.append(f"ETag {etag}")
    if _date(modified):
        found.append(f"Last-Modified {modified}")
    lifetimes = {name: _seconds(given[name]) for name in ("max-age", "s-maxage") if name in given}
    positive = [f"{name}={value}" for name, value in lifetimes.items() if value]
    if "max-age" not in given and _date(expires):
        now = _date(final.header("date")) or datetime.now(timezone.utc)
        if _date(expires) > now:
            positive.append(f"Expires {expires}")
    if positive and "no-cache" in given and not found:
        return [], (f"Cache-Control {cache_control!r} gives a lifetime ({', '.join(positive)}) that no-cache "
                    "cancels (every reuse must be revalidated), and no validator (ETag, Last-Modified) lets a "
                    "revalidation be answered 304")
    found += [f"Cache-Control {p}" if not p.startswith("Expires") else p for p in positive]
    if found:
        return found, None
    seen = [f"{name}: {value}" for name, value in (("Cache-Control", cache_control), ("Expires", expires),
                                                    ("Last-Modified", modified)) if value]
    return [], (f"{'; '.join(seen)}: no validator (ETag, or a Last-Modified that is an HTTP-date) and no "
                "freshness lifetime (Cache-Control max-age or s-maxage above 0, or a future Expires): no cache "
                "can spare a single request with these headers")


@clause("WOA-7-01")
def test_7_host_sends_caching_headers(woa_fetch: Fetch, adck_fetcher: Fetcher, own_fetches: Fetches) -> None:
    """Hosts SHOULD include HTTP caching headers, such as ETag, Last-Modified, and
    appropriate Cache-Control directives, on responses that carry a WoA document. (An open
    list: any caching header of the kind passes, a validator (ETag, Last-Modified) or a
    freshness lifetime (Cache-Control max-age or s-maxage, Expires); Cache-Control:
    max-age=300 alone is enough. Still failed: no such header at all, Cache-Control
    no-store (it forbids the caching the sentence asks for), and headers that spare no
    request (max-age=0, a past Expires, no-cache, or directives without a lifetime, each
    with no validator). A validator the host sends must work: one conditional GET with it
    gets 304 Not Modified or the same document. The conditional GET is part of the clause's
    evidence: a 401, 403 or 429 answered to it leaves the clause unjudged. AMB-22, AMB-33.)"""
    final = delivered(woa_fetch)
    found, why = caching(final)
    if why:
        violation(f"the response carrying the document has {why}", readings=(READING,))
    print("caching headers: " + "; ".join(found))
    etag, modified = final.header("etag"), final.header("last-modified")
    if not (etag and etag.strip()) and not _date(modified):
        return  # a freshness lifetime alone: no validator to try
    condition = {"If-None-Match": etag} if etag and etag.strip() else {"If-Modified-Since": modified or ""}
    again = adck_fetcher.get(woa_fetch.url, headers={"Accept": ACCEPT_DOCUMENT, **condition})
    own_fetches.append(again)
    second = again.final
    name, value = next(iter(condition.items()))
    if second is None or (again.error and again.error_kind != "too-large"):
        untestable(f"the conditional GET ({name}: {value}) got no answer: {again.describe_error()}"
                   + (f" (the kit's --timeout of {adck_fetcher.limits.total_timeout:g} s; raise --timeout to judge it)"
                      if again.error_kind == "timeout" else ""))
    if second.status == 304:
        return
    if 200 <= second.status < 300:
        if second.body != final.body:
            violation(f"a conditional GET with {name}: {value} got {second.status} with a different body, "
                      "though the document did not change: the validator does not identify it", readings=(READING,))
        return
    violation(f"a conditional GET with {name}: {value} (the host's own validator) got {second.status} "
              f"{second.reason}, neither 304 Not Modified nor the document", readings=(READING,))
