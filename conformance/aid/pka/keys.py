"""PKA keys: the record's ``k`` decoded per revision, and v2.1's derived keyid (joserfc)."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from joserfc.jwk import OKPKey

from .rules import PkaError


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _b58decode(text: str) -> bytes:
    number = 0
    for char in text:
        if char not in _B58:
            raise PkaError(f"{char!r} is not a base58btc character")
        number = number * 58 + _B58.index(char)
    zeros = len(text) - len(text.lstrip("1"))
    return b"\0" * zeros + (number.to_bytes((number.bit_length() + 7) // 8, "big") if number else b"")


def _b58encode(data: bytes) -> str:
    number, out = int.from_bytes(data, "big"), ""
    while number:
        number, digit = divmod(number, 58)
        out = _B58[digit] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def decode_key(value: str, version: str) -> bytes:
    """The 32 raw Ed25519 public-key bytes of a record's ``k``/``pka``, or :class:`PkaError`.

    aid1 (v1.2 D.1): "An AID `pka` value encodes a raw Ed25519 public key (32 bytes) in multibase
    format." Only base58btc (``z``) is read: the one multibase the text's examples and the authors'
    SDK use. aid2 (v2.1 B.1): "For v2, `k` MUST be unpadded base64url. Decoding MUST produce exactly
    32 octets. Legacy `z...` multibase keys MUST NOT be accepted in `v=aid2`." A ``z…`` value of
    43 base64url characters *is* base64url, so it is refused by its length only when it decodes to
    other than 32 octets; a 44-or-more-character multibase value never reaches 32."""
    if version == "aid1":
        if not value.startswith("z"):
            raise PkaError(f"pka {value[:20]!r} is not base58btc multibase (no 'z' prefix)")
        raw = _b58decode(value[1:])
    elif version == "aid2":
        if not value or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                            for c in value):
            raise PkaError(f"k {value[:20]!r} is not unpadded base64url (padding or other characters)")
        if len(value) % 4 == 1:
            raise PkaError(f"k {value[:20]!r} is not valid base64url (length {len(value)})")
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        if _b64url(raw) != value:
            raise PkaError(f"k {value[:20]!r} is not the canonical base64url of its bytes")
    else:
        raise PkaError(f"unknown AID version {version!r}")
    if len(raw) != 32:
        raise PkaError(f"the key decodes to {len(raw)} octets, not 32")
    return raw


def encode_key(key: bytes, version: str) -> str:
    """A record's ``k`` for 32 public-key bytes: ``z``+base58btc (aid1), unpadded base64url (aid2);
    v2.1 E.1 3: "Encode those bytes as unpadded base64url. This is the v2 `k`." """
    return "z" + _b58encode(key) if version == "aid1" else _b64url(key)


def derived_keyid(key: bytes) -> str:
    """v2.1 B.2: "The expected HTTP Message Signature `keyid` is the RFC 7638 JWK thumbprint using
    SHA-256 over this exact UTF-8 JSON serialization" — computed by joserfc, never by hand."""
    return OKPKey.import_key({"kty": "OKP", "crv": "Ed25519", "x": _b64url(key)}).thumbprint()


def public_bytes(private_key: Ed25519PrivateKey | bytes) -> bytes:
    """The raw public key of a private key (or of a 32-byte seed)."""
    return _private(private_key).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _private(key: Ed25519PrivateKey | bytes) -> Ed25519PrivateKey:
    return key if isinstance(key, Ed25519PrivateKey) else Ed25519PrivateKey.from_private_bytes(bytes(key))


#: edwards25519's field prime and curve constant d (RFC 8032 5.1).
_P = 2 ** 255 - 19
_D = (-121665 * pow(121666, _P - 2, _P)) % _P


def point_error(raw: bytes) -> str | None:
    """Why 32 octets are no Ed25519 public key (RFC 8032 5.1.3 decoding), or None."""
    y = int.from_bytes(raw, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    if y >= _P:
        return "its y coordinate is not below p = 2^255 - 19 (a non-canonical encoding, RFC 8032 5.1.3 step 1)"
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x2 = u * pow(v, _P - 2, _P) % _P
    if x2 == 0:
        return "x is 0 with the sign bit set (RFC 8032 5.1.3 step 4)" if sign else None
    if pow(x2, (_P - 1) // 2, _P) != 1:
        return "no point of edwards25519 has that y coordinate (RFC 8032 5.1.3 step 3)"
    return None
