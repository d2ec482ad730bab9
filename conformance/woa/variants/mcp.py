"""Broken WoA clients: §4.3.2 (the envelope translated into an MCP tools/call)."""

from __future__ import annotations

from conformance.woa.reference_client import ReferenceWoaClient


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


class McpSkipsInitialize(ReferenceWoaClient):
    """4.3.2: sends tools/list and tools/call without initializing the MCP session."""

    def _rpc(self, server, message, session):
        if message.get("method") in ("initialize", "notifications/initialized"):
            return None, {"result": {}}
        return super()._rpc(server, message, session)


class McpAssumesMcpPath(ReferenceWoaClient):
    """4.3.2: speaks MCP at https://HOST/mcp, whatever path the server URL has."""

    def _rpc(self, server, message, session):
        from urllib.parse import urlsplit

        parts = urlsplit(server)
        return super()._rpc(f"{parts.scheme}://{parts.netloc}/mcp", message, session)


class McpArgumentsAsStrings(ReferenceWoaClient):
    """4.3.2: passes every argument that is not a string as its JSON text (a string)."""

    def mcp_arguments(self, envelope: dict) -> dict:
        import json

        return {k: v if isinstance(v, str) else json.dumps(v) for k, v in envelope["input"].items()}


class McpLowercasesToolName(ReferenceWoaClient):
    """4.3.2: calls the tool by its name in lower case."""

    def mcp_tool_name(self, config: dict, value: str, listed: list[str]) -> str:
        return super().mcp_tool_name(config, value, listed).lower()


VARIANTS = {
    "mcp-skips-initialize": McpSkipsInitialize,
    "mcp-assumes-mcp-path": McpAssumesMcpPath,
    "mcp-arguments-as-strings": McpArgumentsAsStrings,
    "mcp-lowercases-tool-name": McpLowercasesToolName,
    "mcp-tool-is-namespace": McpToolIsNamespace,
    "mcp-tool-from-agent-id": McpToolFromAgentId,
    "mcp-arguments-are-envelope": McpArgumentsAreEnvelope,
}
