"""Broken AID clients: running a local implementation (2.2.2 platformOverrides, 2.2.3
substitution, 2.3 step 5d, 4.1 consent and command injection)."""

from __future__ import annotations

import os

from conformance.agent.aid_client import _PLACEHOLDER, Found, ReferenceAidClient, User


def _resplit(client: ReferenceAidClient, args: list, resolved: list[str], values: dict[str, dict[str, str]],
             mixed: bool) -> list[str]:
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
        out.extend(entry.split() if split else [entry])
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
