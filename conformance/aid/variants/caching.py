"""Broken AID clients: Appendix B manifest caching and Appendix C revocation (with 2.2.2's
revocationURL override)."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Literal

from conformance.aid.reference_client import Found, ReferenceAidClient, User
from conformance.document import loads


class IgnoresMaxAge(ReferenceAidClient):
    """Appendix B item 1: treats every stored manifest as stale, so it asks the server again on
    every use (conditionally), even within max-age."""

    def fetch_manifest(self, url: str, now: datetime) -> tuple[bytes | None, str | None]:
        cached = self._http_cache.get(url)
        if cached is not None:
            cached.fresh_until = None
        return super().fetch_manifest(url, now)


class TrustsEtagOverContentVersion(ReferenceAidClient):
    """Appendix B item 2: decides whether the manifest changed by its ETag, not its
    contentVersion: while the ETag is the one it processed, it keeps what it processed."""

    def _store(self, url: str, response, body: bytes, now) -> None:
        self.__dict__.setdefault("_last_etag", {})[url] = response.header("etag")
        super()._store(url, response, body, now)

    def processed(self, url: str, manifest: dict) -> dict:
        etag = self.__dict__.get("_last_etag", {}).get(url)
        seen: dict[str, str | None] = self.__dict__.setdefault("_processed_etag", {})
        if etag is not None and seen.get(url) == etag and url in self._processed:
            return copy.deepcopy(self._processed[url][1])
        seen[url] = etag
        return super().processed(url, manifest)


class NeverChecksRevocation(ReferenceAidClient):
    """Appendix C: reads no revocationURL, so it never asks whether an implementation is revoked."""

    def revocation_url(self, impl: dict, manifest: dict) -> str | None:
        return None


class RemembersFailedCheckAsRevoked(ReferenceAidClient):
    """Appendix C: keeps the verdict of a revocation URL for the life of the client, and takes a
    failed check (an error status, an unknown body) as revoked."""

    def revocation(self, url: str) -> Literal["valid", "revoked", "failed"]:
        known: dict[str, str] = self.__dict__.setdefault("_revocation_verdicts", {})
        if known.get(url) == "revoked":
            return "revoked"
        state = super().revocation(url)
        known[url] = "valid" if state == "valid" else "revoked"
        return known[url]  # type: ignore[return-value]


class AnyOkIsValid(ReferenceAidClient):
    """Appendix C: takes any 200 from the revocation URL as valid, without reading the body."""

    def revocation_verdict(self, body: bytes) -> Literal["valid", "revoked", "failed"]:
        try:
            loads(body)
        except ValueError:
            return "failed"
        return "valid"


class MetadataRevocationUrlFirst(ReferenceAidClient):
    """2.2.2: uses metadata.revocationURL whenever there is one, ignoring an implementation's own."""

    def revocation_url(self, impl: dict, manifest: dict) -> str | None:
        meta = manifest.get("metadata") if isinstance(manifest.get("metadata"), dict) else {}
        url = meta.get("revocationURL")
        return url if isinstance(url, str) and url else super().revocation_url(impl, manifest)


VARIANTS = {
    "ignores-max-age": IgnoresMaxAge,
    "trusts-etag-over-content-version": TrustsEtagOverContentVersion,
    "never-checks-revocation": NeverChecksRevocation,
    "remembers-failed-revocation-check": RemembersFailedCheckAsRevoked,
    "any-200-revocation-is-valid": AnyOkIsValid,
    "metadata-revocation-url-first": MetadataRevocationUrlFirst,
}


# ---------------------------------------------------------------- second ways (issue #8)

class RevalidatesWithoutEtag(ReferenceAidClient):
    """Appendix B: honours max-age, but keeps no ETag: a stale manifest is fetched again unconditionally."""

    def _store(self, url: str, response, body: bytes, now: datetime) -> None:
        super()._store(url, response, body, now)
        if url in self._http_cache:
            self._http_cache[url].etag = None


class ReprocessesOnlyNewerContentVersion(ReferenceAidClient):
    """Appendix B item 2: re-processes a manifest only when its contentVersion sorts after the
    last one: a different but "older" one keeps what was processed."""

    def processed(self, url: str, manifest: dict) -> dict:
        version = (manifest.get("metadata") or {}).get("contentVersion")
        last = self._processed.get(url)
        if last is not None and isinstance(version, str) and isinstance(last[0], str) and version < last[0]:
            return copy.deepcopy(last[1])
        return super().processed(url, manifest)


class ChecksRevocationWithHead(ReferenceAidClient):
    """Appendix C: asks the revocation URL with HEAD (the status line only), not GET."""

    def revocation(self, url: str) -> Literal["valid", "revoked", "failed"]:
        fetch = self.fetcher.fetch(url, method="HEAD", headers={"Accept": "application/json"})
        final = fetch.final
        return "valid" if final is not None and final.status == 200 else "failed"


class RemembersUnknownStatus(ReferenceAidClient):
    """Appendix C: retries after an error status, but takes a 200 with a status it does not
    know for revoked, and remembers it."""

    def revocation(self, url: str) -> Literal["valid", "revoked", "failed"]:
        known: dict[str, str] = self.__dict__.setdefault("_unknown_status", {})
        if url in known:
            return "revoked"
        fetch = self.fetcher.fetch(url, headers={"Accept": "application/json"})
        final = fetch.final
        if fetch.error or final is None or final.status != 200:
            return "failed"
        verdict = self.revocation_verdict(final.body)
        if verdict == "failed":
            known[url] = "revoked"
            return "revoked"
        return verdict


class UsesRevokedWhenAlone(ReferenceAidClient):
    """Appendix C: skips a revoked implementation when there is another, but uses the only one there is."""

    def use(self, manifest: dict, viable: list[dict], found: Found, user: User, platform: str) -> Found:
        self._alone = len(viable) == 1
        return super().use(manifest, viable, found, user, platform)

    def revocation(self, url: str) -> Literal["valid", "revoked", "failed"]:
        verdict = super().revocation(url)
        return "valid" if verdict == "revoked" and getattr(self, "_alone", False) else verdict


class QueriesBothRevocationUrls(ReferenceAidClient):
    """2.2.2 revocationURL: asks metadata's revocation URL too when an implementation has its own."""

    def revocation_url(self, impl: dict, manifest: dict) -> str | None:
        own = super().revocation_url(impl, manifest)
        meta = manifest.get("metadata") if isinstance(manifest.get("metadata"), dict) else {}
        shared = meta.get("revocationURL")
        if own and isinstance(shared, str) and shared and shared != own:
            self.revocation(shared)
        return own


class IgnoresLastModified(ReferenceAidClient):
    """Appendix B: revalidates with the ETag, but keeps no Last-Modified: without an ETag a
    stale manifest is fetched again unconditionally."""

    def _store(self, url: str, response, body: bytes, now: datetime) -> None:
        super()._store(url, response, body, now)
        if url in self._http_cache:
            self._http_cache[url].last_modified = None


VARIANTS.update({
    "ignores-last-modified": IgnoresLastModified,
    "revalidates-without-etag": RevalidatesWithoutEtag,
    "reprocesses-only-newer-content-version": ReprocessesOnlyNewerContentVersion,
    "checks-revocation-with-head": ChecksRevocationWithHead,
    "remembers-unknown-status": RemembersUnknownStatus,
    "uses-revoked-when-alone": UsesRevokedWhenAlone,
    "queries-both-revocation-urls": QueriesBothRevocationUrls,
})
