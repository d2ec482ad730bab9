"""§4.3.2 The MCP transport, host role: the MCP server the document names lists each agent's tool.

The kit connects to ``transports.mcp.server`` as an MCP client (the official SDK's, over
Streamable HTTP: ``_mcp_fixtures``), initializes a session and reads tools/list.
"""

from __future__ import annotations

from conformance.outcomes import clause, untestable, violation
from conformance.woa._mcp_fixtures import LEGACY_SSE, SEPARATORS, McpConfig, McpSession, McpTool, tool_name_forms


def _listed(names: list[str], limit: int = 12) -> str:
    if not names:
        return "no tools"
    shown = ", ".join(repr(n) for n in names[:limit])
    return f"{len(names)} tool(s): {shown}" + (", ..." if len(names) > limit else "")


@clause("WOA-4.3.2-01")
def test_4_3_2_mcp_server_lists_each_agents_tool(mcp_session: McpSession, mcp_config: McpConfig,
                                                 mcp_tools: list[McpTool]) -> None:
    """A mcp transport configuration object describes how an agent is exposed via a Model
    Context Protocol (MCP) server: the server named by server accepts an MCP session, and its
    tools/list holds, for each agent that lists mcp, the tool that the envelope's tool_field
    names: that value alone, or tool_namespace joined to it by one of . / _ __ : - (AMB-14).
    The kit's own limits (--timeout, --max-body, the tools/list pages it reads) and a server on
    MCP's deprecated HTTP+SSE transport, which the kit does not speak, leave the clause
    unjudged: AMB-44."""
    if mcp_session.refused_private:
        untestable(mcp_session.error or "the MCP server is on a private address the user did not name")
    if mcp_session.error and mcp_session.limit:
        untestable(f"{mcp_session.error}: {mcp_session.limit} (AMB-44)")
    if mcp_session.error and mcp_session.legacy_sse:
        untestable(f"{mcp_session.error}, and a GET with Accept: text/event-stream opened an event stream: "
                   f"{LEGACY_SSE} (AMB-44)")
    if mcp_session.error:
        violation(f"{mcp_session.error}; the document says agents are exposed by the MCP server at {mcp_config.server}")
    names = mcp_session.names
    missing = []
    for tool in mcp_tools:
        forms = tool_name_forms(mcp_config.tool_namespace, tool.value)
        if not any(form in names for form in forms):
            missing.append(tool)
    if missing and mcp_session.truncated:
        untestable(f"tools/list of {mcp_session.url} holds no tool for {missing[0].label} in the pages the kit read: "
                   f"{mcp_session.truncated} (AMB-44)")
    if missing:
        first = missing[0]
        joined = f"{mcp_config.tool_namespace!r} joined to it by {' '.join(SEPARATORS)}" if mcp_config.tool_namespace \
            else "(tool_namespace is empty)"
        violation(f"tools/list of {mcp_session.url} ({mcp_session.server_info}) holds {_listed(names)}; none is named "
                  f"{first.value!r} or {joined}, the tool of {first.label} (tool_field {mcp_config.tool_field!r})"
                  + (f"; {len(missing) - 1} more agent tool(s) missing" if len(missing) > 1 else ""))
