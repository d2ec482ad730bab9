"""v1.2 2.3 Client Discovery Algorithm, step 5 and Table 1 (client): the endpoint proof is performed,
a removed key is a downgrade, and a security failure reports ERR_SECURITY."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, connected_to, error_code, said
from conformance.aid.v1_2._client import (LATER, aid1, endpoint, keyed, keyed_scenario, new_warnings, proof_works,
                                          refused, reread, republish)
from conformance.outcomes import clause, untestable, violation


@clause("AID-2.3-34")
def test_2_3_client_performs_the_handshake_before_returning(client: AidClient, scenarios: AidScenarios) -> None:
    """Endpoint proof. If `pka` (`k`) is present, clients **MUST** perform the handshake in Appendix D."""
    proof_works(client, scenarios)
    # every discovery of a record holding k: unsigned and DNSSEC-signed zones, the first discovery
    # and later ones (after the TTL, the same record)
    for signed in (False, True):
        scenario = keyed_scenario(scenarios, "handshake-signed" if signed else "handshake", sign=signed)
        session = client.session(scenario)
        for n, at in enumerate((None, LATER, LATER * 2)):
            before = len(scenario.requests("/mcp"))
            reply = client.discover(scenario, session=session, **({"at": at} if at else {}))
            if connected_to(reply) is None:
                untestable(f"discovery {n + 1} of a record with k whose endpoint proves it: {said(reply)} "
                           f"(see AID-D-01)")
            sent = scenario.requests("/mcp")[before:]
            if not any(r.method == "GET" and "aid-challenge" in {h.lower() for h in r.headers} for r in sent):
                violation(f"discovery {n + 1} of {'a DNSSEC-signed' if signed else 'an unsigned'} record holding k "
                          f"returned {endpoint(scenario)} without the handshake of Appendix D (a GET of the uri "
                          f"with AID-Challenge): the client sent {[f'{r.method} {r.path}' for r in sent]}")


@clause("AID-2.3-35")
def test_2_3_client_warns_when_a_key_is_removed(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients SHOULD warn on downgrade if a previously present `pka` is removed."""
    proof_works(client, scenarios)
    # what stays after the key goes: nothing of it, its i alone, or nothing and another uri
    afterwards = {"k and i removed": aid1(s="after"), "k removed, i=g1 kept": aid1(i="g1", s="after"),
                  "k and i removed, another u": aid1(u="https://{host}/v2", s="after")}
    for what, record in afterwards.items():
        scenario = keyed_scenario(scenarios, "key-removed", record=keyed(s="before"))
        session = client.session(scenario)
        first = client.discover(scenario, session=session)
        if connected_to(first) is None:
            untestable(f"the first discovery of a record with a proven key: {said(first)} (see AID-D-01)")
        asked = republish(scenario, record)
        second = client.discover(scenario, at=LATER, session=session)
        reread(scenario, asked, second)
        if connected_to(second) is not None and not new_warnings(client, scenario, second):
            violation(f"the record held k=… i=g1 at the first discovery; then ({what}) it is {record!r}, and the "
                      f"client returned {connected_to(second)!r} without a warning (AMB-86)")


#: Table 1: "| `1003` | `ERR_SECURITY` | Discovery failed due to a security policy (e.g., DNSSEC failure, local execution denied). |"
@clause("AID-2.3-42")
def test_2_3_client_reports_security_failures_as_err_security(client: AidClient, scenarios: AidScenarios) -> None:
    """| `1003` | `ERR_SECURITY` | Discovery failed due to a security policy (e.g., DNSSEC failure, local execution denied). |"""
    proof_works(client, scenarios)
    cases = []  # (what failed, scenario, policy)
    cases.append(("the endpoint proof is signed by another key", keyed_scenario(scenarios, "bad-proof", breaks=("wrong-key",)), None))
    cases.append(("the endpoint proof's created is 400 s old", keyed_scenario(scenarios, "stale-proof", breaks=("stale-created",)), None))
    cases.append(("the DNSSEC signature of the record does not validate", scenarios.new("bogus", aid1(), bogus=True), None))
    policy = "aid.policy" in client.features
    if policy:
        cases.append(("pka=require and the record has no key", scenarios.new("no-key", aid1()), {"pka": "require"}))
        cases.append(("dnssec=require and the answer is unsigned", scenarios.new("unsigned", aid1()), {"dnssec": "require"}))
    for what, scenario, knobs in cases:
        reply = client.discover(scenario, policy=knobs)
        _judge_code(what, reply)
    if policy:  # downgrade=fail: the key seen before is gone
        scenario = keyed_scenario(scenarios, "downgrade")
        session = client.session(scenario)
        client.discover(scenario, session=session, policy={"downgrade": "fail"})
        scenario.publish([aid1().replace("{host}", scenario.host).encode()])
        _judge_code("downgrade=fail and the key seen before is removed",
                    client.discover(scenario, at=LATER, session=session, policy={"downgrade": "fail"}))


def _judge_code(what: str, reply: dict) -> None:
    __tracebackhide__ = True
    if not refused(reply) or reply.get("outcome") == "declined":
        return  # continuing (or asking) is judged by the clause of that rule, not by Table 1
    code = error_code(reply)
    if reply.get("error_kind") is None:
        return  # a client that reports no code at all is not judged on which one
    if code != "ERR_SECURITY":
        violation(f"{what}: discovery failed due to a security rule, which Table 1 reports as 1003 / ERR_SECURITY, "
                  f"and the client reported {reply.get('error_kind')!r}")
