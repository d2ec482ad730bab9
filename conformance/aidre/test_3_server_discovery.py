"""§3 Discovery: the discovery document at /.well-known/ai-discovery, over HTTPS, as JSON."""

from __future__ import annotations

from conformance.document import Document, kind_name
from conformance.fetch import Fetch
from conformance.outcomes import clause, untestable, violation


@clause("AIDRE-3.1-01")
def test_3_1_discovery_document_at_well_known_over_https(discovery_fetch: Fetch) -> None:
    """An origin implementing AIDRE MUST expose the discovery document at
    /.well-known/ai-discovery over HTTPS: a 200 whose body is a JSON object, reached without
    leaving https (AMB-18)."""
    fetch = discovery_fetch
    if fetch.error_kind == "insecure-redirect":
        violation(f"{fetch.url} redirects to plain http ({fetch.describe_error()}); the document must be served over HTTPS")
    if not fetch.url.startswith("https://"):
        violation(f"the origin was reached over plain http ({fetch.url}); the discovery document must be served over HTTPS")
    if fetch.error and fetch.error_kind not in ("too-large",):
        violation(f"GET {fetch.url} did not yield the discovery document: {fetch.describe_error()}")
    final = fetch.final
    if final is None:  # pragma: no cover - a fetch without error has a response
        untestable(f"no response to {fetch.url}")
    if not 200 <= final.status < 300:  # which 2xx is the 200 row's (AIDRE-15.4-02)
        violation(f"GET {fetch.url} answered {final.status} {final.reason}, not the discovery document")
    if fetch.error_kind == "too-large":
        untestable("the body is larger than the kit reads (--max-body); it cannot tell whether it is a JSON object")
    document = Document.from_fetch(fetch)
    if document.unreadable:
        untestable(f"{document.unreadable} (see AIDRE-14.2-01)")
    if document.parse_error:
        violation(f"the body at {fetch.final_url} is not JSON: {document.parse_error}")
    if not isinstance(document.value(), dict):
        violation(f"the body at {fetch.final_url} is a JSON {kind_name(document.value())}, not a discovery document object")


@clause("AIDRE-3.2-01")
def test_3_2_discovery_document_served_as_application_json(discovery_fetch: Fetch, discovery: Document) -> None:
    """The discovery document MUST be served as application/json (application/aidre+json,
    which 14.1 and the draft's own 24.1 use, is accepted too: AMB-02)."""
    final = discovery_fetch.final
    assert final is not None
    header = final.header("content-type")
    media = (header or "").split(";")[0].strip().lower()
    if media not in ("application/json", "application/aidre+json"):
        violation(f"the discovery document came as {header or 'no Content-Type'}; expected application/json "
                  "(or application/aidre+json, AMB-02)")
