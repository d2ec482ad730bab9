"""§8 Errors over the kit's HTTP binding: structured objects, recommended codes, HTTP statuses."""

from __future__ import annotations

from conformance.adp._service_fixtures import NOT_JSON, STATUS_OF, Answer, Probe, reached
from conformance.outcomes import clause, untestable, violation


#: Malformed Discovery Requests: each is invalid_request's case (AMB-10).
MALFORMED = (("a request without query", {"limit": 3}),
             ("a request whose limit is a string", {"query": "find an agent", "limit": "ten"}),
             ("a request that is a JSON array", [{"query": "find an agent"}]))


def provoked(service: Probe) -> list[tuple[str, str, Answer]]:
    """(case, the code the table gives it, the answer) for each error the kit provokes; a D0
    service answers no Discovery Request (AMB-01), so only its agent resource is provoked."""
    out = []
    for case, body in MALFORMED if service.discovers() else ():
        answer = service.discover(body)
        reached(answer, case)
        out.append((case, "invalid_request", answer))
    missing = service.get_agent(f"urn:adck:test:{service.token}:nobody")
    reached(missing, "GET of an unknown agent")
    out.append(("GET of an unknown agent", "not_found", missing))
    return out


@clause("ADP-8-01")
def test_8_errors_are_structured_objects(service: Probe) -> None:
    """If this profile is carried over a request/response protocol, errors SHOULD be returned as
    structured objects: each error the kit provokes (a request without query, a wrong type, a
    body that is not an object, an unknown agent id) is answered with a JSON object body."""
    problems, judged = [], 0
    for case, _, answer in provoked(service):
        if answer.ok:
            continue  # not treated as an error: ADP-8-06's case
        judged += 1
        if not isinstance(answer.value, dict):
            body = "a body that is not JSON" if answer.value is NOT_JSON else f"a JSON {type(answer.value).__name__}"
            problems.append(f"{case} was answered {answer.status} with {body}")
    if not judged:
        untestable("no error was provoked")
    if problems:
        violation("; ".join(problems))


@clause("ADP-8-06")
def test_8_recommended_error_codes(service: Probe) -> None:
    """The following error codes are RECOMMENDED: invalid_request for a malformed Discovery
    Request, not_found for an unknown agent id, each error answered with its table's code
    (AMB-10). A malformed request the service answers anyway (a Discovery Response) is no error,
    and no code is due (AMB-55)."""
    problems, judged = [], 0
    for case, code, answer in provoked(service):
        if answer.ok and not is_error_object(answer):
            continue  # answered, not treated as an error: no code is due (AMB-55)
        if not isinstance(answer.value, dict):
            continue  # not an object: ADP-8-01's case
        judged += 1
        if answer.code != code:
            problems.append(f"{case} was answered with code {answer.code!r}")
    if not judged and not problems:
        untestable("no error object was answered (see ADP-8-01; a malformed request answered is no error, AMB-55)")
    if problems:
        violation("; ".join(problems), readings=("AMB-10",))


def is_error_object(answer: Answer) -> bool:
    """An error object (8): a JSON object with a code and no candidates."""
    value = answer.value
    return isinstance(value, dict) and "code" in value and "candidates" not in value


@clause("ADP-8-07")
def test_8_http_status_mapping(service: Probe) -> None:
    """HTTP bindings, if used, SHOULD map these errors to conventional HTTP status codes: each
    provoked error's status is its code's (invalid_request 400 or 422, not_found 404 or 410,
    AMB-10), read from the code the answer gives, else from the case; a 2xx carrying an error
    object fails, a malformed request answered with a Discovery Response is no error (AMB-55)."""
    problems = []
    for case, code, answer in provoked(service):
        if answer.ok and not is_error_object(answer):
            continue  # answered, not treated as an error: no error status is due (AMB-55)
        said = answer.code if isinstance(answer.code, str) and answer.code in STATUS_OF else code
        if answer.status not in STATUS_OF[said]:
            problems.append(f"{case} ({said}) was answered {answer.status}")
    if problems:
        violation("; ".join(problems), readings=("AMB-10",))
