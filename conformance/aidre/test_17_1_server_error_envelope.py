"""§17.1 Error Envelope, judged on the error objects the server answers: errors are JSON
objects (as §10 says too, AMB-13) and SHOULD contain error, message, details and request_id."""

from __future__ import annotations

from conformance.aidre._server_checks import error_objects_of, fail_all, provoked_errors, unreadable_left
from conformance.aidre._server_fixtures import Probe
from conformance.outcomes import clause, untestable


def _errors(server: Probe) -> tuple[list, list[str]]:
    """The error answers of the run's invalid requests, and those whose body is JSON in another
    encoding than UTF-8, left to AIDRE-14.2-01 (AMB-63)."""
    __tracebackhide__ = True
    errors, skipped = error_objects_of(provoked_errors(server))
    if not errors and not skipped:
        untestable("none of the invalid requests was answered with an error status")
    return errors, skipped


@clause("AIDRE-17.1-01")
def test_17_1_errors_are_json_objects(server: Probe) -> None:
    """Errors MUST be JSON objects (each 4xx or 5xx answer's body parses as a JSON object; one in
    another encoding than UTF-8 is AIDRE-14.2-01's, AMB-63)."""
    errors, skipped = _errors(server)
    problems = [f"{what} was answered {a.describe()}" for what, a in errors if not isinstance(a.value, dict)]
    fail_all(problems, len(errors), "error answers were not JSON objects")
    unreadable_left(skipped)


def _member(server: Probe, member: str) -> None:
    __tracebackhide__ = True
    errors, skipped = _errors(server)
    objects = [(what, a) for what, a in errors if isinstance(a.value, dict)]
    lacking = [f"the error answering {what} has no {member}" for what, a in objects if member not in a.value]
    fail_all(lacking, len(objects), f"error objects had no {member}")
    unreadable_left(skipped)
    if not objects:
        untestable("no error answer was a JSON object (see AIDRE-17.1-01)")


@clause("AIDRE-17.1-03")
def test_17_1_error_object_contains_error(server: Probe) -> None:
    """Error responses SHOULD contain: error."""
    _member(server, "error")


@clause("AIDRE-17.1-04")
def test_17_1_error_object_contains_message(server: Probe) -> None:
    """Error responses SHOULD contain: message."""
    _member(server, "message")


@clause("AIDRE-17.1-05")
def test_17_1_error_object_contains_details(server: Probe) -> None:
    """Error responses SHOULD contain: details."""
    _member(server, "details")


@clause("AIDRE-17.1-06")
def test_17_1_error_object_contains_request_id(server: Probe) -> None:
    """Error responses SHOULD contain: request_id."""
    _member(server, "request_id")
