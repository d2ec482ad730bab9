"""§2.2.3 Variable Substitution (the placeholders of the manifest's execution args)."""

from __future__ import annotations

import re
from typing import Any

from conformance.document import Document
from conformance.outcomes import clause, not_applicable, untestable, violation

PLACEHOLDER = re.compile(r"\$\{([^}]*)\}")
#: namespace -> (the member of the implementation declaring its keys, where it sits)
NAMESPACES = {"auth": ("authentication", "credentials"), "path": ("requiredPaths",), "config": ("configuration",)}


def _declared(impl: dict, where: tuple[str, ...]) -> set[str] | None:
    """The keys an implementation declares at ``where``; None when the declaring array is
    present but is not an array (its own type clause fails; the placeholder cannot be judged)."""
    node: Any = impl
    for step in where:
        if not isinstance(node, dict) or step not in node:
            return set()
        node = node[step]
    if not isinstance(node, list):
        return None
    return {item["key"] for item in node if isinstance(item, dict) and isinstance(item.get("key"), str)}


def _arg_lists(impl: dict, path: str) -> list[tuple[str, list]]:
    """(JSON path, args) of execution.args and of each platformOverrides entry's args (AMB-14)."""
    execution = impl.get("execution")
    if not isinstance(execution, dict):
        return []
    out = []
    if isinstance(execution.get("args"), list):
        out.append((f"{path}.execution.args", execution["args"]))
    overrides = execution.get("platformOverrides")
    if isinstance(overrides, dict):
        for os_name, entry in overrides.items():
            if isinstance(entry, dict) and isinstance(entry.get("args"), list):
                out.append((f"{path}.execution.platformOverrides.{os_name}.args", entry["args"]))
    return out


@clause("AID-2.2.3-01")
def test_2_2_3_placeholders_name_declared_keys(manifest: Document) -> None:
    """The `execution.args` array supports variable substitution to construct commands dynamically.
    (`${package.identifier}`, `${auth.<key>}`, `${path.<key>}`, `${config.<key>}`.)"""
    problems: list[str] = []
    blocked: list[str] = []
    seen = 0
    for i, impl in manifest.objects("implementations"):
        for path, args in _arg_lists(impl, f"implementations[{i}]"):
            for j, arg in enumerate(args):
                if not isinstance(arg, str):
                    continue
                for m in PLACEHOLDER.finditer(arg):
                    seen += 1
                    name = m.group(1)
                    where = f"{path}[{j}] holds {m.group(0)!r}"
                    if name == "package.identifier":
                        continue
                    namespace, dot, key = name.partition(".")
                    if namespace not in NAMESPACES or not dot or not key:
                        problems.append(f"{where}: not one of the four forms of §2.2.3")
                        continue
                    declaring = NAMESPACES[namespace]
                    keys = _declared(impl, declaring)
                    member = ".".join(declaring)
                    if keys is None:
                        blocked.append(f"{where}, but implementations[{i}].{member} is not an array")
                    elif key not in keys:
                        problems.append(f"{where}: no item of implementations[{i}].{member} has key {key!r}")
    if problems:
        violation("; ".join(problems))
    if not seen:
        not_applicable("no execution args hold a ${...} placeholder")
    if blocked:
        untestable("; ".join(blocked))
