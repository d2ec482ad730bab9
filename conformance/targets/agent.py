"""Client targets (agent role): a client under test, reached through a harness adapter."""

from __future__ import annotations

from conformance.harness import PROTOCOL
from conformance.harness.adapters import Adapter, AdapterError, command_adapter, python_adapter
from conformance.targets import Target, TargetError, TargetOptions


def agent_target(spec: str, adapter: Adapter, what: str) -> Target:
    client = adapter.client
    return Target(
        spec=spec,
        kind="agent",
        description=f"{what} {client.get('name', '?')} {client.get('version', '')}".strip(),
        roles=("agent",),
        adapter=adapter,
        notes=[f"driven through {PROTOCOL} by {spec}; operations: {', '.join(adapter.operations)}"],
        _on_close=adapter.close,
    )


def _connect(make, spec: str) -> Adapter:
    try:
        return make(spec)
    except (AdapterError, ValueError) as exc:
        raise TargetError(f"cannot use the adapter {spec!r}: {exc}") from None


class PythonTargets:
    help = "python:MODULE:CALLABLE  a client through an in-process adapter (agent role)"

    def create(self, spec: str, options: TargetOptions) -> Target:
        return agent_target(spec, _connect(python_adapter, spec), "client")


class CommandTargets:
    help = 'cmd:"COMMAND ARGS"  a client in any language, through an adapter process speaking JSON lines (agent role)'

    def create(self, spec: str, options: TargetOptions) -> Target:
        return agent_target(spec, _connect(command_adapter, spec), "client")
