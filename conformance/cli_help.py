"""What ``adck run --help`` lists and what the shell completes, from the registries themselves.

Why a module of its own: the target kinds come from the ``adck.targets`` entry points (a third
party adds its own), the roles from each draft's catalog, the formats from the report renderers;
help written by hand falls behind them (it once omitted ``python:``, ``cmd:``, ``txt:``,
``file:`` and DOMAIN). The same lists feed shell completion (argcomplete), so what the shell
offers and what the help says cannot disagree.
"""

from __future__ import annotations

import argparse
import textwrap

#: Where a kit kind goes in the list; a third party's kinds follow, by name.
_ORDER = ("builtin", "https", "http", "file", "python", "cmd", "DOMAIN", "txt")
SHELLS = ("bash", "zsh", "fish")


def target_kinds() -> list[tuple[str, str, tuple[str, ...]]]:
    """(syntax, what it is, the drafts it serves: empty for every draft), one per kind; which
    drafts a kind serves is :func:`conformance.preflight.kind_serves`, as ``adck run`` decides."""
    from conformance import catalog
    from conformance.preflight import kind_serves
    from conformance.targets import kinds
    from conformance.targets.domain import DomainTargets

    registry = dict(kinds())
    registry.setdefault("DOMAIN", DomainTargets())  # a bare name, for a draft whose targets are domains
    out, seen = [], set()
    for name in sorted(registry, key=lambda n: (_ORDER.index(n) if n in _ORDER else len(_ORDER), n)):
        kind = registry[name]
        if kind.help in seen:  # http: and https: are one kind
            continue
        seen.add(kind.help)
        syntax, _, what = kind.help.partition("  ")
        profiles = [catalog.load(short) for short in catalog.available()]
        served = tuple(p.short for p in profiles if kind_serves(kind, p))
        out.append((syntax.strip(), what.strip(), () if len(served) == len(profiles) else served))
    return out


def roles_by_draft() -> dict[str, tuple[str, ...]]:
    """Each draft's roles the kit can check (``--role``)."""
    from conformance import catalog

    return {short: tuple(catalog.load(short).roles) for short in catalog.available()}


def declarations_by_draft() -> dict[str, tuple[str, ...]]:
    """Each draft's declarations as ``--declare`` takes them (``max-top-k=N``)."""
    from conformance import catalog

    return {short: tuple(d.usage() for d in catalog.load(short).declarations.values())
            for short in catalog.available()}


def complete_declare(parsed_args: argparse.Namespace | None = None, **_) -> list[str]:
    """The declarations of the draft already typed (a flag whole, others up to ``=``)."""
    from conformance import catalog

    draft = getattr(parsed_args, "draft", None)
    shorts = [draft] if draft in catalog.available() else catalog.available()
    return sorted({d.name if d.type == "flag" else d.name + "=" for short in shorts
                   for d in catalog.load(short).declarations.values()})


def run_epilog() -> str:
    """The end of ``adck run --help``: every target kind, every draft's roles, every format."""
    from conformance.reports.render import FORMATS

    lines = ["target kinds (--target):"]
    kinds = target_kinds()
    width = max(len(syntax) for syntax, _, _ in kinds) + 2
    for syntax, what, drafts in kinds:
        what += f" ({', '.join(drafts)} only)" if drafts else ""
        wrapped = textwrap.wrap(what, 100 - width - 2) or [""]
        lines.append(f"  {syntax:<{width}}{wrapped[0]}")
        lines += [" " * (width + 2) + more for more in wrapped[1:]]
    lines.append("  `adck targets DRAFT` lists a draft's built-in variants (builtin:NAME).")
    lines += ["", "roles (--role), by draft:"]
    lines += [f"  {short:<12}{', '.join(roles)}" for short, roles in roles_by_draft().items()]
    lines += ["", "declarations (--declare), by draft: choices the draft leaves to the implementation"]
    lines += [f"  {short:<12}{', '.join(usages)}" for short, usages in declarations_by_draft().items() if usages]
    lines += ["", f"report formats (--format, comma-separated): {', '.join(FORMATS)}"]
    return "\n".join(lines)


# -- shell completion (argcomplete) -----------------------------------------------------------

def complete_draft(**_) -> list[str]:
    """Each draft, and each of its revisions (``aiendpoint@00``) and ``@all`` where it has several."""
    from conformance import catalog, revisions

    out = []
    for short in catalog.available():
        known = revisions.revisions(short)
        out += [short] + ([f"{short}@{r.name}" for r in known] + [f"{short}@all"] if len(known) > 1 else [])
    return out


def complete_role(parsed_args: argparse.Namespace | None = None, **_) -> list[str]:
    """The roles of the draft already typed, else every draft's."""
    roles = roles_by_draft()
    draft = (getattr(parsed_args, "draft", None) or "").partition("@")[0]
    if draft in roles:
        return list(roles[draft])
    return sorted({r for rs in roles.values() for r in rs})


def complete_format(prefix: str = "", **_) -> list[str]:
    """``--format json,ju`` → ``json,junit``: the last item of a comma-separated list."""
    from conformance.reports.render import FORMATS

    done, _, last = prefix.rpartition(",")
    head = done + "," if done else ""
    chosen = set(done.split(","))
    return [head + f for f in FORMATS if f.startswith(last) and f not in chosen]


def complete_target(parsed_args: argparse.Namespace | None = None, **_) -> list[str]:
    """The kinds' prefixes, and the draft's built-in variants as ``builtin:NAME``."""
    from conformance.targets import kinds

    out = ["builtin", "https://", "http://"] + [f"{name}:" for name in sorted(kinds()) if name not in ("http", "https")]
    draft = (getattr(parsed_args, "draft", None) or "").partition("@")[0]  # aiendpoint@01: its variants too
    if draft:
        try:
            from conformance import catalog
            from conformance.world.site import load_mutants

            out += [f"builtin:{name}" for name in load_mutants(draft)]
            client = catalog.load(draft).client
            if client:
                out += [f"builtin:{name}" for name in load_mutants(draft, file=client.mutants)]
        except Exception:  # noqa: BLE001, S110 - completion offers less rather than failing
            pass
    return out


def completion_script(shell: str) -> str:
    """The script that makes ``shell`` complete ``adck`` (argcomplete's own shell code)."""
    import argcomplete

    return argcomplete.shellcode(["adck"], shell=shell)
