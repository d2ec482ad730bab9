"""§4.1 Agent objects, host role, over the MCP transport: what an agent produces conforms to its outputs.

Each agent that lists mcp is invoked once through its tool (tools/call, with an input the
agent's own inputs schema accepts, built by ``conformance.woa.inputs`` from the run's seed),
and its successful result is validated against the agent's outputs (AMB-40, AMB-41). Every
tools/call counts against ``--invoke-budget``.
"""

from __future__ import annotations

import json
from typing import Any

from conformance.invoke import Invoker
from conformance.outcomes import clause, untestable, violation
from conformance.schemas import PatternNotChecked, offline_validator
from conformance.woa import inputs as woa_inputs
from conformance.woa import schema_check
from conformance.woa._mcp_fixtures import CallResult, McpConfig, McpSession, McpTool, tool_name_forms


def _excerpt(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def remote_refs(schema: Any) -> list[str]:
    """The $ref values of a schema that point outside it: never fetched (AMB-25), so a schema
    holding one is not used to build or judge a value."""
    found: list[str] = []
    stack = [schema]
    while stack and len(found) < 3:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("$ref", "$dynamicRef") and isinstance(value, str) and not value.startswith("#"):
                    found.append(value)
                else:
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return found


def result_value(call: CallResult, label: str) -> tuple[str, Any]:
    """(where, value) of a successful result's output (AMB-40): structuredContent, or the one
    text content parsed as JSON; a violation when neither carries one."""
    __tracebackhide__ = True
    result = call.result
    if result.structured_content is not None or "structured_content" in result.model_fields_set:
        return "structuredContent", result.structured_content
    content = list(result.content or [])
    texts = [c for c in content if getattr(c, "type", None) == "text"]
    if len(content) != 1 or len(texts) != 1:
        kinds = ", ".join(str(getattr(c, "type", "?")) for c in content) or "nothing"
        violation(f"tools/call {call.name!r} for {label} succeeded without structuredContent, and its content is {kinds}, "
                  "not the one JSON text that would carry the output")
    try:
        return "the text content (parsed as JSON)", json.loads(texts[0].text)
    except ValueError:
        violation(f"tools/call {call.name!r} for {label} succeeded without structuredContent, and its one text content is not "
                  f"JSON: {texts[0].text[:200]!r}")


@clause("WOA-4.1-26")
def test_4_1_mcp_result_conforms_to_outputs(mcp_session: McpSession, mcp_config: McpConfig, mcp_tools: list[McpTool],
                                            adck_invoker: Invoker, adck_seed: int) -> None:
    """outputs: A JSON Schema document that describes the successful response body produced
    by the agent. Invoked over mcp with an input its inputs schema accepts, the agent's
    successful result (structuredContent, or its one JSON text content) is valid against
    outputs (AMB-40); an error result is no successful response, and judges nothing (AMB-41)."""
    if mcp_session.error:
        untestable(f"{mcp_session.error} (see WOA-4.3.2-01)")
    names = mcp_session.names
    plan: list[tuple[McpTool, str, dict]] = []
    for tool in mcp_tools:
        name = next((f for f in tool_name_forms(mcp_config.tool_namespace, tool.value) if f in names), None)
        if name is None:
            untestable(f"tools/list holds no tool for {tool.label}"
                       + (f" in the pages the kit read ({mcp_session.truncated})" if mcp_session.truncated else "")
                       + " (see WOA-4.3.2-01)")
        for what, schema in (("inputs", tool.inputs), ("outputs", tool.outputs)):
            try:
                problems = schema_check.problems(schema)
            except schema_check.TooDeep as exc:
                untestable(f"the {what} of {tool.label}: {exc}")
            if problems:
                untestable(f"the {what} of {tool.label} is not a valid JSON Schema: {problems[0]} (see WOA-4.2-01)")
            if remote_refs(schema):
                untestable(f"the {what} of {tool.label} refers to {remote_refs(schema)[0]!r}, a resource the kit "
                           "does not fetch (AMB-25): the kit cannot build or judge a value by it")
        found = woa_inputs.valid_inputs(tool.inputs, adck_seed, 3)
        if not found:
            untestable(f"the kit could not build an input for {tool.label}: {woa_inputs.why_not(tool.inputs)}")
        # one call per tool: the smallest input, the largest or a random one, as the run's seed picks
        plan.append((tool, name, found[adck_seed % len(found)]))
    adck_invoker.require(len(plan))
    for tool, name, arguments in plan:
        adck_invoker.count()
        call = mcp_session.call(name, arguments)
        if call.error:
            untestable(f"tools/call {name!r} for {tool.label} with {_excerpt(arguments)} got no result: {call.error} "
                       "(AMB-41)")
        if call.result.is_error:
            said = " ".join(getattr(c, "text", "") for c in call.result.content or [])[:300]
            untestable(f"tools/call {name!r} for {tool.label} with {_excerpt(arguments)}, an input its inputs schema "
                       f"accepts, answered isError: {said!r}: no successful result to judge (AMB-41)")
        where, value = result_value(call, tool.label)
        try:
            errors = sorted(offline_validator(tool.outputs).iter_errors(value), key=lambda e: list(e.absolute_path))
        except PatternNotChecked as exc:
            untestable(f"the outputs of {tool.label}: {exc}")
        if errors:
            at = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
            violation(f"tools/call {name!r} for {tool.label} with {_excerpt(arguments)} succeeded, and its output "
                      f"({where}) {_excerpt(value)} does not conform to the agent's outputs schema at {at}: "
                      f"{errors[0].message}")
