"""Conforming but unusual WoA clients: each takes a road the reference does not where the draft
leaves the choice open; every client-role test must pass them (``fixtures/woa/client-mutants.toml``
``[conforming.NAME]``). In-process targets: ``python:conformance.woa.variants.conforming:NAME``
with ``-`` written ``_``."""

from __future__ import annotations

from conformance.woa.reference_client import ReferenceWoaClient, Refused


class CharsetJson(ReferenceWoaClient):
    """4.3.1: application/json with a charset parameter, and \\u escapes for non-ASCII."""

    def media_type(self) -> str:
        return "application/json; charset=utf-8"

    def encode(self, body) -> bytes:
        import json

        return json.dumps(body, ensure_ascii=True).encode("ascii")


class DefaultOperationImplied(ReferenceWoaClient):
    """5.1: leaves operation out when "default" is asked for (the implied one)."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        out = super().envelope(agent, operation, input, url)
        if out.get("operation") == "default":
            out.pop("operation")
        return out


class RefusesHttpOrigin(ReferenceWoaClient):
    """8.1: refuses an http:// origin instead of trying it over https."""

    def document_url(self, origin: str) -> str:
        if origin.strip().lower().startswith("http://"):
            raise Refused("insecure", f"{origin}: plain HTTP is never used")
        return super().document_url(origin)


class NeverFollowsRedirects(ReferenceWoaClient):
    """8.2: follows no redirect of an invocation at all."""

    def redirect_allowed(self, url: str) -> None:
        raise Refused("redirect", f"redirect to {url}: not followed")


class McpBareToolName(ReferenceWoaClient):
    """4.3.2: calls the tool by the value alone, without tool_namespace (AMB-14 accepts both)."""

    def mcp_tool_name(self, config: dict, value: str, listed: list[str]) -> str:
        return value


class NoFeatures(ReferenceWoaClient):
    """A library that claims neither feature: it sends what it is given and speaks REST only."""

    features = ()


class ValidatesGivenInput(ReferenceWoaClient):
    """4.2: validates an input it is given against the inputs schema before sending it (a MAY,
    4.2-06), refusing one the schema rejects, and sends a valid one as it is."""

    def invoke(self, origin, agent_id, now, operation=None, input=None):
        if input is not None:
            try:
                document = self.document(origin, now)
                schema = self.inputs_schema(self.find_agent(document, agent_id), operation)
            except Refused:
                return super().invoke(origin, agent_id, now, operation, input)
            from conformance.schemas import errors

            if isinstance(schema, dict) and errors(schema, input):
                from conformance.woa.reference_client import Found

                return Found("refused", error_kind="invalid-input", messages=["the input does not conform"])
        return super().invoke(origin, agent_id, now, operation, input)


class McpSkipsToolsList(ReferenceWoaClient):
    """4.3.2: calls the tool tool_field names without reading tools/list first (MCP does not
    require it): the name tool_namespace + "." + the value."""

    def _rpc(self, server, message, session):
        if message.get("method") == "tools/list":
            return None, None
        return super()._rpc(server, message, session)


CONFORMING = {
    "validates-given-input": ValidatesGivenInput,
    "mcp-skips-tools-list": McpSkipsToolsList,
    "mcp-bare-tool-name": McpBareToolName,
    "no-features": NoFeatures,
    "charset-json": CharsetJson,
    "default-operation-implied": DefaultOperationImplied,
    "refuses-http-origin": RefusesHttpOrigin,
    "never-follows-redirects": NeverFollowsRedirects,
}


def _handlers() -> dict:
    from conformance.woa.adapter import make_handler

    return {name.replace("-", "_"): make_handler(cls, f"adck reference WoA client, conforming variant {name}")
            for name, cls in CONFORMING.items()}


globals().update(_handlers())
