"""v2.1 Appendix B (client): verifying the PKA endpoint proof, the challenge, the nonce, the
algorithm, redirects, and domain binding (B.7)."""

from __future__ import annotations

import base64
import re

from conformance.aid.clients import AidClient, AidScenarios, connected_to, error_code, pka_route, said, scenario_key, txt
from conformance.aid.v2_1._pka import accept_member, header, keyed, pka_requests, pka_state, proof_works, refused
from conformance.outcomes import clause, untestable, violation

#: Each named break of the prover that makes a v2 proof fail a B.6 condition, but those another
#: clause judges: the nonce (AID-B.3-04), the signed domain (AID-B.7-02), an unbound proof (valid
#: unless domain-binding=require: AID-B.7-08).
BREAKS = ("wrong-key", "wrong-keyid", "stale-created", "future-created", "alg-not-ed25519",
          "extra-covered-component", "duplicate-parameter", "duplicate-label", "no-signature",
          "missing-covered-method", "missing-covered-target-uri", "missing-covered-authority",
          "missing-covered-status", "wrong-tag", "missing-expires", "expires-not-after-created",
          "long-window", "no-cache-control")
#: Signing clocks and windows outside what any verifier may accept (AMB-61: a tolerance of at most
#: 60 s): (offset of created from now, expires - created, what it is). A created in the future is
#: 120 s ahead, so that a slow exchange cannot bring it within a verifier's 60 s.
STALE = ((120, 60, "created 2 minutes in the future"), (3600, 60, "created an hour in the future"),
         (-121, 60, "expired 61 s ago"), (-3660, 60, "expired an hour ago"),
         (-400, 301, "a window of 301 s (expired 99 s ago)"), (0, 301, "a window of 301 s"),
         (0, 0, "expires equal to created"), (0, -1, "expires before created"))


def _failed(scenario, reply: dict, what: str) -> None:
    __tracebackhide__ = True
    if not refused(reply):
        violation(f"the endpoint's proof {what}: discovery must fail (B.6; 'a failed endpoint proof', "
                  f"ERR_SECURITY), and {said(reply)}")
    code = error_code(reply)
    if code not in (None, "ERR_SECURITY"):
        violation(f"the endpoint's proof {what}: a failed endpoint proof is ERR_SECURITY (1003, 'Discovery "
                  f"failed due to security policy or failed endpoint proof'), and the client reported "
                  f"{reply.get('error_kind')!r}")


@clause("AID-B-15")
def test_B_client_rejects_every_broken_proof(client: AidClient, scenarios: AidScenarios) -> None:
    """When `k` is present, clients **MUST** verify endpoint proof using HTTP Message Signatures
    with Ed25519."""
    proof_works(client, scenarios)
    for name in BREAKS:
        scenario = scenarios.new(f"break-{name}", keyed(), routes=[pka_route(breaks=(name,))])
        _failed(scenario, client.discover(scenario), f"breaks the rule {name!r}")
    for offset, window, what in STALE:
        scenario = scenarios.new("stale", keyed(), routes=[pka_route(offset=offset, window=window)])
        _failed(scenario, client.discover(scenario), f"is not fresh: {what}")
    # a profile-aware endpoint refusing the domain: 403, no signature (B.7)
    scenario = scenarios.new("refused-403", keyed(), routes=[pka_route(serves=["other.example"])])
    reply = client.discover(scenario)
    if any(header(r.headers, "AID-Domain") is not None for r in pka_requests(scenario)):  # else it signs
        _failed(scenario, reply, "is a 403 without a signature (the endpoint does not serve the domain named)")
    # the key of another record: the endpoint proves a key the record does not publish
    other = "n" * 43
    scenario = scenarios.new("other-key", txt(k=other[:42] + "A"), routes=[pka_route()])
    reply = client.discover(scenario)
    if not refused(reply):
        violation(f"the record's k is not the key the endpoint signs with: {said(reply)}")


@clause("AID-B.3-02")
def test_B_3_client_challenge_has_32_bytes_of_entropy(client: AidClient, scenarios: AidScenarios) -> None:
    """The client challenge **MUST** contain at least 32 bytes of entropy and **SHOULD** be
    transported as unpadded base64url in the RFC 9421 `nonce` signature parameter."""
    proof_works(client, scenarios)
    seen: list[str] = []
    for n in range(4):
        scenario = scenarios.new(f"challenge-{n}", keyed(), routes=[pka_route()])
        client.discover(scenario)
        for request in pka_requests(scenario):
            member = accept_member(request)
            nonce = member[1].get("nonce") if member else None
            if not isinstance(nonce, str):
                untestable("the client sends no nonce in an aid-pka Accept-Signature member, so where its "
                           "challenge is cannot be seen (see AID-B.3-03)")
            text = nonce.rstrip("=").replace("+", "-").replace("/", "_")
            try:
                raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            except ValueError:
                untestable(f"the nonce {nonce!r} is not base64 of either alphabet, so its bytes cannot be counted "
                           "(see AID-B.3-03)")
            if len(raw) < 32:
                violation(f"the challenge {nonce!r} holds {len(raw)} bytes; it must hold at least 32 bytes of entropy")
            seen.append(nonce)
    if not seen:
        untestable("the client sent no PKA request carrying Accept-Signature (see AID-2.3-56)")
    if len(set(seen)) != len(seen):
        violation(f"the client sent the same challenge twice over {len(seen)} PKA requests ({seen}): a challenge "
                  "that repeats holds no entropy")


@clause("AID-B.3-03")
def test_B_3_client_challenge_is_an_unpadded_base64url_nonce(client: AidClient, scenarios: AidScenarios) -> None:
    """The client challenge **MUST** contain at least 32 bytes of entropy and **SHOULD** be
    transported as unpadded base64url in the RFC 9421 `nonce` signature parameter."""
    proof_works(client, scenarios)
    for n in range(4):
        scenario = scenarios.new(f"nonce-{n}", keyed(), routes=[pka_route()])
        client.discover(scenario)
        requests = pka_requests(scenario)
        if not requests:
            untestable("the client sent no PKA request carrying Accept-Signature (see AID-2.3-56)")
        for request in requests:
            member = accept_member(request)
            if member is None:
                violation(f"the PKA request's Accept-Signature {header(request.headers, 'Accept-Signature')!r} has "
                          "no aid-pka member carrying the challenge")
            nonce = member[1].get("nonce")
            if not isinstance(nonce, str) or not re.fullmatch(r"[A-Za-z0-9_-]+", nonce):
                violation(f"the challenge must be unpadded base64url (A-Z a-z 0-9 - _, no '=') in the nonce "
                          f"parameter of aid-pka; the client sent nonce={nonce!r}")


@clause("AID-B.3-04")
def test_B_3_client_compares_the_nonce_exactly(client: AidClient, scenarios: AidScenarios) -> None:
    """The verifier **MUST** compare the received `nonce` exactly to the challenge it sent."""
    proof_works(client, scenarios)
    ways = [("another challenge", pka_route(breaks=("wrong-nonce",)))] + [
        (what, pka_route(nonce=how)) for how, what in (
            ("upper", "the challenge in upper case"), ("lower", "the challenge in lower case"),
            ("trim", "the challenge without its last character"), ("pad", "the challenge with '=' appended"),
            ("extend", "the challenge with one character appended"), ("drop", "no nonce at all"))]
    for what, route in ways:
        scenario = scenarios.new("nonce", keyed(), routes=[route])
        reply = client.discover(scenario)
        sent = [accept_member(r) for r in pka_requests(scenario)]
        nonce = next((m[1].get("nonce") for m in sent if m), None)
        if what.startswith("the challenge in") and nonce is not None and nonce == (nonce.upper() if "upper" in what
                                                                                 else nonce.lower()):
            continue  # a challenge without letters of that case: the signed nonce is the one sent
        if not refused(reply):
            violation(f"the response signs {what} (the client sent {nonce!r}) and {said(reply)}: the nonce "
                      "must equal the challenge sent, exactly")


@clause("AID-B.3-10")
def test_B_3_client_compares_alg_case_insensitively(client: AidClient, scenarios: AidScenarios) -> None:
    """Verifiers **MUST** compare the semantic algorithm value case-insensitively and **MUST**
    reconstruct `@signature-params` from the received Structured Field value."""
    proof_works(client, scenarios)
    for alg in ("Ed25519", "ED25519", "eD25519", "ed25519"):
        scenario = scenarios.new("alg-case", keyed(), routes=[pka_route(alg=alg)])
        reply = client.discover(scenario)
        if connected_to(reply) != f"https://{scenario.host}/mcp":
            violation(f"the proof is valid and signed with alg={alg!r}, the semantic value ed25519 in another case "
                      f"(compared case-insensitively), and {said(reply)}: {reply.get('messages')}")


@clause("AID-B.5-01")
def test_B_5_client_follows_no_redirect_of_the_pka_request(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST NOT** follow redirects during PKA verification."""
    proof_works(client, scenarios)
    for status in (301, 302, 303, 307, 308):
        for location in ("https://{host}/proof", "/proof", "/mcp?proof=1"):
            scenario = scenarios.new(f"pka-{status}", keyed(), routes=[
                {"path": "/mcp", "query": "", "status": status, "headers": {"Location": location}},
                pka_route(path="/proof"), {**pka_route(), "query": "proof=1"}])
            reply = client.discover(scenario)
            followed = [r for r in scenario.requests() if r.path == "/proof" or r.query == "proof=1"]
            if followed:
                violation(f"the PKA request to /mcp was answered {status} to {location!r} and the client followed "
                          f"it ({followed[0].method} {followed[0].path}{'?' + followed[0].query if followed[0].query else ''}); "
                          f"{said(reply)}")
            if not refused(reply):
                violation(f"the PKA request was answered {status} (Location {location!r}): no proof was given, and "
                          f"{said(reply)}")


@clause("AID-B.7-01")
def test_B_7_client_requests_binding_for_every_keyed_record(client: AidClient, scenarios: AidScenarios) -> None:
    """When `k` is present in an `aid2` record, clients **SHOULD** request domain binding by
    default (see Section 2.3)."""
    proof_works(client, scenarios)
    cases = [("u on the queried host", keyed(), "/mcp"),
             ("u on a path of its own", txt(u="https://{host}/agents/v2?x=1", k=scenario_key()), "/agents/v2"),
             ("another protocol", txt(u="https://{host}/a2a", p="a2a", k=scenario_key()), "/a2a"),
             ("more keys", keyed(a="oauth2_code", s="Agent"), "/mcp")]
    judged = 0
    for what, record, path in cases:
        scenario = scenarios.new("binding", record, routes=[pka_route(path=path)])
        for visit in range(2):  # the first discovery and a later one, within the TTL
            client.discover(scenario, session=client.session(scenario), policy=_prefer(client))
        requests = pka_requests(scenario, path)
        judged += bool(requests)  # a record the client sends no PKA request for is AID-2.3-56's
        for n, request in enumerate(requests):
            if header(request.headers, "AID-Domain") is None:
                violation(f"PKA request {n + 1} of {len(requests)} for {record!r} ({what}) carries no AID-Domain: "
                          "with k present, domain binding is requested by default")
    if not judged:
        untestable("the client sent no PKA request for any keyed record (see AID-2.3-56)")


def _prefer(client: AidClient) -> dict | None:
    """domain-binding=prefer (the default, 3.3) for a client with knobs; else its defaults."""
    return {"domain-binding": "prefer"} if "aid.policy" in client.features else None


def _sends_domain(client: AidClient, scenarios: AidScenarios, policy: dict | None = None) -> bool:
    """Whether the client sends AID-Domain on the PKA request of a keyed record under ``policy``."""
    scenario = scenarios.new("sends-domain", keyed(), routes=[pka_route()])
    client.discover(scenario, policy=policy)
    return any(header(r.headers, "AID-Domain") is not None for r in pka_requests(scenario))


@clause("AID-B.7-02")
def test_B_7_client_verifies_the_domain_it_sent_byte_for_byte(client: AidClient, scenarios: AidScenarios) -> None:
    """Signer and verifier **MUST** use this identical byte value."""
    proof_works(client, scenarios)
    policy = _prefer(client)
    if not _sends_domain(client, scenarios, policy):
        untestable(f"the client does not send AID-Domain (policy {policy or 'default'}), so it verifies no "
                   "domain-bound proof (see AID-2.3-57)")
    ways = [("evil.example", pka_route(breaks=("domain-binding-wrong",)))] + [
        (what, pka_route(sign_domain=how)) for how, what in (
            ("upper", "the domain in upper case"), ("dot", "the domain with a trailing dot"),
            ("port", "the domain with :443"), ("parent", "the parent domain"))]
    for what, route in ways:
        scenario = scenarios.new("bound-other", keyed(), routes=[route])
        reply = client.discover(scenario, policy=policy)
        if not refused(reply):
            violation(f"the client sent AID-Domain: {scenario.host} and the endpoint signed aid-domain as {what}, "
                      f"not that byte value; the bound proof must not verify, and {said(reply)}")


@clause("AID-B.7-06")
def test_B_7_client_rejects_binding_it_did_not_ask_for(client: AidClient, scenarios: AidScenarios) -> None:
    """A client that did not send `AID-Domain` **MUST** reject a response whose covered set
    includes `aid-domain` (fail-closed)."""
    client.needs("aid.policy", "domain-binding=off is the one way to make the client send no AID-Domain")
    off = {"domain-binding": "off"}
    proof_works(client, scenarios, policy=off)
    if _sends_domain(client, scenarios, off):
        untestable("with domain-binding=off the client still sends AID-Domain (see AID-3.3-02)")
    for what, route in (("the queried domain", pka_route(claim_domain=True)),
                        ("its parent domain", pka_route(claim_domain=True, sign_domain="parent")),
                        ("another domain", pka_route(claim_domain=True, sign_domain="evil.example"))):
        scenario = scenarios.new("unrequested-binding", keyed(), routes=[route])
        reply = client.discover(scenario, policy=off)
        if not refused(reply):
            violation(f"the client sent no AID-Domain (domain-binding=off) and the response covers \"aid-domain\";req "
                      f"({what}); it must be rejected, and {said(reply)}")


@clause("AID-B.7-07")
def test_B_7_client_exposes_the_binding_indicator(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients that request domain binding **MUST** expose a boolean domain-binding indicator as
    part of PKA state, set `true` only when `aid-domain` was covered and the proof verified for the
    queried domain, and `false` for a verified unbound proof."""
    proof_works(client, scenarios)
    requesting = [p for p in (None, _prefer(client)) if _sends_domain(client, scenarios, p)]
    if not requesting:
        untestable("the client does not request domain binding: the indicator is asked only of clients that do "
                   "(see AID-2.3-57)")
    for policy in requesting:
        for bound, route in ((True, pka_route()), (False, pka_route(breaks=("domain-binding-absent",))),
                             (False, pka_route(unbound=True))):
            scenario = scenarios.new("indicator", keyed(), routes=[route])
            reply = client.discover(scenario, policy=policy)
            if reply.get("outcome") != "connect" and not bound:
                continue  # a client that rejects unbound proofs verifies none: nothing to flag (see AID-B.7-08)
            if reply.get("outcome") != "connect":
                untestable(f"a verified bound proof: {said(reply)}, so no PKA state to read (see AID-B-15)")
            state = pka_state(reply)
            if state is None or "domain_bound" not in state:
                violation(f"the result of a verified {'bound' if bound else 'unbound'} proof has no domain-binding "
                          f"indicator in its PKA state (connect.record.pka: {state!r})")
            if state["domain_bound"] is not bound:
                violation(f"the proof {'covers' if bound else 'omits'} \"aid-domain\";req and verified: the indicator "
                          f"must be {bound}, and the client's PKA state is {state!r}")


@clause("AID-B.7-08")
def test_B_7_client_accepts_an_unbound_proof_unless_required(client: AidClient, scenarios: AidScenarios) -> None:
    """In AID v2, domain binding is optional-but-default: clients **SHOULD** send `AID-Domain`, and an
    unbound proof (one whose covered set omits `aid-domain`) remains a valid outcome unless local
    policy requires binding (`domain-binding=require`, Section 3.3)."""
    proof_works(client, scenarios)
    policies: list[dict | None] = [None]
    if "aid.policy" in client.features:
        policies += [{"domain-binding": "prefer"}, {"domain-binding": "off"}, {"pka": "require"}]
    for policy in policies:
        for what, route in (("an endpoint that ignores AID-Domain", pka_route(breaks=("domain-binding-absent",))),
                            ("an endpoint without the profile", pka_route(unbound=True))):
            scenario = scenarios.new("unbound", keyed(), routes=[route])
            reply = client.discover(scenario, policy=policy)
            if connected_to(reply) != f"https://{scenario.host}/mcp":
                violation(f"{what} gives a valid unbound proof, a valid outcome unless domain-binding=require; with "
                          f"policy {policy or 'the default'} {said(reply)}: {reply.get('messages')}")


@clause("AID-B.1-03")
def test_B_1_client_refuses_a_legacy_key_in_aid2(client: AidClient, scenarios: AidScenarios) -> None:
    """Legacy `z...` multibase keys **MUST NOT** be accepted in `v=aid2`."""
    proof_works(client, scenarios)
    legacy = scenario_key("aid1")
    for record in (txt(k=legacy), txt(pka=legacy), txt(K=legacy), txt(k=legacy, s="Agent")):
        scenario = scenarios.new("legacy-key", record, routes=[pka_route()])
        reply = client.discover(scenario)
        if not refused(reply):
            violation(f"the aid2 record {record!r} carries the legacy multibase key {legacy!r} (z…), which must not be "
                      f"accepted in v=aid2 (the endpoint proves that key), and {said(reply)}")


#: Orders of the six signature parameters a signer may emit (RFC 9421 2.3 fixes none).
ORDERS = (("created", "expires", "keyid", "alg", "nonce", "tag"),  # Accept-Signature's order (B.3)
          ("tag", "nonce", "alg", "keyid", "expires", "created"),
          ("keyid", "created", "expires", "nonce", "alg", "tag"),
          ("alg", "created", "expires", "keyid", "nonce", "tag"),
          ("nonce", "tag", "created", "expires", "keyid", "alg"),
          ("created", "keyid", "alg", "expires", "nonce", "tag"))


@clause("AID-B.3-11")
def test_B_3_client_reads_signature_params_as_received(client: AidClient, scenarios: AidScenarios) -> None:
    """Verifiers **MUST** compare the semantic algorithm value case-insensitively and **MUST**
    reconstruct `@signature-params` from the received Structured Field value."""
    proof_works(client, scenarios)
    for order in ORDERS:
        for policy in (None, {"domain-binding": "off"} if "aid.policy" in client.features else None):
            scenario = scenarios.new("param-order", keyed(), routes=[pka_route(order=list(order))])
            reply = client.discover(scenario, policy=policy)
            if connected_to(reply) != f"https://{scenario.host}/mcp":
                violation(f"the proof is valid, its Signature-Input parameters in the order {';'.join(order)} (the "
                          f"signature base's @signature-params line is that received value), and {said(reply)}: "
                          f"{reply.get('messages')}")
