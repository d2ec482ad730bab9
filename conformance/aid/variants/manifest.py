"""Broken AID clients: processing the manifest (2.3 step 5, 2.2.2 status, 2.4 version
interlock) and error handling (2.5)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from conformance.aid.reference_client import Found, Prompt, ReferenceAidClient, User


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


# ---------------------------------------------------------------- second ways (issue #8)

class ConfirmsImplementationWithoutStatus(ReferenceAidClient):
    """0: asks the user to confirm an implementation that has no status, as if it might be deprecated."""

    def deprecation(self, impl: dict, found: Found, user: User) -> bool:
        if "status" not in impl:
            found.prompts.append(Prompt("confirm", f"{impl.get('name')!r} has no status: use it anyway?"))
            return user.confirm
        return super().deprecation(impl, found, user)


class DeprecatedFlagFromChoice(ReferenceAidClient):
    """2.2.2: in the list it offers, reads the status of the implementation it recommends only:
    the others are never marked deprecated."""

    def offer(self, viable: list[dict]) -> list[dict]:
        pick = self.choose(viable, User())
        return [{"name": str(i.get("name", "")), "deprecated": i is pick and self.deprecated(i)} for i in viable]


class BlankSchemaVersionIsOne(ReferenceAidClient):
    """2.3 step 5a: an empty schemaVersion ("") is taken for "1"."""

    def schema_version(self, manifest: dict) -> Literal["understood", "reject", "unknown"]:
        return "understood" if manifest.get("schemaVersion") == "" else super().schema_version(manifest)


class AcceptsUnknownTypes(ReferenceAidClient):
    """2.3 step 5b: takes an implementation of a type it does not know for a viable one."""

    def viable(self, impl: Any, local_allowed: bool) -> bool:
        if isinstance(impl, dict) and impl.get("type") not in ("remote", "local"):
            return True
        return super().viable(impl, local_allowed)


class WarnsDeprecatedOnlyInList(ReferenceAidClient):
    """2.3 step 5e: warns about a deprecated implementation only when it offers a choice."""

    def use(self, manifest: dict, viable: list[dict], found: Found, user: User, platform: str) -> Found:
        self._choice = len(viable) > 1
        return super().use(manifest, viable, found, user, platform)

    def deprecation(self, impl: dict, found: Found, user: User) -> bool:
        return super().deprecation(impl, found, user) if getattr(self, "_choice", True) else True


class MajorTwoUnderstood(ReferenceAidClient):
    """2.4: takes a schemaVersion "2.x" for a newer minor it understands (only "2" is rejected)."""

    def schema_version(self, manifest: dict) -> Literal["understood", "reject", "unknown"]:
        version = manifest.get("schemaVersion")
        if isinstance(version, str) and version.startswith("2."):
            return "understood"
        return super().schema_version(manifest)


class MissingProtoDefaultsToMcp(ReferenceAidClient):
    """2.5: completes a record that has a uri but no proto with proto=mcp."""

    def parse(self, text: str) -> dict[str, str]:
        pairs = super().parse(text)
        if pairs.get("uri") and not pairs.get("proto"):
            pairs["proto"] = "mcp"
        return pairs


class UnparseableIsError(ReferenceAidClient):
    """2.5: an unparseable manifest is an error, even where the record's uri and proto allow
    falling back to the Simple Profile."""

    def simple(self, record: dict[str, str], why: str, found: Found | None = None) -> Found:
        if "unparseable" in why:
            found = found or Found("error")
            found.outcome, found.error_kind = "error", "unparseable-manifest"
            found.messages.append(why)
            return found
        return super().simple(record, why, found)


class SilentErrorOnUnparseable(ReferenceAidClient):
    """2.5: an unparseable manifest with nothing to fall back on ends in an error the user is not told about."""

    def simple(self, record: dict[str, str], why: str, found: Found | None = None) -> Found:
        found = super().simple(record, why, found)
        if found.outcome == "error" and "unparseable" in why:
            found.messages.clear()
            found.warnings.clear()
        return found


class WarnsUnknownVersionOnlyForLocal(ReferenceAidClient):
    """2.5: warns about an unknown schemaVersion only when the manifest has a local implementation
    (the one it then disables); a remote-only one is read best-effort silently."""

    def unknown_version(self, manifest: dict, found: Found) -> None:
        if any(isinstance(i, dict) and i.get("type") == "local" for i in manifest.get("implementations") or []):
            super().unknown_version(manifest, found)


class RunsLocalAfterConfirm(ReferenceAidClient):
    """2.5: warns about an unknown schemaVersion and asks whether to go on; if the user
    confirms, it runs the local implementation all the same."""

    def discover(self, domain, now, user=User(), platform=None, protocol=None) -> Found:
        self._user, self._forced = user, False
        return super().discover(domain, now, user, platform, protocol)

    def unknown_version(self, manifest: dict, found: Found) -> None:
        super().unknown_version(manifest, found)
        found.prompts.append(Prompt("confirm", "Use this manifest anyway, local implementations included?"))
        self._forced = self._user.confirm

    def viable(self, impl: Any, local_allowed: bool) -> bool:
        return super().viable(impl, local_allowed or getattr(self, "_forced", False))


class ManifestErrorIsNoRecord(ReferenceAidClient):
    """2.5: a manifest fetch answered with an error status means the domain has no AID record."""

    def extended(self, record: dict[str, str], now: datetime, user: User, platform: str) -> Found:
        found = super().extended(record, now, user, platform)
        if (found.error_kind or "").startswith("manifest-http-"):
            found.outcome = "none"
        return found


class ClientErrorsArePermanent(ReferenceAidClient):
    """2.5: retries a manifest after a 5xx, but takes a 4xx (400, 404, 410) as final for the session."""

    def fetch_manifest(self, url: str, now: datetime) -> tuple[bytes | None, str | None]:
        failed: dict[str, str] = self.__dict__.setdefault("_failed_4xx", {})
        if url in failed:
            return None, failed[url]
        body, error = super().fetch_manifest(url, now)
        if error is not None and error.startswith("http-4"):
            failed[url] = error
        return body, error


class OffersMissingStatusAsDeprecated(ReferenceAidClient):
    """0: in the list it offers, marks every implementation whose status is not "active" as
    deprecated, one without status too."""

    def offer(self, viable: list[dict]) -> list[dict]:
        return [{"name": str(i.get("name", "")), "deprecated": i.get("status") != "active"} for i in viable]


VARIANTS.update({
    "offers-missing-status-as-deprecated": OffersMissingStatusAsDeprecated,
    "client-errors-are-permanent": ClientErrorsArePermanent,
    "confirms-implementation-without-status": ConfirmsImplementationWithoutStatus,
    "deprecated-flag-from-choice": DeprecatedFlagFromChoice,
    "blank-schema-version-is-1": BlankSchemaVersionIsOne,
    "accepts-unknown-types": AcceptsUnknownTypes,
    "warns-deprecated-only-in-list": WarnsDeprecatedOnlyInList,
    "major-two-understood": MajorTwoUnderstood,
    "missing-proto-defaults-to-mcp": MissingProtoDefaultsToMcp,
    "unparseable-is-error": UnparseableIsError,
    "silent-error-on-unparseable": SilentErrorOnUnparseable,
    "warns-unknown-version-only-for-local": WarnsUnknownVersionOnlyForLocal,
    "runs-local-after-confirm": RunsLocalAfterConfirm,
    "manifest-error-is-no-record": ManifestErrorIsNoRecord,
})
