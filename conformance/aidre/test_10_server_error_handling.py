"""§10 Error Handling: errors MUST be JSON objects, judged on every error the run provokes."""

from __future__ import annotations

from conformance.aidre._server_checks import error_objects_of, fail_all, provoked_errors, unreadable_left
from conformance.aidre._server_fixtures import Probe
from conformance.outcomes import clause, untestable


@clause("AIDRE-10-01")
def test_10_errors_are_json_objects(server: Probe) -> None:
    """Errors MUST be JSON objects: each 4xx or 5xx answer of the run's invalid requests has a
    body that parses as a JSON object. A body that is a JSON object in another encoding than
    UTF-8 is AIDRE-14.2-01's failure, not this one's (AMB-63)."""
    errors, skipped = error_objects_of(provoked_errors(server))
    problems = [f"{what} was answered {a.describe()}" for what, a in errors if not isinstance(a.value, dict)]
    fail_all(problems, len(errors), "error answers were not JSON objects")
    unreadable_left(skipped)
    if not errors:
        untestable("none of the invalid requests was answered with an error status")
