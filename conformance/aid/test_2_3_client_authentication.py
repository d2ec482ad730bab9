"""2.3 Client Discovery Logic, step 5d (client): the chosen implementation's authentication
object is followed, the credential it names obtained and applied.

Where exactly the token goes (placement, format) is AID-2.2.4-20 and AID-2.2.4-23; here the
client must ask the user for the credential a pat scheme names and send it with the connection.
"""

from __future__ import annotations

import json

from conformance.aid.clients import (AidClient, AidScenarios, connection, found_record, manifest, prompts, record,
                                     remote, said)
from conformance.outcomes import clause, untestable, violation

#: What the user enters when the client asks for the token.
TOKEN = "tok-2315e8"


@clause("AID-2.3-15")
def test_2_3_client_obtains_and_applies_credential(client: AidClient, scenarios: AidScenarios) -> None:
    """d. For the chosen implementation, the client **MUST** follow the instructions in the
    `authentication`, `configuration`, and `execution` objects to obtain credentials and
    start/connect to the agent service."""
    client.needs("aid.manifest", "the authentication object is in a manifest")
    for scheme, placement in (("pat", {"in": "header", "key": "Authorization", "format": "Bearer {token}"}),
                              ("apikey", {"in": "header", "key": "X-Api-Key"}),
                              ("apikey", {"in": "query", "key": "key"})):
        _obtains(client, scenarios, scheme, placement)


def _obtains(client: AidClient, scenarios: AidScenarios, scheme: str, placement: dict) -> None:
    __tracebackhide__ = True
    auth = {"scheme": scheme, "description": f"Your Example credential ({scheme})", "placement": placement}
    scenario = scenarios.new(f"auth-{scheme}", record(config=True),
                             manifest=manifest(remote("Cloud", "https://cloud.{host}/agent", authentication=auth)))
    reply = client.discover(scenario, user={"token": TOKEN})
    found_record(reply)
    conn = connection(reply, "AID-2.3-08")
    expected = f"https://cloud.{scenario.host}/agent"
    if conn.get("uri") != expected:
        untestable(f"the manifest's only implementation is at {expected} and {said(reply)} (see AID-2.3-08)")
    if not prompts(reply, "credential"):
        violation(f"the implementation's authentication is scheme {scheme} (a token) and the client "
                  f"asked the user for no credential; {said(reply)}")
    headers, query = conn.get("headers") or {}, conn.get("query") or {}
    sent = [v for v in [*headers.values(), *query.values()] if isinstance(v, str) and TOKEN in v]
    if not sent:
        violation(f"the user entered {TOKEN!r} when asked for the {scheme} token and the client would connect with headers "
                  f"{json.dumps(headers)} and query {json.dumps(query)}, without it")
