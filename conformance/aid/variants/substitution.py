"""Broken AID clients: §2.2.3 variable substitution, and what §2.2.2 / §2.3 step 5d have the
client ask before running a local implementation (paths, settings, defaults, secrets)."""

from __future__ import annotations

import os
import re

from conformance.aid.reference_client import _PLACEHOLDER, Found, ReferenceAidClient, User, _text

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


# ---------------------------------------------------------------- second ways (issue #8)

class IdentifierWithRegistryPrefix(ReferenceAidClient):
    """2.2.3: ${package.identifier} becomes the identifier with a registry prefix (docker.io/...)."""

    def substitute(self, arg: str, values: dict[str, dict[str, str]]) -> tuple[str, bool]:
        package = values.get("package", {})
        if package.get("identifier"):
            values = {**values, "package": {**package, "identifier": "docker.io/" + package["identifier"]}}
        return super().substitute(arg, values)


class AuthValuesFromToken(ReferenceAidClient):
    """2.2.3: asks for each credentials item, but puts the single token of the user into every
    ${auth.<key>}, not the item's own secret."""

    def obtain(self, impl: dict, found: Found, user: User) -> tuple[str | None, dict[str, str]]:
        token, values = super().obtain(impl, found, user)
        return token, {k: user.token or "" for k in values}


class ExpandsHomeInPaths(ReferenceAidClient):
    """2.2.3: expands a leading ~ in the paths the user gave (os.path.expanduser): the path
    substituted is not the one the user provided."""

    def paths(self, impl: dict, found: Found, user: User) -> dict[str, str]:
        return {k: os.path.expanduser(v) for k, v in super().paths(impl, found, user).items()}


class DefaultValueWins(ReferenceAidClient):
    """2.2.3: a setting with a defaultValue gets its default, whatever the user set."""

    def configuration(self, impl: dict, found: Found, user: User) -> dict[str, str]:
        values = super().configuration(impl, found, user)
        for item in impl.get("configuration") or []:
            if isinstance(item, dict) and item.get("key") in values and item.get("defaultValue") is not None:
                values[item["key"]] = _text(item["defaultValue"])
        return values


class PassesEmptyStandaloneArgument(ReferenceAidClient):
    """2.2.3: an argument that is only a placeholder resolving to "" is passed as an empty
    argument (the flag before it still goes)."""

    def resolve_args(self, args: list, values: dict[str, dict[str, str]]) -> list[str]:
        resolved = [self.substitute(str(raw), values) for raw in args]
        dropped = {i for i, (_, empty) in enumerate(resolved) if empty}
        flags = {i - 1 for i in list(dropped) if i > 0 and str(args[i - 1]).startswith("-")}
        out = []
        for i, (text, _) in enumerate(resolved):
            if i in flags:
                continue
            if i in dropped:
                if _PLACEHOLDER.fullmatch(str(args[i])):
                    out.append("")
                continue
            out.append(text)
        return out


class DropsOnlySingleDashFlags(ReferenceAidClient):
    """2.2.3: omits the token before an empty substitution when it begins with "-", but not a
    "--" one (--label)."""

    def resolve_args(self, args: list, values: dict[str, dict[str, str]]) -> list[str]:
        resolved = [self.substitute(str(raw), values) for raw in args]
        dropped = {i for i, (_, empty) in enumerate(resolved) if empty}
        dropped |= {i - 1 for i in list(dropped)
                    if i > 0 and str(args[i - 1]).startswith("-") and not str(args[i - 1]).startswith("--")}
        return [text for i, (text, _) in enumerate(resolved) if i not in dropped]


class AsksPathsWithoutDescription(ReferenceAidClient):
    """2.2.2 requiredPaths: asks for each path by its key, without its description."""

    def paths(self, impl: dict, found: Found, user: User) -> dict[str, str]:
        before = len(found.prompts)
        values = super().paths(impl, found, user)
        for prompt in found.prompts[before:]:
            prompt.text = str(prompt.key)
        return values


class OnlyStringDefaults(ReferenceAidClient):
    """2.2.2 defaultValue: uses a default only when it is a string; an integer or boolean one is dropped."""

    def default(self, item: dict):
        value = super().default(item)
        return value if isinstance(value, str) else None


class MasksByKeyName(ReferenceAidClient):
    """2.2.2 secret: masks a setting whose key sounds secret (PASSWORD, SECRET, TOKEN), not the
    ones marked "secret": true."""

    def masked(self, item: dict) -> bool:
        return any(word in str(item.get("key", "")).upper() for word in ("PASSWORD", "SECRET", "TOKEN"))


class AsksOnlyStringSettings(ReferenceAidClient):
    """2.3 step 5d: asks the user for string settings only; an integer or boolean one gets its
    default (or nothing) without a prompt."""

    def configuration(self, impl: dict, found: Found, user: User) -> dict[str, str]:
        strings = [i for i in impl.get("configuration") or [] if not isinstance(i, dict) or i.get("type", "string") == "string"]
        values = super().configuration({**impl, "configuration": strings}, found, user)
        for item in impl.get("configuration") or []:
            if isinstance(item, dict) and isinstance(item.get("key"), str) and item not in strings:
                default = self.default(item)
                values[item["key"]] = "" if default is None else _text(default)
        return values


VARIANTS.update({
    "identifier-with-registry-prefix": IdentifierWithRegistryPrefix,
    "auth-values-from-token": AuthValuesFromToken,
    "expands-home-in-paths": ExpandsHomeInPaths,
    "default-value-wins": DefaultValueWins,
    "passes-empty-standalone-argument": PassesEmptyStandaloneArgument,
    "drops-only-single-dash-flags": DropsOnlySingleDashFlags,
    "asks-paths-without-description": AsksPathsWithoutDescription,
    "only-string-defaults": OnlyStringDefaults,
    "masks-by-key-name": MasksByKeyName,
    "asks-only-string-settings": AsksOnlyStringSettings,
})
