"""Deliberately broken variants of the reference agent: each overrides one step, so that it
violates exactly one agent clause (which one: fixtures/aiendpoint/agent-mutants.toml).

They exist to prove that each agent-role test can fail. Never use them as clients.
"""

from __future__ import annotations

import re
import ssl
from dataclasses import replace
from datetime import datetime
from typing import Any

from conformance.agent import broken_tls
from conformance.agent.reference import Discovery, ReferenceAgent
from conformance.aiendpoint.test_3_2_service import CATEGORIES
from conformance.fetch import Exchange, Fetch, HttpConfig, Limits


class PrefersAlias(ReferenceAgent):
    """2.1: uses /ai over /.well-known/ai when both answer."""

    def fetch_document(self, origin: str) -> Fetch:
        primary = super().fetch_document(origin)
        alias = self.fetcher.fetch(origin + "/ai")
        both = primary.final and alias.final and primary.final.status == 200 == alias.final.status
        return alias if both else primary


class ErrorOn404(ReferenceAgent):
    """2.2: reports a 404 as a transient error instead of concluding there is no document."""

    def not_found(self, origin: str, now: datetime) -> Discovery:
        super().not_found(origin, now)
        answer = Discovery("error", error_kind="http-404")
        self._remember(origin).quiet_answer = answer
        return answer


class ThreeRedirects(ReferenceAgent):
    """2.2: gives up after 3 redirects."""

    def limits(self, base: Limits) -> Limits:
        return replace(super().limits(base), max_redirects=3)


class FollowsHttpsToHttp(ReferenceAgent):
    """2.2: follows a redirect from https to http."""

    def fetch_document(self, origin: str) -> Fetch:
        fetch = super().fetch_document(origin)
        if fetch.error_kind == "insecure-redirect":
            location = fetch.exchanges[-1].header("location") or ""
            return self.fetcher.fetch(location)
        return fetch


class RejectsUnknownCategory(ReferenceAgent):
    """3.2: refuses a document with a category outside the list."""

    def accept_category(self, category: Any) -> bool:
        return category in CATEGORIES


class UnresolvedEndpoints(ReferenceAgent):
    """3.3: uses relative endpoints as they are, unresolved."""

    def resolve(self, origin: str, endpoint: str) -> str:
        return endpoint


class NoAuthMeansNone(ReferenceAgent):
    """3.4: takes a missing auth object to mean no authentication."""

    def auth_required(self, auth: Any) -> bool | None:
        return False if not isinstance(auth, dict) else super().auth_required(auth)


class ProbesAliasFirst(ReferenceAgent):
    """4.1: requests /ai before the well-known URI (the steps say: the well-known URI)."""

    def fetch_document(self, origin: str) -> Fetch:
        self.fetcher.fetch(origin + "/ai")
        return super().fetch_document(origin)


class FallsBackToAlias(ReferenceAgent):
    """4.1: when /.well-known/ai fails, accepts whatever /ai serves."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        final = fetch.final
        if final is not None and final.status >= 500:
            fetch = self.fetcher.fetch(origin + "/ai")
        return super().conclude(origin, fetch, now)


class InvokesMalformed(ReferenceAgent):
    """4.1: invokes capabilities without checking that they are well-formed."""

    def well_formed(self, capability: Any) -> bool:
        return isinstance(capability, dict) and all(
            isinstance(capability.get(k), str) for k in ("id", "method", "endpoint"))


class IgnoresCacheHeaders(ReferenceAgent):
    """4.2: fetches the document again every time."""

    def freshness(self, response: Exchange, now: datetime) -> datetime | None:
        return None


class CrashesOnServerError(ReferenceAgent):
    """4.3: raises on a 5xx instead of handling it."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        if fetch.final is not None and fetch.final.status >= 500:
            raise RuntimeError(f"unexpected status {fetch.final.status}")
        return super().conclude(origin, fetch, now)


class RetriesAfter404(ReferenceAgent):
    """4.3: asks again right after a 404."""

    def not_found(self, origin: str, now: datetime) -> Discovery:
        return Discovery("none", error_kind="not-found")


class IgnoresRetryAfter(ReferenceAgent):
    """4.3: asks again before Retry-After has passed."""

    def rate_limited(self, origin: str, response: Exchange, now: datetime) -> Discovery:
        return Discovery("error", error_kind="rate-limited")


class InvalidJsonIsTransient(ReferenceAgent):
    """4.3: treats a body that is not JSON as a passing error, not as 'not implemented'."""

    def parse(self, response: Exchange) -> Any:
        try:
            return super().parse(response)
        except ValueError:
            raise _Transient() from None

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        try:
            return super().conclude(origin, fetch, now)
        except _Transient:
            return Discovery("error", error_kind="invalid-json")


class _Transient(Exception):
    pass


class AcceptsMissingFields(ReferenceAgent):
    """4.3: accepts a document that lacks required fields."""

    def invalid(self, value: Any) -> str | None:
        return None if isinstance(value, dict) else super().invalid(value)


class RejectsUnrecognizedVersion(ReferenceAgent):
    """4.4: refuses an aiendpoint value it does not recognize (accepts numeric ones)."""

    def accept_version(self, version: Any) -> bool:
        return isinstance(version, str) and re.fullmatch(r"\d+(\.\d+)*", version) is not None


class RejectsHigherVersion(ReferenceAgent):
    """4.4: refuses a document whose version is higher than 1.0."""

    def accept_version(self, version: Any) -> bool:
        if isinstance(version, str) and re.fullmatch(r"\d+(\.\d+)*", version):
            return tuple(map(int, version.split("."))) <= (1, 0)
        return True


class CachesCredentials(ReferenceAgent):
    """6.2: writes its credential into the cached document."""

    def cache_copy(self, document: Any) -> Any:
        cached = super().cache_copy(document)
        if self.credentials and isinstance(cached, dict):
            header, value = next(iter(self.credentials.items()))
            cached.setdefault("auth", {})
            if isinstance(cached["auth"], dict):
                cached["auth"]["credential"] = f"{header}: {value}"
        return cached


class BareHostIsHttp(ReferenceAgent):
    """6.4: reaches a host named without a scheme over plain HTTP."""

    def origin(self, authority: str) -> str | None:
        if "://" not in authority:
            return "http://" + authority.strip().rstrip("/")
        return super().origin(authority)


class KeepsHttpAuthority(ReferenceAgent):
    """6.4: fetches an http:// authority as given, over plain HTTP."""

    def origin(self, authority: str) -> str | None:
        if authority.startswith("http://"):
            return authority.rstrip("/")
        return super().origin(authority)


class SkipsHostnameCheck(ReferenceAgent):
    """6.4: validates the chain but not that the certificate names the host (RFC 6125)."""

    def ssl_context(self, http: HttpConfig) -> ssl.SSLContext | None:
        return broken_tls.no_host_name_check(http)


class TrustsAnyCa(ReferenceAgent):
    """6.4: accepts a certificate from any CA, though it does check the host name itself."""

    def ssl_context(self, http: HttpConfig) -> ssl.SSLContext | None:
        return broken_tls.any_issuer()


class NoSizeLimit(ReferenceAgent):
    """6.5: processes documents of any size."""

    def limits(self, base: Limits) -> Limits:
        return replace(super().limits(base), max_body_bytes=16 * 1024 * 1024)


class NoCapabilityLimit(ReferenceAgent):
    """6.5: processes any number of capabilities."""

    def capability_limit(self) -> int:
        return 10**9


#: Variant name (as in fixtures/aiendpoint/agent-mutants.toml) -> class.
VARIANTS: dict[str, type[ReferenceAgent]] = {
    "prefers-alias": PrefersAlias,
    "error-on-404": ErrorOn404,
    "three-redirects": ThreeRedirects,
    "follows-https-to-http": FollowsHttpsToHttp,
    "rejects-unknown-category": RejectsUnknownCategory,
    "unresolved-endpoints": UnresolvedEndpoints,
    "no-auth-means-none": NoAuthMeansNone,
    "probes-alias-first": ProbesAliasFirst,
    "falls-back-to-alias": FallsBackToAlias,
    "invokes-malformed": InvokesMalformed,
    "ignores-cache-headers": IgnoresCacheHeaders,
    "crashes-on-server-error": CrashesOnServerError,
    "retries-after-404": RetriesAfter404,
    "ignores-retry-after": IgnoresRetryAfter,
    "invalid-json-is-transient": InvalidJsonIsTransient,
    "accepts-missing-fields": AcceptsMissingFields,
    "rejects-unrecognized-version": RejectsUnrecognizedVersion,
    "rejects-higher-version": RejectsHigherVersion,
    "caches-credentials": CachesCredentials,
    "bare-host-is-http": BareHostIsHttp,
    "keeps-http-authority": KeepsHttpAuthority,
    "skips-hostname-check": SkipsHostnameCheck,
    "trusts-any-ca": TrustsAnyCa,
    "no-size-limit": NoSizeLimit,
    "no-capability-limit": NoCapabilityLimit,
}


class RejectsCapabilitiesWithoutParams(ReferenceAgent):
    """4.1: treats a capability without params as making the whole document invalid."""

    def invalid(self, value: Any) -> str | None:
        caps = value.get("capabilities") if isinstance(value, dict) else None
        if isinstance(caps, list) and any(isinstance(c, dict) and "params" not in c for c in caps):
            return "a capability has no params"
        return super().invalid(value)


VARIANTS["rejects-capabilities-without-params"] = RejectsCapabilitiesWithoutParams


class FollowsTenRedirects(ReferenceAgent):
    """2.2: follows up to 10 consecutive redirects."""

    def limits(self, base: Limits) -> Limits:
        return replace(super().limits(base), max_redirects=10)


class IgnoresContentType(ReferenceAgent):
    """4.1: parses the body whatever its Content-Type says."""

    def media_type_ok(self, response: Exchange) -> bool:
        return True


VARIANTS["follows-ten-redirects"] = FollowsTenRedirects
VARIANTS["ignores-content-type"] = IgnoresContentType
