"""Broken v1.2/v2.1 clients: security (v1.2 2.3 step 5 and Table 1's 1003, 3, 3.2, 4, Appendix D;
AID-3-04 of both revisions).

Each class overrides one method of the reference client. Where the step broken sits inside
``discover`` (the policy checks), the override is ``discover`` itself, rewritten from the
reference's source with one line changed (:func:`_edited`): the edit is named beside the class,
and a reference whose source no longer holds the line makes that variant fail loudly when run.
"""

from __future__ import annotations

import functools
import inspect
import ssl
import sys
import textwrap
import time
from dataclasses import replace
from datetime import timedelta
from types import SimpleNamespace
from typing import Any, Callable

from conformance.aid import versioned
from conformance.aid import versioned_client as reference
from conformance.aid.versioned_client import VersionedAidClient
from conformance.fetch import Fetcher


def _edited(method: Callable, *edits: tuple[str, str]) -> Callable:
    """``method`` of the reference with each ``(old, new)`` text replaced once in its source;
    compiled on first use in the reference module's namespace."""
    compiled: list[Callable] = []

    @functools.wraps(method)
    def run(self, *args: Any, **kwargs: Any) -> Any:
        if not compiled:
            source = textwrap.dedent(inspect.getsource(method))
            for old, new in edits:
                if source.count(old) != 1:
                    raise RuntimeError(f"variant of {method.__qualname__}: the reference's source no longer holds "
                                       f"{old!r} exactly once")
                source = source.replace(old, new)
            namespace = dict(vars(sys.modules[method.__module__]))
            exec(compile(source, f"<edited {method.__qualname__}>", "exec"), namespace)  # noqa: S102
            compiled.append(namespace[method.__name__])
        return compiled[0](self, *args, **kwargs)

    return run


def _prove(self: VersionedAidClient, fields: dict[str, str], domain: str, knobs: dict[str, str], *,
           challenge: str | None = None, status: Callable[[int], int] = lambda s: s,
           clocks: tuple[int, ...] = (), accept: tuple[str, ...] = (), fetcher: Fetcher | None = None,
           ) -> tuple[bool, str, bool]:
    """The reference's ``prove`` for aid1 records, with the one step a variant breaks: its own
    ``challenge``, the ``status`` it reads, other ``clocks`` it retries a stale proof at, the
    rules it lets pass (``accept``), another ``fetcher``."""
    from conformance.aid import pka

    host = reference.a_label(domain.strip().rstrip(".")).lower()
    clock = int(time.time())
    headers = pka.challenge_headers("aid1", fields["uri"], None, clock, challenge=challenge)
    fetched = (fetcher or self.fetcher).fetch(fields["uri"], headers=headers)
    final = fetched.final
    if final is None or fetched.redirects:
        return False, f"the PKA request to {fields['uri']} got no answer to verify ({fetched.error})", False
    response = SimpleNamespace(status=status(final.status), status_code=status(final.status),
                               headers=final.response_headers)
    proof = pka.verify("aid1", fields, headers, response, now=clock, domain=None)
    for offset in clocks:
        if not proof.ok and proof.rule == "freshness":
            proof = pka.verify("aid1", fields, headers, response, now=clock + offset, domain=None)
    if not proof.ok and proof.rule in accept:
        return True, "", False
    del host
    return proof.ok, proof.reason, bool(proof.domain_bound)


class _Aid1Prover(VersionedAidClient):
    """Breaks only aid1's handshake (v1.2 Appendix D); aid2 records are proved as the reference does."""

    BREAK: dict[str, Any] = {}

    def prove(self, fields, domain, now, knobs):
        if fields.get("version") != "aid1":
            return super().prove(fields, domain, now, knobs)
        return _prove(self, fields, domain, knobs, **self.BREAK)


# ---------------------------------------------------------------- 3: DNSSEC (AID-3-02)

class NeverValidates(VersionedAidClient):
    """Reads the RRSIG of a signed answer without validating it (AID-3-02)."""

    def lookup(self, domain, name, now):
        answer = super().lookup(domain, name, now)
        if answer.dnssec in ("valid", "invalid"):
            answer.dnssec, answer.detail = "unchecked", "signed; not validated"
        return answer


class AcceptsExpiredSignatures(VersionedAidClient):
    """Validates a signed answer's signature but not its validity period (AID-3-02)."""

    def lookup(self, domain, name, now):
        import dns.dnssec
        import dns.name
        import dns.rdatatype
        import dns.resolver

        answer = super().lookup(domain, name, now)
        if answer.dnssec != "invalid":
            return answer
        resolver = self.resolver._resolver
        try:
            got = resolver.resolve(dns.name.from_text(name), "TXT", raise_on_no_answer=False)
            sigs = got.response.find_rrset(got.response.answer, got.rrset.name, got.rrset.rdclass,
                                           dns.rdatatype.RRSIG, got.rrset.rdtype)
            keys = resolver.resolve(sigs[0].signer, "DNSKEY").rrset
            dns.dnssec.validate(got.rrset, sigs, {sigs[0].signer: keys}, now=float(sigs[0].inception) + 1)
        except Exception:  # noqa: BLE001 - not valid at any time: left invalid
            return answer
        answer.dnssec, answer.detail = "valid", "the signature verifies (its validity period not checked)"
        return answer


# ---------------------------------------------------------------- 3: TLS (AID-3-04)

def _context(http, *, hostname: bool, chain: bool) -> ssl.SSLContext:
    ctx = ssl.create_default_context(cafile=str(http.ca_bundle) if http.ca_bundle else None)
    ctx.check_hostname = hostname
    if not chain:
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


class PkaWithoutHostnameCheck(VersionedAidClient):
    """Sends the endpoint proof's request without checking the certificate's host name (AID-3-04)."""

    def prove(self, fields, domain, now, knobs):
        original = self.fetcher
        self.fetcher = Fetcher(original.config if hasattr(original, "config") else self.http,
                               ssl_context=_context(self.http, hostname=False, chain=True))
        try:
            return super().prove(fields, domain, now, knobs)
        finally:
            self.fetcher = original


class PkaAcceptsAnyCertificate(VersionedAidClient):
    """Sends the endpoint proof's request whatever certificate the server presents (AID-3-04)."""

    def prove(self, fields, domain, now, knobs):
        original = self.fetcher
        self.fetcher = Fetcher(original.config, ssl_context=_context(self.http, hostname=False, chain=False))
        try:
            return super().prove(fields, domain, now, knobs)
        finally:
            self.fetcher = original


class FallbackAcceptsAnyCertificate(VersionedAidClient):
    """Fetches /.well-known/agent whatever certificate the server presents (AID-3-04)."""

    def fallback(self, domain):
        original = self.fetcher
        self.fetcher = Fetcher(original.config if hasattr(original, "config") else self.http,
                               ssl_context=_context(self.http, hostname=False, chain=False))
        try:
            return super().fallback(domain)
        finally:
            self.fetcher = original


# ---------------------------------------------------------------- 3 and D: the endpoint proof

def _without_key(selection: versioned.Selection, drop: Callable[[list[str]], bool]) -> versioned.Selection:
    record = selection.record
    if record is None or not drop(record.written):
        return selection
    fields = {k: v for k, v in record.fields.items() if k != "pka"}
    return replace(selection, record=replace(record, fields=fields))


class IgnoresLongKeyName(VersionedAidClient):
    """Misses the key of a record written in long keys (uri=, proto=, pka=): not proved (AID-3-06)."""

    def select(self, texts):
        return _without_key(super().select(texts), lambda written: "pka" in written and "uri" in written)


class IgnoresUpperCaseKey(VersionedAidClient):
    """Reads the key only in lower case: K= or PKA= is not proved (AID-3-06)."""

    def select(self, texts):
        return _without_key(super().select(texts), lambda written: bool({"K", "PKA", "Pka"} & set(written)))


class PinsKeyByKid(VersionedAidClient):
    """Verifies with the key first seen under a kid, even after the record's key changed (AID-D-01)."""

    def prove(self, fields, domain, now, knobs):
        pinned = self.__dict__.setdefault("_pinned", {})
        key = pinned.setdefault((domain, fields.get("kid")), fields["pka"])
        return super().prove({**fields, "pka": key}, domain, now, knobs)


class TrustsRotation(VersionedAidClient):
    """Skips the proof when the kid changed since the last discovery (takes it as a rotation) (AID-D-01)."""

    def prove(self, fields, domain, now, knobs):
        memory = self.memory.get(domain)
        if memory is not None and memory.kid and fields.get("kid") and fields["kid"] != memory.kid:
            return True, "", False
        return super().prove(fields, domain, now, knobs)


class SkipsKnownKey(VersionedAidClient):
    """Performs the handshake only for a key not proved before for the domain (AID-2.3-34)."""

    def prove(self, fields, domain, now, knobs):
        memory = self.memory.get(domain)
        if memory is not None and self.thumbprint(fields) in memory.keys:
            return True, "", False
        return super().prove(fields, domain, now, knobs)


class CachesProofs(VersionedAidClient):
    """Keeps a successful proof an hour and performs no handshake meanwhile (AID-2.3-34)."""

    def prove(self, fields, domain, now, knobs):
        cache: dict = self.__dict__.setdefault("_proofs", {})
        key = (fields["uri"], fields["pka"])
        if key in cache and now < cache[key]:
            return True, "", False
        result = super().prove(fields, domain, now, knobs)
        if result[0]:
            cache[key] = now + timedelta(hours=1)
        return result


class ShortChallenge(_Aid1Prover):
    """Sends a 16-byte AID-Challenge (AID-D-02)."""

    BREAK = {"challenge": "q5uNUB0XavTtTcUm3hm6ZQ"}


class FixedChallenge(_Aid1Prover):
    """Sends the same AID-Challenge in every handshake (AID-D-02)."""

    BREAK = {"challenge": "YWRjay1maXhlZC1jaGFsbGVuZ2Utb2YtMzItYnl0ZXM"}


class AcceptsAny2xx(_Aid1Prover):
    """Takes any 2xx answer to the handshake as the 200 it requires (AID-D-03)."""

    BREAK = {"status": lambda s: 200 if 200 <= s < 300 else s}


class IgnoresStatus(_Aid1Prover):
    """Verifies the handshake's signature whatever the status (AID-D-03)."""

    BREAK = {"status": lambda s: 200}


class AcceptsStaleCreated(_Aid1Prover):
    """Accepts a proof created up to 400 s before its clock (AID-D-04)."""

    BREAK = {"clocks": (-400,)}


class AcceptsFutureCreated(_Aid1Prover):
    """Accepts a proof created up to 400 s after its clock (AID-D-04)."""

    BREAK = {"clocks": (400,)}


class AcceptsUnsignedResponse(_Aid1Prover):
    """Takes a handshake answered without Signature-Input and Signature as proved (AID-D-05)."""

    BREAK = {"accept": ("signature-input",)}


class SkipsSignatureCheck(_Aid1Prover):
    """Checks status and created but not the Ed25519 signature (AID-D-05; also AID-3-06, AID-D-01)."""

    BREAK = {"accept": ("signature",)}


# ---------------------------------------------------------------- 2.3 step 5 and 3: downgrade warnings

class KidCountsAsKey(VersionedAidClient):
    """Sees no downgrade while the record keeps its kid, the key gone (AID-2.3-35)."""

    def downgrade(self, domain, fields, trust):
        return "" if fields.get("kid") else super().downgrade(domain, fields, trust)


class NewUriIsNewService(VersionedAidClient):
    """Sees no downgrade when the record's uri changed with the key gone (AID-2.3-35)."""

    def downgrade(self, domain, fields, trust):
        uris: dict = self.__dict__.setdefault("_uris", {})
        before, uris[domain] = uris.get(domain), fields.get("uri")
        return "" if before and before != fields.get("uri") else super().downgrade(domain, fields, trust)


class _Forgets(VersionedAidClient):
    AFTER = timedelta(hours=1)

    def lookup(self, domain, name, now):
        seen: dict = self.__dict__.setdefault("_seen", {})
        if domain in seen and now - seen[domain] > self.AFTER:
            self.memory[domain] = reference.Memory()
        seen[domain] = now
        return super().lookup(domain, name, now)


class ForgetsAfterAnHour(_Forgets):
    """Forgets a domain's key an hour after discovering it (AID-3-08)."""


class ForgetsAfterTwoDays(_Forgets):
    """Forgets a domain's key two days after discovering it (AID-3-08)."""

    AFTER = timedelta(days=2)


# ---------------------------------------------------------------- 3: local execution

class ConsentShowsLocator(VersionedAidClient):
    """Asks consent showing the record's uri, not the command it runs (AID-3-10)."""

    def consent(self, domain, fields, argv, found, user):
        return super().consent(domain, fields, [fields["uri"]], found, user)


class ConsentShowsPackageOnly(VersionedAidClient):
    """Asks consent showing the program and the package, not the runner's options (AID-3-10)."""

    def consent(self, domain, fields, argv, found, user):
        return super().consent(domain, fields, [argv[0], argv[-1]], found, user)


class PipNeedsNoConsent(VersionedAidClient):
    """Asks, then runs a pip: agent even when the user refused (AID-3-11)."""

    def consent(self, domain, fields, argv, found, user):
        agreed = super().consent(domain, fields, argv, found, user)
        return agreed or fields["uri"].lower().startswith("pip:")


class ConsentAcrossDomains(VersionedAidClient):
    """Takes a consent to one domain's command as consent to any domain's same command (AID-3-11)."""

    def consent(self, domain, fields, argv, found, user):
        if self.fingerprint(fields) in self._approved.values():
            return True
        return super().consent(domain, fields, argv, found, user)


class ConsentNotRemembered(VersionedAidClient):
    """Keeps no record of a consent: asks again at every lookup (AID-3-12)."""

    def consent(self, domain, fields, argv, found, user):
        agreed = super().consent(domain, fields, argv, found, user)
        self._approved.pop(domain, None)
        return agreed


class UnstableFingerprint(VersionedAidClient):
    """Fingerprints the uri and proto with the time of the lookup (AID-3-12)."""

    def fingerprint(self, fields):
        return super().fingerprint({**fields, "proto": f"{fields.get('proto')}@{time.time_ns()}"})


class FingerprintOfProtoOnly(VersionedAidClient):
    """Fingerprints proto alone (AID-3-13)."""

    def fingerprint(self, fields):
        return super().fingerprint({"uri": "", "proto": fields.get("proto", "")})


class FingerprintOfRunnerOnly(VersionedAidClient):
    """Fingerprints the uri's scheme (the runner) and proto, not the package (AID-3-13)."""

    def fingerprint(self, fields):
        return super().fingerprint({"uri": fields.get("uri", "").partition(":")[0], "proto": fields.get("proto", "")})


class SplitsLocatorWords(VersionedAidClient):
    """Splits the locator at white space into several arguments (AID-3-14)."""

    def argv(self, uri):
        run = super().argv(uri)
        return None if run is None else [*run[:-1], *run[-1].split()]


class RunsThroughShell(VersionedAidClient):
    """Runs the command through sh -c (AID-3-14)."""

    def argv(self, uri):
        import shlex

        run = super().argv(uri)
        return None if run is None else ["sh", "-c", shlex.join(run)]


class NestedCaseSensitive(VersionedAidClient):
    """Recognises an AID client in a locator only in lower case (AID-3-15)."""

    def nested(self, argv):
        text = " ".join(argv)
        return any(word in text for word in ("aid-doctor", "aid-discover", "@agentcommunity/aid", "aid_py",
                                             "aid-discovery", "_agent."))


class NestedOnlyAidDoctor(VersionedAidClient):
    """Recognises only aid-doctor as an AID client (AID-3-15)."""

    def nested(self, argv):
        return "aid-doctor" in " ".join(argv).lower()


# ---------------------------------------------------------------- 3: redirects of the handshake

def _handshake(self: VersionedAidClient, uri: str):
    """The final answer to one aid1 handshake request to ``uri`` (no redirect followed)."""
    from conformance.aid import pka

    return self.fetcher.fetch(uri, headers=pka.challenge_headers("aid1", uri, None, int(time.time()))).final


def _redirect(self: VersionedAidClient, fields: dict[str, str], statuses=(301, 302, 307, 308)) -> str | None:
    """The Location of a cross-origin redirect answering the handshake of the uri, or None."""
    from urllib.parse import urljoin, urlsplit

    final = _handshake(self, fields["uri"])
    if final is None or final.status not in statuses or not final.header("Location"):
        return None
    target = urljoin(fields["uri"], final.header("Location"))
    return target if urlsplit(target).netloc != urlsplit(fields["uri"]).netloc else None


class RedirectTakenAsEndpoint(VersionedAidClient):
    """Returns the Location of a cross-origin redirect of the handshake as the endpoint (AID-3-17)."""

    def prove(self, fields, domain, now, knobs):
        target = _redirect(self, fields)
        if target is not None:
            fields["uri"] = target
            return True, "", False
        return super().prove(fields, domain, now, knobs)


class RedirectSkipsProof(VersionedAidClient):
    """Skips the proof when the handshake is redirected to another origin, and returns the uri (AID-3-17)."""

    def prove(self, fields, domain, now, knobs):
        if _redirect(self, fields) is not None:
            return True, "", False
        return super().prove(fields, domain, now, knobs)


class FollowsRedirects(VersionedAidClient):
    """Sends the handshake again to the Location of a redirect, whatever its origin, then refuses the
    proof answered from there (AID-3-18)."""

    STATUSES = (301, 302, 307, 308)

    def prove(self, fields, domain, now, knobs):
        target = _redirect(self, fields, self.STATUSES)
        if target is not None:
            _handshake(self, target)
            return False, f"the proof was answered from {target}, another origin", False
        return super().prove(fields, domain, now, knobs)


class Follows307And308(FollowsRedirects):
    """Sends the handshake again to the Location of a 307 or 308, whatever its origin, then refuses the
    proof answered from there (AID-3-18)."""

    STATUSES = (307, 308)


# ---------------------------------------------------------------- 3.2: presets and knobs (policy)

def _policy(change: Callable[[dict, dict], None]) -> Callable:
    def policy(self, given):
        knobs = VersionedAidClient.policy(self, given)
        change(dict(given or {}), knobs)
        return knobs
    return policy


def _preset(name: str, **knobs: str) -> Callable[[dict, dict], None]:
    def change(given: dict, out: dict) -> None:
        if given.get("mode") == name:
            out.update(knobs)
    return change


def _explicit(knob: str, value: str, becomes: str) -> Callable[[dict, dict], None]:
    def change(given: dict, out: dict) -> None:
        if given.get(knob) == value:
            out[knob] = becomes
    return change


class PresetIgnored(VersionedAidClient):
    """Ignores the preset mode (AID-3.2-01)."""

    def policy(self, given):
        return VersionedAidClient.policy(self, {k: v for k, v in (given or {}).items() if k != "mode"})


class StrictIsBalanced(VersionedAidClient):
    """Takes mode=strict for balanced (AID-3.2-01)."""

    policy = _policy(_preset("strict", **reference.PRESETS["balanced"]))


class BalancedDisablesFallback(VersionedAidClient):
    """Its balanced preset disables the .well-known fallback (AID-3.2-03)."""

    policy = _policy(_preset("balanced", **{"well-known": "disable"}))


class BalancedFailsDowngrade(VersionedAidClient):
    """Its balanced preset fails on downgrade (AID-3.2-03)."""

    policy = _policy(_preset("balanced", downgrade="fail"))


class StrictAllowsFallback(VersionedAidClient):
    """Its strict preset keeps the .well-known fallback (AID-3.2-04)."""

    policy = _policy(_preset("strict", **{"well-known": "auto"}))


class StrictPrefersDnssec(VersionedAidClient):
    """Its strict preset only prefers DNSSEC (AID-3.2-04)."""

    policy = _policy(_preset("strict", dnssec="prefer"))


class DnssecOffIsRequire(VersionedAidClient):
    """Reads dnssec=off as require (AID-3.2-05)."""

    policy = _policy(_explicit("dnssec", "off", "require"))


class DowngradeOffIsFail(VersionedAidClient):
    """Reads downgrade=off as fail (AID-3.2-05)."""

    policy = _policy(_explicit("downgrade", "off", "fail"))


_PKA_REQUIRE = 'if knobs["pka"] == "require" and not fields.get("pka"):'


class PkaRequireAcceptsKid(VersionedAidClient):
    """Under pka=require, takes a record with kid and no pka (AID-3.2-06)."""

    discover = _edited(VersionedAidClient.discover, (_PKA_REQUIRE, _PKA_REQUIRE.replace(
        'not fields.get("pka")', 'not (fields.get("pka") or fields.get("kid"))')))


class PkaRequireOnlyWithDnssec(VersionedAidClient):
    """Enforces pka=require only together with dnssec=require (AID-3.2-06)."""

    discover = _edited(VersionedAidClient.discover, (_PKA_REQUIRE, _PKA_REQUIRE.replace(
        'and not', 'and knobs["dnssec"] == "require" and not')))


_PREFER = 'if knobs["dnssec"] == "prefer" and trust == "dns" and answer.dnssec != "valid":\n'


def _prefer_fails(state: str) -> tuple[str, str]:
    # the source is dedented: the body of discover at 4 spaces, of this if at 8
    return (_PREFER, _PREFER + f'        if answer.dnssec == "{state}" and policy == {{"dnssec": "prefer"}}:\n'
                               f'            return Found("error", error_kind="ERR_SECURITY", messages=["not validated"])\n')


class PreferFailsUnanchored(VersionedAidClient):
    """Given dnssec=prefer alone, fails an answer signed by a zone no anchor reaches (AID-3.2-07)."""

    discover = _edited(VersionedAidClient.discover, _prefer_fails("unchecked"))


class PreferFailsUnsigned(VersionedAidClient):
    """Given dnssec=prefer alone, fails an unsigned answer (AID-3.2-07)."""

    discover = _edited(VersionedAidClient.discover, _prefer_fails("unsigned"))


def _prefer_silent(state: str) -> tuple[str, str]:
    return (_PREFER, _PREFER.replace(
        ":\n", f' and not (answer.dnssec == "{state}" and (policy or {{}}).get("dnssec") == "prefer"):\n'))


class PreferSilentUnsigned(VersionedAidClient):
    """Under an explicit dnssec=prefer, gives no warning for an unsigned answer (AID-3.2-08)."""

    discover = _edited(VersionedAidClient.discover, _prefer_silent("unsigned"))


class PreferSilentUnanchored(VersionedAidClient):
    """Under an explicit dnssec=prefer, gives no warning for an answer no anchor reaches (AID-3.2-08)."""

    discover = _edited(VersionedAidClient.discover, _prefer_silent("unchecked"))


_REQUIRE = 'if knobs["dnssec"] == "require" and (trust != "dns" or answer.dnssec != "valid"):'


class RequireAcceptsUnanchored(VersionedAidClient):
    """Under dnssec=require, takes a signed answer no anchor reaches (AID-3.2-09)."""

    discover = _edited(VersionedAidClient.discover, (_REQUIRE, _REQUIRE.replace(
        'answer.dnssec != "valid"', 'answer.dnssec not in ("valid", "unchecked")')))


class RequireAcceptsProvenKey(VersionedAidClient):
    """Under dnssec=require, takes an unsigned answer whose record has a key (AID-3.2-09)."""

    discover = _edited(VersionedAidClient.discover, (_REQUIRE, _REQUIRE.replace(
        'answer.dnssec != "valid"', '(answer.dnssec != "valid" and not fields.get("pka"))')))


_DISABLE = 'if knobs["well-known"] == "disable":'


class DisableIgnoredOnServfail(VersionedAidClient):
    """Under well-known=disable, still falls back when the lookup fails (AID-3.2-10)."""

    discover = _edited(VersionedAidClient.discover, (_DISABLE, _DISABLE.replace(
        ":", ' and answer.status != "servfail":')))


class DisableIgnoredBesideOtherTxt(VersionedAidClient):
    """Under well-known=disable, still falls back when the name holds only other TXT records (AID-3.2-10)."""

    discover = _edited(VersionedAidClient.discover, (_DISABLE, _DISABLE.replace(":", ' and answer.status != "ok":')))


class WarnIsOff(VersionedAidClient):
    """Reads downgrade=warn as off (AID-3.2-11)."""

    policy = _policy(_explicit("downgrade", "warn", "off"))


class WarnGivenIsSilent(VersionedAidClient):
    """Under an explicit downgrade=warn, continues without the warning (AID-3.2-11)."""

    discover = _edited(VersionedAidClient.discover, (
        'if change and knobs["downgrade"] == "warn":',
        'if change and knobs["downgrade"] == "warn" and (policy or {}).get("downgrade") != "warn":'))


_ROTATION = 'if memory and memory.kid and fields.get("kid") and fields["kid"] != memory.kid:'


def _rotation(condition: str) -> tuple[str, str]:
    return (_ROTATION, _ROTATION.replace("memory.kid:", f"memory.kid and {condition}:"))


class RotationSilentUnderOff(VersionedAidClient):
    """Gives no key-rotation notice under downgrade=off (AID-3.2-12)."""

    discover = _edited(VersionedAidClient.discover, _rotation('knobs["downgrade"] != "off"'))


class RotationSilentUnderWarn(VersionedAidClient):
    """Gives no key-rotation notice under downgrade=warn, the default (AID-3.2-12)."""

    discover = _edited(VersionedAidClient.discover, _rotation('knobs["downgrade"] != "warn"'))


class RotationSilentUnderFail(VersionedAidClient):
    """Gives no key-rotation notice under downgrade=fail (AID-3.2-14)."""

    discover = _edited(VersionedAidClient.discover, _rotation('knobs["downgrade"] != "fail"'))


class RotationUnderFailOnlyNewKey(VersionedAidClient):
    """Under downgrade=fail, notices a changed kid only with a changed key (AID-3.2-14)."""

    discover = _edited(VersionedAidClient.discover, _rotation(
        '(knobs["downgrade"] != "fail" or self.thumbprint(fields) not in memory.keys)'))


class FailUnderWarnOnly(VersionedAidClient):
    """Reads downgrade=fail as warn (AID-3.2-13)."""

    policy = _policy(_explicit("downgrade", "fail", "warn"))


class FailOnlyWithPkaRequire(VersionedAidClient):
    """Enforces downgrade=fail only together with pka=require (AID-3.2-13)."""

    discover = _edited(VersionedAidClient.discover, (
        'if change and knobs["downgrade"] == "fail":',
        'if change and knobs["downgrade"] == "fail" and knobs["pka"] == "require":'))


class KidChangeIsDowngrade(VersionedAidClient):
    """Takes a changed kid as a downgrade (AID-3.2-15)."""

    def downgrade(self, domain, fields, trust):
        memory = self.memory.get(domain)
        if memory is not None and memory.kid and fields.get("pka") and fields.get("kid") != memory.kid:
            return "the key id changed"
        return super().downgrade(domain, fields, trust)


class KeyChangeIsDowngrade(VersionedAidClient):
    """Takes a new key under a new kid as a downgrade, for aid1 too (AID-3.2-15)."""

    def downgrade(self, domain, fields, trust):
        memory = self.memory.get(domain)
        if memory is not None and memory.keys and fields.get("pka") and self.thumbprint(fields) not in memory.keys:
            return "the key was replaced"
        return super().downgrade(domain, fields, trust)


class RequireAcceptsWellKnown(VersionedAidClient):
    """Under dnssec=require, takes a record found only through .well-known (AID-3.2-16)."""

    discover = _edited(VersionedAidClient.discover, (_REQUIRE, _REQUIRE.replace(
        '(trust != "dns" or answer.dnssec != "valid")', '(trust == "dns" and answer.dnssec != "valid")')))


class RequireAcceptsWellKnownAfterNxdomain(VersionedAidClient):
    """Under dnssec=require, takes a .well-known record when DNS said the name does not exist (AID-3.2-16)."""

    discover = _edited(VersionedAidClient.discover, (_REQUIRE, _REQUIRE.replace(
        '(trust != "dns" or answer.dnssec != "valid")',
        '((trust != "dns" and answer.status != "nxdomain") or (trust == "dns" and answer.dnssec != "valid"))')))


# ---------------------------------------------------------------- 4: caching

class _CachesLonger(VersionedAidClient):
    def fresh_for(self, ttl: int) -> timedelta:
        return timedelta(seconds=ttl)

    def lookup(self, domain, name, now):
        memory = self.memory.setdefault(domain, reference.Memory())
        if memory.answer is not None and memory.fresh_until is not None and now < memory.fresh_until:
            return memory.answer
        answer = self.resolver.txt(name)
        if answer.status == "ok" and answer.ttl:
            memory.answer, memory.fresh_until = answer, now + self.fresh_for(answer.ttl)
        else:
            memory.answer = memory.fresh_until = None
        return answer


class CachesTwiceTheTtl(_CachesLonger):
    """Caches the TXT record for twice its TTL (AID-4-13)."""

    def fresh_for(self, ttl):
        return timedelta(seconds=2 * ttl)


class CachesAMinuteLonger(_CachesLonger):
    """Caches the TXT record a minute past its TTL (AID-4-13)."""

    def fresh_for(self, ttl):
        return timedelta(seconds=ttl + 60)


class RequeriesKeepsOld(VersionedAidClient):
    """After the TTL asks DNS again, but keeps the record it had (AID-4-14)."""

    def lookup(self, domain, name, now):
        memory = self.memory.get(domain)
        old = memory.answer if memory is not None else None
        answer = super().lookup(domain, name, now)
        if old is not None and answer is not old and answer.status == "ok":
            self.memory[domain].answer = old
            return old
        return answer


class ServesStaleOnce(VersionedAidClient):
    """After the TTL asks DNS again, and returns the old record once more (AID-4-14)."""

    def lookup(self, domain, name, now):
        memory = self.memory.get(domain)
        old = memory.answer if memory is not None else None
        answer = super().lookup(domain, name, now)
        stale: set = self.__dict__.setdefault("_stale", set())
        if old is not None and answer is not old and domain not in stale:
            stale.add(domain)
            return old
        return answer


# ---------------------------------------------------------------- Table 1 (AID-2.3-42)

class ProofFailureIsInvalidTxt(VersionedAidClient):
    """Reports a failed endpoint proof as ERR_INVALID_TXT (AID-2.3-42)."""

    discover = _edited(VersionedAidClient.discover, (
        'return Found("error", error_kind="ERR_SECURITY", messages=[f"endpoint proof failed: {why}"])',
        'return Found("error", error_kind="ERR_INVALID_TXT", messages=[f"endpoint proof failed: {why}"])'))


class PolicyFailureIsLookupFailure(VersionedAidClient):
    """Reports dnssec=require's failure as ERR_DNS_LOOKUP_FAILED (AID-2.3-42)."""

    discover = _edited(VersionedAidClient.discover, (
        'return Found("error", error_kind="ERR_SECURITY", messages=["dnssec=require and the answer is not validated"])',
        'return Found("error", error_kind="ERR_DNS_LOOKUP_FAILED", messages=["dnssec=require: not validated"])'))


VARIANTS: dict[str, type[VersionedAidClient]] = {
    "v12-dnssec-never-validates": NeverValidates,
    "v12-dnssec-accepts-expired": AcceptsExpiredSignatures,
    "v12-tls-pka-no-hostname-check": PkaWithoutHostnameCheck,
    "v21-tls-fallback-any-certificate": FallbackAcceptsAnyCertificate,
    "v21-tls-pka-any-certificate": PkaAcceptsAnyCertificate,
    "v12-pka-ignores-long-key": IgnoresLongKeyName,
    "v12-pka-ignores-uppercase-key": IgnoresUpperCaseKey,
    "v12-pka-pins-key-by-kid": PinsKeyByKid,
    "v12-pka-trusts-rotation": TrustsRotation,
    "v12-pka-skips-known-key": SkipsKnownKey,
    "v12-pka-caches-proofs": CachesProofs,
    "v12-pka-short-challenge": ShortChallenge,
    "v12-pka-fixed-challenge": FixedChallenge,
    "v12-pka-accepts-2xx": AcceptsAny2xx,
    "v12-pka-ignores-status": IgnoresStatus,
    "v12-pka-accepts-stale-created": AcceptsStaleCreated,
    "v12-pka-accepts-future-created": AcceptsFutureCreated,
    "v12-pka-accepts-unsigned-response": AcceptsUnsignedResponse,
    "v12-pka-skips-signature-check": SkipsSignatureCheck,
    "v12-downgrade-kid-counts-as-key": KidCountsAsKey,
    "v12-downgrade-new-uri-is-new-service": NewUriIsNewService,
    "v12-downgrade-forgets-after-an-hour": ForgetsAfterAnHour,
    "v12-downgrade-forgets-after-two-days": ForgetsAfterTwoDays,
    "v12-consent-shows-locator": ConsentShowsLocator,
    "v12-consent-shows-package-only": ConsentShowsPackageOnly,
    "v12-consent-pip-needs-none": PipNeedsNoConsent,
    "v12-consent-across-domains": ConsentAcrossDomains,
    "v12-consent-not-remembered": ConsentNotRemembered,
    "v12-fingerprint-unstable": UnstableFingerprint,
    "v12-fingerprint-proto-only": FingerprintOfProtoOnly,
    "v12-fingerprint-runner-only": FingerprintOfRunnerOnly,
    "v12-argv-splits-words": SplitsLocatorWords,
    "v12-argv-through-shell": RunsThroughShell,
    "v12-nested-case-sensitive": NestedCaseSensitive,
    "v12-nested-only-aid-doctor": NestedOnlyAidDoctor,
    "v12-redirect-taken-as-endpoint": RedirectTakenAsEndpoint,
    "v12-redirect-skips-proof": RedirectSkipsProof,
    "v12-pka-follows-redirects": FollowsRedirects,
    "v12-pka-follows-307-308": Follows307And308,
    "v12-preset-ignored": PresetIgnored,
    "v12-preset-strict-is-balanced": StrictIsBalanced,
    "v12-balanced-disables-fallback": BalancedDisablesFallback,
    "v12-balanced-fails-downgrade": BalancedFailsDowngrade,
    "v12-strict-allows-fallback": StrictAllowsFallback,
    "v12-strict-prefers-dnssec": StrictPrefersDnssec,
    "v12-dnssec-off-is-require": DnssecOffIsRequire,
    "v12-downgrade-off-is-fail": DowngradeOffIsFail,
    "v12-pka-require-accepts-kid": PkaRequireAcceptsKid,
    "v12-pka-require-only-with-dnssec": PkaRequireOnlyWithDnssec,
    "v12-prefer-fails-unanchored": PreferFailsUnanchored,
    "v12-prefer-fails-unsigned": PreferFailsUnsigned,
    "v12-prefer-silent-unsigned": PreferSilentUnsigned,
    "v12-prefer-silent-unanchored": PreferSilentUnanchored,
    "v12-require-accepts-unanchored": RequireAcceptsUnanchored,
    "v12-require-accepts-proven-key": RequireAcceptsProvenKey,
    "v12-disable-ignored-on-servfail": DisableIgnoredOnServfail,
    "v12-disable-ignored-beside-other-txt": DisableIgnoredBesideOtherTxt,
    "v12-downgrade-warn-is-off": WarnIsOff,
    "v12-downgrade-warn-given-is-silent": WarnGivenIsSilent,
    "v12-rotation-silent-under-off": RotationSilentUnderOff,
    "v12-rotation-silent-under-warn": RotationSilentUnderWarn,
    "v12-rotation-silent-under-fail": RotationSilentUnderFail,
    "v12-rotation-under-fail-only-new-key": RotationUnderFailOnlyNewKey,
    "v12-downgrade-fail-is-warn": FailUnderWarnOnly,
    "v12-downgrade-fail-only-with-pka-require": FailOnlyWithPkaRequire,
    "v12-kid-change-is-downgrade": KidChangeIsDowngrade,
    "v12-key-change-is-downgrade": KeyChangeIsDowngrade,
    "v12-require-accepts-well-known": RequireAcceptsWellKnown,
    "v12-require-accepts-well-known-after-nxdomain": RequireAcceptsWellKnownAfterNxdomain,
    "v12-cache-twice-the-ttl": CachesTwiceTheTtl,
    "v12-cache-a-minute-longer": CachesAMinuteLonger,
    "v12-cache-requery-keeps-old": RequeriesKeepsOld,
    "v12-cache-serves-stale-once": ServesStaleOnce,
    "v12-proof-failure-is-invalid-txt": ProofFailureIsInvalidTxt,
    "v12-policy-failure-is-lookup-failure": PolicyFailureIsLookupFailure,
}

