"""Hypothesis strategies of AID v1 manifests (draft §2.2), and named breaks of one clause each.

``manifests()`` draws manifests that conform to every document-role clause the kit checks
(§2.2.1 to §2.2.4, §4 on the manifest): 1-4 implementations mixing remote and local, every
authentication scheme of Appendix A with exactly the members its scheme requires, placeholders
that name only declared keys, and free text from the whole of Unicode (no surrogates) that
never looks like a secret (AMB-22). ``shaped_manifests()`` draws manifests with the members of
the reference manifest (fixtures/aid/aid.json) at the same places, so the JSON patches of the
mutant files apply to them. ``WAYS`` holds, for each manifest clause, the distinct named ways
of breaking a generated manifest for that clause alone (a value of another JSON type, a member
absent, a near-miss of an allowed value, a boundary, another position); ``BREAKS`` picks one.
Part of the kit (``named_breaks()`` of conformance/aid/strategies.py lists them as proofs of the
clause tests; tests/test_aid_manifest_properties.py runs every one).
"""

from __future__ import annotations

import copy
import re
from typing import Any, Callable

from hypothesis import assume
from hypothesis import strategies as st

SCHEMES = ("none", "pat", "apikey", "basic", "oauth2_device", "oauth2_code", "oauth2_service", "mtls", "custom")
OAUTH = ("oauth2_device", "oauth2_code", "oauth2_service")
PLATFORMS = ("windows", "linux", "macos")
#: What the kit's AID-4-08 reads as a secret (AMB-22), in a broad, case-blind form: free text
#: holding any of these is left out (a string that is a credential is a true fail, not a find).
SECRETISH = ("://", "ghp_", "gho_", "github_pat_", "xox", "akia", "asia", "sk_live", "rk_live", "aiza",
             "eyj", "private key")
PLACEHOLDER = re.compile(r"\$\{([^}]*)\}")


def _harmless(s: str) -> bool:
    low = s.lower()
    return not any(p in low for p in SECRETISH)


#: Free text: names, descriptions, tags, protocols, package ids (any Unicode but surrogates).
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=24).filter(_harmless)
#: Text for execution args: no "$" (a "${" outside a placeholder is an unknown placeholder).
literal = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="$"), max_size=12).filter(_harmless)
#: Keys of configuration, requiredPaths and credentials items: any non-empty text without "}"
#: (a placeholder ends at the first "}"), dots included (${config.a.b} names key "a.b").
key = st.one_of(
    st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_.-]{0,11}\Z"),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="}$"), min_size=1, max_size=8),
).filter(_harmless)

_label = st.from_regex(r"\A[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?\Z")
_host = st.builds(lambda ls, tld: ".".join([*ls, tld]), st.lists(_label, min_size=1, max_size=3),
                  st.sampled_from(["test", "example", "com", "dev", "co.uk"]))
_path = st.lists(st.from_regex(r"\A[A-Za-z0-9._~-]{1,10}\Z"), max_size=3).map(lambda ps: "".join("/" + p for p in ps))
#: Query parameters whose names are not the credential names of AMB-22.
_query = st.lists(st.tuples(st.sampled_from(["lang", "v", "page", "ref", "format"]),
                            st.from_regex(r"\A[a-z0-9]{0,6}\Z")), max_size=2)


@st.composite
def https_url(draw) -> str:
    """An absolute https URL with a host: any case of the scheme, maybe a user (never a
    password), a port, a path, a query, a fragment."""
    scheme = draw(st.sampled_from(["https", "https", "https", "HTTPS", "Https"]))
    user = draw(st.sampled_from(["", "", "", "agent@"]))
    port = draw(st.sampled_from(["", "", "", ":443", ":8443"]))
    query = draw(_query)
    url = f"{scheme}://{user}{draw(_host)}{port}{draw(_path)}"
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query)
    if draw(st.booleans()) and draw(st.booleans()):
        url += "#" + draw(st.from_regex(r"\A[a-z0-9-]{0,8}\Z"))
    return url


def _maybe(draw, obj: dict, name: str, strategy) -> None:
    if draw(st.booleans()):
        obj[name] = draw(strategy)


def _extras(draw, obj: dict) -> None:
    """Members the draft does not define (nothing forbids them): ignored by the kit."""
    for name in draw(st.lists(st.from_regex(r"\Ax-[a-z]{1,8}\Z"), max_size=2, unique=True)):
        obj[name] = draw(st.one_of(text, st.integers(), st.booleans(), st.none(), st.lists(text, max_size=2)))


# ---------------------------------------------------------------- authentication

@st.composite
def placements(draw) -> dict:
    p = {"in": draw(st.sampled_from(["header", "query", "cli_arg"])), "key": draw(text)}
    _maybe(draw, p, "format", st.sampled_from(["Bearer {token}", "{token}", "Token {token}", "token={token}"]) | text)
    return p


@st.composite
def oauths(draw, scheme: str) -> dict:
    """The oauth object of an oauth2_* scheme: tokenEndpoint always, the endpoint of the
    flow, and maybe the other one, scopes and clientId."""
    o = {"tokenEndpoint": draw(https_url())}
    if scheme == "oauth2_code" or draw(st.booleans()):
        o["authorizationEndpoint"] = draw(https_url())
    if scheme == "oauth2_device" or draw(st.booleans()):
        o["deviceAuthorizationEndpoint"] = draw(https_url())
    _maybe(draw, o, "scopes", st.lists(text, max_size=3))
    _maybe(draw, o, "clientId", text)
    return o


def credential_items(keys: list[str]) -> st.SearchStrategy[list[dict]]:
    return st.lists(text, min_size=len(keys), max_size=len(keys)).map(
        lambda ds: [{"key": k, "description": d} for k, d in zip(keys, ds)])


@st.composite
def authentications(draw, remote: bool, scheme: str | None = None, credentials: list[str] | None = None) -> dict:
    """An authentication object for ``scheme`` (drawn when None) with the members it requires:
    description unless none, oauth for oauth2_*, placement for a remote implementation unless
    none (and, AMB-20, mtls, whose placement is optional), credentials for ``credentials`` keys."""
    scheme = scheme or draw(st.sampled_from(SCHEMES))
    auth: dict[str, Any] = {"scheme": scheme}
    if scheme != "none" or draw(st.booleans()):
        auth["description"] = draw(text)
    _maybe(draw, auth, "tokenUrl", https_url())
    if credentials is not None:
        auth["credentials"] = draw(credential_items(credentials))
    if scheme in OAUTH:
        auth["oauth"] = draw(oauths(scheme))
    needs_placement = remote and scheme not in ("none", "mtls")
    if needs_placement or draw(st.booleans()):
        auth["placement"] = draw(placements())
    _extras(draw, auth)
    return auth


@st.composite
def certificates(draw) -> dict:
    cert = {"source": draw(st.sampled_from(["file", "enrollment"]))}
    if cert["source"] == "enrollment" and draw(st.booleans()):
        cert["enrollmentEndpoint"] = draw(https_url())
    return cert


# ---------------------------------------------------------------- implementations

def _common(draw, impl: dict) -> None:
    _maybe(draw, impl, "tags", st.lists(text, max_size=3))
    _maybe(draw, impl, "status", st.sampled_from(["active", "deprecated"]))
    _maybe(draw, impl, "revocationURL", https_url())
    if impl["authentication"]["scheme"] == "mtls":
        impl["certificate"] = draw(certificates())
    _extras(draw, impl)


@st.composite
def remotes(draw, scheme: str | None = None) -> dict:
    impl = {"name": draw(text), "type": "remote", "protocol": draw(st.sampled_from(["mcp", "a2a", "openapi"]) | text),
            "uri": draw(https_url()), "authentication": draw(authentications(remote=True, scheme=scheme))}
    _common(draw, impl)
    return impl


@st.composite
def args(draw, names: list[str]) -> list[str]:
    """Execution args: literal text with, here and there, a placeholder of ``names``."""
    out = []
    for _ in range(draw(st.integers(0, 6))):
        parts = [draw(literal)]
        for _ in range(draw(st.integers(0, 2)) if names else 0):
            parts += ["${" + draw(st.sampled_from(names)) + "}", draw(literal)]
        out.append("".join(parts))
    return out


@st.composite
def config_items(draw) -> dict:
    """A configuration item: a type, maybe a defaultValue of that type, maybe secret. A
    secret item has no defaultValue, or the empty string: AID-4-08 fails a secret item's
    default unless it is null, "", [] or {} (AMB-22), so false and 0 as well."""
    kind = draw(st.sampled_from(["string", "boolean", "integer"]))
    item = {"key": draw(key), "description": draw(text), "type": kind}
    secret = draw(st.sampled_from([None, False, True]))
    if secret is not None:
        item["secret"] = secret
    if secret is True:
        if kind == "string" and draw(st.booleans()):
            item["defaultValue"] = ""
    elif draw(st.booleans()):
        item["defaultValue"] = draw({"string": text, "boolean": st.booleans(), "integer": st.integers()}[kind])
    return item


@st.composite
def path_items(draw) -> dict:
    item = {"key": draw(key), "description": draw(text)}
    _maybe(draw, item, "type", st.sampled_from(["file", "directory"]))
    return item


@st.composite
def locals_(draw, scheme: str | None = None, first_config: dict | None = None, first_path: dict | None = None,
            credentials: list[str] | None = None) -> dict:
    """A local implementation whose args (and platformOverrides args) use placeholders of
    its own declared keys only."""
    configuration = draw(st.lists(config_items(), max_size=3))
    paths = draw(st.lists(path_items(), max_size=3))
    if first_config is not None:
        configuration.insert(0, first_config)
    if first_path is not None:
        paths.insert(0, first_path)
    if credentials is None and draw(st.booleans()):
        credentials = draw(st.lists(key, min_size=1, max_size=3))
    auth = draw(authentications(remote=False, scheme=scheme, credentials=credentials))
    names = (["package.identifier"] + [f"auth.{k}" for k in credentials or ()]
             + [f"path.{p['key']}" for p in paths] + [f"config.{c['key']}" for c in configuration])
    package = {"manager": draw(st.sampled_from(["docker", "npx", "pip", "uvx"]) | text), "identifier": draw(text)}
    _maybe(draw, package, "digest", st.from_regex(r"\Asha256:[0-9a-f]{64}\Z") | text)
    execution: dict[str, Any] = {"command": draw(text), "args": draw(args(names))}
    if draw(st.booleans()):
        overrides = {}
        for os_name in draw(st.lists(st.sampled_from(PLATFORMS), unique=True, max_size=3)):
            entry: dict[str, Any] = {}
            _maybe(draw, entry, "command", text)
            _maybe(draw, entry, "args", args(names))
            overrides[os_name] = entry
        execution["platformOverrides"] = overrides
    impl: dict[str, Any] = {"name": draw(text), "type": "local", "protocol": draw(st.sampled_from(["mcp", "a2a"]) | text),
                            "package": package, "authentication": auth, "execution": execution}
    if configuration or draw(st.booleans()):
        impl["configuration"] = configuration
    if paths or draw(st.booleans()):
        impl["requiredPaths"] = paths
    _common(draw, impl)
    return impl


@st.composite
def metadatas(draw) -> dict:
    """contentVersion always (AID-2.2.1-05 recommends it: without it the SHOULD fails)."""
    meta = {"contentVersion": draw(text)}
    _maybe(draw, meta, "documentation", https_url())
    _maybe(draw, meta, "revocationURL", https_url())
    _extras(draw, meta)
    return meta


@st.composite
def manifests(draw, impls: st.SearchStrategy[list[dict]] | None = None) -> dict:
    """A valid v1 manifest; ``impls`` draws its implementations (by default 1-4, any mix)."""
    if impls is None:
        impls = st.lists(st.one_of(remotes(), locals_()), min_size=1, max_size=4)
    m: dict[str, Any] = {"schemaVersion": "1", "name": draw(text), "metadata": draw(metadatas()),
                         "implementations": draw(impls)}
    if draw(st.booleans()) and draw(st.booleans()):
        m["signature"] = {}  # reserved for v2 (2.2.1): nothing says what it holds
    _extras(draw, m)
    items = list(m.items())
    return dict(draw(st.permutations(items)))  # member order means nothing in JSON


def implementations(scheme: str | None = None) -> st.SearchStrategy[dict]:
    return st.one_of(remotes(scheme), locals_(scheme))


def manifests_with(needed: st.SearchStrategy[dict]) -> st.SearchStrategy[dict]:
    """Valid manifests holding an implementation drawn from ``needed`` among 0-3 others."""
    @st.composite
    def around(draw) -> list[dict]:
        out = draw(st.lists(implementations(), max_size=3))
        out.insert(draw(st.integers(0, len(out))), draw(needed))
        return out
    return manifests(around())


# ---------------------------------------------------------------- shaped like the reference

@st.composite
def _reference_remote(draw) -> dict:
    """implementations[0] of aid.json: remote, scheme pat with description, tokenUrl and a
    placement holding in, key and format; tags; maybe status, revocationURL."""
    auth = {"scheme": "pat", "description": draw(text), "tokenUrl": draw(https_url()),
            "placement": {"in": draw(st.sampled_from(["header", "query"])), "key": draw(text),
                          "format": draw(st.sampled_from(["Bearer {token}", "{token}"]))}}
    impl = {"name": draw(text), "type": "remote", "protocol": draw(text), "uri": draw(https_url()),
            "tags": draw(st.lists(text, max_size=3)), "authentication": auth}
    _maybe(draw, impl, "status", st.sampled_from(["active", "deprecated"]))
    _maybe(draw, impl, "revocationURL", https_url())
    return impl


@st.composite
def _reference_local(draw) -> dict:
    """implementations[1] of aid.json: local, scheme pat with credentials, configuration[0]
    a string setting with a default, requiredPaths[0] with a type, and args of 6 or more
    items, args[5] being "--token=${auth.<the first credentials key>}"."""
    creds = draw(st.lists(key, min_size=1, max_size=3))
    first_config = {"key": draw(key), "description": draw(text), "type": "string", "defaultValue": draw(text)}
    first_path = {"key": draw(key), "description": draw(text), "type": draw(st.sampled_from(["file", "directory"]))}
    impl = draw(locals_(scheme="pat", first_config=first_config, first_path=first_path, credentials=creds))
    impl["tags"] = draw(st.lists(text, max_size=3))
    execution = impl["execution"]
    execution["args"] = (execution["args"] + ["-i"] * 5)[:5] + ["--token=${auth." + creds[0] + "}"] + execution["args"][5:]
    return impl


def shaped_manifests() -> st.SearchStrategy[dict]:
    """Valid manifests on which the patches of the mutant files land where they do on aid.json:
    metadata with its three members, implementations[0] and [1] as in the reference, then 0-2
    random implementations."""
    impls = st.tuples(_reference_remote(), _reference_local(),
                      st.lists(st.one_of(remotes(), locals_()), max_size=2)).map(lambda t: [t[0], t[1], *t[2]])

    @st.composite
    def full_metadata(draw) -> dict:
        return {"contentVersion": draw(text), "documentation": draw(https_url()), "revocationURL": draw(https_url())}

    return st.tuples(manifests(impls), full_metadata()).map(lambda t: {**t[0], "metadata": t[1]})


# ---------------------------------------------------------------- one break per clause

Break = Callable[[dict, st.DataObject], dict]


def _impls(m: dict, pred: Callable[[dict], bool] = lambda i: True) -> list[dict]:
    return [i for i in m["implementations"] if pred(i)]


def _pick(data: st.DataObject, objs: list) -> Any:
    assume(objs)
    return data.draw(st.sampled_from(objs))


def _auth_of(pred: Callable[[str, dict], bool]) -> Callable[[dict], bool]:
    return lambda i: pred(i["authentication"]["scheme"], i)


def _declared(impl: dict) -> set[str]:
    auth = impl["authentication"]
    return ({f"auth.{c['key']}" for c in auth.get("credentials", [])}
            | {f"path.{p['key']}" for p in impl.get("requiredPaths", [])}
            | {f"config.{c['key']}" for c in impl.get("configuration", [])})


def _uses(impl: dict, prefix: str) -> bool:
    """Whether an arg of the implementation holds a placeholder starting with ``prefix``."""
    execution = impl.get("execution", {})
    lists = [execution.get("args", [])] + [o.get("args", []) for o in execution.get("platformOverrides", {}).values()]
    return any(n.startswith(prefix) for lst in lists for a in lst for n in PLACEHOLDER.findall(a))


def _http(url: str) -> str:
    return "http" + url[url.index(":"):]


_DELETE = object()


def _set(path: str, value: Any) -> Break:
    """Set (or, with ``_DELETE``, remove) the member at a dotted path of the manifest."""
    def brk(m: dict, data: st.DataObject) -> dict:
        obj = m
        *parents, last = path.split(".")
        for p in parents:
            assume(isinstance(obj.get(p), dict))
            obj = obj[p]
        if value is _DELETE:
            assume(last in obj)
            del obj[last]
        else:
            obj[last] = data.draw(value) if isinstance(value, st.SearchStrategy) else value
        return m
    return brk



def _on_impl(pred: Callable[[dict], bool], change: Callable[[dict, st.DataObject], None]) -> Break:
    def brk(m: dict, data: st.DataObject) -> dict:
        change(_pick(data, _impls(m, pred)), data)
        return m
    return brk


def _on_item(impl_pred: Callable[[dict], bool], member: str, change: Callable[[dict, st.DataObject], None]) -> Break:
    """Change one existing item of the ``member`` array (configuration, requiredPaths)."""
    def brk(m: dict, data: st.DataObject) -> dict:
        items = [it for i in _impls(m, impl_pred) for it in i.get(member, [])]
        change(_pick(data, items), data)
        return m
    return brk


def _append_to(impl_pred: Callable[[dict], bool], *where: str, item: Any) -> Break:
    """Append ``item`` to an array at ``where`` (created when absent) of a chosen implementation."""
    def change(impl: dict, data: st.DataObject) -> None:
        obj = impl
        for step in where[:-1]:
            obj = obj[step]
        obj.setdefault(where[-1], []).append(data.draw(item) if isinstance(item, st.SearchStrategy) else item)
    return _on_impl(impl_pred, change)


def _del(*names: str) -> Callable[[dict, st.DataObject], None]:
    def change(obj: dict, data: st.DataObject) -> None:
        for n in names[:-1]:
            obj = obj[n]
        assume(names[-1] in obj)
        del obj[names[-1]]
    return change


def _put(*names: str, value: Any) -> Callable[[dict, st.DataObject], None]:
    def change(obj: dict, data: st.DataObject) -> None:
        for n in names[:-1]:
            obj = obj[n]
        obj[names[-1]] = data.draw(value) if isinstance(value, st.SearchStrategy) else value
    return change


def _every(i: dict) -> bool:
    return True


def _placed(i: dict) -> bool:
    return "placement" in i["authentication"]


_mtls = _auth_of(lambda s, i: s == "mtls")
_oauth2 = _auth_of(lambda s, i: s in OAUTH)


def _remote(i: dict) -> bool:
    return i["type"] == "remote"


def _local(i: dict) -> bool:
    return i["type"] == "local"


def _no_auth_placeholders(i: dict) -> bool:
    return not _uses(i, "auth.")


def _value(path: str, value: Any) -> Break:
    """Set the member at a dotted path to ``value`` (a strategy is drawn)."""
    return _set(path, value)


def _kinds(setter: Callable[[Any], Break], **values: Any) -> dict[str, Break]:
    """One way per named value: ``null=None, number=1`` -> {"null": setter(None), ...}."""
    return {name: setter(v) for name, v in values.items()}


def _impl_member(pred: Callable[[dict], bool], *names: str) -> Callable[[Any], Break]:
    return lambda v: _on_impl(pred, _del(*names) if v is _DELETE else _put(*names, value=v))


def _item_member(pred: Callable[[dict], bool], member: str, name: str) -> Callable[[Any], Break]:
    return lambda v: _on_item(pred, member, _del(name) if v is _DELETE else _put(name, value=v))


def _new_item(member: str, make: Callable[[str, str], dict], *where: str) -> Break:
    """Append an item built from a drawn key and description to an array of a chosen implementation."""
    return _append_to(_every, *(where or (member,)), item=st.builds(make, key, text))


def _in_override(impl: dict, data: st.DataObject) -> None:
    """An undeclared placeholder in the args of a platformOverrides entry (AMB-14), not in execution.args."""
    os_name = data.draw(st.sampled_from(PLATFORMS))
    entry = impl["execution"].setdefault("platformOverrides", {}).setdefault(os_name, {})
    name = data.draw(st.builds(lambda ns, k: f"{ns}.{k}", st.sampled_from(["auth", "path", "config"]), key))
    assume(name not in _declared(impl))
    entry.setdefault("args", []).append("${" + name + "}")


def _placeholder(names: st.SearchStrategy[str]) -> Callable[[dict, st.DataObject], None]:
    def change(impl: dict, data: st.DataObject) -> None:
        name = data.draw(names)
        assume(name not in _declared(impl) | {"package.identifier"})
        impl["execution"]["args"].append(data.draw(literal) + "${" + name + "}")
    return change


def _scheme_to(values: tuple[str, ...]) -> Callable[[dict, st.DataObject], None]:
    def change(impl: dict, data: st.DataObject) -> None:
        auth = impl["authentication"]
        assume("description" in auth and (not _remote(impl) or "placement" in auth))
        auth["scheme"] = data.draw(st.sampled_from(values))
    return change


def _secret(how: str) -> Break:
    def brk(m: dict, data: st.DataObject) -> dict:
        if how == "default":
            impl = _pick(data, _impls(m))
            impl.setdefault("configuration", []).append(
                {"key": data.draw(key), "description": data.draw(text), "type": "string", "secret": True,
                 "defaultValue": data.draw(st.text(min_size=1, max_size=12).filter(_harmless))})
        elif how == "default-array":
            impl = _pick(data, _impls(m))
            impl.setdefault("configuration", []).append(
                {"key": data.draw(key), "description": data.draw(text), "type": "string", "secret": True,
                 "defaultValue": [data.draw(st.text(min_size=1, max_size=12).filter(_harmless))]})
        elif how == "format":
            m["metadata"]["x-note"] = data.draw(st.sampled_from(
                ["AKIAIOSFODNN7EXAMPLE", "ghp_" + "a1B2" * 9, "-----BEGIN RSA PRIVATE KEY-----", "xoxb-1234567890-abc"]))
        elif how == "query":
            base = data.draw(https_url()).partition("#")[0]
            m["metadata"]["documentation"] = base + ("&" if "?" in base else "?") + "access_token=adck-fake-0000"
        else:
            impl = _pick(data, _impls(m, _remote))
            impl["uri"] = impl["uri"].replace("://", "://agent:hunter2@", 1).replace("@agent@", "@")
        return m
    return brk


def _insert_impl(value: Any) -> Break:
    return lambda m, d: m["implementations"].insert(d.draw(st.integers(0, len(m["implementations"]))), value) or m


_code = _auth_of(lambda s, i: s == "oauth2_code")
_device = _auth_of(lambda s, i: s == "oauth2_device")
_service = _auth_of(lambda s, i: s == "oauth2_service")
_needs_description = _auth_of(lambda s, i: s != "none")
_bearer_remote = _auth_of(lambda s, i: _remote(i) and s in ("pat", "apikey", "basic", "custom"))
_oauth_remote = _auth_of(lambda s, i: _remote(i) and s in OAUTH)


def _http_member(*names: str) -> Callable[[dict, st.DataObject], None]:
    return lambda i, d: _put(*names, value=_http(d.draw(https_url())))(i, d)


_D = _DELETE
#: Clause -> way name -> a break of that clause alone (calling ``assume`` where it does not apply).
WAYS: dict[str, dict[str, Break]] = {
    "AID-2.2.1-01": _kinds(lambda v: _value("schemaVersion", v), absent=_D, number=1, float=1.0, null=None,
                           array=["1"]),
    "AID-2.2.1-02": _kinds(lambda v: _value("schemaVersion", v), **{"minor-added": "1.0", "other-major": "2",
                           "prefixed": "v1", "space": " 1", "empty": "", "leading-zero": "01"}),
    "AID-2.2.1-03": _kinds(lambda v: _value("name", v), absent=_D, null=None, number=1, array=["x"]),
    "AID-2.2.1-04": _kinds(lambda v: _value("metadata", v), string="v1", array=[], number=1, null=None, boolean=True),
    "AID-2.2.1-05": {"member-absent": _set("metadata.contentVersion", _D), "metadata-absent": _set("metadata", _D)},
    "AID-2.2.1-06": _kinds(lambda v: _value("metadata.contentVersion", v), number=st.integers(), null=None,
                           array=st.lists(text, max_size=1), boolean=False),
    "AID-2.2.1-08": _kinds(lambda v: _value("metadata.documentation", v), relative="docs/agent",
                           **{"root-relative": "/docs", "network-path": "//docs.example/agent", "empty": "",
                              "number": 7, "no-scheme": "docs.example.com/agent"}),
    "AID-2.2.1-09": {"http": lambda m, d: _set("metadata.revocationURL", _http(m["metadata"].get(
                         "revocationURL", "https://a.test/s")))(m, d),
                     "relative": _set("metadata.revocationURL", "/agent/status"),
                     "ftp": _set("metadata.revocationURL", "ftp://a.test/s"),
                     "empty": _set("metadata.revocationURL", ""),
                     "number": _set("metadata.revocationURL", 200)},
    "AID-2.2.1-10": {"string-item": _insert_impl("remote"), "number-item": _insert_impl(1),
                     "null-item": _insert_impl(None), "array-item": _insert_impl([]),
                     "empty": _set("implementations", []), "absent": _set("implementations", _D),
                     "object": lambda m, d: _set("implementations", m["implementations"][0])(m, d)},
    "AID-2.2.2-01": _kinds(_impl_member(_every, "name"), absent=_D, number=1, null=None),
    "AID-2.2.2-02": _kinds(_impl_member(_every, "type"), absent=_D, number=1, null=None),
    "AID-2.2.2-03": _kinds(_impl_member(_every, "type"), other="cloud", capitalised=st.sampled_from(["Remote", "LOCAL"]),
                           empty=""),
    "AID-2.2.2-04": _kinds(_impl_member(_every, "protocol"), absent=_D, null=None, number=1, array=["mcp"]),
    "AID-2.2.2-05": _kinds(_impl_member(_every, "tags"), string="cloud,stable", **{"number-item": ["a", 1]},
                           object={}),
    # a uri of another type or absent; a relative string would fail AID-4-05 as well
    "AID-2.2.2-06": _kinds(_impl_member(_remote, "uri"), absent=_D, null=None, number=443, array=["https://a.test/"]),
    "AID-2.2.2-07": _kinds(_impl_member(_local, "package"), absent=_D, string="docker:reference/notes",
                           array=[]),
    "AID-2.2.2-08": _kinds(_impl_member(_local, "execution"), absent=_D, string="docker run", array=["docker"]),
    # without authentication, ${auth.*} would name undeclared keys (AID-2.2.3-01)
    "AID-2.2.2-09": _kinds(_impl_member(_no_auth_placeholders, "authentication"), absent=_D, string="pat",
                           null=None, array=[]),
    "AID-2.2.2-10": {"string-item": _append_to(_every, "configuration", item="VERBOSE"),
                     "number-item": _append_to(_every, "configuration", item=1),
                     "null-item": _append_to(_every, "configuration", item=None),
                     "object": _on_impl(_every, _put("configuration", value={"key": "VERBOSE"}))},
    "AID-2.2.2-11": {"string-item": _append_to(_every, "requiredPaths", item="/var/cache"),
                     "number-item": _append_to(_every, "requiredPaths", item=1),
                     "null-item": _append_to(_every, "requiredPaths", item=None),
                     "string": _on_impl(_every, _put("requiredPaths", value="/var/cache"))},
    "AID-2.2.2-13": _kinds(_impl_member(_every, "status"), other="retired", capitalised="Active", empty="",
                           null=None),
    "AID-2.2.2-15": {"http": _on_impl(_every, lambda i, d: i.update(revocationURL=_http(d.draw(https_url())))),
                     "relative": _on_impl(_every, _put("revocationURL", value="/agent/status")),
                     "number": _on_impl(_every, _put("revocationURL", value=1))},
    "AID-2.2.2-17": _kinds(_impl_member(_mtls, "certificate"), absent=_D, string="file", null=None),
    "AID-2.2.2-18": {"source-unknown": _on_impl(_mtls, _put("certificate", value={"source": "keychain"})),
                     "source-capitalised": _on_impl(_mtls, _put("certificate", value={"source": "File"})),
                     "source-absent": _on_impl(_mtls, _put("certificate", value={})),
                     "enrollment-http": _on_impl(_mtls, _put("certificate", value={
                         "source": "enrollment", "enrollmentEndpoint": "http://a.test/e"})),
                     "enrollment-relative": _on_impl(_mtls, _put("certificate", value={
                         "source": "enrollment", "enrollmentEndpoint": "/enroll"}))},
    "AID-2.2.2-19": _kinds(_impl_member(_local, "package", "manager"), absent=_D, number=1, null=None),
    "AID-2.2.2-20": _kinds(_impl_member(_local, "package", "identifier"), absent=_D,
                           object={"image": "x", "tag": "1"}, number=1),
    "AID-2.2.2-21": _kinds(_impl_member(_local, "package", "digest"), array=["sha256:00"], number=256, null=None),
    "AID-2.2.2-22": _kinds(_impl_member(_local, "execution", "command"), absent=_D, array=["docker", "run"],
                           null=None),
    "AID-2.2.2-23": {"number-item": _append_to(_local, "execution", "args", item=8080),
                     "null-item": _append_to(_local, "execution", "args", item=None),
                     "boolean-item": _append_to(_local, "execution", "args", item=True),
                     "absent": _on_impl(_local, _del("execution", "args")),
                     "string": _on_impl(_local, lambda i, d: i["execution"].update(args="run --rm -i"))},
    "AID-2.2.2-24": {name: _on_impl(_local, lambda i, d, v=v: i["execution"].setdefault("platformOverrides", {}).update(copy.deepcopy(v)))
                     for name, v in {"unknown-key": {"win32": {}}, "capitalised-key": {"Windows": {"command": "x"}},
                                     "entry-string": {"linux": "x"}, "args-string": {"macos": {"args": "a b"}},
                                     "command-number": {"linux": {"command": 1}}}.items()}
                    | {"not-object": _on_impl(_local, lambda i, d: i["execution"].update(platformOverrides=["linux"]))},
    "AID-2.2.2-26": {"absent": _new_item("configuration", lambda k, d: {"description": d, "type": "string"}),
                     "number": _new_item("configuration", lambda k, d: {"key": 1, "description": d, "type": "string"})},
    "AID-2.2.2-27": {"absent": _new_item("configuration", lambda k, d: {"key": k, "type": "string"}),
                     "number": _new_item("configuration", lambda k, d: {"key": k, "description": 1, "type": "string"})},
    "AID-2.2.2-28": _kinds(_item_member(_every, "configuration", "type"), absent=_D, number=1, null=None),
    "AID-2.2.2-29": _kinds(_item_member(_every, "configuration", "type"), other="enum", short="int",
                           capitalised="String", **{"json-type-name": "number"}),
    "AID-2.2.2-31": _kinds(_item_member(_every, "configuration", "secret"), string="true", number=1, null=None),
    "AID-2.2.2-33": {"absent": _new_item("requiredPaths", lambda k, d: {"description": d}),
                     "number": _new_item("requiredPaths", lambda k, d: {"key": 7, "description": d})},
    "AID-2.2.2-34": {"absent": _new_item("requiredPaths", lambda k, d: {"key": k}),
                     "null": _new_item("requiredPaths", lambda k, d: {"key": k, "description": None})},
    "AID-2.2.2-35": _kinds(_item_member(_every, "requiredPaths", "type"), other="folder", short="dir",
                           capitalised="File", null=None),
    "AID-2.2.3-01": {"undeclared-key": _on_impl(_local, _placeholder(st.builds(
                         lambda ns, k: f"{ns}.{k}", st.sampled_from(["auth", "path", "config"]), key))),
                     "unknown-namespace": _on_impl(_local, _placeholder(st.sampled_from(
                         ["HOME", "env.HOME", "package.name", "requiredConfig.X"]))),
                     "empty-key": _on_impl(_local, _placeholder(st.sampled_from(["config", "auth.", "path.", ""]))),
                     "in-platform-override": _on_impl(_local, _in_override)},
    "AID-2.2.4-01": _kinds(_impl_member(_every, "authentication", "scheme"), absent=_D, number=1, null=None),
    "AID-2.2.4-02": {"other-word": _on_impl(_every, _scheme_to(("token", "bearer", "oauth2"))),
                     "capitalised": _on_impl(_every, _scheme_to(("OAuth2_code", "PAT", "None", "API_KEY"))),
                     "empty": _on_impl(_every, _scheme_to(("",)))},
    "AID-2.2.4-03": _kinds(_impl_member(_needs_description, "authentication", "description"), absent=_D, number=1,
                           null=None),
    "AID-2.2.4-04": {"http": _on_impl(_every, _http_member("authentication", "tokenUrl")),
                     "relative": _on_impl(_every, _put("authentication", "tokenUrl", value="/account/tokens")),
                     "number": _on_impl(_every, _put("authentication", "tokenUrl", value=1))},
    "AID-2.2.4-06": {"string-item": _append_to(_every, "authentication", "credentials", item="client_id"),
                     "number-item": _append_to(_every, "authentication", "credentials", item=1),
                     "object": _on_impl(_no_auth_placeholders, _put("authentication", "credentials",
                                                                  value={"key": "client_id"}))},
    # absent: only under oauth2_service (under oauth2_code/_device AID-2.2.4-13/14 fail as well)
    "AID-2.2.4-08": {"absent": _on_impl(_service, _del("authentication", "oauth")),
                     **_kinds(_impl_member(_oauth2, "authentication", "oauth"), string="https://a.test/oauth",
                              array=[], null=None)},
    "AID-2.2.4-09": _kinds(_impl_member(_placed, "authentication", "placement"), string="header", array=[], null=None),
    "AID-2.2.4-10": {"bearer-scheme": _on_impl(_bearer_remote, _del("authentication", "placement")),
                     "oauth-scheme": _on_impl(_oauth_remote, _del("authentication", "placement"))},
    "AID-2.2.4-11": {"absent": _new_item("", lambda k, d: {"description": d}, "authentication", "credentials"),
                     "number": _new_item("", lambda k, d: {"key": 1, "description": d}, "authentication", "credentials")},
    "AID-2.2.4-12": {"absent": _new_item("", lambda k, d: {"key": k}, "authentication", "credentials"),
                     "array": _new_item("", lambda k, d: {"key": k, "description": [d]}, "authentication", "credentials")},
    "AID-2.2.4-13": _kinds(_impl_member(_code, "authentication", "oauth", "authorizationEndpoint"), absent=_D,
                           relative="/oauth/authorize", number=1),
    "AID-2.2.4-14": _kinds(_impl_member(_device, "authentication", "oauth", "deviceAuthorizationEndpoint"), absent=_D,
                           relative="/oauth/device", null=None),
    "AID-2.2.4-15": _kinds(_impl_member(_oauth2, "authentication", "oauth", "tokenEndpoint"), absent=_D,
                           relative="/oauth/token", number=1, empty=""),
    "AID-2.2.4-16": _kinds(_impl_member(_oauth2, "authentication", "oauth", "scopes"), string="notes:read",
                           **{"number-item": [1]}, object={}),
    "AID-2.2.4-17": _kinds(_impl_member(_oauth2, "authentication", "oauth", "clientId"), number=4242, null=None,
                           array=["a"]),
    "AID-2.2.4-18": _kinds(_impl_member(_placed, "authentication", "placement", "in"), absent=_D, number=1, null=None),
    "AID-2.2.4-19": _kinds(_impl_member(_placed, "authentication", "placement", "in"), other="body",
                           capitalised="Header", cookie="cookie", empty=""),
    "AID-2.2.4-21": _kinds(_impl_member(_placed, "authentication", "placement", "key"), absent=_D, number=1),
    "AID-2.2.4-22": _kinds(_impl_member(_placed, "authentication", "placement", "format"),
                           array=["Bearer", "{token}"], number=1, null=None),
    "AID-4-05": {scheme: _on_impl(_remote, lambda i, d, s=scheme: i.update(uri=s + i["uri"][i["uri"].index(":"):]))
                 for scheme in ("http", "ws", "ftp", "HTTP")},
    "AID-4-08": {how: _secret(how) for how in ("default", "default-array", "format", "query", "password")},
}


def _any_way(ways: dict[str, Break]) -> Break:
    return lambda m, d: ways[d.draw(st.sampled_from(sorted(ways)))](m, d)


#: Clause -> a break of that clause alone, one of its ways drawn.
BREAKS: dict[str, Break] = {clause: _any_way(ways) for clause, ways in WAYS.items()}


def named_breaks() -> dict[str, tuple[str, ...]]:
    """Clause -> the names of its ways (``CLAUSE:way``)."""
    return {clause: tuple(f"{clause}:{name}" for name in ways) for clause, ways in WAYS.items()}


_with_placement = st.sampled_from(["pat", "apikey", "basic", "oauth2_device", "oauth2_code", "oauth2_service",
                                   "custom"]).flatmap(remotes)
_oauth = st.sampled_from(OAUTH).flatmap(implementations)
#: Clause -> the implementation its break needs (the others break any valid manifest): drawn
#: into the manifest, so that few examples are spent on manifests the break cannot apply to.
NEEDS: dict[str, st.SearchStrategy[dict]] = {
    **dict.fromkeys(["AID-2.2.2-06", "AID-4-05"], remotes()),
    **dict.fromkeys(["AID-2.2.2-07", "AID-2.2.2-08", "AID-2.2.2-19", "AID-2.2.2-20", "AID-2.2.2-21", "AID-2.2.2-22",
                     "AID-2.2.2-23", "AID-2.2.2-24", "AID-2.2.3-01"], locals_()),
    **dict.fromkeys(["AID-2.2.2-17", "AID-2.2.2-18"], implementations("mtls")),
    **dict.fromkeys(["AID-2.2.4-08", "AID-2.2.4-15", "AID-2.2.4-16", "AID-2.2.4-17"], _oauth),
    "AID-2.2.4-13": implementations("oauth2_code"),
    "AID-2.2.4-14": implementations("oauth2_device"),
    **dict.fromkeys(["AID-2.2.4-03", "AID-2.2.4-09", "AID-2.2.4-10", "AID-2.2.4-18", "AID-2.2.4-19", "AID-2.2.4-21",
                     "AID-2.2.4-22"], _with_placement),
    **dict.fromkeys(["AID-2.2.2-28", "AID-2.2.2-29", "AID-2.2.2-31"],
                    config_items().flatmap(lambda c: locals_(first_config=c))),
    "AID-2.2.2-35": path_items().flatmap(lambda p: locals_(first_path=p)),
}


#: (clause, way) -> the implementation that way needs, where it needs more than its clause.
WAY_NEEDS: dict[tuple[str, str], st.SearchStrategy[dict]] = {
    ("AID-2.2.4-08", "absent"): implementations("oauth2_service"),
    ("AID-2.2.4-10", "bearer-scheme"): st.sampled_from(["pat", "apikey", "basic", "custom"]).flatmap(remotes),
    ("AID-2.2.4-10", "oauth-scheme"): st.sampled_from(OAUTH).flatmap(remotes),
    **{("AID-2.2.2-11", w): path_items().flatmap(lambda p: locals_(first_path=p)) for w in ("string",)},
}


def manifests_for(clause: str, way: str | None = None) -> st.SearchStrategy[dict]:
    """Valid manifests that the break of ``clause`` (by ``way``) applies to (most of the time)."""
    if (clause, way) in WAY_NEEDS:
        return manifests_with(WAY_NEEDS[clause, way])
    return manifests_with(NEEDS[clause]) if clause in NEEDS else manifests()


def broken(m: dict, clause: str, data: st.DataObject) -> dict:
    return BREAKS[clause](copy.deepcopy(m), data)


def broken_by(m: dict, clause: str, way: str, data: st.DataObject) -> dict:
    return WAYS[clause][way](copy.deepcopy(m), data)
