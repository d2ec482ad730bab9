"""§4.3.1 REST transport (host role): TLS 1.3 on the REST servers, and what the invocation
endpoint accepts and answers."""

from __future__ import annotations

from conformance.outcomes import clause, untestable, violation
from conformance.woa._host_fixtures import (PROBLEM, REFUSED, Call, Invocations, RestServer, each_case, media_type,
                                            problem_issue)



def tls13_issue(server: RestServer) -> str | None:
    """Why the server does not show TLS 1.3 support (None when it does); *untestable* when
    it was not reached over TLS."""
    __tracebackhide__ = True
    if server.scheme != "https":
        untestable(f"base {server.base!r} is not https: no TLS to judge (see WOA-4.3.1-03, WOA-8.1-01)")
    if server.unreached:
        untestable(server.unreached)
    fetch = server.fetch
    if server.exchange is None or server.exchange.tls_version is None:
        why = fetch.describe_error() if fetch is not None and fetch.error else "no TLS connection"
        untestable(f"the server of {server.base} was not reached over TLS: {why} (see WOA-8.1-01)")
    version = server.exchange.tls_version
    if version != "TLSv1.3":
        return (f"the server of {server.base} negotiated {version} although the kit offered TLS 1.3: "
                "it does not support TLS 1.3")
    return None


@clause("WOA-4.3.1-04")
def test_4_3_1_rest_server_supports_tls13(rest_servers: list[RestServer]) -> None:
    """The URL scheme MUST be "https" and the server SHOULD support TLS 1.3. (The kit offers
    TLS 1.2 and 1.3; a server that supports 1.3 negotiates it. A base on the document's own
    origin is the server the document came from: AMB-23, AMB-30.)"""
    def check(server: RestServer) -> None:
        issue = tls13_issue(server)
        if issue:
            violation(issue)
    each_case(rest_servers, check)


@clause("WOA-4.3.1-12")
def test_4_3_1_host_accepts_post_application_json(invocations: Invocations) -> None:
    """Clients invoking an agent via the REST transport MUST use HTTP POST and MUST send a
    request body encoded as JSON with media type application/json. (The host's side: every
    agent's invocation URL takes a POST of a valid envelope as application/json, with and
    without the charset parameter, and processes it: an answer, and not 406, 415 or 501, nor
    404 or 405 unless another valid envelope of the same agent to the same URL was taken (then
    the 404 is the agent's own answer to that input), and the charset parameter changes
    nothing. The draft sets no time limit: no answer within the kit's --timeout could not be
    judged; a refused or reset connection, or an answer that is not HTTP, fails. What it
    answers is judged by WOA-5.2-06 and WOA-5.2-07: AMB-02, AMB-29.)"""
    calls = invocations.judge(invocations.valid() + _or_nothing(invocations.charset))
    limit = invocations.invoker.fetcher.limits.total_timeout

    def check(call: Call) -> None:
        fetch = call.fetch
        if fetch.error_kind == "timeout":  # the kit's limit, not the draft's (it sets none)
            untestable(f"{call.what}: no answer within the kit's --timeout of {limit:g} s; raise --timeout to judge "
                       f"it ({fetch.describe_error()}) (AMB-29)")
        if fetch.final is None and fetch.error_kind not in ("tls", "insecure-redirect"):
            violation(f"{call.what}: no answer from {call.url} ({fetch.describe_error()})")
        final = call.answer()
        if final.status in REFUSED:
            taken = _taken_at(calls, call) if final.status in (404, 405) else None
            if taken is not None:  # the endpoint takes POSTs: this 404 is the agent's answer to this input
                print(f"{call.what}: {final.status} {final.reason}, though {taken.what} got {taken.final.status} "
                      "at the same URL: the agent's own answer (judged by WOA-5.2-06, WOA-4.2-05), not a refused POST")
                return
            violation(f"{call.what}: POST {call.url} answered {final.status} {final.reason}: the endpoint does not "
                      "take a POST of application/json"
                      + (", and no valid envelope of that agent sent there was taken (AMB-29)"
                         if final.status in (404, 405) else ""))
        if call.kind == "charset":
            plain = next((c for c in invocations.calls if c.kind == "valid" and c.envelope == call.envelope
                          and c.final is not None), None)
            if plain is not None and 200 <= plain.final.status < 300 and not 200 <= final.status < 300:
                violation(f"{call.what}: answered {final.status} {final.reason}, though the same envelope as "
                          f"plain application/json got {plain.final.status}: the charset parameter is refused")
    each_case(calls, check)
    invocations.whole("valid", "charset")


def _taken_at(calls: list[Call], call: Call) -> Call | None:
    """Another valid envelope of ``call``'s agent POSTed to the same URL that the endpoint took
    (an answer that is not a refusal of the request as a whole): AMB-29."""
    agent = call.selection.agent if call.selection is not None else None
    for other in calls:
        if other is call or other.url != call.url or other.final is None \
                or (other.fetch.error and other.fetch.error_kind != "too-large"):
            continue
        if (other.selection.agent if other.selection is not None else None) == agent \
                and other.final.status not in REFUSED:
            return other
    return None


def _or_nothing(kind) -> list[Call]:
    from conformance.outcomes import NotApplicable, Untestable

    try:
        return kind()
    except (NotApplicable, Untestable):
        return []


def _json_media(media: str) -> bool:
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


@clause("WOA-4.3.1-13")
def test_4_3_1_host_responds_with_json(invocations: Invocations) -> None:
    """Hosts using the REST transport MUST respond with JSON. (Every answer of the
    invocation endpoint to the kit's POSTs, success or error: valid inputs, invalid ones, a
    body that is not JSON, an unknown operation, mismatched agents, has a JSON media type
    (application/json or a +json type) and a body that parses as JSON: AMB-15.)"""
    calls = invocations.judge(invocations.everything())

    def check(call: Call) -> None:
        final = call.answer()
        media = media_type(final)
        if not _json_media(media):
            shown = final.header("content-type")
            violation(f"{call.what}: answered {final.status} with Content-Type {shown!r}, not a JSON media type"
                      if shown is not None else f"{call.what}: answered {final.status} without a Content-Type")
        if final.body_truncated:
            untestable(f"{call.what}: the answer is larger than the kit reads (--max-body)")
        parsed, _ = call.json()
        if not parsed:
            violation(f"{call.what}: answered {final.status} {media} with a body that is not JSON: "
                      f"{final.body[:80]!r}")
    each_case(calls, check)
    invocations.whole()


@clause("WOA-4.3.1-14")
def test_4_3_1_host_errors_are_problem_json(invocations: Invocations) -> None:
    """Hosts using the REST transport ... SHOULD use the application/problem+json media type
    for errors as specified in [RFC9457]. (Every 4xx and 5xx answer of the endpoint has
    Content-Type application/problem+json and a JSON object body whose RFC 9457 members have
    their types. The 400s to mismatched envelopes are judged by WOA-5.2-05, the same request
    said of that case: AMB-26.)"""
    calls = [c for c in invocations.everything() if c.kind != "mismatch"]
    errors = invocations.judge([c for c in calls if c.final is not None and c.final.status >= 400])
    if not errors:
        invocations.whole()
        untestable("no invocation the kit sent got a 4xx or 5xx answer (see WOA-5.2-07)")

    def check(call: Call) -> None:
        final = call.answer()
        if media_type(final) != PROBLEM:
            violation(f"{call.what}: the {final.status} error has Content-Type {final.header('content-type')!r}, "
                      f"not {PROBLEM}")
        parsed, value = call.json()
        if not parsed:
            violation(f"{call.what}: the {final.status} error's body is not JSON")
        issue = problem_issue(value)
        if issue:
            violation(f"{call.what}: the {final.status} error is {PROBLEM} but {issue}")
    each_case(errors, check)
    invocations.whole()
