"""The PKA exchange: the request context of a discovered URI, the client's challenge, and the small
request/response adapters http-message-signatures reads (it needs no ``requests``)."""

from __future__ import annotations

import email.utils
import secrets
import urllib.parse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import http_sf

from conformance.dns import a_label

from .keys import _b64url, decode_key, derived_keyid
from .rules import LABEL, TAG, V2_BOUND, V2_COVERED


def request_uri(uri: str) -> str:
    """The PKA request context of a discovered URI. v2.1 B.5: "The request context is the
    discovered endpoint URI after fragment removal. Query strings are preserved." and
    "`@authority` uses the externally visible request authority: lowercase hostname; omit default
    port; retain non-default port." (the target URI carries the same authority)."""
    parts = urllib.parse.urlsplit(uri)
    return urllib.parse.urlunsplit((parts.scheme.lower(), authority(uri), parts.path or "/", parts.query, ""))


def authority(uri: str) -> str:
    """The lowercased host of ``uri``, IPv6 in brackets, with its port unless the scheme's default."""
    parts = urllib.parse.urlsplit(uri)
    host = (parts.hostname or "").lower()
    host = f"[{host}]" if ":" in host else host
    port = parts.port
    default = {"https": 443, "http": 80, "wss": 443, "ws": 80}.get(parts.scheme.lower())
    return host if port is None or port == default else f"{host}:{port}"


def aid_domain(domain: str) -> str:
    """v2.1 B.7: "The `AID-Domain` value is the exact host the client queried …, normalized to its
    A-label form …, lowercased, and without a trailing dot or port." """
    host = domain.strip().rstrip(".")
    return (host if host.isascii() else a_label(host)).lower()  # the reference client's A-label (IDNA 2008)


class _Headers:
    """Field lines in order, for http-message-signatures (it needs items(), membership, writes)."""

    def __init__(self, fields: Mapping[str, str] | Iterable[tuple[str, str]] | Any) -> None:
        if hasattr(fields, "multi_items"):  # httpx.Headers: keep repeated field lines
            pairs = fields.multi_items()
        elif hasattr(fields, "items"):
            pairs = fields.items()
        else:
            pairs = fields
        self._lines = [(str(k), str(v)) for k, v in pairs]

    def items(self):
        return list(self._lines)

    def __iter__(self):
        return iter(dict.fromkeys(k for k, _ in self._lines))

    def __contains__(self, name: object) -> bool:
        return any(k.lower() == str(name).lower() for k, _ in self._lines)

    def get(self, name: str) -> str | None:
        values = [v for k, v in self._lines if k.lower() == name.lower()]
        return ", ".join(values) if values else None

    def __setitem__(self, name: str, value: str) -> None:
        self.__delitem__(name)
        self._lines.append((name, value))

    def __delitem__(self, name: str) -> None:
        self._lines = [(k, v) for k, v in self._lines if k.lower() != name.lower()]


@dataclass
class _Request:
    method: str
    url: str
    headers: _Headers


@dataclass
class _Response:
    status_code: int
    headers: _Headers
    request: _Request


def _exchange(method: str, uri: str, request_headers: Any, status: int, response_headers: Any) -> _Response:
    url = request_uri(uri)
    request = _Request(method.upper(), url, _Headers(request_headers))
    if "host" not in request.headers:
        request.headers["Host"] = authority(url)  # what an HTTP/1.1 client sends beside the URI
    return _Response(int(status), _Headers(response_headers), request)


def challenge_headers(version: str, uri: str, domain: str | None, now: int, *, k: str | None = None,
                      challenge: str | None = None) -> dict[str, str]:
    """The headers a client adds to its PKA request to ``uri``; its challenge is inside them.

    aid1 (v1.2 D): ``AID-Challenge`` = base64url of 32 random bytes, and ``Date``. aid2: v2.1 B.3's
    ``Accept-Signature`` ("The client challenge **MUST** contain at least 32 bytes of entropy and
    **SHOULD** be transported as unpadded base64url in the RFC 9421 `nonce` signature parameter"),
    with keyid when the record's ``k`` is given, ``AID-Domain`` and the extended covered set when
    ``domain`` is given (B.7; None is ``domain-binding=off``), and ``Cache-Control: no-store``
    (4: "Clients **SHOULD** also send `Cache-Control: no-store` on PKA requests."). ``challenge``
    replaces the random one (tests, replays); ``uri`` is where the request goes (:func:`request_uri`)."""
    challenge = _b64url(secrets.token_bytes(32)) if challenge is None else challenge
    if version == "aid1":
        return {"AID-Challenge": challenge, "Date": email.utils.formatdate(now, usegmt=True)}
    covered = V2_BOUND if domain is not None else V2_COVERED
    items = [(http_sf.parse(c.encode(), tltype="item")) for c in covered]
    params: dict[str, Any] = {"created": True, "expires": True}
    if k is not None:
        params["keyid"] = derived_keyid(decode_key(k, "aid2"))
    params |= {"alg": "ed25519", "nonce": challenge, "tag": TAG}
    headers = {"Accept-Signature": http_sf.ser({LABEL["aid2"]: (items, params)}), "Cache-Control": "no-store"}
    if domain is not None:
        headers["AID-Domain"] = aid_domain(domain)
    return headers


def _sent_challenge(version: str, request: _Headers) -> str | None:
    if version == "aid1":
        return request.get("AID-Challenge")
    try:
        member = http_sf.parse((request.get("Accept-Signature") or "").encode(), tltype="dictionary")
        return member[LABEL["aid2"]][1].get("nonce")
    except Exception:  # noqa: BLE001 - no readable challenge: the nonce rule fails
        return None
