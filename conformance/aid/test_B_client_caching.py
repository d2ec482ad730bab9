"""Appendix B Manifest Caching for Clients (client): HTTP caching decides when the client
fetches the manifest again, contentVersion decides when it re-processes it (AMB-28).

Each test visits one scenario several times in one session (the client keeps its memory),
moving the client's clock forward between visits, and judges from the requests the client
sent for the manifest and the connection it would open each time.
"""

from __future__ import annotations

from datetime import timedelta

from conformance.aid.clients import (AidClient, AidScenario, AidScenarios, MANIFEST_PATH, connected_to, found_record,
                                     manifest, record, remote, said)
from conformance.outcomes import clause, untestable, violation
from conformance.world.scenarios import Recorded


#: The Last-Modified date of a manifest served without an ETag.
LAST_MODIFIED = "Mon, 30 Jun 2025 08:00:00 GMT"


def _header(request: Recorded, name: str) -> str | None:
    """A request header, whatever the case of its name."""
    return next((v for k, v in request.headers.items() if k.lower() == name.lower()), None)


def _first_visit(client: AidClient, scenario: AidScenario, session: str, uri: str) -> int:
    """The first visit: the client fetches the manifest and connects to ``uri`` (else the
    later visits cannot be judged). Returns how many manifest requests it sent."""
    __tracebackhide__ = True
    reply = client.discover(scenario, session=session)
    found_record(reply)
    sent = len(scenario.requests(MANIFEST_PATH))
    if not sent:
        untestable(f"the record holds config={scenario.url(MANIFEST_PATH)} and the client never fetched it "
                   f"(see AID-2.3-08); {said(reply)}")
    if connected_to(reply) != uri:
        untestable(f"the manifest's only implementation is at {uri} and on the first visit {said(reply)} "
                   "(see AID-2.3-08)")
    return sent


@clause("AID-B-03")
def test_B_client_respects_http_caching(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST** respect standard HTTP caching headers (`Cache-Control`, `ETag`,
    `Last-Modified`) returned by the server."""
    client.needs("aid.manifest", "HTTP caching of the manifest (Appendix B) concerns clients that fetch it")
    # 1. max-age=3600 with an ETag: fresh for an hour (no request), then revalidated (304 reused).
    fresh = scenarios.new("cached-manifest", record(config=True),
                          manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")),
                          routes=[{"path": MANIFEST_PATH, "headers": {"Cache-Control": "max-age=3600", "ETag": '"v1"'}}])
    uri = f"https://cloud.{fresh.host}/agent"
    session = client.session(fresh)
    sent = _first_visit(client, fresh, session, uri)
    reply = client.discover(fresh, at=timedelta(minutes=10), session=session)
    again = fresh.requests(MANIFEST_PATH)[sent:]
    if again:
        violation(f"the manifest was served with Cache-Control: max-age=3600, and ten minutes later the client "
                  f"sent {again[0].method} {again[0].path} again (headers {again[0].headers}); {said(reply)}")
    if connected_to(reply) != uri:
        violation(f"ten minutes into max-age=3600 the stored manifest is fresh (its only implementation is at "
                  f"{uri}), and {said(reply)}")
    fresh.change(routes=[{"path": MANIFEST_PATH, "status": 304, "body": "empty", "remove_headers": ["Content-Type"]}])
    reply = client.discover(fresh, at=timedelta(hours=2), session=session)
    stale = fresh.requests(MANIFEST_PATH)[sent:]
    if not stale:
        violation("two hours after a response with max-age=3600 the stored manifest is stale, and the client "
                  f"used it without asking the server again; {said(reply)}")
    validators = {name: _header(stale[0], name) for name in ("If-None-Match", "If-Modified-Since")}
    if '"v1"' not in (validators["If-None-Match"] or ""):
        violation(f'the stale manifest was served with ETag "v1", and the client revalidated it without '
                  f"If-None-Match: \"v1\" (it sent {stale[0].method} {stale[0].path} with headers {stale[0].headers})")
    if connected_to(reply) != uri:
        violation(f"the server answered 304 Not Modified to If-None-Match, so the stored manifest (its only "
                  f"implementation at {uri}) is still the one to use, and {said(reply)}")
    # 2. Last-Modified alone (no ETag): a stale manifest is revalidated with If-Modified-Since.
    dated = scenarios.new("last-modified", record(config=True),
                          manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")),
                          routes=[{"path": MANIFEST_PATH, "headers": {"Cache-Control": "max-age=60",
                                                                       "Last-Modified": LAST_MODIFIED}}])
    session = client.session(dated)
    sent = _first_visit(client, dated, session, f"https://cloud.{dated.host}/agent")
    reply = client.discover(dated, at=timedelta(minutes=5), session=session)
    stale = dated.requests(MANIFEST_PATH)[sent:]
    if not stale:
        violation("five minutes after a response with max-age=60 the stored manifest is stale, and the client "
                  f"used it without asking the server again; {said(reply)}")
    if _header(stale[0], "If-Modified-Since") != LAST_MODIFIED:
        violation(f"the stale manifest was served with Last-Modified: {LAST_MODIFIED} (no ETag), and the client "
                  f"revalidated it without If-Modified-Since: {LAST_MODIFIED} (it sent {stale[0].method} "
                  f"{stale[0].path} with headers {stale[0].headers})")
    # 3. no-cache and no-store: every later use goes to the server again.
    for directive in ("no-cache", "no-store"):
        scenario = scenarios.new(directive, record(config=True),
                                 manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")),
                                 routes=[{"path": MANIFEST_PATH, "headers": {"Cache-Control": directive, "ETag": '"v1"'}}])
        uri = f"https://cloud.{scenario.host}/agent"
        session = client.session(scenario)
        sent = _first_visit(client, scenario, session, uri)
        reply = client.discover(scenario, at=timedelta(minutes=1), session=session)
        if not scenario.requests(MANIFEST_PATH)[sent:]:
            violation(f"the manifest was served with Cache-Control: {directive}, and a minute later the client "
                      f"used it again without asking the server; {said(reply)}")


@clause("AID-B-05")
def test_B_client_reprocesses_manifest_with_new_content_version(client: AidClient, scenarios: AidScenarios) -> None:
    """If the `contentVersion` strings differ, the client **MUST** treat the manifest as
    updated and re-process it."""
    client.needs("aid.manifest", "contentVersion (Appendix B) is a manifest member")
    # no-store: the client asks every time, unconditionally (the world answers a matching
    # If-None-Match with 304); the ETag stays the same, only contentVersion tells.
    scenario = scenarios.new("content-version", record(config=True),
                             manifest=manifest(remote("Cloud", "https://v1.{host}/agent"), content_version="2025-07-01.1"),
                             routes=[{"path": MANIFEST_PATH, "headers": {"Cache-Control": "no-store", "ETag": '"m1"'}}])
    old, new = f"https://v1.{scenario.host}/agent", f"https://v2.{scenario.host}/agent"
    session = client.session(scenario)
    sent = _first_visit(client, scenario, session, old)
    scenario.change(manifest=manifest(remote("Cloud", "https://v2.{host}/agent"), content_version="2025-07-02.1"))
    reply = client.discover(scenario, at=timedelta(minutes=10), session=session)
    fetched = [r for r in scenario.requests(MANIFEST_PATH)[sent:] if r.status == 200]
    if not fetched:
        untestable("the manifest was served with Cache-Control: no-store, and on the second visit the client did "
                   f"not fetch it again (see AID-B-03); {said(reply)}")
    if connected_to(reply) != new:
        violation(f"the manifest fetched on the second visit has contentVersion 2025-07-02.1 (it was 2025-07-01.1) "
                  f"and its only implementation moved from {old} to {new}, and {said(reply)}")
    # "differ", not "is newer": a contentVersion that sorts before the last one is an update too
    third = f"https://v3.{scenario.host}/agent"
    scenario.change(manifest=manifest(remote("Cloud", "https://v3.{host}/agent"), content_version="2025-06-30.7"))
    reply = client.discover(scenario, at=timedelta(minutes=20), session=session)
    if connected_to(reply) != third:
        violation(f"the manifest fetched on the third visit has contentVersion 2025-06-30.7 (it was 2025-07-02.1: "
                  f"different, though it sorts before) and its only implementation moved to {third}, and {said(reply)}")
