"""The prover: a PKA endpoint's response signature, for the mock provider, with named breaks."""

from __future__ import annotations

import datetime
import email.utils
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from http_message_signatures import HTTPMessageSigner, MappingKeyResolver
from http_message_signatures.algorithms import ED25519
from http_message_signatures.structures import PreparedSignature

from .keys import _b64url, _private, derived_keyid, public_bytes
from .messages import _exchange, _Response, _sent_challenge
from .rules import BREAKS, LABEL, SIGN_WINDOW, TAG, V1_COVERED, V2_BOUND, V2_COVERED, WINDOW


def _algorithm(alg: str) -> type[ED25519]:
    """Ed25519 under the ``alg`` spelling a signature carries: the library compares ``alg`` with its
    class's id exactly, and v2.1 B.3 wants it compared case-insensitively."""
    return ED25519 if alg == ED25519.algorithm_id else type("ED25519", (ED25519,), {"algorithm_id": alg})


#: How a scenario endpoint changes the nonce it signs (``sign_response(nonce=...)``): each a way a
#: verifier's exact comparison (v2.1 B.3) must catch.
NONCE_CHANGES = {"upper": str.upper, "lower": str.lower, "trim": lambda n: n[:-1], "pad": lambda n: n + "=",
                 "extend": lambda n: n + "A", "drop": lambda n: None}


def _sign(message: _Response, key: Ed25519PrivateKey, *, label: str, covered: Iterable[str], keyid: str,
          created: int, expires: int | None, alg: str, nonce: str | None, tag: str | None,
          order: Sequence[str] | None = None) -> None:
    """Sign ``message`` in place with http-message-signatures (it builds the RFC 9421 base).

    ``order``: the signature parameters in this order instead of the library's (RFC 9421 2.3:
    ``@signature-params`` is the inner list as sent, its parameters in their order). The library's
    prepared input is re-ordered, its base rebuilt by the library over that order, and applied by
    the library, which checks the base against the parameters once more."""
    signer = HTTPMessageSigner(signature_algorithm=_algorithm(alg),
                               key_resolver=MappingKeyResolver(public_keys={}, private_keys={keyid: key}))
    utc = datetime.timezone.utc
    when = {"key_id": keyid, "label": label, "covered_component_ids": tuple(covered), "nonce": nonce, "tag": tag,
            "created": datetime.datetime.fromtimestamp(created, utc),
            "expires": None if expires is None else datetime.datetime.fromtimestamp(expires, utc)}
    if not order:
        signer.sign(message, **when)
        return
    prepared = signer.prepare(message, **when)
    parsed = signer._parse_signature_dictionary("p=" + prepared.signature_params)["p"]
    params = dict(parsed.params)
    ordered = {name: params[name] for name in order if name in params}
    ordered |= {name: value for name, value in params.items() if name not in ordered}
    base, node, _ = signer._build_signature_base(message, covered_component_ids=list(parsed), signature_params=ordered)
    again = PreparedSignature(base.encode(), str(node), prepared.label, prepared.algorithm_id)
    signer.apply(message, again, key.sign(again.signature_base))


def sign_response(request_headers: Mapping[str, str], method: str, target_uri: str, status: int,
                  response_headers: Mapping[str, str], private_key: Ed25519PrivateKey | bytes, version: str, *,
                  kid: str | None = None, now: int | None = None, breaks: Iterable[str] = (),
                  window: int | None = None, alg: str | None = None, keyid: str | None = None,
                  nonce: str | None = None, order: Sequence[str] | None = None) -> dict[str, str]:
    """The headers a PKA endpoint adds to its response (Signature-Input, Signature and, for aid2,
    Cache-Control), as the mock provider's prover; each name in ``breaks`` (:data:`BREAKS`) makes
    the proof violate its one rule. ``window`` (aid2: expires - created, default 60) and ``alg``
    (the value written, default ``ed25519``) let a provider variant sign outside what a signer
    must or should emit (B.3) while its proof still verifies; ``keyid`` (aid2) is written instead of
    the RFC 7638 thumbprint (B.2: a provider that derives it otherwise). ``nonce`` (aid2) names how
    the nonce signed differs from the one received (:data:`NONCE_CHANGES`); ``order`` writes the
    signature parameters in that order (any order verifies: RFC 9421 2.3).

    aid2 answers v2.1 B.3's shape ("Signers **MUST** emit `alg="ed25519"` lowercase."), with the
    nonce the client sent, ``expires = created + 60`` ("SHOULD be 60 seconds or less"), and covers
    ``"aid-domain";req`` when the request names one (B.7: "A server that supports this profile and
    serves the named domain responds with the Appendix B.3 shape, except that the covered set
    includes `"aid-domain";req` after `"@authority";req`."). aid1 signs v1.2 D's challenge and
    Date with ``keyid`` = ``kid`` (required for aid1)."""
    broken = set(breaks)
    unknown = {b for b in broken if b not in BREAKS or version not in BREAKS[b][1]}
    if unknown:
        raise ValueError(f"no such break for {version}: {sorted(unknown)}")
    if nonce is not None and nonce not in NONCE_CHANGES:
        raise ValueError(f"no such nonce change: {nonce!r}")
    if version == "aid1" and not kid:
        raise ValueError("aid1 signs with the record's kid: pass kid=")
    now = int(time.time()) if now is None else now
    key = _private(private_key)
    message = _exchange(method, target_uri, request_headers, status, response_headers)
    signing_key = Ed25519PrivateKey.generate() if "wrong-key" in broken else key
    public = public_bytes(key)
    if version == "aid1":
        covered, keyid, nonce, tag, expires = list(V1_COVERED), kid, None, None, None
    else:
        sent = _sent_challenge("aid2", message.request.headers)
        nonce = NONCE_CHANGES[nonce](sent) if nonce is not None and sent is not None else sent
        bound = "aid-domain" in message.request.headers and "domain-binding-absent" not in broken
        covered, keyid, tag = list(V2_BOUND if bound else V2_COVERED), keyid or derived_keyid(public), TAG
    created = now - 400 if "stale-created" in broken else now + 400 if "future-created" in broken else now
    if version == "aid2":
        expires = created + (SIGN_WINDOW if window is None else window)
        expires = created if "expires-not-after-created" in broken else expires
        expires = created + WINDOW + 1 if "long-window" in broken else expires
        expires = None if "missing-expires" in broken else expires
    keyid = (derived_keyid(public_bytes(Ed25519PrivateKey.generate())) if version == "aid2" else "x" + kid[:5]) \
        if "wrong-keyid" in broken else keyid
    nonce = _b64url(secrets.token_bytes(32)) if "wrong-nonce" in broken else nonce
    tag = "aid-pka-v1" if "wrong-tag" in broken else tag
    covered = [c for c in covered if "missing-covered-" + c.split('"')[1].lstrip("@") not in broken]
    if "extra-covered-component" in broken:
        message.headers["Content-Type"] = message.headers.get("Content-Type") or "application/json"
        covered.append('"content-type"')
    if "covers-date" in broken:  # v2.1 B.3: "The signature **MUST NOT** cover HTTP `Date`."
        message.headers["Date"] = email.utils.formatdate(now, usegmt=True)
        covered.append('"date"')
    if "domain-binding-wrong" in broken:
        message.request.headers["AID-Domain"] = "evil.example"  # signs a domain the client never named
    alg = "rsa-pss-sha512" if "alg-not-ed25519" in broken else (alg or "ed25519")
    _sign(message, signing_key, label=LABEL[version], covered=covered, keyid=keyid, created=created,
          expires=expires, alg=alg, nonce=nonce, tag=tag, order=order)
    out = {"Signature-Input": message.headers.get("Signature-Input") or "",
           "Signature": message.headers.get("Signature") or ""}
    if "extra-covered-component" in broken:
        out["Content-Type"] = message.headers.get("Content-Type") or ""
    if "covers-date" in broken:
        out["Date"] = message.headers.get("Date") or ""
    if "duplicate-parameter" in broken:
        out["Signature-Input"] += f';keyid="{keyid}"'
    if "duplicate-label" in broken:
        out = {name: f"{value}, {value}" for name, value in out.items()}
    if "no-signature" in broken:
        out = {}
    if version == "aid2" and "no-cache-control" not in broken:
        out["Cache-Control"] = "no-store"
    return out
