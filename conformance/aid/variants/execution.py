"""Broken AID clients: running a local implementation (2.2.2 platformOverrides, 2.2.3
substitution, 2.3 step 5d, 4.1 consent and command injection)."""

from __future__ import annotations

import hashlib
import os
import shlex
from urllib.parse import urlsplit, urlunsplit

from conformance.aid.reference_client import _PLACEHOLDER, Found, ReferenceAidClient, User


def _resplit(client: ReferenceAidClient, args: list, resolved: list[str], values: dict[str, dict[str, str]],
             mixed: bool, splitter=str.split) -> list[str]:
    """``resolved`` (the reference's resolve_args) with the entries that come from an argument
    mixing text and a placeholder (``mixed``), or from a placeholder alone (not ``mixed``),
    split on white space. Each entry is matched, in order, with the argument it came from
    (the reference only leaves arguments out, it never reorders them)."""
    origins = [(str(raw), client.substitute(str(raw), values)[0]) for raw in args]
    out: list[str] = []
    at = 0
    for entry in resolved:
        while at < len(origins) and origins[at][1] != entry:
            at += 1
        raw = origins[at][0] if at < len(origins) else ""
        at += 1
        alone = _PLACEHOLDER.fullmatch(raw) is not None
        split = (not alone and _PLACEHOLDER.search(raw) is not None) if mixed else alone
        out.extend(splitter(entry) if split else [entry])
    return out


class SplitsMixedArguments(ReferenceAidClient):
    """2.2.3: re-splits on white space an argument that mixes text and a placeholder
    (--name=${config.NAME}), so a value holding spaces becomes several arguments."""

    def resolve_args(self, args: list, values: dict[str, dict[str, str]]) -> list[str]:
        return _resplit(self, args, super().resolve_args(args, values), values, mixed=True)


class ExpandsVariablesInValues(ReferenceAidClient):
    """2.2.3: expands $VARIABLES in the values the user entered, as a shell would
    (os.path.expandvars), before substituting them."""

    def substitute(self, arg: str, values: dict[str, dict[str, str]]) -> tuple[str, bool]:
        expanded = {ns: {k: os.path.expandvars(v) for k, v in d.items()} for ns, d in values.items()}
        return super().substitute(arg, expanded)


class SplitsStandaloneValues(ReferenceAidClient):
    """4.1 item 3: a value standing alone as an argument (${config.NAME}) is split on white
    space into several argv entries (a multi-word value becomes several arguments)."""

    def resolve_args(self, args: list, values: dict[str, dict[str, str]]) -> list[str]:
        return _resplit(self, args, super().resolve_args(args, values), values, mixed=False)


class RunsThroughShell(ReferenceAidClient):
    """4.1 item 3: starts /bin/sh, which execs the command (sh -c 'exec "$0" "$@"' command
    args...): the arguments stay atomic, but the process started is a shell."""

    def argv(self, command: str, args: list[str]) -> list[str]:
        return ["/bin/sh", "-c", 'exec "$0" "$@"', command, *args]


class AddsEndOfOptions(ReferenceAidClient):
    """2.3 step 5d: puts an end-of-options marker "--" between the command and its arguments
    (docker -- run ...), an argument the manifest never gave."""

    def argv(self, command: str, args: list[str]) -> list[str]:
        return [command, "--", *args]


class IgnoresPlatformOverrides(ReferenceAidClient):
    """2.2.2: runs the base command and args on every OS, ignoring platformOverrides."""

    def execution_for(self, execution: dict, platform: str) -> tuple[str, list]:
        return super().execution_for({k: v for k, v in execution.items() if k != "platformOverrides"}, platform)


class ShowsUnresolvedCommand(ReferenceAidClient):
    """4.1 item 1: the consent prompt shows the manifest's command and args as written, with
    their ${...} placeholders, not the command as it will run."""

    def consent(self, impl: dict, argv: list[str], found: Found, user: User) -> bool:
        execution = impl.get("execution") if isinstance(impl.get("execution"), dict) else {}
        shown = [str(execution.get("command")), *(str(a) for a in execution.get("args") or [])]
        return super().consent(impl, shown, found, user)


class RunsDespiteRefusal(ReferenceAidClient):
    """4.1 item 1: asks for consent, then runs the command whatever the user answered."""

    def consent(self, impl: dict, argv: list[str], found: Found, user: User) -> bool:
        super().consent(impl, argv, found, user)
        return True


class ConsentByName(ReferenceAidClient):
    """4.1 item 2: remembers consent by implementation name only (a constant fingerprint), so
    a changed execution object runs without asking again."""

    def fingerprint(self, execution: dict) -> str:
        return "approved"


VARIANTS = {
    "splits-mixed-arguments": SplitsMixedArguments,
    "expands-variables-in-values": ExpandsVariablesInValues,
    "splits-standalone-values": SplitsStandaloneValues,
    "runs-through-shell": RunsThroughShell,
    "adds-end-of-options": AddsEndOfOptions,
    "ignores-platform-overrides": IgnoresPlatformOverrides,
    "shows-unresolved-command": ShowsUnresolvedCommand,
    "runs-despite-refusal": RunsDespiteRefusal,
    "consent-by-name": ConsentByName,
}


# ---------------------------------------------------------------- second ways (issue #8)

def _shell_words(value: str) -> list[str]:
    try:
        return shlex.split(value)
    except ValueError:
        return value.split()


class QuotesMixedArguments(ReferenceAidClient):
    """2.2.3: shell-quotes a value it puts inside a longer argument (--name='a b'), as if a
    shell would read the argument: the quotes stay in the argument."""

    def substitute(self, arg: str, values: dict[str, dict[str, str]]) -> tuple[str, bool]:
        if _PLACEHOLDER.fullmatch(arg) or not _PLACEHOLDER.search(arg):
            return super().substitute(arg, values)
        quoted = {ns: {k: shlex.quote(v) if v else v for k, v in d.items()} for ns, d in values.items()}
        return super().substitute(arg, quoted)


class ExpandsTildeInValues(ReferenceAidClient):
    """2.2.3: expands a leading ~ in the settings the user entered, as a shell would."""

    def substitute(self, arg: str, values: dict[str, dict[str, str]]) -> tuple[str, bool]:
        expanded = dict(values)
        expanded["config"] = {k: os.path.expanduser(v) for k, v in values.get("config", {}).items()}
        return super().substitute(arg, expanded)


class CmdExeOnWindows(ReferenceAidClient):
    """4.1 item 3: execs the command itself on linux and macos, but through cmd.exe /c on windows."""

    def execution_for(self, execution: dict, platform: str) -> tuple[str, list]:
        self._os = platform
        return super().execution_for(execution, platform)

    def argv(self, command: str, args: list[str]) -> list[str]:
        run = super().argv(command, args)
        return ["cmd.exe", "/c", *run] if getattr(self, "_os", None) == "windows" else run


class ShellSplitsStandaloneValues(ReferenceAidClient):
    """4.1 item 3: splits a value standing alone as an argument into words as a shell would
    (shlex: quotes pair up), so a value holding spaces becomes several arguments."""

    def resolve_args(self, args: list, values: dict[str, dict[str, str]]) -> list[str]:
        return _resplit(self, args, super().resolve_args(args, values), values, mixed=False, splitter=_shell_words)


class ConsentShowsCommandOnly(ReferenceAidClient):
    """4.1 item 1: the consent prompt names the program only, not its arguments."""

    def consent(self, impl: dict, argv: list[str], found: Found, user: User) -> bool:
        before = len(found.prompts)
        agreed = super().consent(impl, argv, found, user)
        for prompt in found.prompts[before:]:
            if prompt.kind == "consent":
                prompt.command = list(argv[:1])
        return agreed


class RefusalIgnoredOnceApproved(ReferenceAidClient):
    """4.1 item 1: asks again when an approved implementation's execution object changed, but
    runs it whatever the user answers: the name was approved once."""

    def consent(self, impl: dict, argv: list[str], found: Found, user: User) -> bool:
        name = str(impl.get("name"))
        if name in self._approved:
            super().consent(impl, argv, found, user)
            self._approved[name] = self.fingerprint(impl.get("execution") or {})
            return True
        return super().consent(impl, argv, found, user)


class FingerprintOfCommandOnly(ReferenceAidClient):
    """4.1 item 2: fingerprints the execution object by its command alone: changed args go unnoticed."""

    def fingerprint(self, execution: dict) -> str:
        return hashlib.sha256(str(execution.get("command")).encode()).hexdigest()


class OverrideReplacesWholeExecution(ReferenceAidClient):
    """2.2.2 platformOverrides: the OS's override replaces command and args together: what it
    leaves out is empty, not the base object's."""

    def execution_for(self, execution: dict, platform: str) -> tuple[str, list]:
        overrides = execution.get("platformOverrides")
        if isinstance(overrides, dict) and isinstance(overrides.get(platform), dict):
            override = overrides[platform]
            args = override.get("args", [])
            return str(override.get("command", "")), list(args) if isinstance(args, list) else []
        return super().execution_for(execution, platform)


class RemoteUriWithoutQuery(ReferenceAidClient):
    """2.3 step 5d: connects to a remote implementation's uri without its query string."""

    def use(self, manifest: dict, viable: list[dict], found: Found, user: User, platform: str) -> Found:
        found = super().use(manifest, viable, found, user, platform)
        if found.outcome == "connect" and found.connect:
            parts = urlsplit(found.connect["uri"])
            found.connect["uri"] = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
        return found


VARIANTS.update({
    "quotes-mixed-arguments": QuotesMixedArguments,
    "expands-tilde-in-values": ExpandsTildeInValues,
    "cmd-exe-on-windows": CmdExeOnWindows,
    "shell-splits-standalone-values": ShellSplitsStandaloneValues,
    "consent-shows-command-only": ConsentShowsCommandOnly,
    "refusal-ignored-once-approved": RefusalIgnoredOnceApproved,
    "fingerprint-of-command-only": FingerprintOfCommandOnly,
    "override-replaces-whole-execution": OverrideReplacesWholeExecution,
    "remote-uri-without-query": RemoteUriWithoutQuery,
})
