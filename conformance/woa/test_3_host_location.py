"""§3 Overview: the host serves its WoA document at the well-known location (host role)."""

from __future__ import annotations

from conformance.fetch import Fetch
from conformance.outcomes import clause, untestable, violation


@clause("WOA-3-01")
def test_3_host_serves_document_at_well_known_path(woa_fetch: Fetch) -> None:
    """A typical deployment has an HTTP origin that serves a WoA document at a well known
    path, and one or more transports that accept invocation requests. (GET
    /.well-known/woa.json, the path of §3's figure and of the suffix registered in §9.1, gets
    a 2xx response, after redirects within the kit's limits: AMB-02, AMB-08. What the body
    holds is the document role's to judge.)"""
    final = woa_fetch.final
    if woa_fetch.error_kind in ("tls", "insecure-redirect"):
        untestable(f"no HTTPS connection to {woa_fetch.url}: {woa_fetch.describe_error()} (see WOA-8.1-01)")
    if woa_fetch.error and (final is None or final.status in (301, 302, 303, 307, 308)):
        violation(f"GET {woa_fetch.url} got no document: {woa_fetch.describe_error()}")
    assert final is not None
    if not 200 <= final.status < 300:
        violation(f"GET {woa_fetch.url} answered {final.status} {final.reason}, not 2xx with the WoA document")
    if woa_fetch.error and woa_fetch.error_kind != "too-large":
        violation(f"GET {woa_fetch.url} answered {final.status} but the body did not arrive whole: "
                  f"{woa_fetch.describe_error()}")
