"""§7 Caching (host role)."""

from __future__ import annotations

from conformance.fetch import Fetch, Fetcher
from conformance.outcomes import clause, untestable, violation
from conformance.woa._host_fixtures import ACCEPT_DOCUMENT, Fetches, delivered


#: Response directives of Cache-Control a cache acts on: RFC 9111 5.2.2, and the registered
#: extensions immutable (RFC 8246), stale-while-revalidate and stale-if-error (RFC 5861).
_DIRECTIVES = {"max-age", "s-maxage", "no-cache", "no-store", "private", "public", "must-revalidate",
               "proxy-revalidate", "must-understand", "no-transform", "immutable", "stale-while-revalidate",
               "stale-if-error"}


@clause("WOA-7-01")
def test_7_host_sends_caching_headers(woa_fetch: Fetch, adck_fetcher: Fetcher, own_fetches: Fetches) -> None:
    """Hosts SHOULD include HTTP caching headers, such as ETag, Last-Modified, and
    appropriate Cache-Control directives, on responses that carry a WoA document. (The 200
    has Cache-Control with a directive a cache acts on (RFC 9111 5.2.2) and a validator, ETag
    or Last-Modified; one conditional GET with the
    validator gets 304 Not Modified or the same document: a validator the host does not
    honour is no validator. The conditional GET is part of the clause's evidence: a 401, 403
    or 429 answered to it leaves the clause unjudged, as any other. AMB-22.)"""
    final = delivered(woa_fetch)
    etag, modified = final.header("etag"), final.header("last-modified")
    missing = [name for name, value in (("Cache-Control", final.header("cache-control")),) if not value]
    if not etag and not modified:
        missing.append("a validator (ETag or Last-Modified)")
    if missing:
        violation("the response carrying the document has no " + " and no ".join(missing))
    cache_control = final.header("cache-control") or ""
    if not {part.split("=", 1)[0].strip().lower() for part in cache_control.split(",")} & _DIRECTIVES:
        violation(f"Cache-Control {cache_control!r} holds no directive a cache acts on (RFC 9111 5.2.2)")
    condition = {"If-None-Match": etag} if etag else {"If-Modified-Since": modified or ""}
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
                      "though the document did not change: the validator does not identify it")
        return
    violation(f"a conditional GET with {name}: {value} (the host's own validator) got {second.status} "
              f"{second.reason}, neither 304 Not Modified nor the document")
