"""The reference WoA host's REST invocation endpoint (5.2), as a route handler of the mock world.

``fixtures/woa/host.toml`` routes the REST transport's ``invoke_path`` here (handler
``woa.invoke``). The handler reads the site's own WoA document, so a variant that changes
the document changes what the endpoint accepts and returns. It does what 5.2 asks of a host:

* the agent comes from the URL (``{agent_id}``) or the envelope's ``agent``; a different
  ``agent`` in the envelope is rejected with 400 and an ``application/problem+json`` body;
* the operation is the envelope's, ``default`` when it is omitted (5.1), and picks the
  operation's ``inputs``/``outputs`` over the agent's;
* an input that does not conform to the ``inputs`` schema is a 400 problem;
* on success, 200 with an ``application/json`` body built from the ``outputs`` schema.

A broken variant changes one setting (``Options``) in ``[[mutants.NAME.route]] options``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from werkzeug import Request, Response

from conformance.document import loads
from conformance.world.handlers import request_body
from conformance.world.site import Route, Site, path_parameters

PROBLEM = "application/problem+json"


@dataclass(frozen=True)
class Options:
    """How the endpoint behaves; the reference values conform, a variant changes one."""

    #: Status of a successful invocation.
    success_status: int = 200
    #: Content-Type of a successful invocation's body.
    success_type: str = "application/json"
    #: "json": the output as JSON; "text": the output as prose (not JSON).
    success_body: str = "json"
    #: Members merged into every output (a variant breaks the outputs schema with them).
    output_merge: dict = field(default_factory=dict)
    #: Members removed from every output.
    output_remove: tuple = ()
    #: Status of an envelope whose agent differs from the URL's.
    mismatch_status: int = 400
    #: "problem": the mismatch explained in application/problem+json; "json": a plain JSON error.
    mismatch_body: str = "problem"
    #: Content-Type and body form of other errors: "problem", "json" or "text".
    error_body: str = "problem"
    #: Status of a request whose input does not conform to the inputs schema.
    invalid_input_status: int = 400
    #: The agent of a mismatched envelope wins over the URL's (with mismatch_status 2xx).
    trust_envelope: bool = False
    #: Operation assumed when the envelope names none (5.1 recommends "default").
    implied_operation: str = "default"

    @classmethod
    def of(cls, route: Route) -> "Options":
        known = {f.name for f in fields(cls)}
        unknown = set(route.options) - known
        if unknown:
            raise ValueError(f"unknown woa.invoke options {sorted(unknown)}; known: {sorted(known)}")
        values = dict(route.options)
        if "output_remove" in values:
            values["output_remove"] = tuple(values["output_remove"])
        return cls(**values)


def _json(status: int, value: Any, content_type: str = "application/json") -> Response:
    response = Response(json.dumps(value, ensure_ascii=False).encode("utf-8"), status=status)
    response.headers["Content-Type"] = content_type
    return response


def problem(options: Options, status: int, title: str, detail: str, body: str | None = None) -> Response:
    """An error response in the form the options say (RFC 9457 problem details by default)."""
    form = body or options.error_body
    if form == "problem":
        return _json(status, {"type": "about:blank", "title": title, "status": status, "detail": detail}, PROBLEM)
    if form == "json":
        return _json(status, {"error": title, "message": detail})
    response = Response(f"{title}: {detail}\n".encode("utf-8"), status=status)
    response.headers["Content-Type"] = "text/plain; charset=utf-8"
    return response


def instance_of(schema: Any, depth: int = 0) -> Any:
    """A small value that conforms to ``schema`` (the subset hosts' outputs use: type, properties,
    required, items, enum, const, default, examples, minimum, minLength, minItems)."""
    if not isinstance(schema, dict) or depth > 8:
        return {}
    for key in ("const",):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    if "default" in schema:
        return schema["default"]
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    if kind == "object" or (kind is None and ("properties" in schema or "required" in schema)):
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        required = [r for r in schema.get("required", []) if isinstance(r, str)]
        return {name: instance_of(props.get(name, {}), depth + 1) for name in required}
    if kind == "array":
        items = schema.get("items", {})
        return [instance_of(items, depth + 1) for _ in range(max(int(schema.get("minItems", 1) or 0), 1))]
    if kind == "string":
        return "x" * max(int(schema.get("minLength", 2) or 0), 2)
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return schema.get("minimum", 1.5)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return {}


def _validator(schema: Any):
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema)


def _agent_by_id(document: Any, agent_id: str) -> dict | None:
    agents = document.get("agents") if isinstance(document, dict) else None
    return next((a for a in agents or [] if isinstance(a, dict) and a.get("id") == agent_id), None)


def _rest_template(document: Any) -> str:
    rest = (document.get("transports") or {}).get("rest") if isinstance(document, dict) else None
    path = rest.get("invoke_path", "") if isinstance(rest, dict) else ""
    return path.partition("?")[0]


def invoke(site: Site, route: Route, request: Request) -> Response:
    """Answer one REST invocation (POST with a JSON invocation envelope)."""
    options = Options.of(route)
    if request.method != "POST":
        response = problem(options, 405, "Method Not Allowed", "invoke an agent with POST (4.3.1)")
        response.headers["Allow"] = "POST"
        return response
    media = (request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
    if media != "application/json":
        return problem(options, 415, "Unsupported Media Type",
                       f"the invocation envelope must be application/json, not {media or 'no Content-Type'}")
    raw = request_body(request)
    if raw is None:
        return problem(options, 413, "Content Too Large", "the invocation envelope is too large")
    try:
        envelope = loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return problem(options, 400, "Bad Request", f"the body is not JSON: {exc}")
    if not isinstance(envelope, dict):
        return problem(options, 400, "Bad Request", "the invocation envelope must be a JSON object (5.1)")
    document = site.document
    url_agent = (path_parameters(_rest_template(document) or route.path, request.path) or {}).get("agent_id")
    named = envelope.get("agent")
    if named is not None and not isinstance(named, str):
        return problem(options, 400, "Bad Request", "the envelope's agent must be a string (5.1)")
    agent_id = named if named is not None else url_agent
    if url_agent is not None and named is not None and named != url_agent:
        if not 200 <= options.mismatch_status < 300:
            return problem(options, options.mismatch_status, "Agent Mismatch",
                           f"the envelope names agent {named!r} but the URL names {url_agent!r} (5.2)",
                           body=options.mismatch_body)
        agent_id = named if options.trust_envelope else url_agent
    if agent_id is None:
        return problem(options, 400, "Bad Request", "the envelope names no agent and the URL has none (5.1)")
    agent = _agent_by_id(document, agent_id)
    if agent is None:
        return problem(options, 404, "Not Found", f"no agent {agent_id!r} on this host")
    inputs, outputs = agent.get("inputs"), agent.get("outputs")
    operations = agent.get("operations")
    if "operation" in envelope and not isinstance(envelope["operation"], str):
        return problem(options, 400, "Bad Request", "the envelope's operation must be a string (5.1)")
    if isinstance(operations, list) and operations:
        name = envelope.get("operation", options.implied_operation)
        op = next((o for o in operations if isinstance(o, dict) and o.get("name") == name), None)
        if op is None:
            return problem(options, 400, "Bad Request", f"agent {agent_id!r} has no operation {name!r}")
        inputs, outputs = op.get("inputs", inputs), op.get("outputs", outputs)
    if "input" not in envelope or not isinstance(envelope["input"], dict):
        return problem(options, options.invalid_input_status, "Bad Request",
                       "the envelope's input must be a JSON object (5.1)")
    errors = sorted(_validator(inputs).iter_errors(envelope["input"]), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
        return problem(options, options.invalid_input_status, "Invalid Input",
                       f"input does not conform to the inputs schema at {where}: {errors[0].message}")
    output = instance_of(outputs)
    if isinstance(output, dict):
        output = {k: v for k, v in output.items() if k not in options.output_remove} | options.output_merge
    if options.success_body == "text":
        response = Response(f"done: {json.dumps(output)[:60]}\n".encode("utf-8"), status=options.success_status)
        response.headers["Content-Type"] = options.success_type
        return response
    return _json(options.success_status, output, options.success_type)
