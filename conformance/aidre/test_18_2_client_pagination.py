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


def _cursor_sent(body: object, member: str, minted: set[str]) -> object:
    """The cursor a request body carries: in ``member``, or else, unchanged, in another
    member (AMB-50: the member is the client's choice)."""
    if not isinstance(body, dict):
        return None
    if body.get(member) is not None:
        return body[member]
    return next((v for v in body.values() if isinstance(v, str) and v in minted), None)


def _judge(scenario, reply: dict, what: str) -> int:
    """Each cursor the client sent in ``scenario``: one the server minted, sent unchanged;
    never one after an answer that gave none. The number sent back."""
    sent = searched(scenario, reply, what)
    answers = scenario.served()
    minted = set(scenario_server.minted(scenario.host))
    member = scenario.cursor_member
    returned = 0
    for index, request in enumerate(sent):
        value = _cursor_sent(body_of(request), member, minted)
        if value is None:
            continue
        if isinstance(value, str) and value in minted:
            returned += 1  # a cursor the server gave, exactly as given
            continue
        before = answers[index - 1] if 0 < index <= len(answers) else None
        given = next((a.next_cursor for a in reversed(answers[:index]) if a.next_cursor), None)
        if before is not None and before.next_cursor is None and before.status == 200:
            violation(f"{what}: search request {index + 1} carries {member}={_short(value)}, though the answer to "
                      f"request {index} ({len(before.results)} results) gave no next_cursor: the results had "
                      f"ended, and the cursor is of the client's own making"
                      + (f" (the cursor before was {_short(given)})" if given else "") + f"; {said(reply)}",
                      readings=("AMB-50",))
        if given is None:
            violation(f"{what}: search request {index + 1} carries {member}={_short(value)}, though the server had "
                      f"given no cursor for it to send (a cursor of the client's own making); {said(reply)}",
                      readings=("AMB-50",))
        violation(f"{what}: search request {index + 1} sent {member}={_short(value)} where the answer to request "
                  f"{index} gave next_cursor={_short(given)}: {_difference(str(value), given)}; {said(reply)}",
                  readings=("AMB-50",))
    return returned


@clause("AIDRE-18.2-03")
def test_18_2_client_sends_cursors_back_unchanged(aidre_client, aidre_scenarios) -> None:
    """"The client MUST treat cursor values as opaque." The server pages two results at a
    time and mints each next_cursor in another format: base64url of a JSON offset (as in
    18.3), a JSON-looking text, a URL-ish text with ?, &, = and %-escapes, 5,000 characters,
    non-ASCII characters, leading and trailing white space, quotes and backslashes, standard
    base64 with + / =, control characters with a BOM, zero-width and bidi marks. Asked for ten
    pages, the client must send each cursor back exactly as received (the same JSON string,
    AMB-50) in the request for the next page, and never a cursor the server did not give it.
    Then a search whose four results end on a full second page, the first cursor base64url
    of a JSON offset: asked for four pages, the client sends no third request with a cursor
    (one built from the offset, or from the last result, is of its own making). The request
    member is the client's choice (the draft names none: AMB-08, AMB-50): the scenario's server
    takes the cursor in cursor, or unchanged in any member the draft does not define."""
    aidre_client.needs("aidre.pagination", "it never asks for a next page")
    scenario = aidre_scenarios.new("opaque-cursors", cursor_styles=STYLES, top_k=2)
    pages = len(STYLES) + 1
    reply = aidre_client.search(scenario, query=TEXT, pages=pages)
    answers = scenario.served()
    returned = _judge(scenario, reply, f"asked for {pages} pages of cursors in ten formats")
    ended = aidre_scenarios.new("cursor-end", cursor_styles=("base64",), top_k=2, total=4)
    _judge(ended, aidre_client.search(ended, query=TEXT, pages=4),
           "asked for four pages of a search that finds four results, two a page")
    if not returned:
        untestable(f"asked for {pages} pages, the client sent {len(scenario.searches())} search request(s) and no "
                   f"cursor back (the first answer gave next_cursor "
                   f"{answers[0].next_cursor if answers else None!r}); {said(reply)}")
