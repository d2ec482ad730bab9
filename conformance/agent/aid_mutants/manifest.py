"""Broken AID clients: processing the manifest (2.3 step 5, 2.2.2 status, 2.4 version
interlock) and error handling (2.5)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from conformance.agent.aid_client import Found, ReferenceAidClient, User


class MissingStatusIsDeprecated(ReferenceAidClient):
    """0: warns about every implementation whose status is not literally "active"."""

    def deprecation(self, impl: dict, found: Found, user: User) -> bool:
        if impl.get("status") != "active":
            found.warnings.append(f"the implementation {impl.get('name')!r} is deprecated")
        return True


class OffersDeprecatedUnmarked(ReferenceAidClient):
    """2.2.2: lists every viable implementation by name, deprecated ones unmarked."""

    def offer(self, viable: list[dict]) -> list[dict]:
        return [{"name": str(i.get("name", "")), "deprecated": False} for i in viable]


class MissingSchemaVersionIsOne(ReferenceAidClient):
    """2.3 step 5a: a manifest without schemaVersion is taken for a v1 one."""

    def schema_version(self, manifest: dict) -> Literal["understood", "reject", "unknown"]:
        if "schemaVersion" not in manifest:
            return "understood"
        return super().schema_version(manifest)


class InfersTypeFromUri(ReferenceAidClient):
    """2.3 step 5b: any implementation with a uri that is not local is taken for a remote one."""

    def viable(self, impl: Any, local_allowed: bool) -> bool:
        if isinstance(impl, dict) and impl.get("type") != "local" and isinstance(impl.get("uri"), str):
            impl["type"] = "remote"
        return super().viable(impl, local_allowed)


class IgnoresDeprecation(ReferenceAidClient):
    """2.3 step 5e: uses a deprecated implementation without a word."""

    def deprecation(self, impl: dict, found: Found, user: User) -> bool:
        return True


class BestEffortOnMajorTwo(ReferenceAidClient):
    """2.4: never rejects a manifest: major 2 under v=aid1 is read best-effort, as unknown."""

    def schema_version(self, manifest: dict) -> Literal["understood", "reject", "unknown"]:
        return "understood" if manifest.get("schemaVersion") == "1" else "unknown"


class UriOrProtoSuffices(ReferenceAidClient):
    """2.5: a record with uri or proto (not both) is taken as complete, and then fails."""

    def has_mandatory_keys(self, pairs: dict[str, str]) -> bool:
        return bool(pairs.get("config") or pairs.get("uri") or pairs.get("proto"))


class UnparseableIsEmpty(ReferenceAidClient):
    """2.5: a manifest body that is not JSON is read as an empty manifest (no implementations)."""

    def parse_manifest(self, body: bytes) -> Any:
        try:
            super().parse_manifest(body)
        except ValueError:
            return {"implementations": []}
        return super().parse_manifest(body)


class NoFallbackMeansNone(ReferenceAidClient):
    """2.5: when the record holds nothing to fall back on, says there is no AID record."""

    def simple(self, record: dict[str, str], why: str, found: Found | None = None) -> Found:
        if not (record.get("uri") and record.get("proto")):
            return Found("none", error_kind="no-aid-record", messages=[why])
        return super().simple(record, why, found)


class LogsUnknownVersion(ReferenceAidClient):
    """2.5: reads a manifest of unknown schemaVersion best-effort, telling only its log."""

    def unknown_version(self, manifest: dict, found: Found) -> None:
        return None


class RunsLocalOfUnknownVersion(ReferenceAidClient):
    """2.5: warns about an unknown schemaVersion, yet still runs its local implementations."""

    def viable(self, impl: Any, local_allowed: bool) -> bool:
        return super().viable(impl, True)


class RemembersFailedFetch(ReferenceAidClient):
    """2.5: a manifest fetch that failed is not tried again for the rest of the session."""

    def fetch_manifest(self, url: str, now: datetime) -> tuple[bytes | None, str | None]:
        failed: dict[str, str] = self.__dict__.setdefault("_failed", {})
        if url in failed:
            return None, failed[url]
        body, error = super().fetch_manifest(url, now)
        if error is not None:
            failed[url] = error
        return body, error


VARIANTS = {
    "missing-status-is-deprecated": MissingStatusIsDeprecated,
    "offers-deprecated-unmarked": OffersDeprecatedUnmarked,
    "missing-schema-version-is-1": MissingSchemaVersionIsOne,
    "infers-type-from-uri": InfersTypeFromUri,
    "ignores-deprecation": IgnoresDeprecation,
    "best-effort-on-major-2": BestEffortOnMajorTwo,
    "uri-or-proto-suffices": UriOrProtoSuffices,
    "unparseable-is-empty": UnparseableIsEmpty,
    "no-fallback-means-none": NoFallbackMeansNone,
    "logs-unknown-version": LogsUnknownVersion,
    "runs-local-of-unknown-version": RunsLocalOfUnknownVersion,
    "remembers-failed-fetch": RemembersFailedFetch,
}
