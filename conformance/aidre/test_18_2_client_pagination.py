"""§18.2 Pagination, client role: cursors are opaque."""

from __future__ import annotations

from conformance.aidre import scenario_server
from conformance.aidre._client_fixtures import TEXT, body_of, said, searched
from conformance.outcomes import clause, untestable, violation

#: Cursor formats, one page after another: each invites a different way of "understanding" it.
STYLES = ("base64", "json", "url", "long", "unicode", "padded", "escapes", "base64-std", "controls")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 70 else f"{text[:60]}... ({len(str(value))} characters)"


def _difference(sent: str, given: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(sent, given)) if a != b), min(len(sent), len(given)))
    return (f"{len(sent)} characters sent for the {len(given)} given, first different at character {at} "
            f"(sent {sent[max(at - 8, 0):at + 12]!r}, given {given[max(at - 8, 0):at + 12]!r})")


@clause("AIDRE-18.2-03")
def test_18_2_client_sends_cursors_back_unchanged(aidre_client, aidre_scenarios) -> None:
    """"The client MUST treat cursor values as opaque." The server pages two results at a
    time and mints each next_cursor in another format: base64url of a JSON offset (as in
    18.3), a JSON-looking text, a URL-ish text with ?, &, = and %-escapes, 5,000 characters,
    non-ASCII characters, leading and trailing white space, quotes and backslashes, standard
    base64 with + / =, control characters with a BOM, zero-width and bidi marks. Asked for ten pages, the client must send each cursor back exactly as
    received (the same JSON string, AMB-50) in the request for the next page, and never a
    cursor the server did not give it. The request member is the discovery document's
    limits.cursor_member (the draft names none: AMB-08, AMB-50)."""
    aidre_client.needs("aidre.pagination", "it never asks for a next page")
    scenario = aidre_scenarios.new("opaque-cursors", cursor_styles=STYLES, top_k=2)
    pages = len(STYLES) + 1
    reply = aidre_client.search(scenario, query=TEXT, pages=pages)
    sent = searched(scenario, reply, f"{pages} pages of results")
    answers = scenario.served()
    minted = set(scenario_server.minted(scenario.host))
    member = scenario.cursor_member
    returned = 0
    for index, request in enumerate(sent):
        body = body_of(request)
        value = body.get(member) if isinstance(body, dict) else None
        if value is None:
            if isinstance(body, dict) and any(isinstance(v, str) and v in minted for v in body.values()):
                returned += 1  # the cursor, unchanged, in a member of the client's choosing (AMB-50)
            continue
        if isinstance(value, str) and value in minted:
            returned += 1  # a cursor the server gave, exactly as given
            continue
        given = next((a.next_cursor for a in reversed(answers[:index]) if a.next_cursor), None)
        if given is None:
            violation(f"search request {index + 1} carries {member}={_short(value)}, though the server had given no "
                      f"cursor for it to send (a cursor of the client's own making); {said(reply)}")
        violation(f"search request {index + 1} sent {member}={_short(value)} where the answer to request {index} "
                  f"gave next_cursor={_short(given)}: {_difference(str(value), given)}; {said(reply)}")
    if not returned:
        untestable(f"asked for {pages} pages, the client sent {len(sent)} search request(s) and no cursor back "
                   f"(the first answer gave next_cursor {answers[0].next_cursor if answers else None!r}); {said(reply)}")
