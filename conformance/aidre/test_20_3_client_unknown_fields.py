"""§20.3 Unknown Fields, client role: unknown response fields are ignored."""

from __future__ import annotations

from conformance.aidre._client_fixtures import check_unknown_members
from conformance.outcomes import clause


@clause("AIDRE-20.3-01")
def test_20_3_client_ignores_unknown_response_fields(aidre_client, aidre_scenarios) -> None:
    """"Clients MUST ignore unknown response fields." With members the draft does not define
    (objects, arrays, null, numbers) at every level of the discovery document and of each
    search answer, the client reports the same results, in the same order, as without them;
    and the same error (outcome and error kind) for a 422 error object with unknown members.
    Stated again in 23.2 (AIDRE-23.2-02) and judged by the same observation (AMB-13, AMB-57)."""
    check_unknown_members(aidre_client, aidre_scenarios)
