"""AID endpoint proof (PKA) for two revisions: v1.2's handshake (``aid1``) and v2.1's (``aid2``).

PKA is the one place where AID asks for cryptography, so the kit does none of it by hand: Ed25519
comes from ``cryptography``, RFC 7638 thumbprints from ``joserfc``, and every RFC 9421 signature
base is built by ``http-message-signatures`` (``HTTPMessageSigner`` / ``HTTPMessageVerifier``),
fed small request/response adapters of the kit's own. What is left here is AID's own rules: which
key, which keyid, which covered set, which clock. Each rule is named (:data:`RULES`), quotes the
sentence it implements, and is what :func:`verify` reports when a proof fails; each named break of
the prover (:data:`BREAKS`) violates exactly one of them, so the mock provider can show a client
failing one sentence at a time.

The package: ``rules`` (the rules, their sentences, the named breaks, :class:`Proof`), ``keys``
(key decoding, keyids), ``messages`` (request context, challenge, the library's adapters),
``prover`` (:func:`sign_response`), ``verifier`` (:func:`verify`), and here :func:`judge_vector`.

Readings the kit takes where the texts are silent (v1.2 Appendix D is pseudocode):

* v1.2 names its covered fields (``AID-Challenge``, ``@method``, ``@target-uri``, ``host``,
  ``date``) but not their RFC 9421 identifiers. The kit uses RFC 9421's: field names lowercased
  (RFC 9421 2.1) and every one of them taken from the request with ``;req`` (RFC 9421 2.4), since
  the response signs the client's challenge, method, target, Host and Date. The required set is
  the one the authors' vectors and SDK require (``missing-fields`` fails), in any order.
* v1.2's signature ``keyid`` is the record's ``kid``/``i`` (the rotation id names the key).
* v2.1's "freshness checks" (B.6 7) are: ``created`` not after now, ``expires`` not before now,
  each within the skew the verifier allows (B.3's MAY; :data:`SKEW`).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from .keys import _b64url, decode_key, derived_keyid, encode_key, public_bytes
from .messages import (
    _exchange,
    _Headers,
    _Request,
    _Response,
    aid_domain,
    authority,
    challenge_headers,
    request_uri,
)
from .prover import NONCE_CHANGES, _sign, sign_response
from .rules import (
    BREAKS,
    LABEL,
    RULES,
    SKEW,
    TAG,
    V1_COVERED,
    V2_BOUND,
    V2_COVERED,
    VERSIONS,
    WINDOW,
    PkaError,
    Proof,
)
from .verifier import signature_input, verify


#: Vectors of the authors' corpus the kit judges otherwise, each with the sentence that decides it.
#: Empty: the kit agrees with all 17 (see the package's readings and :func:`judge_vector`).
DISAGREES: dict[str, str] = {}

__all__ = [
    "BREAKS", "DISAGREES", "LABEL", "NONCE_CHANGES", "RULES", "SKEW", "TAG", "V1_COVERED", "V2_BOUND", "V2_COVERED",
    "VECTOR_CLOCK", "VERSIONS", "WINDOW", "PkaError", "Proof", "aid_domain", "authority",
    "challenge_headers", "decode_key", "derived_keyid", "encode_key", "judge_vector", "public_bytes",
    "request_uri", "sign_response", "signature_input", "verify",
]


#: The clock the vectors are judged at: the ``created`` their signers used (every aid1 vector but
#: ``date-skew``, 2025-01-01T00:00Z; every aid2 vector, 2025-12-31T00:00Z).
VECTOR_CLOCK = {"aid1": 1735689600, "aid2": 1767139200}


def judge_vector(vector: Mapping[str, Any]) -> tuple[bool, str]:
    """The kit's verdict on one of the authors' PKA vectors (True: the kit accepts the proof).

    aid2 vectors carry the exchange: the kit's client sends its request to the record's ``u``
    (:func:`request_uri`) with the vector's headers and judges the vector's response. aid1 vectors
    describe one: the kit signs it with the vector's seed, covered fields, ``created``, ``httpDate``
    and overrides, through the same library, and judges it. Their ``key.public`` is a placeholder
    (``z`` and 43 ``1``s decode to 43 zero octets, not the seed's key): as the authors' own runner
    does, the record's ``k`` is the seed's public key."""
    record = dict(vector["record"])
    version = record["v"]
    now = VECTOR_CLOCK[version]
    if version == "aid1":
        key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(vector["key"]["seed_b64"]))
        record["k"] = encode_key(public_bytes(key), "aid1")
        challenge = _b64url(hashlib.sha256(vector["id"].encode()).digest())
        request = {"AID-Challenge": challenge, "Date": vector["httpDate"]}
        message = _exchange("GET", record["u"], request, 200, {})
        names = {'"' + n.lower() + '";req' for n in vector["covered"]}
        _sign(message, key, label=LABEL["aid1"], covered=[c for c in V1_COVERED if c in names],
              keyid=vector.get("overrideKeyId", record["i"]), created=vector["created"], expires=None,
              alg=vector.get("overrideAlg", "ed25519"), nonce=None, tag=None)
        response = message
        domain = None
    else:
        sent = vector["request"]
        request = {"Accept-Signature": sent["accept_signature"], "Cache-Control": sent["cache_control"]}
        if "aid_domain" in sent:
            request["AID-Domain"] = sent["aid_domain"]
        answer = vector["response"]
        headers = {"Cache-Control": answer["cache_control"], "Signature-Input": answer["signature_input"],
                   "Signature": answer["signature"]}
        response = _Response(answer["status"], _Headers(headers), _Request("GET", sent["target_uri"], _Headers({})))
        domain = vector.get("domain")
    proof = verify(version, record, request, response, now=now, domain=domain)
    return proof.ok, proof.reason
