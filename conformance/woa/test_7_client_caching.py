"""§7 Caching (client): polling a host's document, the client honours its caching headers
(RFC 9111: AMB-22). Each case visits one origin several times in one session (the client keeps
its cache), moving the client's clock forward between visits (``now``), and judges from the
requests the client sent for the document."""

from __future__ import annotations

from datetime import timedelta

from conformance.outcomes import clause, untestable, violation
from conformance.woa._client_fixtures import WELL_KNOWN, WoaClient, WoaScenarios, each, said
from conformance.world.scenarios import Recorded

LAST_MODIFIED = "Sun, 15 Mar 2026 11:00:00 GMT"


def _header(request: Recorded, name: str) -> str | None:
    return next((v for k, v in request.headers.items() if k.lower() == name.lower()), None)


def _document_requests(scenario) -> list[Recorded]:
    return [r for r in scenario.requests() if r.path == WELL_KNOWN]


def _case(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: str) -> None:
    __tracebackhide__ = True
    headers = {
        "fresh-then-stale": {"Cache-Control": "max-age=300", "ETag": '"woa-7"'},
        "last-modified": {"Cache-Control": "max-age=60", "Last-Modified": LAST_MODIFIED},
        "no-store": {"Cache-Control": "no-store", "ETag": '"woa-7"'},
        "weak-etag": {"Cache-Control": "max-age=60", "ETag": 'W/"woa-7"'},
    }[case]
    s = woa_scenarios.new(f"caching-{case}", routes=[{"path": WELL_KNOWN, "method": "GET", "headers": headers,
                                                      "remove_headers": ["ETag", "Last-Modified", "Cache-Control"]}])
    session = woa_client.session(s)
    reply = woa_client.discover(woa_scenarios, s, session=session)
    if reply.get("outcome") != "document" or not _document_requests(s):
        untestable(f"{case}: on the first visit {said(reply)}, not the document the origin serves (see WOA-3-02)")
    seen = len(_document_requests(s))
    if case == "fresh-then-stale":
        reply = woa_client.discover(woa_scenarios, s, session=session, at=timedelta(minutes=1))
        again = _document_requests(s)[seen:]
        if again:
            violation(f"{case}: the document was served with Cache-Control: max-age=300, and a minute later the client "
                      f"sent GET {WELL_KNOWN} again (headers {again[0].headers}); {said(reply)}")
        reply = woa_client.discover(woa_scenarios, s, session=session, at=timedelta(minutes=10))
        stale = _document_requests(s)[seen:]
        if not stale:
            violation(f"{case}: ten minutes after a response with max-age=300 the stored document is stale, and the "
                      f"client used it without asking the host; {said(reply)}")
        if '"woa-7"' not in (_header(stale[0], "If-None-Match") or ""):
            violation(f'{case}: the stale document was served with ETag "woa-7", and the client asked again without '
                      f'If-None-Match: "woa-7" (headers {stale[0].headers})')
        if reply.get("outcome") != "document":
            violation(f"{case}: the host answered 304 Not Modified to If-None-Match, so the stored document is "
                      f"current, and {said(reply)}")
    elif case == "last-modified":
        reply = woa_client.discover(woa_scenarios, s, session=session, at=timedelta(minutes=5))
        stale = _document_requests(s)[seen:]
        if not stale:
            violation(f"{case}: five minutes after a response with max-age=60 the stored document is stale, and the "
                      f"client used it without asking the host; {said(reply)}")
        if _header(stale[0], "If-Modified-Since") != LAST_MODIFIED:
            violation(f"{case}: the stale document was served with Last-Modified: {LAST_MODIFIED} (no ETag), and the "
                      f"client asked again without If-Modified-Since: {LAST_MODIFIED} (headers {stale[0].headers})")
    elif case == "weak-etag":
        reply = woa_client.discover(woa_scenarios, s, session=session, at=timedelta(minutes=5))
        stale = _document_requests(s)[seen:]
        if not stale:
            violation(f"{case}: five minutes after a response with max-age=60 the stored document is stale, and the "
                      f"client used it without asking the host; {said(reply)}")
        if 'W/"woa-7"' not in (_header(stale[0], "If-None-Match") or ""):
            violation(f'{case}: the stale document was served with the weak ETag W/"woa-7", and the client asked '
                      f'again without If-None-Match: W/"woa-7" (headers {stale[0].headers}): a weak tag is sent back '
                      "as it came (RFC 9110 13.1.2)")
    else:
        reply = woa_client.discover(woa_scenarios, s, session=session, at=timedelta(minutes=1))
        again = _document_requests(s)[seen:]
        if not again:
            violation(f"{case}: the document was served with Cache-Control: no-store, and a minute later the client "
                      f"used a copy without asking the host; {said(reply)}")
        if _header(again[0], "If-None-Match") or _header(again[0], "If-Modified-Since"):
            violation(f'{case}: the document was served with Cache-Control: no-store (and ETag "woa-7"), and the '
                      f"client revalidated a stored copy (headers {again[0].headers}): it stored the response")


@clause("WOA-7-02")
def test_7_client_honours_caching_headers(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """Clients SHOULD honor these headers when polling for updates. (No request while the
    stored document is fresh by max-age; a conditional request with its ETag (a weak one as it
    came, W/ included) or Last-Modified once stale, the stored copy used on 304; nothing
    stored under no-store: AMB-22.)"""
    each(["fresh-then-stale", "last-modified", "no-store", "weak-etag"],
         lambda case: _case(woa_client, woa_scenarios, case))
