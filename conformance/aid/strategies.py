"""Hypothesis strategies for the AID client role: records and manifests a client is served.

Valid ones a conforming client must use; broken ones break one clause each, which a
conforming client must refuse. ``{host}`` stands for the scenario's own name (the scenario
replaces it), so every generated URL stays inside the mock world.
"""

from __future__ import annotations

from hypothesis import strategies as st

PROTOCOLS = ("mcp", "a2a", "openapi")
#: Appendix A: the authentication scheme registry.
AUTH = ("none", "pat", "apikey", "basic", "oauth2_device", "oauth2_code", "oauth2_service", "mtls", "custom")
_label = st.from_regex(r"\A[a-z][a-z0-9]{0,7}\Z")
_path = st.from_regex(r"\A(/[a-z0-9_-]{1,8}){0,3}\Z")
#: Keys v1 does not define: a client ignores them (2.3 step 2, AMB-07).
_unknown_key = st.from_regex(r"\Ax-[a-z]{1,6}\Z")
_value = st.from_regex(r"\A[A-Za-z0-9._~-]{1,12}\Z")


@st.composite
def record_pairs(draw, protocols: tuple[str, ...] = PROTOCOLS) -> list[tuple[str, str]]:
    """A valid Simple Profile record as key/value pairs, in any order: v=aid1, uri, proto
    (first a protocol the client speaks), and optional auth, env and unknown keys."""
    uri = f"https://{draw(_label)}.{{host}}{draw(_path)}"
    proto = [draw(st.sampled_from(protocols or PROTOCOLS))]
    proto += draw(st.lists(st.sampled_from(PROTOCOLS), max_size=2, unique=True).map(
        lambda more: [p for p in more if p != proto[0]]))
    pairs = [("v", "aid1"), ("uri", uri), ("proto", ",".join(proto))]
    if draw(st.booleans()):  # Appendix A's tokens, one or a comma-separated list (the draft's 2.1 example)
        pairs.append(("auth", ",".join(draw(st.lists(st.sampled_from(AUTH), min_size=1, max_size=2, unique=True)))))
    if draw(st.booleans()):
        pairs.append(("env", draw(st.sampled_from(["prod", "staging"]))))
    unknown = draw(st.lists(st.tuples(_unknown_key, _value), max_size=2, unique_by=lambda kv: kv[0]))
    return draw(st.permutations(pairs + unknown))


def text(pairs: list[tuple[str, str]]) -> str:
    return ";".join(f"{k}={v}" for k, v in pairs)


@st.composite
def records_missing_a_key(draw) -> tuple[str, str]:
    """A Simple Profile record without uri or without proto (2.5: no AID record), and the
    key it lacks."""
    pairs = draw(record_pairs())
    missing = draw(st.sampled_from(["uri", "proto"]))
    return text([kv for kv in pairs if kv[0] != missing]), missing


@st.composite
def remote_implementations(draw, protocols: tuple[str, ...] = PROTOCOLS) -> list[dict]:
    """1 to 3 valid remote implementations without authentication, with distinct names and URIs."""
    count = draw(st.integers(1, 3))
    names = draw(st.lists(_label, min_size=count, max_size=count, unique=True))
    impls = []
    for n, name in enumerate(names):
        impl = {"name": name.capitalize(), "type": "remote",
                "protocol": draw(st.sampled_from(protocols or PROTOCOLS)),
                "uri": f"https://{name}{n}.{{host}}{draw(_path)}",
                "authentication": {"scheme": "none"}}
        if draw(st.booleans()):
            impl["tags"] = draw(st.lists(_label, max_size=3, unique=True))
        if draw(st.booleans()):
            impl["status"] = "active"
        impls.append(impl)
    return impls


@st.composite
def manifests(draw, protocols: tuple[str, ...] = PROTOCOLS) -> dict:
    """A valid v1 manifest of remote implementations (optional metadata members)."""
    doc: dict = {"schemaVersion": "1", "name": draw(_label).capitalize() + " Agent",
                 "implementations": draw(remote_implementations(protocols))}
    metadata = {}
    if draw(st.booleans()):
        metadata["contentVersion"] = draw(_value)
    if draw(st.booleans()):
        metadata["documentation"] = "https://{host}/docs" + draw(_path)
    if metadata or draw(st.booleans()):
        doc["metadata"] = metadata
    return dict(draw(st.permutations(list(doc.items()))))  # member order carries no meaning


#: The order simpler_records sorts keys into (others after them, as they were).
_KEY_ORDER = ("v", "uri", "proto", "auth", "env", "config")
_OPTIONAL = ("auth", "env")


def simpler_records(pairs: list[tuple[str, str]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each way of taking one generated feature out of a record (conformance.generated.reduce):
    an optional or unknown key dropped, proto cut to its first protocol, v moved first, the
    other keys put in the order v, uri, proto, auth, env, config, then the rest. Each name says
    the feature taken out (for the report)."""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    for i, (k, v) in enumerate(pairs):
        if k in _OPTIONAL:
            out.append((f"the optional key {k}={v}", pairs[:i] + pairs[i + 1:]))
        elif k not in _KEY_ORDER:
            out.append((f"the key {k}={v}, which v1 does not define", pairs[:i] + pairs[i + 1:]))
    for i, (k, v) in enumerate(pairs):
        if k == "proto" and "," in v:
            out.append((f"proto lists several protocols ({v})", pairs[:i] + [(k, v.split(",")[0])] + pairs[i + 1:]))
    keys = [k for k, _ in pairs]
    if "v" in keys and keys[0] != "v":
        at = keys.index("v")
        out.append((f"v is not the first key (it is key {at + 1})", [pairs[at], *pairs[:at], *pairs[at + 1:]]))
    elif keys:
        rank = {k: n for n, k in enumerate(_KEY_ORDER)}
        ordered = sorted(pairs, key=lambda kv: rank.get(kv[0], len(rank)))
        if ordered != pairs:
            out.append((f"the order of the keys after v ({', '.join(keys[1:])})", ordered))
    return out


_MANIFEST_ORDER = ("schemaVersion", "name", "implementations", "metadata")


def simpler_manifests(doc: dict) -> list[tuple[str, dict]]:
    """Each way of taking one generated feature out of a manifest of ``manifests()``
    (conformance.generated.reduce): an implementation beyond one, an implementation's tags or
    status, a metadata member or an empty metadata object, the members' order."""
    out: list[tuple[str, dict]] = []
    impls = doc.get("implementations") or []
    if len(impls) > 1:
        for i, impl in enumerate(impls):
            out.append((f"the implementation {impl.get('name')!r} (one of {len(impls)})",
                        {**doc, "implementations": impls[:i] + impls[i + 1:]}))
    for i, impl in enumerate(impls):
        for member in ("tags", "status"):
            if member in impl:
                less = {k: v for k, v in impl.items() if k != member}
                out.append((f"{member} {impl[member]!r} of the implementation {impl.get('name')!r}",
                            {**doc, "implementations": impls[:i] + [less] + impls[i + 1:]}))
    metadata = doc.get("metadata")
    if isinstance(metadata, dict):
        for member, value in metadata.items():
            out.append((f"metadata.{member} {value!r}",
                        {**doc, "metadata": {k: v for k, v in metadata.items() if k != member}}))
        if not metadata:
            out.append(("an empty metadata object", {k: v for k, v in doc.items() if k != "metadata"}))
    rank = {k: n for n, k in enumerate(_MANIFEST_ORDER)}
    keys = list(doc)
    ordered = sorted(keys, key=lambda k: rank.get(k, len(rank)))
    if ordered != keys:
        out.append((f"the members' order ({', '.join(keys)})", {k: doc[k] for k in ordered}))
    return out


def smallest_forms(example, simpler, fails, host: str = "{host}") -> str:
    """A failing record (pairs) or manifest reduced to one smallest failing form per cause, in
    words for a failure message (conformance.generated.reduce): the report never shows a
    failure that mixes causes without naming each. ``{host}`` is shown as ``host`` (by default
    kept, for the caller to fill in)."""
    from conformance.generated import causes, reduce, shown

    def show(form) -> str:
        return (repr(text(form)) if isinstance(form, list) else shown(form)).replace("{host}", host)

    return causes(reduce(example, simpler, fails), show)


def pairs_of(value: str) -> list[tuple[str, str]]:
    """A record's text as key/value pairs (as written: these records are the kit's own)."""
    return [(k, v) for k, _, v in (p.partition("=") for p in value.split(";") if p)]


major_two = st.sampled_from(["2", "2.0", "2.1"]) | st.from_regex(r"\A2\.[0-9]{1,2}\Z")


def named_breaks() -> dict[str, tuple[str, ...]]:
    """Clause id -> the names of the distinct ways a valid record or manifest is broken for
    that clause alone (conformance/aid/records.py, conformance/aid/manifests.py); the kit's
    property tests run every one (conformance.proofs counts them as proofs)."""
    from conformance.aid import manifests, records

    found: dict[str, tuple[str, ...]] = {}
    for source in (records.named_breaks(), manifests.named_breaks()):
        for clause, names in source.items():
            found[clause] = found.get(clause, ()) + names
    return found
