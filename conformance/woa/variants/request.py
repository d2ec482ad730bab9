"""Broken WoA clients: §3 (document and transport), §4.3.1 (URL, method, media type), §5.1 and
§5.2 (the invocation envelope)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urljoin, urlsplit

from conformance.woa.reference_client import PLACEHOLDER, TRANSPORTS, ReferenceWoaClient, Refused


# ---------------------------------------------------------------- §3

class WrongWellKnownPath(ReferenceWoaClient):
    """§3: looks for the document at /woa.json, not /.well-known/woa.json."""

    def document_url(self, origin: str) -> str:
        return super().document_url(origin).replace("/.well-known/woa.json", "/woa.json")


class RestForEveryAgent(ReferenceWoaClient):
    """§3: invokes every agent over the document's rest transport, whatever the agent lists."""

    def choose_transport(self, document: dict, agent: dict) -> str:
        if isinstance((document.get("transports") or {}).get("rest"), dict):
            return "rest"
        return super().choose_transport(document, agent)


class GivesUpOnUnknownTransport(ReferenceWoaClient):
    """§3: looks only at the first transport an agent lists; an unknown one there ends it."""

    def choose_transport(self, document: dict, agent: dict) -> str:
        first = (agent.get("transports") or [None])[0]
        if first not in TRANSPORTS:
            raise Refused("no-transport", f"first transport {first!r} is not supported")
        return super().choose_transport(document, agent)


# ---------------------------------------------------------------- §4.3.1 URL

class UrljoinInvocationUrl(ReferenceWoaClient):
    """4.3.1: resolves invoke_path against base as a reference (drops base's path)."""

    def concatenate(self, base: str, path: str) -> str:
        return urljoin(base, path)


class DropsInvokePathQuery(ReferenceWoaClient):
    """4.3.1: drops the query component of invoke_path."""

    def concatenate(self, base: str, path: str) -> str:
        return super().concatenate(base, path.split("?", 1)[0])


class StripsBaseTrailingSlash(ReferenceWoaClient):
    """4.3.1: removes a trailing / of base before appending invoke_path."""

    def concatenate(self, base: str, path: str) -> str:
        return super().concatenate(base.rstrip("/"), path)


class ReplacesFirstPlaceholderOnly(ReferenceWoaClient):
    """4.3.1: replaces only the first {agent_id} of invoke_path."""

    def substitute(self, invoke_path: str, agent_id: str) -> str:
        return invoke_path.replace(PLACEHOLDER, agent_id, 1)


class PlaceholderCaseInsensitive(ReferenceWoaClient):
    """4.3.1: takes {AGENT_ID}, {Agent_Id}, ... for the placeholder too."""

    def substitute(self, invoke_path: str, agent_id: str) -> str:
        return re.sub(re.escape(PLACEHOLDER), lambda _: agent_id, invoke_path, flags=re.IGNORECASE)


class LowercasesIdInUrl(ReferenceWoaClient):
    """4.3.1: puts the agent id into the URL in lower case."""

    def substitute(self, invoke_path: str, agent_id: str) -> str:
        return super().substitute(invoke_path, agent_id.lower())


# ---------------------------------------------------------------- §4.3.1 method, media type

class InvokesWithPut(ReferenceWoaClient):
    """4.3.1: invokes with PUT."""

    def method(self) -> str:
        return "PUT"


class InvokesWithGet(ReferenceWoaClient):
    """4.3.1: invokes with GET (the envelope still in the body)."""

    def method(self) -> str:
        return "GET"


class TextPlainContentType(ReferenceWoaClient):
    """4.3.1: labels the JSON body text/plain."""

    def media_type(self) -> str:
        return "text/plain; charset=utf-8"


class WoaJsonContentType(ReferenceWoaClient):
    """4.3.1: labels the JSON body application/woa+json (the document's media type)."""

    def media_type(self) -> str:
        return "application/woa+json"


class PythonReprBody(ReferenceWoaClient):
    """4.3.1: sends the envelope as a Python literal (single quotes), not JSON."""

    def encode(self, body: Any) -> bytes:
        return repr(body).encode("utf-8")


# ---------------------------------------------------------------- §5.1, §5.2 envelope

class ArrayBody(ReferenceWoaClient):
    """5.1: sends the envelope inside a JSON array."""

    def body(self, envelope: dict) -> Any:
        return [envelope]


class DoubleEncodedBody(ReferenceWoaClient):
    """5.1: sends the envelope serialized into a JSON string."""

    def body(self, envelope: dict) -> Any:
        return json.dumps(envelope)


class BareInputBody(ReferenceWoaClient):
    """5.2: sends the input alone as the body."""

    def body(self, envelope: dict) -> Any:
        return envelope["input"]


class WrappedEnvelope(ReferenceWoaClient):
    """5.2: wraps the envelope in another object."""

    def body(self, envelope: dict) -> Any:
        return {"invocation": envelope}


class OmitsAgentWhenUrlNamesIt(ReferenceWoaClient):
    """5.1: leaves agent out when the URL already carries the id."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        out = super().envelope(agent, operation, input, url)
        if agent["id"] in urlsplit(url).path.split("/"):
            out.pop("agent")
        return out


class AgentAsObject(ReferenceWoaClient):
    """5.1: sends agent as an object {"id": ...}."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        return super().envelope(agent, operation, input, url) | {"agent": {"id": agent["id"]}}


class AgentIsName(ReferenceWoaClient):
    """5.2: sends the agent's name as agent."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        return super().envelope(agent, operation, input, url) | {"agent": str(agent.get("name"))}


class LowercasesEnvelopeAgent(ReferenceWoaClient):
    """5.2: sends the agent id in lower case."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        return super().envelope(agent, operation, input, url) | {"agent": agent["id"].lower()}


class OmitsOperation(ReferenceWoaClient):
    """5.1: never sends operation."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        out = super().envelope(agent, operation, input, url)
        out.pop("operation", None)
        return out


class FirstOperationName(ReferenceWoaClient):
    """5.1: sends the name of the agent's first operation, whichever was asked for."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        out = super().envelope(agent, operation, input, url)
        if "operation" in out:
            out["operation"] = agent["operations"][0].get("name")
        return out


class OmitsEmptyInput(ReferenceWoaClient):
    """5.1: leaves input out when it is {}."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        out = super().envelope(agent, operation, input, url)
        if out.get("input") == {}:
            out.pop("input")
        return out


class NullForEmptyInput(ReferenceWoaClient):
    """5.1: sends input null when it is {}."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        out = super().envelope(agent, operation, input, url)
        if out.get("input") == {}:
            out["input"] = None
        return out


class AgentInputsForOperations(ReferenceWoaClient):
    """5.1: builds every input from the agent's inputs, ignoring an operation's override."""

    def inputs_schema(self, agent: dict, operation: str | None) -> Any:
        return agent.get("inputs")


class FirstOverrideForPlainOperations(ReferenceWoaClient):
    """5.1: for an operation without inputs, uses the first operation's inputs override."""

    def inputs_schema(self, agent: dict, operation: str | None) -> Any:
        op = self.operation_of(agent, operation)
        if op is not None and "inputs" not in op:
            other = next((o for o in agent.get("operations", []) if isinstance(o, dict) and "inputs" in o), None)
            if other is not None:
                return other["inputs"]
        return super().inputs_schema(agent, operation)


# ---------------------------------------------------------------- transformations of the data

class FallsBackToRest(ReferenceWoaClient):
    """§3: when an agent lists no transport it speaks (an empty list), invokes it over the
    document's rest transport anyway."""

    def choose_transport(self, document: dict, agent: dict) -> str:
        try:
            return super().choose_transport(document, agent)
        except Refused:
            if isinstance((document.get("transports") or {}).get("rest"), dict):
                return "rest"
            raise


class LowercasesBasePath(ReferenceWoaClient):
    """4.3.1: lower-cases the path of base (as if URL paths compared case-insensitively)."""

    def concatenate(self, base: str, path: str) -> str:
        parts = urlsplit(base)
        return super().concatenate(parts._replace(path=parts.path.lower()).geturl(), path)


class QueryAsDict(ReferenceWoaClient):
    """4.3.1: rebuilds the query of invoke_path from a dict of its parameters (a repeated key
    keeps its last value)."""

    def concatenate(self, base: str, path: str) -> str:
        from urllib.parse import parse_qsl, urlencode

        if "?" in path:
            head, query = path.split("?", 1)
            path = head + "?" + urlencode(dict(parse_qsl(query, keep_blank_values=True)), safe="{}")
        return super().concatenate(base, path)


class CoercesNumericIds(ReferenceWoaClient):
    """5.1: sends an agent id that reads as a JSON number ("1e3", "0042") as that number."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        out = super().envelope(agent, operation, input, url)
        try:
            out["agent"] = json.loads(agent["id"])
        except ValueError:
            pass
        return out


class OperationCaseInsensitive(ReferenceWoaClient):
    """5.1: names the first operation whose name equals the one asked for ignoring case."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        out = super().envelope(agent, operation, input, url)
        if "operation" in out:
            out["operation"] = next(o["name"] for o in agent["operations"]
                                    if isinstance(o, dict) and str(o.get("name")).lower() == operation.lower())
        return out


class OperationByPrefix(ReferenceWoaClient):
    """5.1: names the first operation whose name begins with the one asked for."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        out = super().envelope(agent, operation, input, url)
        if "operation" in out:
            out["operation"] = next(o["name"] for o in agent["operations"]
                                    if isinstance(o, dict) and str(o.get("name")).startswith(operation))
        return out


class NullOperation(ReferenceWoaClient):
    """5.1: sends operation null when no operation was asked for."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        out = super().envelope(agent, operation, input, url)
        if operation is None:
            out = {"agent": out["agent"], "operation": None, "input": out["input"]}
        return out


def _required(client: ReferenceWoaClient, agent: dict, operation: str | None) -> set[str]:
    schema = client.inputs_schema(agent, operation)
    return {r for r in schema.get("required", []) if isinstance(r, str)} if isinstance(schema, dict) else set()


class SortsInputArrays(ReferenceWoaClient):
    """5.2: sorts the arrays of strings and numbers in the input (a canonical form)."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        def canonical(value: Any) -> Any:
            if isinstance(value, dict):
                return {k: canonical(v) for k, v in value.items()}
            if isinstance(value, list):
                items = [canonical(v) for v in value]
                same = {type(v) for v in items}
                return sorted(items) if same and same <= {str} or same <= {int, float} and items else items
            return value
        return super().envelope(agent, operation, canonical(input), url)


class DropsOptionalNulls(ReferenceWoaClient):
    """5.2: leaves out of the input the members that are null and not required."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        required = _required(self, agent, operation)
        kept = {k: v for k, v in input.items() if v is not None or k in required}
        return super().envelope(agent, operation, kept, url)


class ClampsBelowMaximum(ReferenceWoaClient):
    """5.2: clamps the input's numbers into the schema's bounds, taking maximum as exclusive
    (a value at the maximum is lowered by one)."""

    def envelope(self, agent: dict, operation: str | None, input: dict, url: str) -> dict:
        schema = self.inputs_schema(agent, operation)
        props = schema.get("properties") if isinstance(schema, dict) and isinstance(schema.get("properties"), dict) else {}
        out = dict(input)
        for name, sub in props.items():
            value, most = out.get(name), sub.get("maximum") if isinstance(sub, dict) else None
            if isinstance(value, (int, float)) and not isinstance(value, bool) and isinstance(most, (int, float)) \
                    and value >= most:
                out[name] = most - 1
        return super().envelope(agent, operation, out, url)


VARIANTS = {
    "falls-back-to-rest": FallsBackToRest,
    "lowercases-base-path": LowercasesBasePath,
    "query-as-dict": QueryAsDict,
    "coerces-numeric-ids": CoercesNumericIds,
    "operation-case-insensitive": OperationCaseInsensitive,
    "operation-by-prefix": OperationByPrefix,
    "null-operation": NullOperation,
    "sorts-input-arrays": SortsInputArrays,
    "drops-optional-nulls": DropsOptionalNulls,
    "clamps-below-maximum": ClampsBelowMaximum,
    "wrong-well-known-path": WrongWellKnownPath,
    "rest-for-every-agent": RestForEveryAgent,
    "gives-up-on-unknown-transport": GivesUpOnUnknownTransport,
    "urljoin-invocation-url": UrljoinInvocationUrl,
    "drops-invoke-path-query": DropsInvokePathQuery,
    "strips-base-trailing-slash": StripsBaseTrailingSlash,
    "replaces-first-placeholder-only": ReplacesFirstPlaceholderOnly,
    "placeholder-case-insensitive": PlaceholderCaseInsensitive,
    "lowercases-id-in-url": LowercasesIdInUrl,
    "invokes-with-put": InvokesWithPut,
    "invokes-with-get": InvokesWithGet,
    "text-plain-content-type": TextPlainContentType,
    "woa-json-content-type": WoaJsonContentType,
    "python-repr-body": PythonReprBody,
    "array-body": ArrayBody,
    "double-encoded-body": DoubleEncodedBody,
    "bare-input-body": BareInputBody,
    "wrapped-envelope": WrappedEnvelope,
    "omits-agent-when-url-names-it": OmitsAgentWhenUrlNamesIt,
    "agent-as-object": AgentAsObject,
    "agent-is-name": AgentIsName,
    "lowercases-envelope-agent": LowercasesEnvelopeAgent,
    "omits-operation": OmitsOperation,
    "first-operation-name": FirstOperationName,
    "omits-empty-input": OmitsEmptyInput,
    "null-for-empty-input": NullForEmptyInput,
    "agent-inputs-for-operations": AgentInputsForOperations,
    "first-override-for-plain-operations": FirstOverrideForPlainOperations,
}
