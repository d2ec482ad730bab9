"""Broken AID clients: §2.2.3 variable substitution, and what §2.2.2 / §2.3 step 5d have the
client ask before running a local implementation (paths, settings, defaults, secrets)."""

from __future__ import annotations

import re

from conformance.agent.aid_client import Found, ReferenceAidClient, User

_PACKAGE = "${package.identifier}"
_CONFIG = re.compile(r"\$\{config\.([^}]*)\}")


class LeavesPackageIdentifier(ReferenceAidClient):
    """2.2.3: knows the auth, path and config namespaces only; ${package.identifier} stays as written."""

    def substitute(self, arg: str, values: dict[str, dict[str, str]]) -> tuple[str, bool]:
        marker = "\x00package\x00"
        text, empty = super().substitute(arg.replace(_PACKAGE, marker), values)
        return text.replace(marker, _PACKAGE), empty


class SubstitutesMaskedCredentials(ReferenceAidClient):
    """2.2.3: puts the masked display copy of each credential ("****") into ${auth.<key>}."""

    def substitute(self, arg: str, values: dict[str, dict[str, str]]) -> tuple[str, bool]:
        shown = {k: "*" * len(v) for k, v in values.get("auth", {}).items()}
        return super().substitute(arg, {**values, "auth": shown})


class SubstitutesPathUrl(ReferenceAidClient):
    """2.2.3: puts the file picker's file:// URL instead of the local path into ${path.<key>}."""

    def substitute(self, arg: str, values: dict[str, dict[str, str]]) -> tuple[str, bool]:
        urls = {k: "file://" + v if v else v for k, v in values.get("path", {}).items()}
        return super().substitute(arg, {**values, "path": urls})


class ConfigAsShellVariable(ReferenceAidClient):
    """2.2.3: rewrites ${config.KEY} to $KEY, expecting a shell to expand it (none ever does)."""

    def substitute(self, arg: str, values: dict[str, dict[str, str]]) -> tuple[str, bool]:
        return super().substitute(_CONFIG.sub(lambda m: "$" + m.group(1), arg), values)


class OmitsOnlyEmptyArguments(ReferenceAidClient):
    """2.2.3: omits an argument only when all of it is empty: "--token=" and "LOG=" stay."""

    def substitute(self, arg: str, values: dict[str, dict[str, str]]) -> tuple[str, bool]:
        text, empty = super().substitute(arg, values)
        return text, empty and text == ""


class KeepsFlagBeforeEmptyArgument(ReferenceAidClient):
    """2.2.3: omits the argument whose substitution is empty, but not the "-e" just before it."""

    def resolve_args(self, args: list, values: dict[str, dict[str, str]]) -> list[str]:
        resolved = [self.substitute(str(raw), values) for raw in args]
        return [text for text, empty in resolved if not empty]


class ReadsPathsSilently(ReferenceAidClient):
    """2.2.2 requiredPaths: takes the paths from its own settings without ever asking the user."""

    def paths(self, impl: dict, found: Found, user: User) -> dict[str, str]:
        return {item["key"]: user.paths.get(item["key"], "") for item in impl.get("requiredPaths") or []
                if isinstance(item, dict) and isinstance(item.get("key"), str)}


class IgnoresDefaultValue(ReferenceAidClient):
    """2.2.2 defaultValue: a setting the user leaves unset is empty, whatever its default."""

    def default(self, item: dict) -> object:
        return None


class NeverMasksSettings(ReferenceAidClient):
    """2.2.2 secret: asks for every setting in plain input, secret ones too."""

    def masked(self, item: dict) -> bool:
        return False


class ReadsSettingsSilently(ReferenceAidClient):
    """2.3 step 5d: takes the settings from its own configuration file, never asking the user."""

    def configuration(self, impl: dict, found: Found, user: User) -> dict[str, str]:
        values: dict[str, str] = {}
        for item in impl.get("configuration") or []:
            if isinstance(item, dict) and isinstance(item.get("key"), str):
                value = user.config.get(item["key"], self.default(item))
                values[item["key"]] = "" if value is None else str(value)
        return values


VARIANTS = {
    "leaves-package-identifier": LeavesPackageIdentifier,
    "substitutes-masked-credentials": SubstitutesMaskedCredentials,
    "substitutes-path-url": SubstitutesPathUrl,
    "config-as-shell-variable": ConfigAsShellVariable,
    "omits-only-empty-arguments": OmitsOnlyEmptyArguments,
    "keeps-flag-before-empty-argument": KeepsFlagBeforeEmptyArgument,
    "reads-paths-silently": ReadsPathsSilently,
    "ignores-default-value": IgnoresDefaultValue,
    "never-masks-settings": NeverMasksSettings,
    "reads-settings-silently": ReadsSettingsSilently,
}
