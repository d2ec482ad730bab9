"""Client targets (the agent role of aiendpoint, the client role of AID): a client under test,
reached through a harness adapter."""

from __future__ import annotations

from conformance.harness import PROTOCOL
from conformance.harness.adapters import Adapter, AdapterError, command_adapter, python_adapter
from conformance.targets import Target, TargetError, TargetOptions


def client_role(draft: str) -> str:
    """The name of the draft's client role (``agent``, ``client``)."""
    from conformance import catalog

    try:
        profile = catalog.load(draft)
    except catalog.CatalogError:
        return "agent"
    return profile.client.role if profile.client else "agent"


def agent_target(spec: str, adapter: Adapter, what: str, role: str = "agent") -> Target:
    client = adapter.client
    return Target(
        spec=spec,
        kind="agent",
        description=f"{what} {client.get('name', '?')} {client.get('version', '')}".strip(),
        roles=(role,),
        adapter=adapter,
        notes=[f"driven through {PROTOCOL} by {spec}; operations: {', '.join(adapter.operations)}"
               + (f"; features: {', '.join(adapter.features)}" if adapter.features else "")],
        _on_close=adapter.close,
    )


def _connect(make, spec: str) -> Adapter:
    try:
        return make(spec)
    except (AdapterError, ValueError) as exc:
        raise TargetError(f"cannot use the adapter {spec!r}: {exc}") from None


def _has_client(profile) -> bool:
    """A draft with a client role the kit can drive (``[client]`` of its profile)."""
    return profile.client is not None


class PythonTargets:
    help = "python:MODULE:CALLABLE  a client through an in-process adapter (agent/client role)"
    serves = staticmethod(_has_client)

    def create(self, spec: str, options: TargetOptions) -> Target:
        return agent_target(spec, _connect(python_adapter, spec), "client", client_role(options.draft))


class CommandTargets:
    help = 'cmd:"COMMAND ARGS"  a client in any language, through an adapter process speaking JSON lines (agent/client role)'
    serves = staticmethod(_has_client)

    def create(self, spec: str, options: TargetOptions) -> Target:
        return agent_target(spec, _connect(command_adapter, spec), "client", client_role(options.draft))
