"""Hypothesis strategies of WoA documents: ``documents()`` draws valid ones across the space
the draft allows (agent ids at the ABNF's boundaries, ids differing only in case, with and
without operations and overrides, {agent_id} present or absent, queries in invoke_path, rest,
mcp and private transports, schemas with local, anchored, embedded and remote $refs, unknown
members); ``MUTATIONS`` maps each tested MUST of the document role to named ways of breaking
exactly it (``BYTE_MUTATIONS`` for the ways that live in the bytes).
"""

from __future__ import annotations

import copy
import json
import string
from typing import Any, Callable

from hypothesis import strategies as st

Doc = dict[str, Any]
Mutation = Callable[[Doc], st.SearchStrategy[Any]]

ID_CHARS = string.ascii_letters + string.digits + "-_"
#: Characters the agent-id ABNF does not allow: ASCII punctuation, space, controls, and
#: letters and digits outside ASCII (which Python's str.isalnum would accept).
FORBIDDEN_ASCII = "".join(c for c in string.punctuation + " \t\n\x00\x7f" if c not in "-_")
NON_ASCII = "éßÅøЖж中٣０ⅷ\u00a0ﬁ"
LABEL = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?", fullmatch=True)
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


# ------------------------------------------------------------------ valid documents
@st.composite
def agent_ids(draw: st.DrawFn) -> str:
    """Ids across the ABNF: one character (a letter, a digit, "-" or "_"), long ones, any mix."""
    kind = draw(st.sampled_from(["one", "short", "long", "edges"]))
    if kind == "one":
        return draw(st.sampled_from(ID_CHARS))
    if kind == "edges":
        return draw(st.sampled_from(["-", "_", "--", "__", "0", "9", "Z", "a-", "-a", "_0_"])) + draw(
            st.text(ID_CHARS, max_size=3))
    size = (1, 24) if kind == "short" else (200, 300)
    return draw(st.text(ID_CHARS, min_size=size[0], max_size=size[1]))


@st.composite
def reverse_dns_names(draw: st.DrawFn) -> str:
    labels = draw(st.lists(LABEL, min_size=2, max_size=3))
    rest = draw(st.sampled_from(["mytransport", "queue", "grpc", "ws.v2", "Transport_1"]))
    name = ".".join(labels) + "." + rest
    return name.upper() if draw(st.booleans()) and draw(st.booleans()) else name


@st.composite
def https_urls(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["https", "HTTPS", "Https"]))
    host = draw(st.sampled_from(["api.example.com", "example.org", "127.0.0.1", "[2001:db8::1]",
                                 "xn--bcher-kva.example"]))
    port = draw(st.sampled_from(["", ":443", ":8443"]))
    path = draw(st.sampled_from(["", "/v1", "/api/agents", "/a%20b"]))
    return f"{scheme}://{host}{port}{path}"


@st.composite
def invoke_paths(draw: st.DrawFn) -> str:
    segments = draw(st.lists(st.sampled_from(["agents", "{agent_id}", "invoke", "v1", "run", "{Agent_Id}"]),
                             max_size=4))
    path = "/" + "/".join(segments)
    if draw(st.booleans()):
        path += "?" + draw(st.sampled_from(["mode=sync", "agent={agent_id}", "a=1&b=2", ""]))
    return path


@st.composite
def schemas(draw: st.DrawFn) -> dict:
    """Valid JSON Schema 2020-12 documents: the minimum form of 4.2 and richer ones."""
    kind = draw(st.sampled_from(["object", "empty", "elided", "defs", "anchor", "embedded", "remote", "advanced"]))
    props = draw(st.dictionaries(st.sampled_from(["text", "max_words", "lang", "items"]),
                                 st.sampled_from([{"type": "string"}, {"type": "integer", "minimum": 1}, {}]),
                                 max_size=3))
    base: dict = {"type": "object", "properties": props,
                  "required": draw(st.lists(st.sampled_from(sorted(props) or ["text"]), unique=True, max_size=2))}
    if kind == "empty":
        base = {}
    elif kind == "elided":
        base = {"...": "JSON Schema elided"}
    elif kind == "defs":
        base["$defs"] = {"word": {"type": "string", "minLength": 1}}
        base["properties"] = props | {"word": {"$ref": "#/$defs/word"}}
    elif kind == "anchor":
        base["$id"] = "https://schemas.example.com/input.json"
        base["$defs"] = {"word": {"$anchor": "word", "type": "string"}}
        base["properties"] = props | {"word": {"$ref": "#word"}}
    elif kind == "embedded":
        base["$defs"] = {"inner": {"$id": "https://schemas.example.com/inner.json",
                                   "$defs": {"n": {"type": "number"}}, "$ref": "#/$defs/n"}}
        base["properties"] = props | {"n": {"$ref": "https://schemas.example.com/inner.json"}}
    elif kind == "remote":
        base["properties"] = props | {"ext": {"$ref": "https://schemas.example.com/remote.json#/$defs/x"}}
    elif kind == "advanced":
        base["oneOf"] = [{"required": ["text"]}, {"required": ["items"]}]
        base["properties"] = props | {"when": {"type": "string", "format": "date-time"}}
    if draw(st.booleans()):
        base["$schema"] = draw(st.sampled_from(["https://json-schema.org/draft/2020-12/schema",
                                                "https://json-schema.org/draft/2020-12/schema#"]))
    return base


@st.composite
def operations(draw: st.DrawFn) -> list:
    ops = []
    for name in draw(st.lists(st.sampled_from(["default", "summarize", "bullets", "x", "Op-1"]), max_size=3)):
        op = {"name": name, "description": draw(TEXT)}
        if draw(st.booleans()):
            op["inputs"] = draw(schemas())
        if draw(st.booleans()):
            op["outputs"] = draw(schemas())
        ops.append(op)
    return ops


@st.composite
def agents(draw: st.DrawFn, agent_id: str, transport_names: list[str]) -> dict:
    agent = {"id": agent_id, "name": draw(TEXT), "description": draw(TEXT), "inputs": draw(schemas()),
             "outputs": draw(schemas()),
             "transports": draw(st.lists(st.sampled_from(transport_names), unique=True, max_size=3))
             if transport_names else []}
    if draw(st.booleans()):
        agent["version"] = draw(st.sampled_from(["1.0.0", "2", "", "2025-12-01", "v3-beta"]))
    if draw(st.booleans()):
        agent["capabilities"] = draw(st.lists(st.sampled_from([
            "https://example.com/capability/summarization", "urn:example:cap:translate", "search", ""]), max_size=3))
    if draw(st.booleans()):
        agent["operations"] = draw(operations())
    if draw(st.booleans()):
        agent["authz"] = {"scheme": "south", "policy_uri": "https://authz.example.com/p",
                          "token_header": "Authorization"}
    return agent


@st.composite
def documents(draw: st.DrawFn, min_agents: int = 1) -> Doc:
    transports: dict = {}
    if draw(st.integers(0, 3)):
        transports["rest"] = {"base": draw(https_urls()), "invoke_path": draw(invoke_paths())}
    if draw(st.booleans()):
        transports["mcp"] = {"server": draw(st.sampled_from(["https://mcp.example.com/mcp", "stdio:tool", ""])),
                             "tool_namespace": draw(st.sampled_from(["example", ""])),
                             "tool_field": draw(st.sampled_from(["agent", "operation", "tool"]))}
    for name in draw(st.lists(reverse_dns_names(), unique=True, max_size=2)):
        transports[name] = draw(st.sampled_from([{}, {"endpoint": "wss://x.example/ws"}]))
    if not transports:
        transports["com.example.only"] = {}
    if draw(st.booleans()):
        transports = {k: transports[k] for k in reversed(list(transports))}
    ids = draw(st.lists(agent_ids(), min_size=min_agents, max_size=3, unique=True))
    if ids and draw(st.booleans()) and ids[0].swapcase() not in ids and ids[0].swapcase() != ids[0]:
        ids.append(ids[0].swapcase())  # ids differing only in case are distinct (AMB-24)
    names = list(transports)
    doc: Doc = {"woa_version": "1", "agents": [draw(agents(i, names)) for i in ids], "transports": transports}
    if draw(st.booleans()):
        doc["x-extension"] = {"note": "members the draft does not define are allowed (AMB-17)"}
    return doc


# ------------------------------------------------------------------ breaking one clause
def _copy(doc: Doc) -> Doc:
    return copy.deepcopy(doc)


def _pick_agent(draw: st.DrawFn, doc: Doc) -> tuple[Doc, dict]:
    new = _copy(doc)
    return new, new["agents"][draw(st.integers(0, len(new["agents"]) - 1))]


NOT_STRING = st.one_of(st.integers(), st.booleans(), st.none(), st.just([]), st.just({}), st.just(["x"]))
NOT_OBJECT = st.one_of(st.integers(), st.booleans(), st.none(), st.text(max_size=5), st.just([]), st.just([{}]))
NOT_ARRAY = st.one_of(st.integers(), st.booleans(), st.none(), st.text(max_size=5), st.just({}))


def _agent_member(member: str, values: st.SearchStrategy[Any] | None) -> Mutation:
    """Set (or, with None, drop) a member of one agent."""
    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> Doc:
        new, agent = _pick_agent(draw, doc)
        if values is None:
            agent.pop(member, None)
        else:
            agent[member] = draw(values)
        return new
    return lambda doc: mutate(doc)


def _operation_member(member: str, values: st.SearchStrategy[Any] | None) -> Mutation:
    """Set (or drop) a member of one operation, adding a valid operation when the agent has none."""
    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> Doc:
        new, agent = _pick_agent(draw, doc)
        ops = agent.setdefault("operations", [])
        if not ops or draw(st.booleans()):
            ops.insert(draw(st.integers(0, len(ops))), {"name": "extra", "description": "an added operation"})
        op = draw(st.sampled_from(ops))
        if values is None:
            op.pop(member, None)
        else:
            op[member] = draw(values)
        return new
    return lambda doc: mutate(doc)


def _top(member: str, values: st.SearchStrategy[Any] | None) -> Mutation:
    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> Doc:
        new = _copy(doc)
        if values is None:
            new.pop(member, None)
        else:
            new[member] = draw(values)
        return new
    return lambda doc: mutate(doc)


def _config(name: str, member: str, values: st.SearchStrategy[Any] | None) -> Mutation:
    """Set (or drop) a member of transports[name], adding a valid configuration when absent."""
    valid = {"rest": {"base": "https://api.example.com", "invoke_path": "/invoke"},
             "mcp": {"server": "https://mcp.example.com", "tool_namespace": "ns", "tool_field": "agent"}}

    @st.composite
    def mutate(draw: st.DrawFn, doc: Doc) -> Doc:
        new = _copy(doc)
        config = new["transports"].setdefault(name, copy.deepcopy(valid[name]))
        if values is None:
            config.pop(member, None)
        else:
            config[member] = draw(values)
        return new
    return lambda doc: mutate(doc)


@st.composite
def _duplicate_id(draw: st.DrawFn, doc: Doc, how: str) -> Doc:
    new = _copy(doc)
    agents_ = new["agents"]
    source = draw(st.sampled_from(agents_))
    if how == "copy" or len(agents_) == 1:
        twin = copy.deepcopy(source)
        if how != "copy":
            twin["name"] = "another agent"
        agents_.insert(draw(st.integers(0, len(agents_))), twin)
    else:
        other = draw(st.sampled_from([a for a in agents_ if a is not source]))
        other["id"] = source["id"]
    return new


@st.composite
def _bad_id(draw: st.DrawFn, doc: Doc, how: str) -> Doc:
    new, agent = _pick_agent(draw, doc)
    if how == "empty":
        agent["id"] = ""
        return new
    if how == "trailing-newline":
        agent["id"] = agent["id"] + "\n"
        return new
    char = draw(st.sampled_from(FORBIDDEN_ASCII if how == "ascii" else NON_ASCII))
    at = draw(st.integers(0, len(agent["id"])))
    agent["id"] = agent["id"][:at] + char + agent["id"][at:]
    return new


@st.composite
def _unresolved_transport(draw: st.DrawFn, doc: Doc, how: str) -> Doc:
    new, agent = _pick_agent(draw, doc)
    configured = new["transports"]
    if how == "removed":
        victim = draw(st.sampled_from(sorted(configured)))
        del configured[victim]
        if victim not in agent["transports"]:
            agent["transports"].append(victim)
        return new
    if how == "unknown":
        name = draw(st.sampled_from(["grpc", "com.example.nowhere", "websocket", "http"]))
    elif how == "case":
        name = draw(st.sampled_from(sorted(configured))).upper()
        if name in configured:
            name = name.lower() + "X"
    else:
        name = draw(st.sampled_from([" ", "", "\t"])) + draw(st.sampled_from(sorted(configured))) + " "
    if name in configured:
        name += ".unconfigured"
    agent["transports"].insert(draw(st.integers(0, len(agent["transports"]))), name)
    return new


SCHEMA_BREAKS = {
    "bad-type-value": {"type": "objekt"},
    "keyword-wrong-type": {"required": "text"},
    "negative-bound": {"minLength": -1},
    "properties-not-object": {"properties": ["text"]},
    "other-dialect": {"$schema": "http://json-schema.org/draft-07/schema#"},
    "dangling-pointer": {"$ref": "#/$defs/adck-missing"},
    "dangling-anchor": {"$ref": "#adck-missing-anchor"},
}


@st.composite
def _bad_schema(draw: st.DrawFn, doc: Doc, how: str) -> Doc:
    new, agent = _pick_agent(draw, doc)
    places: list[dict] = [agent]
    for op in agent.get("operations", []):
        places.append(op)
    holder = draw(st.sampled_from(places))
    member = draw(st.sampled_from(["inputs", "outputs"]))
    schema = holder.get(member)
    if not isinstance(schema, dict):
        schema = {"type": "object"}
    if how == "other-dialect":
        schema.pop("$id", None)
    holder[member] = schema | SCHEMA_BREAKS[how]
    return new


@st.composite
def _private_name(draw: st.DrawFn, doc: Doc, how: str) -> Doc:
    new = _copy(doc)
    name = {
        "single-word": st.sampled_from(["mytransport", "grpc", "websocket", "x"]),
        "one-label": st.sampled_from(["example.transport", "com.x", "queue.v1"]),
        "leading-dot": st.sampled_from([".com.example.x", "..com.example.x"]),
        "trailing-dot": st.sampled_from(["com.example.", "org.example.", "net.example."]),
        "bad-label": st.sampled_from(["-com.example.x", "com-.example.x", "com.exa_mple.x", "com..example.x"]),
        "registered-in-other-case": st.sampled_from(["REST", "Rest", "MCP", "Mcp"]),
    }[how]
    chosen = draw(name)
    new["transports"][chosen] = {}
    return new


def _ways_missing_or_type(setter: Callable[[st.SearchStrategy[Any] | None], Mutation],
                          wrong: st.SearchStrategy[Any], label: str) -> dict[str, Mutation]:
    return {"missing": setter(None), label: setter(wrong)}


MUTATIONS: dict[str, dict[str, Mutation]] = {
    "WOA-4-01": {
        "array": lambda doc: st.just([doc]),
        "scalar": lambda doc: st.sampled_from(["1", 1, None, True]),
    },
    "WOA-4-02": {
        "missing": _top("woa_version", None),
        "number": _top("woa_version", st.sampled_from([1, 1.0])),
        "other-type": _top("woa_version", st.sampled_from([None, ["1"], {"v": "1"}, True])),
    },
    "WOA-4-03": {
        "other-version": _top("woa_version", st.sampled_from(["2", "0", "1.0", "1.1", "01", "v1"])),
        "spaced-or-empty": _top("woa_version", st.sampled_from(["", " 1", "1 ", "1\n", "\u00a01"])),
    },
    "WOA-4-04": {
        "missing": _top("agents", None),
        "not-array": _top("agents", NOT_ARRAY),
    },
    "WOA-4-05": {
        "missing": _top("transports", None),
        "not-object": _top("transports", NOT_OBJECT),
        "member-not-object": lambda doc: st.builds(
            lambda name, value: {**_copy(doc), "transports": {**_copy(doc)["transports"], name: value}},
            st.sampled_from(sorted(doc["transports"]) + ["com.example.added"]), NOT_OBJECT),
    },
    "WOA-4.1-01": {
        "scalar-agent": lambda doc: st.builds(
            lambda at, value: {**doc, "agents": doc["agents"][:at] + [value] + doc["agents"][at:]},
            st.integers(0, len(doc["agents"])), st.one_of(st.integers(), st.none(), st.text(ID_CHARS, max_size=5))),
        "array-agent": lambda doc: st.builds(
            lambda at: {**doc, "agents": doc["agents"][:at] + [[doc["agents"][at]]] + doc["agents"][at + 1:]},
            st.integers(0, len(doc["agents"]) - 1)),
    },
    "WOA-4.1-02": _ways_missing_or_type(lambda v: _agent_member("id", v), NOT_STRING, "not-string"),
    "WOA-4.1-03": {
        "duplicated-agent": lambda doc: _duplicate_id(doc, "copy"),
        "same-id-other-agent": lambda doc: _duplicate_id(doc, "other"),
    },
    "WOA-4.1-04": {
        "empty": lambda doc: _bad_id(doc, "empty"),
        "forbidden-ascii": lambda doc: _bad_id(doc, "ascii"),
        "non-ascii": lambda doc: _bad_id(doc, "non-ascii"),
        "trailing-newline": lambda doc: _bad_id(doc, "trailing-newline"),
    },
    "WOA-4.1-05": _ways_missing_or_type(lambda v: _agent_member("name", v), NOT_STRING, "not-string"),
    "WOA-4.1-06": _ways_missing_or_type(lambda v: _agent_member("description", v), NOT_STRING, "not-string"),
    "WOA-4.1-09": {
        "number": _agent_member("version", st.sampled_from([1, 1.0, 2])),
        "other-type": _agent_member("version", st.sampled_from([None, ["1.0.0"], {"v": 1}, False])),
    },
    "WOA-4.1-11": {
        "not-array": _agent_member("capabilities", NOT_ARRAY),
        "non-string-element": _agent_member("capabilities", st.lists(
            st.one_of(st.text(max_size=5), st.integers(), st.none(), st.just({})), min_size=1, max_size=3).filter(
            lambda xs: any(not isinstance(x, str) for x in xs))),
    },
    "WOA-4.1-13": _ways_missing_or_type(lambda v: _agent_member("inputs", v), NOT_OBJECT, "not-object"),
    "WOA-4.1-14": _ways_missing_or_type(lambda v: _agent_member("outputs", v), NOT_OBJECT, "not-object"),
    "WOA-4.1-15": {
        "missing": _agent_member("transports", None),
        "not-array": _agent_member("transports", st.one_of(st.just("rest"), st.integers(), st.none(), st.just({}))),
        "non-string-element": _agent_member("transports", st.sampled_from([[1], [None], [["rest"]], [{}]])),
    },
    "WOA-4.1-16": {
        "unknown-name": lambda doc: _unresolved_transport(doc, "unknown"),
        "other-case": lambda doc: _unresolved_transport(doc, "case"),
        "surrounding-space": lambda doc: _unresolved_transport(doc, "space"),
        "top-level-member-removed": lambda doc: _unresolved_transport(doc, "removed"),
    },
    "WOA-4.1-18": {
        "not-array": _agent_member("operations", st.one_of(st.just({"name": "x", "description": "y"}),
                                                           st.text(max_size=4), st.none(), st.integers())),
        "non-object-element": _agent_member("operations", st.sampled_from([["default"], [None], [[]], [1]])),
    },
    "WOA-4.1-19": _ways_missing_or_type(lambda v: _operation_member("name", v), NOT_STRING, "not-string"),
    "WOA-4.1-20": _ways_missing_or_type(lambda v: _operation_member("description", v), NOT_STRING, "not-string"),
    "WOA-4.1-22": {
        "boolean-schema": _operation_member("inputs", st.booleans()),
        "other-type": _operation_member("inputs", st.one_of(st.none(), st.text(max_size=4), st.just([]))),
    },
    "WOA-4.1-24": {
        "boolean-schema": _operation_member("outputs", st.booleans()),
        "other-type": _operation_member("outputs", st.one_of(st.none(), st.integers(), st.just([{}]))),
    },
    "WOA-4.2-01": {name: (lambda how: lambda doc: _bad_schema(doc, how))(name) for name in SCHEMA_BREAKS},
    "WOA-4.3.1-02": {
        "missing": _config("rest", "base", None),
        "not-string": _config("rest", "base", NOT_STRING),
        "relative": _config("rest", "base", st.sampled_from(["/api", "api.example.com", "api.example.com/v1", ""])),
        "no-authority": _config("rest", "base", st.sampled_from(["https:///api", "//api.example.com",
                                                                 "https:api.example.com", "https//api.example.com"])),
        # RFC 3986 absolute-URI (AMB-54): no white space, no raw non-ASCII, no fragment
        "not-a-uri": _config("rest", "base", st.sampled_from(["https://api.exa mple.com/", "https://api.example.com/v 1",
                                                              "https://bücher.example/api", "https://api.example.com/%zz",
                                                              " https://api.example.com", "https://api.example.com\n"])),
        "fragment": _config("rest", "base", st.sampled_from(["https://api.example.com/#frag", "https://api.example.com#",
                                                             "https://api.exa mple.com/#frag"])),
    },
    "WOA-4.3.1-03": {
        "http": _config("rest", "base", st.sampled_from(["http://api.example.com", "HTTP://api.example.com/v1"])),
        "other-scheme": _config("rest", "base", st.sampled_from(["ftp://api.example.com", "wss://api.example.com",
                                                                 "httpss://api.example.com", "file://host/x"])),
    },
    "WOA-4.3.1-05": {
        "missing": _config("rest", "invoke_path", None),
        "not-string": _config("rest", "invoke_path", NOT_STRING),
        "no-leading-slash": _config("rest", "invoke_path", st.sampled_from(
            ["agents/{agent_id}/invoke", "", "?agent={agent_id}", "https://api.example.com/invoke", " /invoke",
             "\\invoke"])),
        # RFC 3986 path-absolute [ "?" query ], a template's braces aside (AMB-12)
        "not-a-path": _config("rest", "invoke_path", st.sampled_from(
            ["/agents/{agent_id}/in voke", "/agents/{agent_id}/invoke\n", "/agents/résumé/{agent_id}", "/invoke%zz",
             "/invoke?q=a b"])),
        "fragment": _config("rest", "invoke_path", st.sampled_from(
            ["/agents/{agent_id}/invoke#run", "/invoke?mode=sync#top", "/invoke#"])),
    },
    "WOA-4.3.2-03": _ways_missing_or_type(lambda v: _config("mcp", "server", v), NOT_STRING, "not-string"),
    "WOA-4.3.2-04": _ways_missing_or_type(lambda v: _config("mcp", "tool_namespace", v), NOT_STRING, "not-string"),
    "WOA-4.3.2-05": _ways_missing_or_type(lambda v: _config("mcp", "tool_field", v), NOT_STRING, "not-string"),
    "WOA-4.3.3-02": {how: (lambda h: lambda doc: _private_name(doc, h))(how) for how in (
        "single-word", "one-label", "leading-dot", "trailing-dot", "bad-label", "registered-in-other-case")},
}


def _utf8(doc: Doc) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


def _with_non_ascii(doc: Doc) -> Doc:
    new = _copy(doc)
    new["agents"][0]["description"] = "Résumé of a café: naïve"
    return new


BYTE_MUTATIONS: dict[str, dict[str, Mutation]] = {
    "WOA-9.2-02": {
        "latin-1": lambda doc: st.just(json.dumps(_with_non_ascii(doc)).replace("\\u00e9", "\xe9").encode("latin-1")),
        "utf-16": lambda doc: st.sampled_from(["utf-16", "utf-16-le", "utf-32"]).map(
            lambda enc: json.dumps(doc, ensure_ascii=False).encode(enc)),
        "byte-order-mark": lambda doc: st.just(b"\xef\xbb\xbf" + _utf8(doc)),
        "not-one-json-text": lambda doc: st.sampled_from(["cut", "trailing", "two"]).map(
            lambda how: _utf8(doc)[:-1] if how == "cut" else _utf8(doc) + (b" x" if how == "trailing" else b"\n{}")),
    },
}

#: (clause, way) -> the other clauses a break cannot help failing too. None: each way above
#: breaks its clause alone.
IMPLIED: dict[tuple[str, str], set[str]] = {}


def named_breaks() -> dict[str, tuple[str, ...]]:
    """Clause id -> the names of the generated breaks proven to fail exactly it."""
    return {cid: tuple(ways) for cid, ways in {**MUTATIONS, **BYTE_MUTATIONS}.items()}


def serialized(doc: Doc) -> st.SearchStrategy[str]:
    """The same document in other JSON spellings: indentation, escaped non-ASCII."""
    return st.builds(lambda indent, ascii_: json.dumps(doc, indent=indent, ensure_ascii=ascii_),
                     st.sampled_from([None, 1, 4, "\t"]), st.booleans())
