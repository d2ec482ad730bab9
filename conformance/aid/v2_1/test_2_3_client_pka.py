"""v2.1 2.3 step 9 (client): the PKA endpoint proof of a record with k, and the AID-Domain its
request carries."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, pka_route, scenario_key, txt
from conformance.aid.v2_1._pka import accept_member, header, keyed, pka_requests, proof_works
from conformance.outcomes import clause, untestable, violation


@clause("AID-2.3-56")
def test_2_3_client_proves_every_keyed_record(client: AidClient, scenarios: AidScenarios) -> None:
    """If `k` is present, perform PKA endpoint proof using Appendix B."""
    proof_works(client, scenarios)
    key = scenario_key()
    cases = [("p=mcp", keyed(), "/mcp"),
             ("p=a2a", txt(u="https://{host}/a2a", p="a2a", k=key), "/a2a"),
             ("p=openapi", txt(u="https://{host}/openapi.json", p="openapi", k=key), "/openapi.json"),
             ("k before u and p", f"v=aid2;k={key};u=https://{{host}}/mcp;p=mcp", "/mcp"),
             ("the full key pka", txt(pka=key), "/mcp"),
             ("a u with a query", txt(u="https://{host}/mcp?tenant=1", k=key), "/mcp")]
    for what, record, path in cases:
        scenario = scenarios.new("keyed", record, routes=[pka_route(path=path)])
        for visit in (1, 2):  # each discovery proves again, also within the TTL
            before = len(pka_requests(scenario, path))
            client.discover(scenario, session=client.session(scenario))
            sent = pka_requests(scenario, path)[before:]
            if not sent:
                violation(f"discovery {visit} of {record!r} ({what}): k is present and the client sent no PKA request "
                          f"(a GET to u with an aid-pka Accept-Signature, Appendix B.3)")
            if accept_member(sent[0]) is None or sent[0].method != "GET":
                violation(f"discovery {visit} of {record!r}: the PKA request is {sent[0].method} with Accept-Signature "
                          f"{header(sent[0].headers, 'Accept-Signature')!r}, not Appendix B.3's GET asking for an aid-pka "
                          "signature")


def _policy(client: AidClient, knob: str) -> dict | None:
    return {"domain-binding": knob} if "aid.policy" in client.features else None


@clause("AID-2.3-57")
def test_2_3_client_sends_the_canonical_queried_host(client: AidClient, scenarios: AidScenarios) -> None:
    """For `aid2` records, clients **SHOULD** request domain binding by sending the `AID-Domain`
    header (the A-label, lowercased, portless queried host from step 1) as described in Appendix
    B.7, unless local policy disables it (Section 3.3, `domain-binding=off`)."""
    proof_works(client, scenarios)
    entries = [("as published", lambda s: s.domain, {}), ("in upper case", lambda s: s.domain.upper(), {}),
               ("with a trailing dot", lambda s: s.domain + ".", {}),
               ("mixed case with a trailing dot", lambda s: s.domain.title() + ".", {}),
               ("with a non-ASCII label", lambda s: s.domain, {"unicode_label": "bücher"}),
               ("with a non-ASCII label in upper case", lambda s: s.domain.upper(), {"unicode_label": "bücher"})]
    for knob in ("prefer", "require"):
        policy = _policy(client, knob)
        for what, entered, extra in entries:
            scenario = scenarios.new("aid-domain", keyed(), routes=[pka_route()], **extra)
            domain = entered(scenario)
            client.discover(scenario, domain=domain, policy=policy)
            sent = pka_requests(scenario)
            if not sent:
                untestable(f"the client sent no PKA request for the domain entered {what} (see AID-2.3-56)")
            value = header(sent[0].headers, "AID-Domain")
            expected = scenario.zone_name.lower()
            if value != expected:
                violation(f"the user entered {domain!r} ({what}); policy {policy or 'default'}: the PKA request must "
                          f"carry AID-Domain: {expected} (A-label, lowercased, no trailing dot or port), and it "
                          f"carries {value!r}")
        if policy is None:
            break
