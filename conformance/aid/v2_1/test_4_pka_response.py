"""v2.1 section 4 (provider): a PKA response is not stored.

The kit's PKA request is the one of test_B_pka_endpoint.py (sent once per run, shared)."""

from __future__ import annotations

from conformance.aid.v2_1.test_B_pka_endpoint import _domain
from conformance.outcomes import clause, violation


@clause("AID-4-18")
def test_4_pka_response_is_not_stored(pka_exchanges, adck_target) -> None:
    """A nonce-bound PKA response **MUST** include: ```http Cache-Control: no-store ```"""
    for exchange in pka_exchanges("aid2", _domain(adck_target)):
        exchange.needs_signature()
        values = [v for k, v in exchange.response.response_headers if k.lower() == "cache-control"]
        directives = [d.strip().split("=")[0].lower() for v in values for d in v.split(",")]
        if "no-store" not in directives:
            violation(f"the PKA response from {exchange.fetch.url} has Cache-Control "
                      f"{', '.join(map(repr, values)) or '(none)'}; expected one holding no-store")
