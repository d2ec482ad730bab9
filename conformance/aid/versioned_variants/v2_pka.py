"""Broken v2.1 clients: the PKA endpoint proof (v2.1 2.3 step 9, 3, Appendix B), domain binding
(B.7), the policy knobs (3.3), DNSSEC (3), local execution (3), redirects (3, B.5) and the PKA
request's Cache-Control (4). Each overrides one method of the reference client."""

from __future__ import annotations

import base64
import time
from datetime import datetime
from types import SimpleNamespace
from typing import Any, Callable

import http_sf

from conformance.aid import versioned
from conformance.aid.reference_client import Found, User
from conformance.aid.versioned_client import VersionedAidClient
from conformance.dns import a_label

Headers = dict[str, str]


def _prove(client: VersionedAidClient, fields: dict[str, str], domain: str, knobs: dict[str, str], *,
           challenge: Callable[[Headers], Headers] = lambda h: h,
           judge: Callable[[Any, dict, Headers, Any, str | None], Any] | None = None,
           fetcher: Any = None) -> tuple[bool, str, bool]:
    """The reference client's ``prove`` (v2.1 B), with one step replaceable: the request headers
    (``challenge``), the verdict (``judge(proof, fields, headers, response, bound domain)``), or
    the fetcher (one that follows redirects)."""
    from conformance.aid import pka

    version = fields.get("version", "")
    bind = version == "aid2" and knobs.get("domain-binding") != "off"
    host = a_label(domain.strip().rstrip(".")).lower()
    clock = int(time.time())
    headers = challenge(pka.challenge_headers("aid1" if version == "aid1" else "aid2", fields["uri"],
                                              host if bind else None, clock,
                                              k=fields["pka"] if version == "aid2" else None))
    fetched = (fetcher or client.fetcher).fetch(fields["uri"], headers=headers)
    final = fetched.final
    if final is None or (fetched.redirects and fetcher is None):
        return False, f"no answer to verify ({fetched.error})", False
    response = SimpleNamespace(status=final.status, status_code=final.status, headers=final.response_headers)
    proof = pka.verify(version, fields, headers, response, now=clock, domain=host if bind else None,
                       domain_binding=knobs.get("domain-binding", "prefer"))
    if judge is not None:
        proof = judge(proof, fields, headers, response, host if bind else None)
    return proof.ok, proof.reason, bool(proof.domain_bound)


def _reverify(fields: dict, headers: Headers, response: Any, domain: str | None, **changes: Any) -> Any:
    from conformance.aid import pka

    return pka.verify("aid2", fields, headers, response, now=int(time.time()), domain=domain, **changes)


def _received(response: Any) -> dict:
    """The parameters of the response's aid-pka Signature-Input member ({} when unreadable)."""
    try:
        value = next(v for k, v in dict(response.headers).items() if k.lower() == "signature-input")
        return dict(http_sf.parse(value.encode(), tltype="dictionary")["aid-pka"][1])
    except Exception:  # noqa: BLE001
        return {}


def _with_nonce(headers: Headers, nonce: str) -> Headers:
    """``headers`` whose Accept-Signature carries ``nonce`` as the challenge."""
    parsed = http_sf.parse(headers["Accept-Signature"].encode(), tltype="dictionary")
    items, params = parsed["aid-pka"]
    params = dict(params) | {"nonce": nonce}
    return {**headers, "Accept-Signature": http_sf.ser({"aid-pka": (items, params)})}


def _with_domain(headers: Headers, value: str) -> Headers:
    return {**{k: v for k, v in headers.items() if k.lower() != "aid-domain"}, "AID-Domain": value}


def _ok(proof: Any) -> Any:
    return SimpleNamespace(ok=True, rule=None, reason="accepted", domain_bound=proof.domain_bound)


# ---------------------------------------------------------------- B-15: the proof's conditions

class FreshnessUnchecked(VersionedAidClient):
    """Accepts a proof however old or early its created and expires (AID-B-15)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        def judge(proof, fields, headers, response, bound):
            if proof.rule in ("freshness", "window", "expires-after-created"):
                from conformance.aid import pka
                return pka.verify("aid2", fields, headers, response, now=int(time.time()), domain=bound,
                                  skew=10 ** 10) if proof.rule == "freshness" else _ok(proof)
            return proof
        return _prove(self, fields, domain, knobs, judge=judge)


class NoStoreUnchecked(VersionedAidClient):
    """Accepts a PKA response without Cache-Control: no-store (B.6 8) (AID-B-15)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        def judge(proof, fields, headers, response, bound):
            if proof.rule == "no-store":
                response.headers = {**dict(response.headers), "Cache-Control": "no-store"}
                return _reverify(fields, headers, response, bound)
            return proof
        return _prove(self, fields, domain, knobs, judge=judge)


# ---------------------------------------------------------------- B.3: challenge, nonce, alg

class ShortChallenge(VersionedAidClient):
    """Sends a challenge of 16 random bytes (AID-B.3-02)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        import secrets
        nonce = base64.urlsafe_b64encode(secrets.token_bytes(16)).decode().rstrip("=")
        return _prove(self, fields, domain, knobs, challenge=lambda h: _with_nonce(h, nonce))


class FixedChallenge(VersionedAidClient):
    """Sends the same 32-byte challenge on every PKA request (AID-B.3-02)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        nonce = base64.urlsafe_b64encode(bytes(range(32))).decode().rstrip("=")
        return _prove(self, fields, domain, knobs, challenge=lambda h: _with_nonce(h, nonce))


class PaddedChallenge(VersionedAidClient):
    """Sends its 32-byte challenge as padded base64url (a trailing '=') (AID-B.3-03)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        import secrets
        nonce = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()
        return _prove(self, fields, domain, knobs, challenge=lambda h: _with_nonce(h, nonce))


class StandardBase64Challenge(VersionedAidClient):
    """Sends its challenge in the standard base64 alphabet ('+' and '/'), unpadded (AID-B.3-03)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        import secrets
        while True:
            nonce = base64.b64encode(secrets.token_bytes(33)).decode()
            if "+" in nonce or "/" in nonce:
                break
        return _prove(self, fields, domain, knobs, challenge=lambda h: _with_nonce(h, nonce))


class NonceCaseInsensitive(VersionedAidClient):
    """Compares the received nonce with its challenge case-insensitively (AID-B.3-04)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        def judge(proof, fields, headers, response, bound):
            got = _received(response).get("nonce")
            if proof.rule == "nonce" and isinstance(got, str):
                sent = http_sf.parse(headers["Accept-Signature"].encode(), tltype="dictionary")["aid-pka"][1]["nonce"]
                if got.lower() == sent.lower():
                    return _reverify(fields, _with_nonce(headers, got), response, bound)
            return proof
        return _prove(self, fields, domain, knobs, judge=judge)


class NoncePrefix(VersionedAidClient):
    """Accepts a received nonce that starts or ends the challenge, or is absent (AID-B.3-04)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        def judge(proof, fields, headers, response, bound):
            if proof.rule != "nonce":
                return proof
            got = _received(response).get("nonce")
            sent = http_sf.parse(headers["Accept-Signature"].encode(), tltype="dictionary")["aid-pka"][1]["nonce"]
            if got is None:
                return _ok(proof)
            if isinstance(got, str) and (sent.startswith(got.rstrip("=")) or got.startswith(sent)):
                return _reverify(fields, _with_nonce(headers, got), response, bound)
            return proof
        return _prove(self, fields, domain, knobs, judge=judge)


class AlgExactCase(VersionedAidClient):
    """Rejects alg unless it is exactly "ed25519" (AID-B.3-10)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        def judge(proof, fields, headers, response, bound):
            alg = _received(response).get("alg")
            if proof.ok and alg != "ed25519":
                return SimpleNamespace(ok=False, rule="alg", reason=f"alg {alg!r} is not 'ed25519'", domain_bound=None)
            return proof
        return _prove(self, fields, domain, knobs, judge=judge)


class AlgCapitalOnly(VersionedAidClient):
    """Accepts alg "ed25519" and "Ed25519" only, not other cases (AID-B.3-10)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        def judge(proof, fields, headers, response, bound):
            alg = _received(response).get("alg")
            if proof.ok and alg not in ("ed25519", "Ed25519"):
                return SimpleNamespace(ok=False, rule="alg", reason=f"alg {alg!r}", domain_bound=None)
            return proof
        return _prove(self, fields, domain, knobs, judge=judge)


# ---------------------------------------------------------------- B.5: redirects of the PKA request

class PkaFollowsRedirects(VersionedAidClient):
    """Follows redirects of the PKA request, and verifies the answer at their end (AID-B.5-01)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        from dataclasses import replace

        from conformance.fetch import Fetcher
        follower = Fetcher(replace(self.http, limits=replace(self.http.limits, max_redirects=5)))
        return _prove(self, fields, domain, knobs, fetcher=follower)


class PkaFollowsSameOrigin(VersionedAidClient):
    """Follows a redirect of the PKA request to the same host, once (AID-B.5-01)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        import urllib.parse
        first = self.fetcher.fetch(fields["uri"])  # a plain GET: where does the endpoint send it?
        final = first.final
        if final is not None and 300 <= final.status < 400:
            location = final.header("location")
            if location:
                target = urllib.parse.urljoin(fields["uri"], location)
                if urllib.parse.urlsplit(target).hostname == urllib.parse.urlsplit(fields["uri"]).hostname:
                    fields = {**fields, "uri": target}
        return super().prove(fields, domain, now, knobs)


# ---------------------------------------------------------------- B.7: domain binding

class BindsFirstVisitOnly(VersionedAidClient):
    """Requests domain binding only on the first discovery of a domain (AID-B.7-01)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        seen = self.memory.get(domain)
        if seen is not None and seen.version is not None:
            knobs = {**knobs, "domain-binding": "off"}
        return super().prove(fields, domain, now, knobs)


class BindsPlainUrisOnly(VersionedAidClient):
    """Requests domain binding only for a u of the protocol mcp at the path /mcp (AID-B.7-01)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        if fields.get("proto") != "mcp" or not fields.get("uri", "").endswith("/mcp"):
            knobs = {**knobs, "domain-binding": "off"}
        return super().prove(fields, domain, now, knobs)


class DomainCaseInsensitive(VersionedAidClient):
    """Verifies a bound proof against its domain in any letter case (AID-B.7-02)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        def judge(proof, fields, headers, response, bound):
            if proof.ok or bound is None:
                return proof
            for value in (bound.upper(), bound.title()):
                again = _reverify(fields, _with_domain(headers, value), response, None)
                if again.ok:
                    return again
            return proof
        return _prove(self, fields, domain, knobs, judge=judge)


class DomainParentAccepted(VersionedAidClient):
    """Accepts a proof bound to a parent of the queried domain (AID-B.7-02)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        def judge(proof, fields, headers, response, bound):
            if proof.ok or bound is None:
                return proof
            labels = bound.split(".")
            for n in range(1, len(labels) - 1):
                again = _reverify(fields, _with_domain(headers, ".".join(labels[n:])), response, None)
                if again.ok:
                    return again
            return proof
        return _prove(self, fields, domain, knobs, judge=judge)


class UnrequestedBindingVerified(VersionedAidClient):
    """Sent no AID-Domain, yet verifies a bound proof as if it had sent its domain (AID-B.7-06)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        def judge(proof, fields, headers, response, bound):
            if proof.rule == "domain-unrequested":
                own = a_label(domain.strip().rstrip(".")).lower()
                return _reverify(fields, _with_domain(headers, own), response, own)
            return proof
        return _prove(self, fields, domain, knobs, judge=judge)


class UnrequestedBindingIgnored(VersionedAidClient):
    """Sent no AID-Domain, and accepts any response covering aid-domain unverified (AID-B.7-06)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        def judge(proof, fields, headers, response, bound):
            return _ok(proof) if proof.rule == "domain-unrequested" else proof
        return _prove(self, fields, domain, knobs, judge=judge)


class IndicatorWhenRequested(VersionedAidClient):
    """Reports domain_bound true whenever it requested binding, bound proof or not (AID-B.7-07)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        ok, why, bound = super().prove(fields, domain, now, knobs)
        return ok, why, knobs.get("domain-binding") != "off"


class IndicatorNeverSet(VersionedAidClient):
    """Reports domain_bound false for every proof (AID-B.7-07)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        ok, why, bound = super().prove(fields, domain, now, knobs)
        return ok, why, False


class PreferEnforces(VersionedAidClient):
    """Reads domain-binding=prefer, the default, as require: rejects unbound proofs (AID-B.7-08)."""

    def policy(self, given):  # type: ignore[no-untyped-def]
        knobs = super().policy(given)
        if knobs.get("domain-binding") == "prefer":
            knobs["domain-binding"] = "require"
        return knobs


class UnboundRejectedWhenAsked(VersionedAidClient):
    """Rejects an unbound proof whenever it sent AID-Domain (AID-B.7-08)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        ok, why, bound = super().prove(fields, domain, now, knobs)
        if ok and not bound and knobs.get("domain-binding") != "off":
            return False, "the endpoint ignored AID-Domain", False
        return ok, why, bound


# ---------------------------------------------------------------- B.1: legacy keys in aid2

def _legacy_to_v2(text: str) -> str:
    from conformance.aid import pka
    pairs = []
    for pair in text.split(";"):
        key, sep, value = pair.partition("=")
        if key.strip().lower() in ("k", "pka") and value.strip().startswith("z") and "aid2" in text.lower():
            try:
                value = pka.encode_key(pka.decode_key(value.strip(), "aid1"), "aid2")
            except Exception:  # noqa: BLE001
                pass
        pairs.append(key + sep + value)
    return ";".join(pairs)


class LegacyKeyDecoded(VersionedAidClient):
    """Decodes a z… multibase k in an aid2 record as the same key (AID-B.1-03)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select([_legacy_to_v2(t) for t in texts])


class LegacyKeyDropped(VersionedAidClient):
    """Ignores a z… multibase k in an aid2 record and uses the record without a proof (AID-B.1-03)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        def strip(text: str) -> str:
            if "aid2" not in text.lower():
                return text
            return ";".join(p for p in text.split(";")
                            if not (p.partition("=")[0].strip().lower() in ("k", "pka") and p.partition("=")[2].strip().startswith("z")))
        return super().select([strip(t) for t in texts])


# ---------------------------------------------------------------- 2.3 step 9: the proof and its AID-Domain

class ProvesMcpOnly(VersionedAidClient):
    """Performs the PKA proof only for p=mcp records; others are used unproven (AID-2.3-56)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        if fields.get("proto") != "mcp":
            return True, "not proven: only mcp endpoints are", False
        return super().prove(fields, domain, now, knobs)


class ProvesOncePerKey(VersionedAidClient):
    """Skips the PKA proof when the record's key was proven by an earlier discovery (AID-2.3-56)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        seen = self.memory.get(domain)
        if seen is not None and seen.keys and self.thumbprint(fields) in seen.keys:
            return True, "proven before", False
        return super().prove(fields, domain, now, knobs)


class DomainAsEntered(VersionedAidClient):
    """Sends AID-Domain in the letter case the user entered it (AID-2.3-57)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        entered = domain.strip().rstrip(".")
        return _prove(self, fields, domain, knobs,
                      challenge=lambda h: _with_domain(h, a_label(entered) if not entered.isascii() else entered)
                      if any(k.lower() == "aid-domain" for k in h) else h)


class DomainOfEndpoint(VersionedAidClient):
    """Sends the host of u as AID-Domain, not the queried domain (AID-2.3-57)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        import urllib.parse
        host = (urllib.parse.urlsplit(fields["uri"]).hostname or "").lower()
        return _prove(self, fields, domain, knobs,
                      challenge=lambda h: _with_domain(h, host) if any(k.lower() == "aid-domain" for k in h) else h)


class UnboundWithoutPolicy(VersionedAidClient):
    """Requests domain binding only when a policy asks for it: none given means off (AID-3.1-01)."""

    def policy(self, given):  # type: ignore[no-untyped-def]
        knobs = super().policy(given)
        if not given:
            knobs["domain-binding"] = "off"
        return knobs


class BaseSetByDefault(VersionedAidClient):
    """Without a policy, sends AID-Domain yet asks for the base covered set (AID-3.1-01)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        if policy:
            return super().discover(domain, now, user, platform, policy, protocol)
        original = self.prove

        def prove(fields, domain, now, knobs):  # type: ignore[no-untyped-def]
            def base(h: Headers) -> Headers:
                parsed = http_sf.parse(h["Accept-Signature"].encode(), tltype="dictionary")
                items, params = parsed["aid-pka"]
                items = [i for i in items if i[0] != "aid-domain"]
                return {**h, "Accept-Signature": http_sf.ser({"aid-pka": (items, params)})}
            return _prove(self, fields, domain, knobs, challenge=base)
        self.prove = prove  # type: ignore[method-assign]
        try:
            return super().discover(domain, now, user, platform, policy, protocol)
        finally:
            self.prove = original  # type: ignore[method-assign]


class UnboundUnderAnyPolicy(VersionedAidClient):
    """Turns domain binding off whenever a policy is given that does not name it (AID-3.2-17)."""

    def policy(self, given):  # type: ignore[no-untyped-def]
        knobs = super().policy(given)
        if given and "domain-binding" not in given:
            knobs["domain-binding"] = "off"
        return knobs


class UnboundUnderPkaRequire(VersionedAidClient):
    """Turns domain binding off under pka=require or a preset mode (AID-3.2-17)."""

    def policy(self, given):  # type: ignore[no-untyped-def]
        knobs = super().policy(given)
        if given and "domain-binding" not in given and (given.get("pka") == "require" or "mode" in given):
            knobs["domain-binding"] = "off"
        return knobs


# ---------------------------------------------------------------- 4: Cache-Control of the PKA request

class PkaRequestCacheable(VersionedAidClient):
    """Sends its PKA request without Cache-Control (AID-4-19)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        return _prove(self, fields, domain, knobs,
                      challenge=lambda h: {k: v for k, v in h.items() if k.lower() != "cache-control"})


class PkaRequestNoCache(VersionedAidClient):
    """Sends Cache-Control: no-cache, max-age=0 on its PKA request, not no-store (AID-4-19)."""

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        return _prove(self, fields, domain, knobs, challenge=lambda h: {**h, "Cache-Control": "no-cache, max-age=0"})


# ---------------------------------------------------------------- 3: DNSSEC, the selected record's proof

class DnssecFailureIgnored(VersionedAidClient):
    """Uses an answer whose DNSSEC validation failed as if the zone were unsigned (AID-3-21)."""

    def lookup(self, domain, name, now):  # type: ignore[no-untyped-def]
        from dataclasses import replace
        answer = super().lookup(domain, name, now)
        return replace(answer, dnssec="unsigned") if answer.dnssec == "invalid" else answer


class KeyedRecordUnvalidated(VersionedAidClient):
    """Lets a DNSSEC failure pass when the answer holds a record with k: PKA will prove the
    endpoint anyway (AID-3-21)."""

    def lookup(self, domain, name, now):  # type: ignore[no-untyped-def]
        from dataclasses import replace
        answer = super().lookup(domain, name, now)
        keyed = any(p.partition("=")[0].strip().lower() in ("k", "pka") for t in answer.texts() for p in t.split(";"))
        return replace(answer, dnssec="unsigned") if answer.dnssec == "invalid" and keyed else answer


class FallbackKeyDropped(VersionedAidClient):
    """Drops k from a record found at /.well-known/agent: TLS vouches for it (AID-3-24)."""

    def fallback(self, domain):  # type: ignore[no-untyped-def]
        text, why = super().fallback(domain)
        if text is None:
            return text, why
        return ";".join(p for p in text.split(";") if p.partition("=")[0].strip().lower() not in ("k", "pka")), why


class Aid1AfterFailedProof(VersionedAidClient):
    """When the selected aid2 record's proof fails, uses the aid1 record beside it (AID-3-24)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        found = super().discover(domain, now, user, platform, policy, protocol)
        memory = self.memory.get(domain)
        texts = self.texts(memory.answer) if memory is not None and memory.answer is not None else []
        legacy = any(versioned.read(t).version == "aid1" and versioned.read(t).valid for t in texts)
        if legacy and found.error_kind == "ERR_SECURITY" and any("endpoint proof failed" in m for m in found.messages):
            original = self.select
            self.select = lambda texts: original([t for t in texts if versioned.read(t).version != "aid2"])  # type: ignore[method-assign]
            try:
                return super().discover(domain, now, user, platform, policy, protocol)
            finally:
                self.select = original  # type: ignore[method-assign]
        return found


class SkipsProofBesideAid1(VersionedAidClient):
    """When a valid aid1 record stands beside the selected aid2 one (a migration, v2.1 2.2), takes
    DNS as vouching for the pair and sends no PKA request for the aid2 record's k (AID-3-24)."""

    def prove(self, fields: dict[str, str], domain: str, now: datetime, knobs: dict[str, str]) -> tuple[bool, str, bool]:
        memory = self.memory.get(domain)
        texts = self.texts(memory.answer) if memory is not None and memory.answer is not None else []
        if fields.get("version") == "aid2" and any(versioned.read(t).version == "aid1" and versioned.read(t).valid
                                                   for t in texts):
            return True, "", knobs.get("domain-binding") != "off"
        return super().prove(fields, domain, now, knobs)


# ---------------------------------------------------------------- 3: local execution

class ConsentPerDomain(VersionedAidClient):
    """Asks for consent once per domain, whatever u the record later names (AID-3-25)."""

    def fingerprint(self, fields: dict[str, str]) -> str:
        return "domain"


class ShellCommand(VersionedAidClient):
    """Runs a local locator through sh -c (AID-3-25)."""

    def argv(self, uri: str) -> list[str] | None:
        import shlex
        argv = super().argv(uri)
        return None if argv is None else ["sh", "-c", " ".join(argv[:-1]) + " " + argv[-1]]


class NestedRun(VersionedAidClient):
    """Runs a locator that starts another AID discovery (AID-3-25)."""

    def nested(self, argv: list[str]) -> bool:
        return False


class ConsentAssumed(VersionedAidClient):
    """Runs a local agent after showing its command, without waiting for the user's consent (AID-3-25)."""

    def consent(self, domain, fields, argv, found, user):  # type: ignore[no-untyped-def]
        super().consent(domain, fields, argv, found, user)
        return True


class Unsandboxed(VersionedAidClient):
    """Runs local agents outside a sandbox (AID-3-26)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        found = super().discover(domain, now, user, platform, policy, protocol)
        if found.execute is not None:
            found.execute["sandbox"] = False
        return found


class SandboxDockerOnly(VersionedAidClient):
    """Sandboxes docker agents only; npx and pip ones run unconfined (AID-3-26)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        found = super().discover(domain, now, user, platform, policy, protocol)
        if found.execute is not None and found.execute["argv"][0] != "docker":
            found.execute["sandbox"] = False
        return found


# ---------------------------------------------------------------- 3: redirects of the fallback

class FallbackFollowsRedirects(VersionedAidClient):
    """Follows redirects of GET /.well-known/agent (AID-3-27)."""

    def fallback(self, domain):  # type: ignore[no-untyped-def]
        from dataclasses import replace

        from conformance.fetch import Fetcher
        original = self.fetcher
        self.fetcher = Fetcher(replace(self.http, limits=replace(self.http.limits, max_redirects=5)))
        try:
            text, why = super().fallback(domain)
            if text is None and "HTTP 3" not in why:
                return text, why
            fetched = self.fetcher.fetch(f"https://{a_label(domain.strip().rstrip('.'))}/.well-known/agent")
            final = fetched.final
            if final is None or final.status != 200:
                return None, why
            import json
            return ";".join(f"{k}={v}" for k, v in json.loads(final.body).items()), ""
        finally:
            self.fetcher = original


class FallbackFollowsSameOrigin(VersionedAidClient):
    """Follows a 307 or 308 of GET /.well-known/agent to a path of the same host (a GET to the
    Location), then reports the fallback failed as the reference does (AID-3-27)."""

    def fallback(self, domain):  # type: ignore[no-untyped-def]
        import urllib.parse
        text, why = super().fallback(domain)
        if text is not None or not ("HTTP 307" in why or "HTTP 308" in why):
            return text, why
        url = f"https://{a_label(domain.strip().rstrip('.'))}/.well-known/agent"
        first = self.fetcher.fetch(url).final
        location = first.header("location") if first is not None else None
        if location:
            target = urllib.parse.urljoin(url, location)
            if urllib.parse.urlsplit(target).hostname == urllib.parse.urlsplit(url).hostname:
                self.fetcher.fetch(target)
        return text, why


# ---------------------------------------------------------------- 3.3: the knobs

class DnssecOffRefused(VersionedAidClient):
    """Takes no dnssec=off: the step fails (AID-3.3-01)."""

    def policy(self, given):  # type: ignore[no-untyped-def]
        if (given or {}).get("dnssec") == "off":
            raise ValueError("unknown policy value dnssec=off")
        return super().policy(given)


class DowngradeOffRefused(VersionedAidClient):
    """Takes no downgrade=off: the step fails (AID-3.3-01)."""

    def policy(self, given):  # type: ignore[no-untyped-def]
        if (given or {}).get("downgrade") == "off":
            raise ValueError("unknown policy value downgrade=off")
        return super().policy(given)


class PkaRequireIgnored(VersionedAidClient):
    """Reads pka=require as if-present (AID-3.3-02)."""

    def policy(self, given):  # type: ignore[no-untyped-def]
        knobs = super().policy(given)
        knobs["pka"] = "if-present"
        return knobs


class PkaRemovalNotADowngrade(VersionedAidClient):
    """Counts only aid2 to aid1 as a downgrade: a removed or replaced key passes (AID-3.3-02)."""

    def downgrade(self, domain: str, fields: dict[str, str], trust: str) -> str:
        memory = self.memory.get(domain)
        if memory is not None and memory.version == "aid2" and fields.get("version") == "aid1":
            return "aid2 was selected before and only aid1 is now"
        return ""


class BindingRequireIgnored(VersionedAidClient):
    """Reads domain-binding=require as prefer (AID-3.3-02)."""

    def policy(self, given):  # type: ignore[no-untyped-def]
        knobs = super().policy(given)
        if knobs.get("domain-binding") == "require":
            knobs["domain-binding"] = "prefer"
        return knobs


class DnssecRequireDnsOnly(VersionedAidClient):
    """Applies dnssec=require only when DNS holds the record; a fallback record passes (AID-3.3-03)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        if (policy or {}).get("dnssec") == "require":
            answer = self.resolver.txt(self.query_name(domain))
            if answer.status != "ok" or not any(versioned.read(t).is_aid for t in answer.texts()):
                policy = {**(policy or {}), "dnssec": "prefer"}
        return super().discover(domain, now, user, platform, policy, protocol)


class DnssecRequireRetried(VersionedAidClient):
    """When dnssec=require fails a record DNS did not give, discovers again without it (AID-3.3-03)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        found = super().discover(domain, now, user, platform, policy, protocol)
        if found.error_kind == "ERR_SECURITY" and any("dnssec=require" in m for m in found.messages):
            answer = self.resolver.txt(self.query_name(domain))
            if answer.status != "ok":
                return super().discover(domain, now, user, platform, {**(policy or {}), "dnssec": "off"})
        return found


class _Reorder(VersionedAidClient):
    """Verifies after rewriting the received Signature-Input's parameters into ``order(params)``."""

    @staticmethod
    def order(names: list[str]) -> list[str]:
        return names

    def prove(self, fields, domain, now, knobs):  # type: ignore[no-untyped-def]
        order = self.order

        def judge(proof, fields, headers, response, bound):
            if not proof.ok:
                return proof
            lines = dict(response.headers)
            name = next((k for k in lines if k.lower() == "signature-input"), None)
            try:
                parsed = http_sf.parse(lines[name].encode(), tltype="dictionary")
                items, params = parsed["aid-pka"]
            except Exception:  # noqa: BLE001
                return proof
            params = dict(params)
            rebuilt = {k: params[k] for k in order(list(params))}
            response.headers = {**{k: v for k, v in lines.items() if k != name},
                                "Signature-Input": http_sf.ser({"aid-pka": (items, rebuilt)})}
            return _reverify(fields, headers, response, bound,
                             domain_binding=knobs.get("domain-binding", "prefer"))
        return _prove(self, fields, domain, knobs, judge=judge)


class ParamsCanonicalOrder(_Reorder):
    """Rebuilds @signature-params in one fixed order of its own, not as received (AID-B.3-11)."""

    @staticmethod
    def order(names: list[str]) -> list[str]:
        fixed = ["created", "keyid", "alg", "expires", "nonce", "tag"]
        return [n for n in fixed if n in names] + [n for n in names if n not in fixed]


class ParamsTagLast(_Reorder):
    """Rebuilds @signature-params with tag moved last (AID-B.3-11)."""

    @staticmethod
    def order(names: list[str]) -> list[str]:
        return [n for n in names if n != "tag"] + (["tag"] if "tag" in names else [])


VARIANTS = {
    "v2-pka-freshness-unchecked": FreshnessUnchecked,
    "v2-pka-no-store-unchecked": NoStoreUnchecked,
    "v2-pka-short-challenge": ShortChallenge,
    "v2-pka-fixed-challenge": FixedChallenge,
    "v2-pka-padded-challenge": PaddedChallenge,
    "v2-pka-base64-challenge": StandardBase64Challenge,
    "v2-pka-nonce-case-insensitive": NonceCaseInsensitive,
    "v2-pka-nonce-prefix": NoncePrefix,
    "v2-pka-alg-exact-case": AlgExactCase,
    "v2-pka-alg-capital-only": AlgCapitalOnly,
    "v2-pka-follows-redirects": PkaFollowsRedirects,
    "v2-pka-follows-same-origin": PkaFollowsSameOrigin,
    "v2-binds-first-visit-only": BindsFirstVisitOnly,
    "v2-binds-plain-uris-only": BindsPlainUrisOnly,
    "v2-domain-case-insensitive": DomainCaseInsensitive,
    "v2-domain-parent-accepted": DomainParentAccepted,
    "v2-unrequested-binding-verified": UnrequestedBindingVerified,
    "v2-unrequested-binding-ignored": UnrequestedBindingIgnored,
    "v2-indicator-when-requested": IndicatorWhenRequested,
    "v2-indicator-never-set": IndicatorNeverSet,
    "v2-prefer-enforces": PreferEnforces,
    "v2-unbound-rejected-when-asked": UnboundRejectedWhenAsked,
    "v2-legacy-key-decoded": LegacyKeyDecoded,
    "v2-legacy-key-dropped": LegacyKeyDropped,
    "v2-proves-mcp-only": ProvesMcpOnly,
    "v2-proves-once-per-key": ProvesOncePerKey,
    "v2-aid-domain-as-entered": DomainAsEntered,
    "v2-aid-domain-of-endpoint": DomainOfEndpoint,
    "v2-unbound-without-policy": UnboundWithoutPolicy,
    "v2-base-set-by-default": BaseSetByDefault,
    "v2-unbound-under-any-policy": UnboundUnderAnyPolicy,
    "v2-unbound-under-pka-require": UnboundUnderPkaRequire,
    "v2-pka-request-cacheable": PkaRequestCacheable,
    "v2-pka-request-no-cache": PkaRequestNoCache,
    "v2-dnssec-failure-ignored": DnssecFailureIgnored,
    "v2-keyed-record-unvalidated": KeyedRecordUnvalidated,
    "v2-fallback-key-dropped": FallbackKeyDropped,
    "v2-skips-proof-beside-aid1": SkipsProofBesideAid1,
    "v2-aid1-after-failed-proof": Aid1AfterFailedProof,
    "v2-local-consent-per-domain": ConsentPerDomain,
    "v2-local-shell-command": ShellCommand,
    "v2-local-nested-run": NestedRun,
    "v2-local-consent-assumed": ConsentAssumed,
    "v2-local-unsandboxed": Unsandboxed,
    "v2-local-sandbox-docker-only": SandboxDockerOnly,
    "v2-fallback-follows-redirects": FallbackFollowsRedirects,
    "v2-fallback-follows-same-origin": FallbackFollowsSameOrigin,
    "v2-dnssec-off-refused": DnssecOffRefused,
    "v2-downgrade-off-refused": DowngradeOffRefused,
    "v2-pka-require-ignored": PkaRequireIgnored,
    "v2-pka-removal-not-a-downgrade": PkaRemovalNotADowngrade,
    "v2-binding-require-ignored": BindingRequireIgnored,
    "v2-dnssec-require-dns-only": DnssecRequireDnsOnly,
    "v2-dnssec-require-retried": DnssecRequireRetried,
    "v2-params-canonical-order": ParamsCanonicalOrder,
    "v2-params-tag-last": ParamsTagLast,
}
