"""v1.2 Appendix D, PKA Handshake Normative Algorithm (client): the aid1 handshake, step by step.

Each scenario publishes an aid1 record with the scenario key (``k``, ``i=g1``) and a PKA endpoint
at its ``u`` that answers the client's challenge with a proof, broken in one way where the test
says so (AMB-53: the kit checks what the pseudocode checks, a 200, a ``created`` within 300 seconds
and an Ed25519 signature over the components Signature-Input names). The code a refusal reports
is judged by AID-2.3-42 (Table 1's row), not here.
"""

from __future__ import annotations

import base64
import binascii
import email.utils
import re

from conformance.aid.clients import AidClient, AidScenarios, said
from conformance.aid.v1_2._client import (LATER, OTHER_SEED, endpoint, keyed, keyed_scenario, proof, proof_works,
                                          refused, reread, republish)
from conformance.outcomes import clause, untestable, violation

_B64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


def _challenge_bytes(value: str) -> bytes | None:
    if not _B64URL.match(value):
        return None
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


@clause("AID-D-01")
def test_D_client_verifies_the_key_of_the_record_it_returns(client: AidClient, scenarios: AidScenarios) -> None:
    """When `pka`/`k` is present, clients MUST verify control of the private key."""
    proof_works(client, scenarios)
    # the key is the one the record publishes now: after the domain changed its key (with a new i,
    # and under the same i, AMB-58), an endpoint still proving the key seen before proves nothing
    for kid in ("g2", "g1"):
        scenario = keyed_scenario(scenarios, f"key-changed-{kid}", record=keyed(s="before"))
        session = client.session(scenario)
        first = client.discover(scenario, session=session)
        if first.get("outcome") != "connect":
            untestable(f"the first discovery of a record whose endpoint proves its key: {said(first)} (see AID-D-01)")
        asked = republish(scenario, keyed(kid=kid, seed=OTHER_SEED, s="after"))
        second = client.discover(scenario, at=LATER, session=session)
        reread(scenario, asked, second)
        if not refused(second):
            violation(f"the record's key changed (i=g1 to i={kid}, a new k) and its endpoint still signs with the "
                      f"key published before, which the record no longer holds: the proof is of another key, "
                      f"and {said(second)}")


@clause("AID-D-02")
def test_D_client_sends_the_challenge_request(client: AidClient, scenarios: AidScenarios) -> None:
    """headers = { "AID-Challenge": challenge, "Date": currentUTCTime() } response = sendGET(uri, headers)"""
    client.needs("aid.pka", "the endpoint proof of Appendix D")
    # the request is judged whatever the client concludes from the answer
    scenario = keyed_scenario(scenarios, "challenge")
    session = client.session(scenario)
    replies = [client.discover(scenario, session=session), client.discover(scenario, at=LATER, session=session)]
    sent = scenario.requests("/mcp")
    if not sent:
        untestable(f"two discoveries of a record holding k sent no request to its u; "
                   f"{'; '.join(said(r) for r in replies)} (see AID-2.3-34)")
    challenges = []
    for request in sent:
        where = f"{request.method} {request.path}"
        if request.method != "GET":
            violation(f"the handshake is sendGET(uri, headers), and the client sent {where}")
        headers = {k.lower(): v for k, v in request.headers.items()}
        value = headers.get("aid-challenge")
        if value is None:
            violation(f"the handshake request {where} carries no AID-Challenge header (its headers: "
                      f"{sorted(request.headers)})")
        raw = _challenge_bytes(value.strip())
        if raw is None or len(raw) < 32:
            violation(f"AID-Challenge is a challenge (base64url of 32 random bytes, AMB-53), and the client sent "
                      f"{value!r}" + (f" ({len(raw)} bytes)" if raw is not None else " (not base64url)"))
        challenges.append(value)
        date = headers.get("date")
        if date is None:
            violation(f"the handshake request {where} carries no Date header, which the pseudocode sets to "
                      f"currentUTCTime()")
        if _http_date(date) is None:
            violation(f"the Date header of the handshake is {date!r}, not an HTTP date (RFC 9110 5.6.7)")
    if len(set(challenges)) < len(challenges):
        violation(f"two handshakes carried the same AID-Challenge {challenges[0]!r}: a challenge is new for each "
                  f"handshake, or an old proof answers it")


def _http_date(value: str):
    try:
        return email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None


@clause("AID-D-03")
def test_D_client_fails_on_a_status_other_than_200(client: AidClient, scenarios: AidScenarios) -> None:
    """if response.status != 200: failWith(ERR_SECURITY)"""
    proof_works(client, scenarios)
    # each answer signed as a valid proof, but for its status (aid1 does not cover @status)
    for status in (201, 202, 203, 204, 206, 300, 301, 302, 304, 307, 308, 400, 401, 403, 404, 500, 503):
        scenario = keyed_scenario(scenarios, f"status-{status}", status=status)
        reply = client.discover(scenario)
        if not refused(reply):
            violation(f"the handshake to {endpoint(scenario)} was answered {status} with a proof that is otherwise "
                      f"valid, and {said(reply)}")


@clause("AID-D-04")
def test_D_client_fails_on_a_created_too_far_from_its_clock(client: AidClient, scenarios: AidScenarios) -> None:
    """if |currentTime() - created| > 300 seconds: failWith(ERR_SECURITY)"""
    proof_works(client, scenarios)
    for breaks, what in ((("stale-created",), "400 seconds before"), (("future-created",), "400 seconds after")):
        scenario = keyed_scenario(scenarios, breaks[0], breaks=breaks)
        reply = client.discover(scenario)
        if not refused(reply):
            violation(f"the proof's created is {what} the time it was signed (|currentTime() - created| > 300), "
                      f"and {said(reply)}")


@clause("AID-D-05")
def test_D_client_fails_on_a_signature_that_does_not_verify(client: AidClient, scenarios: AidScenarios) -> None:
    """if not verifyEd25519(signature, sigInput.coveredFields, pubKey): failWith(ERR_SECURITY)"""
    proof_works(client, scenarios)
    cases = ((("wrong-key",), "signed by another Ed25519 key than the record's k"),
             (("no-signature",), "answered without Signature-Input and Signature"))
    for breaks, what in cases:
        scenario = keyed_scenario(scenarios, breaks[0], breaks=breaks)
        reply = client.discover(scenario)
        if not refused(reply):
            violation(f"the handshake's response was {what}, so no signature verifies under pubKey, and {said(reply)}")
