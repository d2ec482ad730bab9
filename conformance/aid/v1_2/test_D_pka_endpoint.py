"""v1.2 Appendix D (provider): the endpoint of an aid1 record with a key answers the handshake.

The kit sends the handshake once per run, as the pseudocode's client does: a GET of the record's
``uri`` with ``AID-Challenge`` (32 random bytes, base64url) and ``Date``, no redirect followed.
What the provider must give is read from what the client checks (AMB-53): a 200, a
``created`` within 300 seconds of the kit's clock, and a signature that verifies under ``pka``
over the components Signature-Input names, the client's challenge among them.
"""

from __future__ import annotations

import time

from conformance.aid import pka
from conformance.outcomes import clause, untestable, violation


@clause("AID-D-06")
def test_D_endpoint_answers_the_handshake(pka_exchanges) -> None:
    """sigInput = response.headers["Signature-Input"] signature = response.headers["Signature"]
    created = parseCreated(sigInput)"""
    for exchange in pka_exchanges("aid1", None):
        final = exchange.fetch.final
        if final is None:
            untestable(f"the handshake GET of {exchange.fetch.url} got no answer ({exchange.fetch.error})")
        if exchange.fetch.redirects or final.status != 200:
            violation(f"the handshake GET of {exchange.fetch.url} was answered HTTP {exchange.fetch.exchanges[0].status}"
                      f"{' (a redirect, which the client does not follow)' if exchange.fetch.redirects else ''}; "
                      "expected 200 (\"if response.status != 200: failWith(ERR_SECURITY)\")")
        response = type("Response", (), {"status": final.status, "headers": final.response_headers})()
        proof = pka.verify("aid1", exchange.record.reading.fields, exchange.sent, response, now=int(time.time()),
                           aid1_covered="challenge")
        if not proof.ok:
            violation(f"the handshake response of {exchange.fetch.url} does not prove the key k="
                      f"{exchange.record.reading.fields['pka'][:20]}…: {proof.reason}; expected a Signature-Input "
                      "and a Signature covering the AID-Challenge sent, created within 300 s, verifying under pka")
