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
from conformance.schemas import PatternNotChecked
from conformance.world.handlers import request_body
from conformance.world.site import Reference, Route, Site, path_parameters

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
    #: Body form of that answer ("problem", "json" or "text"; empty: the general errors' form).
    invalid_input_body: str = ""
    #: Bring an input the inputs schema rejects into it where it can, and run it: a number past a
    #: bound is set to the bound, a string past maxLength cut (a lenient host: 5.2-07, AMB-34).
    clamp_inputs: bool = False
    #: The agent of a mismatched envelope wins over the URL's (with mismatch_status 2xx).
    trust_envelope: bool = False
    #: Operation assumed when the envelope names none (5.1 recommends "default"); "" rejects
    #: an envelope without operation for an agent that defines operations.
    implied_operation: str = "default"
    #: Members merged into every problem details body (a variant mistypes one: status "400").
    problem_members: dict = field(default_factory=dict)
    #: An unknown operation is run as the implied one instead of being rejected.
    lenient_operation: bool = False
    #: Agent ids compare case-insensitively (an envelope's "SUMMARIZER" matches the URL's).
    case_insensitive_ids: bool = False
    #: A schema the host also applies to every input (allOf): its real schema is stricter
    #: than the one it publishes.
    stricter_inputs: dict = field(default_factory=dict)
    #: Outputs follow the agent's schema even when the operation overrides it.
    ignore_operation_outputs: bool = False
    #: Inputs are checked against the agent's schema even when the operation overrides it.
    ignore_operation_inputs: bool = False
    #: The request media type the endpoint takes (another one is answered 415).
    request_media: str = "application/json"
    #: Compare the whole Content-Type header, parameters included, with request_media.
    exact_content_type: bool = False
    #: Answer every POST with 307 to this URL (a variant sends invocations to plain HTTP).
    redirect_to: str = ""
    #: Reject an envelope without agent even when the URL names one (5.2 allows either).
    agent_required: bool = False
    #: A JSON Schema of the envelope: a valid envelope (its input conforms) that also conforms
    #: to it is answered 404 problem+json, a business "not found" (what the input asks for does
    #: not exist); empty: none is.
    not_found_envelopes: dict = field(default_factory=dict)
    #: Seconds to wait before answering a request whose Content-Type holds ``slow_content_type``
    #: (a host slow on one kind of request: the kit's --timeout cuts that case alone short).
    slow_seconds: float = 0.0
    slow_content_type: str = ""

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
    if content_type:
        response.headers["Content-Type"] = content_type
    else:
        del response.headers["Content-Type"]
    return response


def problem(options: Options, status: int, title: str, detail: str, body: str | None = None) -> Response:
    """An error response in the form the options say (RFC 9457 problem details by default)."""
    form = body or options.error_body
    details = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    if body is None:  # the general errors (a mismatch's body has its own setting)
        details |= options.problem_members
    if form == "problem":
        return _json(status, details, PROBLEM)
    if form == "problem-list":  # the problem+json media type, but not a problem object
        return _json(status, [details], PROBLEM)
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
        return [instance_of(items, depth + 1) for _ in range(min(max(int(schema.get("minItems", 1) or 0), 1), 1000))]
    if kind == "string":
        return "x" * min(max(int(schema.get("minLength", 2) or 0), 2), 64 * 1024)
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return schema.get("minimum", 1.5)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return {}


def clamped(schema: Any, value: dict) -> dict:
    """``value`` with each member the schema's properties bound brought within the bounds: a
    number below minimum (or at exclusiveMinimum) raised to the nearest value allowed, one
    above lowered, a string longer than maxLength cut. Anything else is left as it is."""
    props = schema.get("properties") if isinstance(schema, dict) and isinstance(schema.get("properties"), dict) else {}
    out = dict(value)
    for name, sub in props.items():
        member = out.get(name)
        if not isinstance(sub, dict) or isinstance(member, bool):
            continue
        if isinstance(member, (int, float)):
            step = 1 if sub.get("type") == "integer" else 1e-9
            if isinstance(sub.get("minimum"), (int, float)):
                member = max(member, sub["minimum"])
            if isinstance(sub.get("exclusiveMinimum"), (int, float)):
                member = max(member, sub["exclusiveMinimum"] + step)
            if isinstance(sub.get("maximum"), (int, float)):
                member = min(member, sub["maximum"])
            if isinstance(sub.get("exclusiveMaximum"), (int, float)):
                member = min(member, sub["exclusiveMaximum"] - step)
            out[name] = member
        elif isinstance(member, str) and isinstance(sub.get("maxLength"), int):
            out[name] = member[:sub["maxLength"]]
    return out


def _validator(schema: Any):
    from conformance.schemas import offline_validator

    return offline_validator(schema)


def _matches(schema: Any, instance: Any) -> bool:
    """Does ``instance`` conform (False where a pattern is one the kit does not run)?"""
    try:
        return not any(_validator(schema).iter_errors(instance))
    except PatternNotChecked:
        return False


def _agent_by_id(document: Any, agent_id: str) -> dict | None:
    agents = document.get("agents") if isinstance(document, dict) else None
    return next((a for a in agents or [] if isinstance(a, dict) and a.get("id") == agent_id), None)


def invoke(site: Site, route: Route, request: Request) -> Response:
    """Answer one REST invocation (POST with a JSON invocation envelope)."""
    options = Options.of(route)
    if options.redirect_to:
        response = Response(b"", status=307)
        response.headers["Location"] = options.redirect_to
        return response
    if options.slow_seconds and options.slow_content_type in (request.headers.get("Content-Type") or ""):
        import time

        time.sleep(options.slow_seconds)
    if request.method != "POST":
        response = problem(options, 405, "Method Not Allowed", "invoke an agent with POST (4.3.1)")
        response.headers["Allow"] = "POST"
        return response
    media = (request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
    if options.exact_content_type:
        media = (request.headers.get("Content-Type") or "").strip().lower()
    if media != options.request_media:
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
    # the route's own template (base's path included) names the agent, as the document's URL does
    url_agent = (path_parameters(route.path, request.path) or {}).get("agent_id")
    named = envelope.get("agent")
    if named is not None and not isinstance(named, str):
        return problem(options, 400, "Bad Request", "the envelope's agent must be a string (5.1)")
    if named is None and options.agent_required:
        return problem(options, 400, "Bad Request", "the envelope's agent is REQUIRED (5.1)")
    agent_id = named if named is not None else url_agent
    same = (named or "").lower() == (url_agent or "").lower() if options.case_insensitive_ids else named == url_agent
    if url_agent is not None and named is not None and not same:
        if not 200 <= options.mismatch_status < 300:
            return problem(options, options.mismatch_status, "Agent Mismatch",
                           f"the envelope names agent {named!r} but the URL names {url_agent!r} (5.2)",
                           body=options.mismatch_body)
        agent_id = named if options.trust_envelope else url_agent
    if agent_id is None:
        return problem(options, 400, "Bad Request", "the envelope names no agent and the URL has none (5.1)")
    agent = _agent_by_id(document, agent_id)
    if agent is None and options.case_insensitive_ids and url_agent is not None:
        agent_id = url_agent
        agent = _agent_by_id(document, agent_id)
    if agent is None:
        return problem(options, 404, "Not Found", f"no agent {agent_id!r} on this host")
    inputs, outputs = agent.get("inputs"), agent.get("outputs")
    operations = agent.get("operations")
    if "operation" in envelope and not isinstance(envelope["operation"], str):
        return problem(options, 400, "Bad Request", "the envelope's operation must be a string (5.1)")
    if isinstance(operations, list) and operations:
        name = envelope.get("operation", options.implied_operation)
        if not name:
            return problem(options, 400, "Bad Request", f"agent {agent_id!r} defines operations: name one")
        op = next((o for o in operations if isinstance(o, dict) and o.get("name") == name), None)
        if op is None and options.lenient_operation:
            op = next((o for o in operations if isinstance(o, dict) and o.get("name") == options.implied_operation), {})
        if op is None:
            return problem(options, 400, "Bad Request", f"agent {agent_id!r} has no operation {name!r}")
        inputs = inputs if options.ignore_operation_inputs else op.get("inputs", inputs)
        outputs = outputs if options.ignore_operation_outputs else op.get("outputs", outputs)
    if "input" not in envelope or not isinstance(envelope["input"], dict):
        return problem(options, options.invalid_input_status, "Bad Request",
                       "the envelope's input must be a JSON object (5.1)")
    if options.stricter_inputs:
        inputs = {"allOf": [inputs, options.stricter_inputs]}
    if options.clamp_inputs:
        envelope = {**envelope, "input": clamped(inputs, envelope["input"])}
    try:
        errors = sorted(_validator(inputs).iter_errors(envelope["input"]), key=lambda e: list(e.absolute_path))
    except PatternNotChecked:  # a pattern RE2 cannot run: the reference host does not judge it
        errors = []
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
        return problem(options, options.invalid_input_status, "Invalid Input",
                       f"input does not conform to the inputs schema at {where}: {errors[0].message}",
                       body=options.invalid_input_body or None)
    if options.not_found_envelopes and _matches(options.not_found_envelopes, envelope):
        return problem(options, 404, "Not Found", f"agent {agent_id!r} has nothing for this input")
    output = instance_of(outputs)
    if isinstance(output, dict):
        output = {k: v for k, v in output.items() if k not in options.output_remove} | options.output_merge
    if options.success_body == "text":
        response = Response(f"done: {json.dumps(output)[:60]}\n".encode("utf-8"), status=options.success_status)
        response.headers["Content-Type"] = options.success_type
        return response
    return _json(options.success_status, output, options.success_type)



#: The reference host as data (``fixtures/woa/host.toml``, its routes running the handlers
#: above) and its variants: the same name in every draft's ``reference_server.py``.
REFERENCE = Reference("woa")
