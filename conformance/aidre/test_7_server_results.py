"""§7 Results: a results array (7.1, judged on the server's successful searches), optional
fields, and no vectors unless asked for (7.3)."""

from __future__ import annotations

from conformance.aidre._server_checks import no_vectors_by_default, successful_searches_have_results
from conformance.aidre._server_fixtures import Probe
from conformance.outcomes import clause


@clause("AIDRE-7.1-01")
def test_7_1_responses_include_results_array(server: Probe) -> None:
    """Responses MUST include a results array (read with 16.1's scope: successful searches,
    AMB-13): each 2xx answer to a search holds results as an array."""
    successful_searches_have_results(server)


@clause("AIDRE-7.3-02")
def test_7_3_no_vectors_by_default(server: Probe) -> None:
    """Servers SHOULD NOT return vectors by default: a search that does not set
    return.vectors to true gets results without vector, vectors or embedding (AMB-16)."""
    no_vectors_by_default(server)
