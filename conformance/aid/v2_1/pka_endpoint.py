"""A v2.1 PKA endpoint for client scenarios whose proof is *valid or broken in ways the named
breaks of the prover do not reach*: a signing clock off by some seconds, an ``alg`` spelled in
another case, a nonce that differs from the client's challenge in one way, a domain signed other
than the one the client sent, an ``aid-domain`` covered that the client never sent, a window of
another length. The handler ``aid.pka-v2-scenario`` (``[world.handlers]`` of profiles/aid/profile.toml).

Each option changes one thing; every signature is made by the same library as the prover's
(``conformance.aid.pka``: http-message-signatures), over the request the client really sent.
Options (all optional): ``seed``; ``offset`` (seconds added to the signing clock); ``window``
(``expires - created``, default 60); ``alg`` (its spelling); ``nonce`` (``upper``, ``lower``,
``trim`` (the last character dropped), ``pad`` (``=`` appended), ``extend`` (one character
appended), ``drop`` (no nonce parameter)); ``sign_domain`` (the ``AID-Domain`` value signed in
place of the one received: ``upper``, ``dot`` (a trailing dot), ``port`` (``:443`` appended),
``parent`` (its first label dropped), or a literal value); ``claim_domain`` (sign a covered
``"aid-domain";req`` with the queried host even when the request carried no ``AID-Domain``);
``unbound`` (never cover ``aid-domain``); ``order`` (the signature parameters in this order:
``created``, ``keyid``, ``alg``, ``expires``, ``nonce``, ``tag``); ``status``.
"""

from __future__ import annotations

import base64
import time

from werkzeug import Request, Response

from conformance.aid.clients import SCENARIO_SEED
from conformance.world.site import Route, Site


def route(*, path: str = "/mcp", **options: object) -> dict:
    """A scenario route answering PKA requests at ``path`` with this handler and ``options``."""
    return {"path": path, "handler": "aid.pka-v2-scenario", "options": dict(options)}


def _nonce(sent: str | None, how: str | None) -> str | None:
    if sent is None or how is None:
        return sent
    changed = {"upper": sent.upper(), "lower": sent.lower(), "trim": sent[:-1], "pad": sent + "=",
               "extend": sent + "A", "drop": None}
    if how not in changed:
        raise ValueError(f"unknown nonce change {how!r}")
    return changed[how]


def _domain(value: str, how: str) -> str:
    changed = {"upper": value.upper(), "dot": value + ".", "port": value + ":443",
               "parent": value.partition(".")[2] or value}
    return changed.get(how, how)


def prove(site: Site, route: Route, request: Request) -> Response:  # noqa: ARG001 - the handler's signature
    from conformance.aid.pka import V2_BOUND, V2_COVERED, LABEL, TAG, derived_keyid, public_bytes
    from conformance.aid.pka.keys import _private
    from conformance.aid.pka.messages import _exchange, _sent_challenge
    from conformance.aid.pka.prover import _sign

    options = route.options
    seed_text = str(options.get("seed", SCENARIO_SEED))
    key = _private(base64.urlsafe_b64decode(seed_text + "=" * (-len(seed_text) % 4)))
    status = int(options.get("status", 200))
    headers = {"Content-Type": "application/json", "Cache-Control": "no-store"}
    body = '{"agent":"ready"}'
    if not request.headers.get("Accept-Signature"):
        return Response(body, status=status, headers=headers)
    sent = [(k, v) for k, v in request.headers.items() if k.lower() != "aid-domain"]
    received = request.headers.get("AID-Domain")
    host = (request.host or "").rsplit(":", 1)[0].lower()
    domain = received if received is not None else (host if options.get("claim_domain") else None)
    if domain is not None and options.get("sign_domain"):
        domain = _domain(domain, str(options["sign_domain"]))
    if domain is not None and not options.get("unbound"):
        sent.append(("AID-Domain", domain))
    target = f"{request.scheme}://{request.host}{request.full_path.rstrip('?')}"
    message = _exchange(request.method, target, sent, status, headers)
    bound = "aid-domain" in message.request.headers
    created = int(time.time()) + int(options.get("offset", 0))
    expires = created + int(options.get("window", 60))
    nonce = _nonce(_sent_challenge("aid2", message.request.headers), options.get("nonce"))  # type: ignore[arg-type]
    covered = list(V2_BOUND if bound else V2_COVERED)
    params = {"created": created, "keyid": derived_keyid(public_bytes(key)), "alg": str(options.get("alg", "ed25519")),
              "expires": expires, "nonce": nonce, "tag": TAG}
    if options.get("order"):
        out = {**headers, **_sign_in_order(message, key, covered, params, list(options["order"]))}  # type: ignore[arg-type]
        return Response(body, status=status, headers=out)
    _sign(message, key, label=LABEL["aid2"], covered=covered, keyid=params["keyid"], created=created,
          expires=expires, alg=params["alg"], nonce=nonce, tag=TAG)
    out = {**headers, "Signature-Input": message.headers.get("Signature-Input") or "",
           "Signature": message.headers.get("Signature") or ""}
    return Response(body, status=status, headers=out)


def _sign_in_order(message, key, covered: list[str], params: dict, order: list[str]) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Signature-Input and Signature with the parameters in ``order`` (RFC 9421 2.3: the
    ``@signature-params`` line is the serialized inner list as sent, parameters in their order).
    The signature base is RFC 9421 2.5's, built here because the library emits one fixed order;
    :func:`conformance.aid.pka.verify` (the library's verifier) accepts it, as
    tests/test_aid_v2_1_pka_endpoint.py checks."""
    import http_sf

    from conformance.aid.pka import authority

    request = message.request
    values = {'"@method";req': request.method, '"@target-uri";req': request.url,
              '"@authority";req': authority(request.url), '"aid-domain";req': request.headers.get("AID-Domain"),
              '"@status"': str(message.status_code)}
    ordered = {name: params[name] for name in order if params.get(name) is not None}
    ordered |= {name: value for name, value in params.items() if name not in ordered and value is not None}
    items = [http_sf.parse(c.encode(), tltype="item") for c in covered]
    inner = http_sf.ser({"aid-pka": (items, ordered)}).partition("=")[2]
    base = "\n".join(f"{c}: {values[c]}" for c in covered) + f'\n"@signature-params": {inner}'
    signature = key.sign(base.encode())
    return {"Signature-Input": f"aid-pka={inner}", "Signature": http_sf.ser({"aid-pka": (signature, {})})}
