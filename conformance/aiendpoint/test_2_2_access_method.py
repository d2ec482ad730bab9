"""§2.2 Access Method."""

from __future__ import annotations

from conformance.aiendpoint.conftest import EXPLAINED_STATUS, response
from conformance.fetch import Fetch
from conformance.outcomes import clause, untestable, violation

RESPONSE_TIME_LIMIT = 3.0


@clause("AIE-2.2-01")
def test_2_2_accessible_via_get(well_known: Fetch) -> None:
    """The AI Discovery Document MUST be accessible via an HTTP GET request."""
    final = response(well_known)
    if final.status in (405, 501):
        allow = final.header("allow")
        violation(f"GET {final.url} answered {final.status} {final.reason}" + (f" (Allow: {allow})" if allow else ""))


@clause("AIE-2.2-02")
def test_2_2_no_authentication_required(well_known: Fetch) -> None:
    """The server MUST NOT require authentication to access the AI Discovery Document itself."""
    final = response(well_known)
    if final.status in (401, 403, 407):
        challenge = final.header("www-authenticate") or final.header("proxy-authenticate")
        violation(f"a GET without credentials was answered {final.status} {final.reason}"
                  + (f" with a challenge ({challenge})" if challenge else ""))


@clause("AIE-2.2-03")
def test_2_2_responds_within_3_seconds(well_known: Fetch) -> None:
    """The server SHOULD respond to requests within 3 seconds under normal operating conditions."""
    for ex in well_known.exchanges:
        if ex.elapsed_headers is not None and ex.elapsed_headers > RESPONSE_TIME_LIMIT:
            violation(f"{ex.method} {ex.url} took {ex.elapsed_headers:.2f} s to answer")
        if ex.elapsed_headers is None and ex.error and ex.error[0] == "timeout":
            violation(f"{ex.method} {ex.url} had no answer within the kit's {ex.elapsed_total:.1f} s")
    response(well_known)


@clause("AIE-2.2-05")
def test_2_2_status_200_when_available(well_known: Fetch) -> None:
    """The server MUST respond with HTTP status code 200 (OK) when the AI Discovery Document
    is available and the request is valid."""
    final = response(well_known)
    if final.status == 200:
        return
    if final.status in EXPLAINED_STATUS:
        untestable(f"answered {final.status}, which {EXPLAINED_STATUS[final.status]} reports")
    violation(f"GET {final.url} (a valid request: no credentials, Accept: application/json) "
              f"answered {final.status} {final.reason}")
