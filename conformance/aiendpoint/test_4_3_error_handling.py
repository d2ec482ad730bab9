"""§4.3 Error Handling (agent role)."""

from __future__ import annotations

import json
from datetime import timedelta

from conformance.aiendpoint.conftest import T0, Client, Scenarios, each, said, second_visit
from conformance.generated import generated, shown
from conformance.outcomes import clause, untestable, violation
from conformance.world.site import load_reference

_REFERENCE = load_reference("aiendpoint").document
_TEXT = {"body": "text", "headers": {"Content-Type": "text/plain"}, "remove_headers": ["Cache-Control"]}


@clause("AIE-4.3-01")
def test_4_3_agent_handles_server_errors_gracefully(client: Client, scenarios: Scenarios) -> None:
    """AI agents MUST handle the following error conditions gracefully: ... HTTP 5xx ... HTTP
    429. (Each 5xx status a server sends, with an HTML or a JSON error body, and a 429
    whose Retry-After is a date in the past or not a value at all: no exception escapes the
    client, and no document is reported.)"""
    json_error = {"body": "text", "text": '{"error": "unavailable"}', "headers": {"Content-Type": "application/json"},
                  "remove_headers": ["Cache-Control"]}
    cases = [(status, {"status": status, "text": "<html>oops</html>", **_TEXT}) for status in (500, 502, 503, 504)]
    cases += [(500, {"status": 500, **json_error})]
    cases += [(429, {"status": 429, "text": "slow down", "body": "text", "remove_headers": ["Cache-Control"],
                     "headers": {"Content-Type": "text/plain", "Retry-After": value}})
              for value in ("Sat, 14 Mar 2026 12:00:00 GMT", "soon", "-5", "1.5")]

    def check(case: tuple[int, dict]) -> None:
        status, route = case
        s = scenarios.new("server-error", routes=[{"path": "/.well-known/ai", **route}])
        reply = client.discover(s)
        shown_route = f"{status}" + (f" (Retry-After: {route['headers']['Retry-After']})" if status == 429 else "")
        if reply.get("error_kind") == "unhandled":
            violation(f"the client raised on a {shown_route} instead of handling it: "
                      f"{'; '.join(reply.get('messages', []))[:200]}")
        if reply["outcome"] == "document":
            violation(f"the client reports a document although the service answered {shown_route}")

    each(cases, check)


@clause("AIE-4.3-02")
def test_4_3_agent_does_not_retry_404_within_24_hours(client: Client, scenarios: Scenarios) -> None:
    """HTTP 404 (Not Found): ... The agent MUST NOT retry the request for the same authority
    within a reasonable period (RECOMMENDED: 24 hours). (A retry in the same step counts, as
    does one a minute or an hour later; the /ai fallback that 4.1
    allows is not a retry of the request. The kit reads "a reasonable period" as at least an
    hour, AMB-19: a quiet period between an hour and the RECOMMENDED 24 hours is not judged.)"""

    def check(later: timedelta) -> None:
        s = scenarios.new("not-found-twice", routes=[{"path": "/.well-known/ai", "status": 404, "text": "no", **_TEXT}])
        _, _, first, again = second_visit(client, s, later)
        if not first:
            untestable("the client sent no request the first time")
        asked = [r for r in first if r.path == "/.well-known/ai"]
        if len(asked) > 1:
            violation(f"after a 404 the client asked for /.well-known/ai {len(asked)} times in the same step")
        if again:
            violation(f"{_ago(later)} after a 404 the client sent {again[0].method} {again[0].path} "
                      "to the same authority")

    each([timedelta(minutes=1), timedelta(hours=1)], check)


def _ago(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    return f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds} s"


def _retry_after_cases() -> list[tuple[str, timedelta]]:
    """Retry-After values (delay-seconds and the HTTP-date forms of RFC 9110, relative to the
    clock's start T0) and when the client asks again, each before the wait is over."""
    from werkzeug.http import http_date

    hour, minute = timedelta(hours=1), timedelta(minutes=1)
    return [
        ("120", minute),
        ("3600", 10 * minute),
        ("86400", 12 * hour),
        (http_date(T0 + 2 * hour), 10 * minute),                       # IMF-fixdate
        ((T0 + 3 * hour).strftime("%A, %d-%b-%y %H:%M:%S GMT"), hour),  # RFC 850 (obsolete form)
        ((T0 + 3 * hour).strftime("%a %b %d %H:%M:%S %Y"), hour),       # asctime (obsolete form)
    ]


@clause("AIE-4.3-04")
def test_4_3_agent_respects_retry_after(client: Client, scenarios: Scenarios) -> None:
    """HTTP 429 (Too Many Requests): ... The agent MUST respect the Retry-After header if present.
    (Delay-seconds, small and large, and HTTP-dates in each of the three forms RFC 9110 makes
    recipients accept; the client asks again before the wait is over, and may not retry in
    the same step either. A date in the past or an invalid value asks for no wait: 4.3-01.)"""

    def check(case: tuple[str, timedelta]) -> None:
        value, later = case
        s = scenarios.new("rate-limited", routes=[{
            "path": "/.well-known/ai", "status": 429, "text": "slow down", "body": "text",
            "headers": {"Content-Type": "text/plain", "Retry-After": value}, "remove_headers": ["Cache-Control"]}])
        _, _, first, again = second_visit(client, s, later)
        if not first:
            untestable("the client sent no request the first time")
        asked = [r for r in first if r.path == "/.well-known/ai"]
        if len(asked) > 1:
            violation(f"Retry-After: {value}: the client asked for /.well-known/ai {len(asked)} times in the same step")
        if again:
            violation(f"Retry-After: {value}: {_ago(later)} later the client sent {again[0].method} {again[0].path}")

    each(_retry_after_cases(), check)


@clause("AIE-4.3-04")
def test_4_3_agent_respects_generated_retry_after(client: Client, scenarios: Scenarios, adck_seed: int) -> None:
    """The agent MUST respect the Retry-After header if present. Hypothesis draws the wait
    (2 s to 2 days), its form (delay-seconds or IMF-fixdate) and when, before the wait is
    over, the client asks again."""
    from hypothesis import given
    from hypothesis import strategies as st
    from werkzeug.http import http_date

    from conformance.generated import generated

    @generated(adck_seed, max_examples=4)
    @given(wait=st.integers(2, 2 * 86400), as_date=st.booleans(), share=st.floats(0.0, 0.99))
    def check(wait: int, as_date: bool, share: float) -> None:
        later = timedelta(seconds=max(1, min(wait - 1, int(wait * share))))
        value = http_date(T0 + timedelta(seconds=wait)) if as_date else str(wait)
        s = scenarios.new("generated-rate-limited", routes=[{
            "path": "/.well-known/ai", "status": 429, "text": "slow down", "body": "text",
            "headers": {"Content-Type": "text/plain", "Retry-After": value}, "remove_headers": ["Cache-Control"]}])
        _, _, first, again = second_visit(client, s, later)
        if first and again:
            violation(f"Retry-After: {value}: {_ago(later)} later the client sent {again[0].method} {again[0].path}")

    check()


#: Bodies served as application/json that are not valid JSON (RFC 8259): cut short, empty,
#: HTML, and the extensions lenient parsers accept (JSON5, JavaScript literals).
NOT_JSON = {
    "cut short": '{"aiendpoint": "1.0", "service": {',
    "empty": "",
    "an HTML page": "<!doctype html><title>Notes</title>",
    "a trailing comma": json.dumps(_REFERENCE)[:-1] + ', }',
    "a comment": "// discovery\n" + json.dumps(_REFERENCE),
    "NaN": json.dumps(_REFERENCE)[:-1] + ', "meta": {"score": NaN}}',
    "single quotes": json.dumps(_REFERENCE).replace('"aiendpoint"', "'aiendpoint'", 1),
    "trailing text": json.dumps(_REFERENCE) + " and more",
}


@clause("AIE-4.3-05")
def test_4_3_agent_treats_invalid_json_as_not_implemented(client: Client, scenarios: Scenarios) -> None:
    """Invalid JSON: If the response body cannot be parsed as valid JSON, the agent MUST treat
    the service as not implementing this specification. (Bodies that RFC 8259 does not allow,
    each served 200 as application/json.)"""

    def check(item: tuple[str, str]) -> None:
        name, text = item
        s = scenarios.new("invalid-json", routes=[{"path": "/.well-known/ai", "body": "text", "text": text}])
        reply = client.discover(s)
        if reply["outcome"] != "none":
            violation(f"the body was not JSON ({name}) and {said(reply)}, not 'none' "
                      "(the service does not implement the draft)")

    each(NOT_JSON.items(), check)


@clause("AIE-4.3-06")
def test_4_3_agent_treats_missing_fields_as_invalid(client: Client, scenarios: Scenarios) -> None:
    """Schema Violation: If the parsed JSON does not contain the required fields, the agent
    SHOULD treat the document as invalid.
    (Each required field left out in turn.)"""

    def check(field: str) -> None:
        s = scenarios.new(f"missing-{field}", patch=[{"op": "remove", "path": f"/{field}"}])
        reply = client.discover(s)
        if reply["outcome"] == "document":
            violation(f"the document lacks {field} and the client accepted it")

    each(["aiendpoint", "service", "capabilities"], check)


@clause("AIE-4.3-06")
def test_4_3_agent_rejects_generated_documents_missing_fields(client: Client, scenarios: Scenarios,
                                                              adck_seed: int) -> None:
    """If the parsed JSON does not contain the required fields, the agent SHOULD treat the
    document as invalid. Hypothesis drops required fields from valid documents."""
    from hypothesis import example, given
    from hypothesis import strategies as st

    from conformance.aiendpoint.strategies import documents
    from conformance.world.site import load_reference

    required = ["aiendpoint", "service", "capabilities"]
    reference = load_reference("aiendpoint").document

    @generated(adck_seed)
    @example(document=reference, drop=["service"])
    @given(document=documents(), drop=st.lists(st.sampled_from(required), min_size=1, max_size=3, unique=True))
    def check(document: dict, drop: list[str]) -> None:
        broken = {k: v for k, v in document.items() if k not in drop}
        s = scenarios.new("generated-missing-fields", patch=[{"op": "replace", "path": "", "value": broken}])
        reply = client.discover(s)
        if reply["outcome"] == "document":
            violation(f"a document without {', '.join(drop)} was accepted: {shown(broken)}")

    check()


@clause("AIE-4.3-05")
def test_4_3_agent_treats_generated_non_json_as_not_implemented(client: Client, scenarios: Scenarios,
                                                               adck_seed: int) -> None:
    """If the response body cannot be parsed as valid JSON, the agent MUST treat the service as
    not implementing this specification. Hypothesis cuts valid documents short."""
    import json

    from hypothesis import example, given
    from hypothesis import strategies as st

    from conformance.aiendpoint.strategies import documents
    from conformance.world.site import load_reference

    reference = json.dumps(load_reference("aiendpoint").document)

    @generated(adck_seed)
    @example(text=reference[: len(reference) // 2])
    @given(text=st.builds(lambda d, f: (t := json.dumps(d))[: max(1, int(len(t) * f))],
                          documents(), st.floats(0.05, 0.95)))
    def check(text: str) -> None:
        s = scenarios.new("generated-cut-json", routes=[{"path": "/.well-known/ai", "body": "text", "text": text}])
        reply = client.discover(s)
        if reply["outcome"] != "none":
            violation(f"a body cut short ({len(text)} characters, not JSON) was served and {said(reply)}")

    check()
