"""§23.2 Compatibility Rule, client role: unknown fields are ignored."""

from __future__ import annotations

from conformance.aidre._client_fixtures import check_unknown_members
from conformance.outcomes import clause


@clause("AIDRE-23.2-02")
def test_23_2_client_ignores_unknown_fields(aidre_client, aidre_scenarios) -> None:
    """"Clients MUST ignore unknown fields." As AIDRE-20.3-01 (AMB-13, AMB-57): new members at
    every level of the discovery document (a new top-level member, endpoint, capability,
    embedding-space member), of each search answer and of an error object change nothing in the
    results or the error the client reports."""
    check_unknown_members(aidre_client, aidre_scenarios)
