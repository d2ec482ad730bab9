"""AID PKA's rules, each with the sentence of the text it implements; the prover's named breaks,
each with the one rule it violates; and the verdict type."""

from __future__ import annotations

from dataclasses import dataclass


VERSIONS = ("aid1", "aid2")
TAG = "aid-pka-v2"
LABEL = {"aid1": "sig", "aid2": "aid-pka"}
#: v2.1 B.3: "`expires - created` MUST NOT exceed 300 seconds and SHOULD be 60 seconds or less."
WINDOW, SIGN_WINDOW = 300, 60
#: v1.2 D: "if |currentTime() - created| > 300 seconds: failWith(ERR_SECURITY)".
V1_MAX_SKEW = 300
#: v2.1 B.3: "Verifiers MAY allow a small clock-skew tolerance when evaluating created and expires."
SKEW = 30

V1_COVERED = ('"aid-challenge";req', '"@method";req', '"@target-uri";req', '"host";req', '"date";req')
V2_COVERED = ('"@method";req', '"@target-uri";req', '"@authority";req', '"@status"')
V2_BOUND = V2_COVERED[:3] + ('"aid-domain";req',) + V2_COVERED[3:]

#: Each rule the verifier applies, per revision, with the sentence of the text it implements.
RULES: dict[str, dict[str, str]] = {
    "key-format": {
        "aid1": "An AID `pka` value encodes a raw Ed25519 public key (32 bytes) in multibase format. (v1.2 D.1)",
        "aid2": "For v2, `k` MUST be unpadded base64url. Decoding MUST produce exactly 32 octets. Legacy "
                "`z...` multibase keys MUST NOT be accepted in `v=aid2`. (v2.1 B.1)"},
    "kid": {"aid1": "Providers MUST include `kid`/`i` with `pka`/`k`. (v1.2 D; 2.1: 1–6 char rotation id `[a-z0-9]`)"},
    "status": {"aid1": "if response.status != 200: failWith(ERR_SECURITY) (v1.2 D)"},
    "signature-input": {
        "aid1": 'sigInput = response.headers["Signature-Input"]; signature = response.headers["Signature"] (v1.2 D)',
        "aid2": "the response contains a valid `Signature-Input` and `Signature` (v2.1 B.6 2)"},
    "tag": {"aid2": 'the tag is `tag="aid-pka-v2"` (v2.1 B.6 3)'},
    "covered-components": {
        "aid1": "if not verifyEd25519(signature, sigInput.coveredFields, pubKey) (v1.2 D; covered fields "
                "AID-Challenge, @method, @target-uri, host, date)",
        "aid2": "the covered components are either exactly the four components above, or those four plus the "
                'optional `"aid-domain";req` component (between `"@authority";req` and `"@status"`) (v2.1 B.6 3)'},
    "domain-unrequested": {
        "aid2": "A client that did not send `AID-Domain` **MUST** reject a response whose covered set includes "
                "`aid-domain` (fail-closed). (v2.1 B.7 3)"},
    "keyid": {
        "aid1": "Providers MUST include `kid`/`i` with `pka`/`k`. (v1.2 D: the signature's keyid is that kid)",
        "aid2": "`keyid` equals the RFC 7638 thumbprint derived from DNS `k` (v2.1 B.6 4)"},
    "alg": {
        "aid1": "Use HTTP Message Signatures (RFC 9421) with Ed25519. (v1.2 D)",
        "aid2": "`alg` has semantic value `ed25519` (v2.1 B.6 5); Verifiers **MUST** compare the semantic "
                "algorithm value case-insensitively (B.3)"},
    "nonce": {"aid2": "The verifier **MUST** compare the received `nonce` exactly to the challenge it sent. (v2.1 B.3)"},
    "created-expires": {
        "aid1": "created = parseCreated(sigInput) (v1.2 D)",
        "aid2": "`created` and `expires` are mandatory. (v2.1 B.3)"},
    "expires-after-created": {"aid2": "`expires` **MUST** be greater than `created`. (v2.1 B.3)"},
    "window": {"aid2": "`expires - created` **MUST NOT** exceed 300 seconds (v2.1 B.3)"},
    "freshness": {
        "aid1": "if |currentTime() - created| > 300 seconds: failWith(ERR_SECURITY) (v1.2 D)",
        "aid2": "`created` and `expires` pass freshness checks (v2.1 B.6 7)"},
    "no-store": {"aid2": "A nonce-bound PKA response **MUST** include: Cache-Control: no-store (v2.1 4, B.6 8)"},
    "signature": {
        "aid1": "if not verifyEd25519(signature, sigInput.coveredFields, pubKey): failWith(ERR_SECURITY) (v1.2 D)",
        "aid2": "Ed25519 verification succeeds over the reconstructed RFC 9421 signature base (v2.1 B.6 9); a "
                "domain-bound proof verifies only when the signed domain matches that value (B.7 2)"},
    "domain-binding-required": {
        "aid2": "`domain-binding=require`: when an endpoint proof is performed for a record containing `k`, "
                'discovery fails unless the proof is domain-bound (its covered set includes `"aid-domain";req`). '
                "(v2.1 3.3)"},
}


def _missing_covered() -> dict[str, tuple[str, tuple[str, ...]]]:
    """``missing-covered-<component>`` for each component a revision requires covered."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for version, names in (("aid1", V1_COVERED), ("aid2", V2_COVERED)):
        for component in names:
            name = "missing-covered-" + component.split('"')[1].lstrip("@")
            out[name] = ("covered-components", out.get(name, ("", ()))[1] + (version,))
    return out


#: The prover's named breaks: each violates the one rule named beside it, in the revisions listed.
BREAKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "wrong-key": ("signature", VERSIONS),
    "wrong-keyid": ("keyid", VERSIONS),
    "stale-created": ("freshness", VERSIONS),
    "future-created": ("freshness", VERSIONS),
    "alg-not-ed25519": ("alg", VERSIONS),
    "extra-covered-component": ("covered-components", VERSIONS),
    "covers-date": ("covered-components", ("aid2",)),
    "duplicate-parameter": ("signature-input", VERSIONS),
    "duplicate-label": ("signature-input", VERSIONS),
    "no-signature": ("signature-input", VERSIONS),
    **_missing_covered(),
    "wrong-tag": ("tag", ("aid2",)),
    "wrong-nonce": ("nonce", ("aid2",)),
    "missing-expires": ("created-expires", ("aid2",)),
    "expires-not-after-created": ("expires-after-created", ("aid2",)),
    "long-window": ("window", ("aid2",)),
    "no-cache-control": ("no-store", ("aid2",)),
    "domain-binding-absent": ("domain-binding-required", ("aid2",)),
    "domain-binding-wrong": ("signature", ("aid2",)),
}


class PkaError(ValueError):
    """A key or record PKA cannot use; ``reason`` says which sentence it breaks."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Proof:
    """A verdict on one endpoint proof: ``ok``, else the ``rule`` it broke and ``reason`` (the
    rule's sentence, then what was seen); ``domain_bound`` is v2.1's indicator (B.7 4), None for
    aid1, where domain binding does not exist."""

    ok: bool
    rule: str | None
    reason: str
    domain_bound: bool | None = None


class _Fail(Exception):
    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(rule, detail)
        self.rule, self.detail = rule, detail
