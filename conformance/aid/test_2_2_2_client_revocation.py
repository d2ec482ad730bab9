"""2.2.2 Implementation Object (client): an implementation's own revocationURL overrides
metadata.revocationURL for that implementation (AMB-12).

The scenario's manifest names two revocation endpoints, both answering {"status":"valid"};
the kit judges from which of them the client asked.
"""

from __future__ import annotations

from conformance.aid.clients import (JSON, MANIFEST_PATH, STATUS_PATH, AidClient, AidScenarios, found_record, manifest,
                                     record, remote, said)
from conformance.outcomes import clause, not_applicable, untestable, violation

OWN_PATH = "/agent/own-status"


@clause("AID-2.2.2-16")
def test_2_2_2_client_uses_implementation_revocation_url(client: AidClient, scenarios: AidScenarios) -> None:
    """| **`revocationURL`** | String | No | Overrides global `revocationURL` for this implementation only. |"""
    client.needs("aid.manifest", "revocationURL is a manifest member")
    scenario = scenarios.new("own-revocation-url", record(config=True),
                             manifest=manifest(remote("Cloud", "https://cloud.{host}/agent",
                                                      revocationURL="https://{host}" + OWN_PATH),
                                               revocationURL="https://{host}" + STATUS_PATH),
                             routes=[{"path": OWN_PATH, "body": "text", "text": '{"status":"valid"}', "headers": JSON}])
    reply = client.discover(scenario)
    found_record(reply)
    own, shared = scenario.requests(OWN_PATH), scenario.requests(STATUS_PATH)
    if not scenario.requests(MANIFEST_PATH):
        untestable(f"the record holds config={scenario.url(MANIFEST_PATH)} and the client never fetched it "
                   f"(see AID-2.3-08); {said(reply)}")
    if not own and not shared:
        not_applicable(f"the client checked neither revocation URL ({scenario.url(OWN_PATH)}, the implementation's, "
                       f"nor {scenario.url(STATUS_PATH)}, metadata's): it does not check revocation (AID-C-01 is a "
                       f"SHOULD); {said(reply)}")
    if shared:
        violation(f"the manifest's only implementation has its own revocationURL {scenario.url(OWN_PATH)}, which "
                  f"overrides metadata.revocationURL for it, and the client queried metadata's "
                  f"{scenario.url(STATUS_PATH)} ({shared[0].method}); {said(reply)}")
    # own is not empty here: the client asked the implementation's own URL and not metadata's.
