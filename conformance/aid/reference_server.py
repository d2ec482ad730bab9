"""The reference AID provider: data served by the mock world, and the one endpoint that runs code.

The provider is ``fixtures/aid/provider.toml``: its ``_agent`` TXT records (aid1 for v1 and
v1.2, aid2 for v2.1), in a zone (signed or not) on the mock DNS server
(:mod:`conformance.world.dns`), and its ``aid.json`` manifest (``fixtures/aid/aid.json``, v1) on
the mock HTTPS world (:mod:`conformance.world.https`). Its broken variants are patches of it in
``fixtures/aid/mutants*.toml`` (``builtin:NAME``). The same names in every draft's folder:
``reference_server`` (this), ``reference_client``, ``adapter``, ``variants``.

A record with a key (aid1 ``pka``/``k`` with ``kid``/``i``, aid2 ``k``) needs an endpoint that
proves it holds the private key: :func:`prove` is that route's handler (``aid.pka`` in the
profile's ``[world.handlers]``), signing with :mod:`conformance.aid.pka`; a route's ``options``
name the key's seed, the version, the kid and the ``breaks`` a broken variant makes.
"""

from __future__ import annotations

import base64
import email.utils
import time

from werkzeug import Request, Response

from conformance.world.site import Reference, Route, Site

#: The reference provider and its variants (``REFERENCE.site()``, ``REFERENCE.variants()``).
REFERENCE = Reference("aid")


def prove(site: Site, route: Route, request: Request) -> Response:
    """The PKA endpoint (v1.2 Appendix D, v2.1 Appendix B): answers a request carrying a
    challenge with a response signed by the route's key.

    Options: ``seed`` (unpadded base64url of the 32-byte Ed25519 seed), ``version`` (aid1,
    aid2), ``kid`` (aid1), ``status`` and ``body`` of the answer; and what a broken variant
    changes: ``breaks`` (names of :data:`conformance.aid.pka.BREAKS`), ``breaks_unbound`` (the
    same, only on a request without AID-Domain), ``window`` and ``alg`` (what the signature
    says, B.3), ``cache_control`` (the value sent instead of no-store), ``keyid`` (aid2: how the
    keyid is derived instead of the RFC 7638 thumbprint: ``raw-sha256`` or ``raw-sha256-hex``, the
    raw key bytes hashed directly, which B.2 forbids). ``serves``: the domains
    whose AID-Domain it signs (absent, or "*": any); a request naming another is refused as ``refuse``
    says: a status (default 403, B.7: "It SHOULD respond with status `403` and no
    `Signature-Input` header"), ``"unbound"`` (403 with the unbound proof) or ``"signed"`` (403
    with a proof covering the unserved domain).

    Client scenarios reach proofs, valid or broken, that the named breaks do not: ``offset``
    (seconds added to the signing clock), ``nonce`` (how the nonce signed differs from the one
    received: :data:`conformance.aid.pka.NONCE_CHANGES`), ``order`` (the signature parameters in
    this order), and the domain signed: ``sign_domain`` (the ``AID-Domain`` value signed in place
    of the one received: ``upper``, ``dot`` (a trailing dot), ``port`` (``:443`` appended),
    ``parent`` (its first label dropped), or a literal value), ``claim_domain`` (cover the queried
    host even when the request named no domain), ``unbound`` (never cover ``aid-domain``)."""
    from conformance.aid import pka

    options = route.options
    seed = base64.urlsafe_b64decode(options["seed"] + "=" * (-len(options["seed"]) % 4))
    version = options.get("version", "aid2")
    status = int(options.get("status", 200))
    headers = {"Content-Type": "application/json"}
    body = options.get("body", '{"agent":"ready"}')
    request_headers = dict(request.headers)
    named = request.headers.get("AID-Domain")
    serves = options.get("serves")
    if named is not None and serves is not None and "*" not in serves and named.lower() not in [s.lower() for s in serves]:
        refuse = options.get("refuse", 403)
        if refuse not in ("unbound", "signed"):
            return Response('{"error":"domain not served"}', status=int(refuse), headers=headers)
        status, body = 403, '{"error":"domain not served"}'
        if refuse == "unbound":  # answers as if the header were not there
            request_headers = {k: v for k, v in request_headers.items() if k.lower() != "aid-domain"}
    request_headers = _domain_signed(request_headers, request.host or "", options)
    challenge = request.headers.get("AID-Challenge") if version == "aid1" else request.headers.get("Accept-Signature")
    if not challenge:  # a plain request to the endpoint: no proof asked for
        return Response(body, status=status, headers=headers)
    breaks = tuple(options.get("breaks", ())) + (tuple(options.get("breaks_unbound", ())) if named is None else ())
    target = f"{request.scheme}://{request.host}{request.full_path.rstrip('?')}"
    added = pka.sign_response(request_headers, request.method, target, status, headers, seed, version,
                              kid=options.get("kid"), breaks=breaks, window=options.get("window"),
                              alg=options.get("alg"), keyid=_keyid(options.get("keyid"), seed),
                              now=int(time.time()) + int(options.get("offset", 0)), nonce=options.get("nonce"),
                              order=options.get("order"))
    if "cache_control" in options:
        added["Cache-Control"] = options["cache_control"]
    # dated on the clock it signed on, whatever clock the world's other answers carry
    added.setdefault("Date", email.utils.formatdate(usegmt=True))
    return Response(body, status=status, headers={**headers, **added})


#: ``sign_domain``: how the domain signed differs from the AID-Domain received (else: the value signed).
DOMAIN_CHANGES = {"upper": str.upper, "dot": lambda d: d + ".", "port": lambda d: d + ":443",
                  "parent": lambda d: d.partition(".")[2] or d}


def _domain_signed(headers: dict[str, str], host: str, options: dict) -> dict[str, str]:
    """The request headers the proof is signed over, AID-Domain as the options change it."""
    received = next((v for k, v in headers.items() if k.lower() == "aid-domain"), None)
    domain = received if received is not None else (host.rsplit(":", 1)[0].lower() if options.get("claim_domain") else None)
    if domain is not None and options.get("sign_domain"):
        how = str(options["sign_domain"])
        domain = DOMAIN_CHANGES[how](domain) if how in DOMAIN_CHANGES else how
    kept = {k: v for k, v in headers.items() if k.lower() != "aid-domain"}
    return kept if domain is None or options.get("unbound") else {**kept, "AID-Domain": domain}


def _keyid(form: str | None, seed: bytes) -> str | None:
    """A keyid derived the way ``form`` names (None: the prover's own, the RFC 7638 thumbprint)."""
    import hashlib

    from conformance.aid import pka

    if form is None:
        return None
    digest = hashlib.sha256(pka.public_bytes(seed)).digest()
    forms = {"raw-sha256": base64.urlsafe_b64encode(digest).rstrip(b"=").decode(), "raw-sha256-hex": digest.hex()}
    return forms[form]
