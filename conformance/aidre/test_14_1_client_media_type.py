"""§14.1 AIDRE JSON Media Type, client role: Content-Type and Accept."""

from __future__ import annotations

from conformance.aidre._client_fixtures import check_accept, check_content_type
from conformance.outcomes import clause


@clause("AIDRE-14.1-02")
def test_14_1_client_labels_request_bodies(aidre_client, aidre_scenarios) -> None:
    """"Clients MUST send a Content-Type header of application/aidre+json when sending AIDRE
    request bodies." Every request with a body (text and vector searches, first and next
    pages) carries Content-Type application/aidre+json; parameters such as charset=utf-8 are
    allowed, and application/json does not pass however tolerant a server is (AMB-02, AMB-51).
    Stated again in 15.2 (AIDRE-15.2-02), judged by the same observation (AMB-13)."""
    check_content_type(aidre_client, aidre_scenarios)


@clause("AIDRE-14.1-03")
def test_14_1_client_accepts_aidre_json(aidre_client, aidre_scenarios) -> None:
    """"Clients SHOULD send an Accept header of application/aidre+json." Every request,
    the discovery GET included (AMB-02), has an Accept listing application/aidre+json with a
    q-value above 0; other types beside it are fine, as 24.1 shows (AMB-52). Stated again in
    15.2 (AIDRE-15.2-01), judged by the same observation (AMB-13)."""
    check_accept(aidre_client, aidre_scenarios)
