"""§10 Error Handling: errors MUST be JSON objects, judged on every error the run provokes."""

from __future__ import annotations

from conformance.aidre._server_checks import fail_all, provoked_errors
from conformance.aidre._server_fixtures import Probe
from conformance.outcomes import clause, untestable


@clause("AIDRE-10-01")
def test_10_errors_are_json_objects(server: Probe) -> None:
    """Errors MUST be JSON objects: each 4xx or 5xx answer of the run's invalid requests has a
    body that parses as a JSON object."""
    errors = [(what, a) for what, a in provoked_errors(server) if a.is_error]
    if not errors:
        untestable("none of the invalid requests was answered with an error status")
    problems = [f"{what} was answered {a.describe()}" for what, a in errors if not isinstance(a.value, dict)]
    fail_all(problems, len(errors), "error answers were not JSON objects")
