"""Broken AID clients: Appendix B manifest caching and Appendix C revocation (with 2.2.2's
revocationURL override)."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Literal

from conformance.agent.aid_client import ReferenceAidClient
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

    def processed(self, url: str, manifest: dict) -> dict:
        cached = self._http_cache.get(url)
        etag = cached.etag if cached is not None else None
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
