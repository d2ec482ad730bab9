"""v2.1 Appendix B (provider, document): the endpoint proof a provider's endpoint gives for its
record's ``k`` (its Cache-Control, a sentence of section 4: test_4_pka_response.py).

The kit asks once per run, as a v2.1 client does: a GET of the record's ``u`` with the challenge
in ``Accept-Signature`` and ``AID-Domain`` naming the queried domain (B.7), once more without
``AID-Domain`` where a clause needs the unbound shape, and once naming a domain no provider
serves (B.7's refusal). No redirect is followed (B.5). Whether a proof verifies is the client's
judgement (B.6, AID-B-15); these clauses judge what the endpoint signs.
"""

from __future__ import annotations

import re

from conformance.aid.conftest import UNSERVED
from conformance.outcomes import clause, not_applicable, violation

#: v2.1 B.4: the base covered set; B.7 rule 1: the same with "aid-domain";req before "@status".
BASE = ['"@method";req', '"@target-uri";req', '"@authority";req', '"@status"']
BOUND = BASE[:3] + ['"aid-domain";req', BASE[3]]


def _domain(adck_target) -> str:
    """The queried domain as AID-Domain carries it (B.7: A-label, lowercased, no dot or port);
    *not applicable* for a record on its own (txt:): the kit contacts only a provider's endpoint."""
    __tracebackhide__ = True
    if adck_target.domain is None:
        not_applicable("the target is a record on its own: the kit does not contact the endpoint a "
                       "document names, only a provider's")
    return adck_target.domain.rstrip(".").lower()


def _shown(components: list[str]) -> str:
    return "(" + " ".join(components) + ")"


@clause("AID-B.2-01")
def test_B_2_keyid_is_not_a_hash_of_the_raw_key(pka_exchanges, adck_target) -> None:
    """Implementations **MUST NOT** hash the raw public key bytes directly for `keyid`.

    Seen where a provider writes a keyid: its PKA signature. The SHA-256 of the 32 key bytes, in
    any of the usual encodings (unpadded or padded base64url, base64, hex), is that hash; the
    RFC 7638 thumbprint (B.2) hashes the JWK instead, and any other keyid is the verifier's
    concern (B.6 item 4, AID-B-15), not this sentence's."""
    import base64
    import hashlib

    from conformance.aid import pka

    for exchange in pka_exchanges("aid2", _domain(adck_target)):
        _, params = exchange.needs_signature()
        raw = pka.decode_key(exchange.record.reading.fields["pka"], "aid2")
        digest = hashlib.sha256(raw).digest()
        hashes = {base64.urlsafe_b64encode(digest).rstrip(b"=").decode(), base64.urlsafe_b64encode(digest).decode(),
                  base64.b64encode(digest).decode(), base64.b64encode(digest).rstrip(b"=").decode(),
                  digest.hex(), digest.hex().upper()}
        keyid = params.get("keyid")
        if isinstance(keyid, str) and keyid in hashes:
            violation(f"the PKA signature from {exchange.fetch.url} has keyid={keyid!r}, the SHA-256 of the raw key "
                      f"bytes; expected the RFC 7638 thumbprint of the key's JWK, {pka.derived_keyid(raw)!r}")


@clause("AID-B.3-01")
def test_B_3_signature_does_not_cover_date(pka_exchanges, adck_target) -> None:
    """The signature **MUST NOT** cover HTTP `Date`."""
    for domain in (_domain(adck_target), None):
        for exchange in pka_exchanges("aid2", domain):
            components, _ = exchange.needs_signature()
            dated = [c for c in components if c.split(";")[0].strip('"').lower() == "date"]
            if dated:
                violation(f"the PKA signature from {exchange.fetch.url} covers {', '.join(dated)} "
                          f"({_shown(components)}); expected no Date among the covered components")


def _window(exchange) -> tuple[int | None, int | None]:
    _, params = exchange.needs_signature()
    created, expires = params.get("created"), params.get("expires")
    return (created if isinstance(created, int) else None), (expires if isinstance(expires, int) else None)


@clause("AID-B.3-05")
def test_B_3_expires_after_created(pka_exchanges, adck_target) -> None:
    """`expires` **MUST** be greater than `created`."""
    for exchange in pka_exchanges("aid2", _domain(adck_target)):
        created, expires = _window(exchange)
        if created is None or expires is None:
            violation(f"the PKA signature from {exchange.fetch.url} has created={created} and expires={expires}; "
                      "expected both, as integers (B.3: \"`created` and `expires` are mandatory\"), expires > created")
        if expires <= created:
            violation(f"the PKA signature from {exchange.fetch.url} has expires={expires} <= created={created}; "
                      "expected expires greater than created")


@clause("AID-B.3-06")
def test_B_3_window_at_most_300_seconds(pka_exchanges, adck_target) -> None:
    """`expires - created` **MUST NOT** exceed 300 seconds and **SHOULD** be 60 seconds or less."""
    for exchange in pka_exchanges("aid2", _domain(adck_target)):
        created, expires = _window(exchange)
        if created is None or expires is None:
            not_applicable("the signature lacks created or expires (see AID-B.3-05)")
        if expires - created > 300:
            violation(f"the PKA signature from {exchange.fetch.url} is valid for {expires - created} s "
                      f"(created={created}, expires={expires}); expected 300 s at most")


@clause("AID-B.3-07")
def test_B_3_window_at_most_60_seconds(pka_exchanges, adck_target) -> None:
    """`expires - created` **MUST NOT** exceed 300 seconds and **SHOULD** be 60 seconds or less."""
    for exchange in pka_exchanges("aid2", _domain(adck_target)):
        created, expires = _window(exchange)
        if created is None or expires is None:
            not_applicable("the signature lacks created or expires (see AID-B.3-05)")
        if expires - created > 60:
            violation(f"the PKA signature from {exchange.fetch.url} is valid for {expires - created} s; "
                      "expected 60 s or less")


@clause("AID-B.3-09")
def test_B_3_alg_is_lowercase_ed25519(pka_exchanges, adck_target) -> None:
    """Signers **MUST** emit `alg="ed25519"` lowercase."""
    for domain in (_domain(adck_target), None):
        for exchange in pka_exchanges("aid2", domain):
            _, params = exchange.needs_signature()
            alg = params.get("alg")
            if alg != "ed25519":
                violation(f"the PKA signature from {exchange.fetch.url} has alg={alg!r}; expected alg=\"ed25519\"")


@clause("AID-B.7-05")
def test_B_7_covered_set_is_base_or_bound(pka_exchanges, adck_target) -> None:
    """The covered set of an `aid-pka-v2` response **MUST** be exactly the four base components of
    Appendix B.3, or those four base components plus `"aid-domain";req` (between `"@authority";req`
    and `"@status"`) — and nothing else."""
    for domain in (_domain(adck_target), None):
        for exchange in pka_exchanges("aid2", domain):
            components, params = exchange.needs_signature()
            if params.get("tag") != "aid-pka-v2":
                not_applicable(f"the signature's tag is {params.get('tag')!r}, not an aid-pka-v2 response")
            if components not in (BASE, BOUND):
                violation(f"the PKA response from {exchange.fetch.url} ({'AID-Domain: ' + domain if domain else 'no AID-Domain'}) "
                          f"covers {_shown(components)}; expected exactly {_shown(BASE)} or {_shown(BOUND)}")


def _bound(components: list[str]) -> bool:
    return any(re.fullmatch(r'"aid-domain"(;.*)?', c) for c in components)


@clause("AID-B.7-03")
def test_B_7_no_signature_for_an_unserved_domain(pka_exchanges) -> None:
    """A server that supports this profile but does not serve the named domain **MUST NOT**
    produce a signature covering that `AID-Domain` value."""
    for exchange in pka_exchanges("aid2", UNSERVED):
        signed = exchange.signature()
        if signed is not None and _bound(signed[0]):
            violation(f"asked with AID-Domain: {UNSERVED} (a domain no provider serves), the endpoint "
                      f"{exchange.fetch.url} signed {_shown(signed[0])}, covering that value; expected no "
                      "signature covering aid-domain (a 403 without Signature-Input, or the unbound shape)")


@clause("AID-B.7-04")
def test_B_7_refuses_an_unserved_domain_with_403(pka_exchanges, adck_target) -> None:
    """It SHOULD respond with status `403` and no `Signature-Input` header."""
    served = pka_exchanges("aid2", _domain(adck_target))
    if not any((s := e.signature()) is not None and _bound(s[0]) for e in served):
        not_applicable("the endpoint gave no domain-bound proof for its own domain: it does not support "
                       "the domain-binding profile, to which this sentence applies")
    for exchange in pka_exchanges("aid2", UNSERVED):
        response = exchange.response
        status = response.status if response is not None else None
        has_input = response is not None and any(k.lower() == "signature-input" for k, _ in response.response_headers)
        if status != 403 or has_input:
            violation(f"asked with AID-Domain: {UNSERVED}, the endpoint {exchange.fetch.url} answered "
                      f"HTTP {status}{' with a Signature-Input' if has_input else ''}; expected 403 without Signature-Input")
