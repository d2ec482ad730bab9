"""§4.3.2 The MCP transport configuration."""

from __future__ import annotations

from conformance.document import Document, kind_name
from conformance.outcomes import clause, violation
from conformance.woa._checks import transport


def _string(document: Document, member: str) -> None:
    config = transport(document, "mcp")
    if member not in config:
        violation(f"transports.mcp has no {member}")
    if not isinstance(config[member], str):
        violation(f"transports.mcp.{member} is a JSON {kind_name(config[member])}, not a string")


@clause("WOA-4.3.2-03")
def test_4_3_2_server_is_a_string(document: Document) -> None:
    """server (string, REQUIRED): An identifier or URL for the MCP server endpoint."""
    _string(document, "server")


@clause("WOA-4.3.2-04")
def test_4_3_2_tool_namespace_is_a_string(document: Document) -> None:
    """tool_namespace (string, REQUIRED): A string that identifies the logical namespace of tools on the MCP server."""
    _string(document, "tool_namespace")


@clause("WOA-4.3.2-05")
def test_4_3_2_tool_field_is_a_string(document: Document) -> None:
    """tool_field (string, REQUIRED): The name of the field in the invocation envelope that
    contains the tool name for this MCP server."""
    _string(document, "tool_field")
