"""Broken WoA clients: §4.3.2 (the envelope translated into an MCP tools/call)."""

from __future__ import annotations

from conformance.agent.woa_client import ReferenceWoaClient


class McpToolIsNamespace(ReferenceWoaClient):
    """4.3.2: calls the tool named tool_namespace, whatever tool_field names."""

    def mcp_tool_name(self, config: dict, value: str, listed: list[str]) -> str:
        return str(config.get("tool_namespace"))


class McpToolFromAgentId(ReferenceWoaClient):
    """4.3.2: names the tool by the agent's id, even when tool_field is "operation"."""

    def mcp_tool_value(self, config: dict, envelope: dict) -> str:
        return str(envelope.get("agent"))


class McpArgumentsAreEnvelope(ReferenceWoaClient):
    """4.3.2: passes the whole envelope as the tool's arguments, not its input."""

    def mcp_arguments(self, envelope: dict) -> dict:
        return envelope


VARIANTS = {
    "mcp-tool-is-namespace": McpToolIsNamespace,
    "mcp-tool-from-agent-id": McpToolFromAgentId,
    "mcp-arguments-are-envelope": McpArgumentsAreEnvelope,
}
