"""Deliberately broken variants of the reference agent: each overrides one step, so that it
violates exactly one agent clause (which one: fixtures/aiendpoint/agent-mutants.toml).

They exist to prove that each agent-role test can fail. Never use them as clients.
"""

from __future__ import annotations

import base64
import json
import re
import ssl
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urljoin

from conformance.harness import broken_tls
from conformance.aiendpoint.reference_client import (DEFAULT_RETRY_AFTER, MAX_DOCUMENT_BYTES, Discovery, ReferenceAgent,
                                         http_date)
from conformance.aiendpoint.test_3_2_service import CATEGORIES
from conformance.document import loads
from conformance.fetch import Exchange, Fetch, Fetcher, HttpConfig, Limits


class PrefersAlias(ReferenceAgent):
    """2.1: uses /ai over /.well-known/ai when both answer."""

    def fetch_document(self, origin: str) -> Fetch:
        primary = super().fetch_document(origin)
        alias = self.fetcher.fetch(origin + "/ai")
        both = primary.final and alias.final and primary.final.status == 200 == alias.final.status
        return alias if both and self._a_document(primary.final) else primary

    def _a_document(self, response: Exchange) -> bool:
        try:
            return self.media_type_ok(response) and self.invalid(self.parse(response)) is None
        except ValueError:
            return False


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
    """4.2: stores the document (and says so), but fetches it again every time, fresh or not."""

    def freshness(self, response: Exchange, now: datetime) -> datetime | None:
        return None if super().freshness(response, now) is None else now


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
        if isinstance(value, dict):  # a missing field passes; one of the wrong type still does not
            value = {"aiendpoint": "1.0", "service": {}, "capabilities": [], **value}
        return super().invalid(value)


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


# ---------------------------------------------------------------- second ways (issue #8)
# Each clause the agent tests check has at least two broken agents that break it differently.


class MergesAliasCapabilities(ReferenceAgent):
    """2.1: keeps /.well-known/ai's document but adds the capabilities only /ai describes."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        found = super().conclude(origin, fetch, now)
        if found.outcome != "document":
            return found
        alias = self.fetcher.fetch(origin + "/ai")
        try:
            extra = loads(alias.final.body).get("capabilities", []) if alias.final and alias.final.status == 200 else []
        except (ValueError, AttributeError):
            extra = []
        known = {c["id"] for c in found.capabilities}
        found.capabilities += [{"id": c["id"], "method": c["method"], "url": self.resolve(origin, c["endpoint"])}
                               for c in extra if self.well_formed(c) and c["id"] not in known]
        return found


class Parses404Body(ReferenceAgent):
    """2.2: takes a 404 whose body is a valid JSON document as the document."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        final = fetch.final
        if final is not None and final.status == 404 and self.media_type_ok(final):
            try:
                value = self.parse(final)
            except ValueError:
                value = None
            if self.invalid(value) is None:
                fetch = Fetch(url=fetch.url, exchanges=[replace(final, status=200)])
        return super().conclude(origin, fetch, now)


class FollowsPermanentHttpRedirect(ReferenceAgent):
    """2.2: follows a 301 or 308 from https to http ("the service moved"), not a 302."""

    def fetch_document(self, origin: str) -> Fetch:
        fetch = super().fetch_document(origin)
        last = fetch.exchanges[-1] if fetch.exchanges else None
        if fetch.error_kind == "insecure-redirect" and last is not None and last.status in (301, 308):
            return self.fetcher.fetch(last.header("location") or "")
        return fetch


class RejectsAllUnknownCategories(ReferenceAgent):
    """3.2: refuses a document none of whose categories it recognizes."""

    def categories_ok(self, categories: list) -> bool:
        return not categories or any(c in CATEGORIES for c in categories)


class UrljoinEndpoints(ReferenceAgent):
    """3.3: resolves endpoints with urljoin against the document's URL, so "//host/path"
    leaves the document's authority."""

    def resolve(self, origin: str, endpoint: str) -> str:
        return urljoin(origin + "/.well-known/ai", endpoint)


class ReadOnlyMeansNoAuth(ReferenceAgent):
    """3.4: without an auth object, assumes none is needed when every capability is a GET."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        found = super().conclude(origin, fetch, now)
        if found.outcome == "document" and "auth" not in found.document and found.capabilities \
                and all(c["method"] == "GET" for c in found.capabilities):
            found.auth_required = False
        return found


class AcceptsAliasAfter404(ReferenceAgent):
    """4.1: after a 404 on /.well-known/ai, accepts the document /ai serves."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        if fetch.final is not None and fetch.final.status == 404:
            alias = self.fetcher.fetch(origin + "/ai")
            if alias.final is not None and alias.final.status == 200:
                return super().conclude(origin, alias, now)
        return super().conclude(origin, fetch, now)


class IgnoresParamsShape(ReferenceAgent):
    """4.1: checks method and endpoint, but not that params is an object of strings."""

    def well_formed(self, capability: Any) -> bool:
        if isinstance(capability, dict):
            capability = {k: v for k, v in capability.items() if k != "params"}
        return super().well_formed(capability)


class CachesADay(ReferenceAgent):
    """4.2: caches every document for 24 hours, whatever the headers say."""

    def freshness(self, response: Exchange, now: datetime) -> datetime | None:
        return now + timedelta(hours=24)


class StoresNoStore(ReferenceAgent):
    """4.2: honours max-age but stores a no-store response as well."""

    def freshness(self, response: Exchange, now: datetime) -> datetime | None:
        value = response.header("cache-control") or ""
        if "no-store" in value.lower():
            headers = [(k, re.sub(r"no-store\s*,?\s*", "", v, flags=re.I) if k.lower() == "cache-control" else v)
                       for k, v in response.response_headers]
            response = replace(response, response_headers=headers)
        return super().freshness(response, now)


class PrefersExpires(ReferenceAgent):
    """4.2: reads Expires before Cache-Control max-age (RFC 9111: max-age wins)."""

    def freshness(self, response: Exchange, now: datetime) -> datetime | None:
        expires = http_date(response.header("expires") or "")
        cache_control = (response.header("cache-control") or "").lower()
        if expires is not None and "no-store" not in cache_control and "no-cache" not in cache_control:
            return now + max(expires - (http_date(response.header("date") or "") or now), timedelta(0))
        return super().freshness(response, now)


class MishandlesNotModified(ReferenceAgent):
    """4.2: revalidates a stale copy, then treats the 304 Not Modified as an error."""

    def revalidate(self, origin: str, memory: Any, now: datetime) -> Discovery | None:
        headers = {"If-None-Match": memory.validators["etag"]} if "etag" in memory.validators else {}
        return self.conclude(origin, self.fetcher.fetch(origin + "/.well-known/ai", headers=headers), now)


class CrashesOnUnlistedServerError(ReferenceAgent):
    """4.3: handles 500 and 503, raises on the other 5xx statuses."""

    KNOWN = {500: "internal error", 503: "unavailable"}

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        if fetch.final is not None and fetch.final.status >= 500:
            self.KNOWN[fetch.final.status]  # KeyError for 502, 504, ...
        return super().conclude(origin, fetch, now)


class CrashesOnInvalidRetryAfter(ReferenceAgent):
    """4.3: raises on a Retry-After that is neither delay-seconds nor a date."""

    def rate_limited(self, origin: str, response: Exchange, now: datetime) -> Discovery:
        value = (response.header("retry-after") or "").strip()
        if value and not value.isdigit() and http_date(value) is None:
            raise ValueError(f"bad Retry-After {value!r}")
        return super().rate_limited(origin, response, now)


class Retries404AtOnce(ReferenceAgent):
    """4.3: asks once more, in the same step, after a 404 (a retry loop that counts 404)."""

    def fetch_document(self, origin: str) -> Fetch:
        fetch = super().fetch_document(origin)
        if fetch.final is not None and fetch.final.status == 404:
            return super().fetch_document(origin)
        return fetch


class ObeysSecondsOnly(ReferenceAgent):
    """4.3: obeys Retry-After in delay-seconds, but takes an HTTP-date for the default wait."""

    def rate_limited(self, origin: str, response: Exchange, now: datetime) -> Discovery:
        value = (response.header("retry-after") or "").strip()
        if value.isdigit():
            return super().rate_limited(origin, response, now)
        answer = Discovery("error", error_kind="rate-limited")
        memory = self._remember(origin)
        memory.quiet_until, memory.quiet_answer = now + DEFAULT_RETRY_AFTER, answer
        return answer


class Retries429AtOnce(ReferenceAgent):
    """4.3: retries a 429 once at once, in the same step, before backing off."""

    def fetch_document(self, origin: str) -> Fetch:
        fetch = super().fetch_document(origin)
        if fetch.final is not None and fetch.final.status == 429:
            return super().fetch_document(origin)
        return fetch


class LenientJson(ReferenceAgent):
    """4.3: repairs what is nearly JSON (comments, trailing commas, single quotes, NaN, text after it)."""

    def parse(self, response: Exchange) -> Any:
        try:
            return super().parse(response)
        except ValueError:
            text = response.body.decode("utf-8", "replace")
            text = re.sub(r"^\s*//[^\n]*\n", "", text, flags=re.M)
            text = re.sub(r",\s*([}\]])", r"\1", text).replace("'", '"').replace("NaN", "null")
            return json.JSONDecoder().raw_decode(text.strip())[0]


class VersionOptional(ReferenceAgent):
    """4.3: does not require "aiendpoint" (the agent never reads the version anyway)."""

    def invalid(self, value: Any) -> str | None:
        if isinstance(value, dict) and "aiendpoint" not in value:
            value = {**value, "aiendpoint": "1.0"}
        return super().invalid(value)


class OpaqueUnknownVersion(ReferenceAgent):
    """4.4: accepts a document of a version it does not recognize, but parses none of its
    capabilities (an unknown version is kept as an opaque blob)."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        found = super().conclude(origin, fetch, now)
        version = found.document.get("aiendpoint") if isinstance(found.document, dict) else None
        if found.outcome == "document" and not (isinstance(version, str) and re.fullmatch(r"\d+(\.\d+)*", version)):
            found.capabilities = []
        return found


class RejectsMajorVersion(ReferenceAgent):
    """4.4: accepts any 1.x, refuses a higher major version (2.0, 10.3)."""

    def accept_version(self, version: Any) -> bool:
        if isinstance(version, str) and re.fullmatch(r"\d+(\.\d+)*", version):
            return int(version.split(".")[0]) <= 1
        return True


class CachesEncodedCredential(ReferenceAgent):
    """6.2: stores its credential base64-encoded in the cached document's auth object."""

    def cache_copy(self, document: Any) -> Any:
        cached = super().cache_copy(document)
        if self.credentials and isinstance(cached, dict):
            value = next(iter(self.credentials.values()))
            auth = cached.setdefault("auth", {})
            if isinstance(auth, dict):
                auth["x-saved"] = base64.b64encode(value.encode()).decode()
        return cached


class BareHostProbesHttpFirst(ReferenceAgent):
    """6.4: given a host without a scheme, tries http:// first and uses it if it answers 200."""

    def origin(self, authority: str) -> str | None:
        self._bare = "://" not in authority
        return super().origin(authority)

    def fetch_document(self, origin: str) -> Fetch:
        if getattr(self, "_bare", False):
            plain = self.fetcher.fetch("http://" + origin.removeprefix("https://") + "/.well-known/ai")
            if plain.final is not None and plain.final.status == 200:
                return plain
        return super().fetch_document(origin)


class HttpFallbackOnServerError(ReferenceAgent):
    """6.4: when https answers 5xx, tries the same URL over plain HTTP."""

    def fetch_document(self, origin: str) -> Fetch:
        fetch = super().fetch_document(origin)
        if fetch.final is not None and fetch.final.status >= 500:
            return self.fetcher.fetch("http://" + origin.removeprefix("https://") + "/.well-known/ai")
        return fetch


class DowngradesAfterTlsFailure(ReferenceAgent):
    """6.4: when the TLS handshake fails, fetches the document over plain HTTP instead."""

    def fetch_document(self, origin: str) -> Fetch:
        fetch = super().fetch_document(origin)
        if fetch.error_kind == "tls":
            return self.fetcher.fetch("http://" + origin.removeprefix("https://") + "/.well-known/ai")
        return fetch


class RetriesWithoutHostnameCheck(ReferenceAgent):
    """6.4: validates certificates, but on a failure retries without the host name check."""

    def fetch_document(self, origin: str) -> Fetch:
        fetch = super().fetch_document(origin)
        if fetch.error_kind == "tls":
            lax = Fetcher(self.http, ssl_context=broken_tls.no_host_name_check(self.http))
            return lax.fetch(origin + "/.well-known/ai")
        return fetch


class RetriesWithAnyCa(ReferenceAgent):
    """6.4: validates certificates, but on a failure retries trusting any CA (host name still checked)."""

    def fetch_document(self, origin: str) -> Fetch:
        fetch = super().fetch_document(origin)
        if fetch.error_kind == "tls":
            return Fetcher(self.http, ssl_context=broken_tls.any_issuer()).fetch(origin + "/.well-known/ai")
        return fetch


class MeasuresCompactSize(ReferenceAgent):
    """6.5: measures the document re-serialized without whitespace, not what was sent."""

    def limits(self, base: Limits) -> Limits:
        return replace(super().limits(base), max_body_bytes=16 * 1024 * 1024)

    def parse(self, response: Exchange) -> Any:
        value = super().parse(response)
        if len(json.dumps(value, separators=(",", ":")).encode()) > MAX_DOCUMENT_BYTES:
            raise ValueError("document over 256 KB")
        return value


class InvokesBeyondLimit(ReferenceAgent):
    """6.5: reports at most 100 capabilities, but invokes any well-formed one of the document."""

    def choose(self, found: Discovery, capability: str) -> dict | None:
        chosen = super().choose(found, capability)
        if chosen is not None or not isinstance(found.document, dict):
            return chosen
        for c in found.document.get("capabilities", []):
            if self.well_formed(c) and c["id"] == capability:
                return {"id": c["id"], "method": c["method"], "url": c["endpoint"] if not c["endpoint"].startswith("/")
                        else self._origin + c["endpoint"]}
        return None

    def invoke(self, authority: str, capability: str, arguments: dict, now: datetime) -> Discovery:
        self._origin = self.origin(authority) or ""
        return super().invoke(authority, capability, arguments, now)


class IgnoresCertificateDates(ReferenceAgent):
    """6.4: validates the chain and the host name, but not the certificate's validity dates."""

    def ssl_context(self, http: HttpConfig) -> ssl.SSLContext | None:
        ctx = ssl.create_default_context(cafile=str(http.ca_bundle) if http.ca_bundle else None)
        ctx.verify_flags |= 0x200000  # OpenSSL's X509_V_FLAG_NO_CHECK_TIME
        return ctx


VARIANTS.update({
    "merges-alias-capabilities": MergesAliasCapabilities,
    "parses-404-body": Parses404Body,
    "follows-permanent-http-redirect": FollowsPermanentHttpRedirect,
    "rejects-all-unknown-categories": RejectsAllUnknownCategories,
    "urljoin-endpoints": UrljoinEndpoints,
    "read-only-means-no-auth": ReadOnlyMeansNoAuth,
    "accepts-alias-after-404": AcceptsAliasAfter404,
    "ignores-params-shape": IgnoresParamsShape,
    "caches-a-day": CachesADay,
    "stores-no-store": StoresNoStore,
    "prefers-expires": PrefersExpires,
    "mishandles-not-modified": MishandlesNotModified,
    "crashes-on-unlisted-server-error": CrashesOnUnlistedServerError,
    "crashes-on-invalid-retry-after": CrashesOnInvalidRetryAfter,
    "retries-404-at-once": Retries404AtOnce,
    "obeys-seconds-only": ObeysSecondsOnly,
    "retries-429-at-once": Retries429AtOnce,
    "lenient-json": LenientJson,
    "version-optional": VersionOptional,
    "opaque-unknown-version": OpaqueUnknownVersion,
    "rejects-major-version": RejectsMajorVersion,
    "caches-encoded-credential": CachesEncodedCredential,
    "bare-host-probes-http-first": BareHostProbesHttpFirst,
    "http-fallback-on-server-error": HttpFallbackOnServerError,
    "downgrades-after-tls-failure": DowngradesAfterTlsFailure,
    "retries-without-hostname-check": RetriesWithoutHostnameCheck,
    "retries-with-any-ca": RetriesWithAnyCa,
    "measures-compact-size": MeasuresCompactSize,
    "invokes-beyond-limit": InvokesBeyondLimit,
    "ignores-certificate-dates": IgnoresCertificateDates,
})


# ---------------------------------------------------------------- -01: another path, the stop, probing
# -01 makes /.well-known/ai the only source of the document (2.1-09), has the agent stop after a
# 404 (4.1-06) and not probe alternative paths (4.1-07). Asking /.well-known/ai-discovery (the
# alternative suffix of 8.1) and /robots.txt is not probing (AMB-36, AMB-37): the 2.1-09 and
# 4.1-06 variants ask those only, so each fails its clause alone.


class _AlsoAsks(ReferenceAgent):
    """Asks ``path`` of the authority, and goes on as the reference (what it got is ignored)."""

    def also_ask(self, origin: str, path: str) -> Fetch:
        return self.fetcher.fetch(origin + path)


class AcceptsSuffixAfterServerError(_AlsoAsks):
    """2.1: when /.well-known/ai answers 5xx, accepts the document /.well-known/ai-discovery serves."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        if fetch.final is not None and fetch.final.status >= 500:
            other = self.also_ask(origin, "/.well-known/ai-discovery")
            if other.final is not None and other.final.status == 200:
                return super().conclude(origin, other, now)
        return super().conclude(origin, fetch, now)


class AcceptsSuffixOverInvalid(_AlsoAsks):
    """2.1: when /.well-known/ai's 200 is not a valid document, accepts /.well-known/ai-discovery's instead."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        found = super().conclude(origin, fetch, now)
        final = fetch.final
        if found.outcome == "none" and final is not None and final.status == 200:
            other = self.also_ask(origin, "/.well-known/ai-discovery")
            if other.final is not None and other.final.status == 200:
                return super().conclude(origin, other, now)
        return found


class ReadsRobotsAfter404(_AlsoAsks):
    """4.1: after a 404 concludes there is no document, but goes on to read /robots.txt."""

    def not_found(self, origin: str, now: datetime) -> Discovery:
        answer = super().not_found(origin, now)
        self.also_ask(origin, "/robots.txt")
        return answer


class AsksSuffixAfter404(_AlsoAsks):
    """4.1: after a 404 asks /.well-known/ai-discovery too (and, finding a document there, still reports none)."""

    def not_found(self, origin: str, now: datetime) -> Discovery:
        answer = super().not_found(origin, now)
        self.also_ask(origin, "/.well-known/ai-discovery")
        return answer


class ProbesAliasAfterServerError(_AlsoAsks):
    """4.1: when /.well-known/ai answers 5xx, asks /ai (and ignores what it says)."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        if fetch.final is not None and fetch.final.status >= 500:
            self.also_ask(origin, "/ai")
        return super().conclude(origin, fetch, now)


class ComparesWithAlias(_AlsoAsks):
    """4.1: after every 200 of /.well-known/ai, asks /ai as well, to compare (and keeps /.well-known/ai's)."""

    def fetch_document(self, origin: str) -> Fetch:
        fetch = super().fetch_document(origin)
        if fetch.final is not None and fetch.final.status == 200:
            self.also_ask(origin, "/ai")
        return fetch


class GuessesApiPath(_AlsoAsks):
    """4.1: when /.well-known/ai's 200 is not a valid document, guesses /api/ai (and ignores it)."""

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        found = super().conclude(origin, fetch, now)
        if found.outcome == "none" and fetch.final is not None and fetch.final.status == 200:
            self.also_ask(origin, "/api/ai")
        return found


VARIANTS.update({
    "accepts-suffix-after-server-error": AcceptsSuffixAfterServerError,
    "accepts-suffix-over-invalid": AcceptsSuffixOverInvalid,
    "reads-robots-after-404": ReadsRobotsAfter404,
    "asks-suffix-after-404": AsksSuffixAfter404,
    "probes-alias-after-server-error": ProbesAliasAfterServerError,
    "compares-with-alias": ComparesWithAlias,
    "guesses-api-path": GuessesApiPath,
})
