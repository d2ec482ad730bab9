"""Appendix C Revocation Endpoint Contract (client): the client asks a manifest's
revocationURL before using an implementation it covers, never uses a revoked one, and treats
any other answer as a temporary failure (AMB-12).

Each scenario's manifest names https://<host>/agent/status as metadata.revocationURL; the
kit judges from the requests the client sent there and the connection it would open.
"""

from __future__ import annotations

from datetime import timedelta

from conformance.aid.clients import (JSON, MANIFEST_PATH, STATUS_PATH, AidClient, AidScenario, AidScenarios,
                                     connected_to, connection, found_record, manifest, record, remote, said)
from conformance.outcomes import clause, not_applicable, untestable, violation
from conformance.world.scenarios import Recorded


def _revocable(scenarios: AidScenarios, name: str, routes: list[dict] | None = None) -> tuple[AidScenario, str]:
    """A scenario whose manifest's only implementation (at https://cloud.<host>/agent) is
    covered by metadata.revocationURL; returns it and the implementation's uri."""
    scenario = scenarios.new(name, record(config=True),
                             manifest=manifest(remote("Cloud", "https://cloud.{host}/agent"),
                                               revocationURL="https://{host}" + STATUS_PATH),
                             routes=routes)
    return scenario, f"https://cloud.{scenario.host}/agent"


def _checks(scenario: AidScenario) -> list[Recorded]:
    return [r for r in scenario.requests(STATUS_PATH) if r.method == "GET" and r.listener == "https"]


def _checked(scenario: AidScenario, reply: dict) -> int:
    """How many times the client checked the revocation URL. *Untestable* when it never
    fetched the manifest; *not applicable* when it fetched it and checked nothing: a client
    that does not check revocation (AID-C-01 is a SHOULD) never learns a verdict to act on."""
    __tracebackhide__ = True
    found_record(reply)
    if not scenario.requests(MANIFEST_PATH):
        untestable(f"the record holds config={scenario.url(MANIFEST_PATH)} and the client never fetched it "
                   f"(see AID-2.3-08); {said(reply)}")
    count = len(_checks(scenario))
    if not count:
        not_applicable(f"the manifest names metadata.revocationURL {scenario.url(STATUS_PATH)} and the client "
                       f"sent no GET to it: it does not check revocation (AID-C-01 is a SHOULD); {said(reply)}")
    return count


@clause("AID-C-01")
def test_C_client_checks_revocation_url_before_use(client: AidClient, scenarios: AidScenarios) -> None:
    """If the `revocationURL` is present in the manifest, clients **SHOULD** perform an HTTPS
    `GET` request before using the associated implementation."""
    client.needs("aid.manifest", "revocationURL is a manifest member")
    scenario, uri = _revocable(scenarios, "revocation-check")
    reply = client.discover(scenario)
    found_record(reply)
    if _checks(scenario):
        return
    if connection(reply, "AID-2.3-08").get("uri") != uri:  # it used no implementation: nothing to check before
        untestable(f"the client did not use the manifest's implementation {uri}: {said(reply)} (see AID-2.3-08)")
    others = ", ".join(f"{r.method} {r.path}" for r in scenario.requests(STATUS_PATH)) or "nothing"
    violation(f"the manifest names metadata.revocationURL {scenario.url(STATUS_PATH)} and the client used the "
              f"implementation it covers without an HTTPS GET to it (it sent there: {others}); {said(reply)}")


@clause("AID-C-04")
def test_C_client_treats_other_answers_as_temporary(client: AidClient, scenarios: AidScenarios) -> None:
    """Any other response should be treated as a temporary failure."""
    client.needs("aid.manifest", "revocationURL is a manifest member")
    scenario, uri = _revocable(scenarios, "revocation-unavailable", routes=[
        {"path": STATUS_PATH, "status": 503, "body": "text", "text": "temporarily unavailable\n",
         "headers": {"Content-Type": "text/plain"}}])
    session = client.session(scenario)
    reply = client.discover(scenario, session=session)
    count = _checked(scenario, reply)
    # An hour later: 200, but a status the table does not give.
    scenario.change(routes=[{"path": STATUS_PATH, "status": 200, "text": '{"status":"paused"}', "headers": JSON}])
    reply = client.discover(scenario, at=timedelta(hours=1), session=session)
    if len(_checks(scenario)) == count:
        violation(f"the revocation check at {scenario.url(STATUS_PATH)} failed with 503, and an hour later the "
                  f"client did not check again (it took the failure as final); {said(reply)}")
    count = len(_checks(scenario))
    # Another hour later: the endpoint answers valid.
    scenario.change(routes=[{"path": STATUS_PATH, "text": '{"status":"valid"}'}])
    reply = client.discover(scenario, at=timedelta(hours=2), session=session)
    if len(_checks(scenario)) == count:
        violation(f'the revocation endpoint answered 503, then 200 {{"status":"paused"}} (neither valid nor '
                  f"revoked), and on the next use the client did not check again; {said(reply)}")
    if connected_to(reply) != uri:
        violation(f'after a 503 and a {{"status":"paused"}} the revocation endpoint answers {{"status":"valid"}} '
                  f"for the only implementation, at {uri}, and {said(reply)} (it took a temporary failure as "
                  "final)")


@clause("AID-C-05")
def test_C_client_does_not_use_revoked_implementation(client: AidClient, scenarios: AidScenarios) -> None:
    """The implementation has been permanently disabled. The client **MUST NOT** use it."""
    client.needs("aid.manifest", "revocationURL is a manifest member")
    scenario, uri = _revocable(scenarios, "revoked", routes=[{"path": STATUS_PATH, "text": '{"status":"revoked"}'}])
    reply = client.discover(scenario)
    _checked(scenario, reply)
    if connected_to(reply) == uri:
        violation(f'the revocation endpoint {scenario.url(STATUS_PATH)} answered {{"status":"revoked"}} for the '
                  f"only implementation, and {said(reply)}")
