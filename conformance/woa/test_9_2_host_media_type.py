"""§9.2 The application/woa+json media type (host role)."""

from __future__ import annotations

from conformance.fetch import Fetch
from conformance.outcomes import clause, violation
from conformance.woa._host_fixtures import delivered, media_type

WOA_JSON = "application/woa+json"


@clause("WOA-9.2-01")
def test_9_2_host_serves_application_woa_json(woa_fetch: Fetch) -> None:
    """Applications that use this media type: WoA hosts and clients that exchange WoA
    documents. (The response carrying the document has Content-Type application/woa+json, as
    in §3's figure and Appendix B; media type names compare case-insensitively, parameters
    are not judged. Read as a SHOULD: AMB-08.)"""
    final = delivered(woa_fetch)
    got = media_type(final)
    if got != WOA_JSON:
        shown = final.header("content-type")
        violation(f"the document is served with Content-Type {shown!r}, not {WOA_JSON}" if shown is not None
                  else f"the document is served without a Content-Type header; expected {WOA_JSON}")
