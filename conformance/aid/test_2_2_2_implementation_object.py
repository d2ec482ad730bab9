"""§2.2.2 Implementation Object Schema (with its package, execution, configuration and
required-path objects).

Checks run over every implementation that is an object (and over every nested object that
is one); an element lacking the member a clause speaks of, or holding it with another JSON
type, is left to the clause that requires the member, so one break fails one clause.
"""

from __future__ import annotations

from typing import Any, Callable

from conformance.aid._checks import absolute_url_problem
from conformance.document import Document, is_kind, kind_name
from conformance.outcomes import clause, not_applicable, untestable, violation

#: (JSON path as reported, object) pairs.
Objects = list[tuple[str, dict]]
Problem = Callable[[Any], "str | None"]

IMPL_TYPES = ("remote", "local")
STATUSES = ("active", "deprecated")
CERT_SOURCES = ("file", "enrollment")
PLATFORMS = ("windows", "linux", "macos")
CONFIG_TYPES = ("string", "boolean", "integer")
PATH_TYPES = ("file", "directory")


# ---------------------------------------------------------------- value checks

def _kind(kind: type, name: str) -> Problem:
    return lambda v: None if is_kind(v, kind) else f"is a JSON {kind_name(v)}, not {name}"


_string = _kind(str, "a string")
_object = _kind(dict, "an object")


def _strings(v: Any) -> str | None:
    """An array of strings."""
    if not isinstance(v, list):
        return f"is a JSON {kind_name(v)}, not an array"
    bad = [f"[{j}] is a JSON {kind_name(e)}" for j, e in enumerate(v) if not isinstance(e, str)]
    return f"holds non-strings: {', '.join(bad[:4])}" if bad else None


def _objects_array(v: Any) -> str | None:
    """An array of objects."""
    if not isinstance(v, list):
        return f"is a JSON {kind_name(v)}, not an array"
    bad = [f"[{j}] is a JSON {kind_name(e)}" for j, e in enumerate(v) if not isinstance(e, dict)]
    return f"holds non-objects: {', '.join(bad[:4])}" if bad else None


def _one_of(allowed: tuple[str, ...]) -> Problem:
    def bad(v: Any) -> str | None:
        if isinstance(v, str) and v in allowed:
            return None
        shown = repr(v[:40]) if isinstance(v, str) else f"a JSON {kind_name(v)}"
        return f"is {shown}, not one of {', '.join(map(repr, allowed))}"
    return bad


def _absolute_url(https: bool = False) -> Problem:
    return lambda v: absolute_url_problem(v, https)


# ---------------------------------------------------------------- walking the manifest

def _impls(manifest: Document) -> Objects:
    """The implementations that are objects; *untestable* when there is none."""
    __tracebackhide__ = True
    found = [(f"implementations[{i}]", impl) for i, impl in manifest.objects("implementations")]
    if not found:
        untestable("the manifest has no implementation object (see AID-2.2.1-10)")
    return found


def _of_type(manifest: Document, impl_type: str) -> Objects:
    __tracebackhide__ = True
    found = [(w, o) for w, o in _impls(manifest) if o.get("type") == impl_type]
    if not found:
        not_applicable(f"no implementation is of type {impl_type}")
    return found


def _sub_objects(objs: Objects, member: str, see: str, required_by: str | None = None) -> Objects:
    """The ``member`` objects of ``objs``. None: *untestable* when one is there with another
    type or an implementation of type ``required_by`` lacks it, else *not-applicable*."""
    __tracebackhide__ = True
    found = [(f"{w}.{member}", o[member]) for w, o in objs if isinstance(o.get(member), dict)]
    if not found:
        if any(member in o for _, o in objs):
            untestable(f"no {member} is a JSON object (see {see})")
        if required_by and any(o.get("type") == required_by for _, o in objs):
            untestable(f"no implementation of type {required_by} has {member} (see {see})")
        not_applicable(f"no implementation has {member}")
    return found


def _array_items(objs: Objects, member: str, see: str) -> Objects:
    """The object items of the ``member`` arrays of ``objs``."""
    __tracebackhide__ = True
    found = [(f"{w}.{member}[{j}]", e) for w, o in objs if isinstance(o.get(member), list)
             for j, e in enumerate(o[member]) if isinstance(e, dict)]
    if not found:
        if any(member in o and o[member] != [] for _, o in objs):
            untestable(f"no {member} item is a JSON object (see {see})")
        not_applicable(f"no implementation has a {member} item")
    return found


def _report(problems: list[str]) -> None:
    __tracebackhide__ = True
    if problems:
        violation("; ".join(problems[:6]) + (f"; and {len(problems) - 6} more" if len(problems) > 6 else ""))


def _required(objs: Objects, member: str, bad: Problem) -> None:
    """Each of ``objs`` holds ``member`` and its value passes ``bad``."""
    __tracebackhide__ = True
    problems = []
    for where, obj in objs:
        if member not in obj:
            problems.append(f"{where} has no {member}")
        elif why := bad(obj[member]):
            problems.append(f"{where}.{member} {why}")
    _report(problems)


def _optional(objs: Objects, member: str, bad: Problem, what: str = "implementation") -> None:
    """``member``, where present in ``objs``, passes ``bad``; absent everywhere: *not-applicable*."""
    __tracebackhide__ = True
    found = [(f"{w}.{member}", o[member]) for w, o in objs if member in o]
    if not found:
        not_applicable(f"no {what} has {member} (optional)")
    _report([f"{where} {why}" for where, v in found if (why := bad(v))])


def _with_string(objs: Objects, member: str, see: str) -> list[tuple[str, str]]:
    __tracebackhide__ = True
    found = [(f"{w}.{member}", o[member]) for w, o in objs if isinstance(o.get(member), str)]
    if not found:
        untestable(f"no {member} is a JSON string (see {see})")
    return found


# ---------------------------------------------------------------- the implementation object

@clause("AID-2.2.2-01")
def test_2_2_2_implementation_name_string(manifest: Document) -> None:
    """| **`name`** | String | Yes | A short, human-readable name for the implementation. |"""
    _required(_impls(manifest), "name", _string)


@clause("AID-2.2.2-02")
def test_2_2_2_implementation_type_string(manifest: Document) -> None:
    """| **`type`** | String | Yes | Defines the execution environment. |"""
    _required(_impls(manifest), "type", _string)


@clause("AID-2.2.2-03")
def test_2_2_2_implementation_type_remote_or_local(manifest: Document) -> None:
    """| **`type`** | String | Yes | ... Must be either `"remote"` or `"local"`. |"""
    found = _with_string(_impls(manifest), "type", "AID-2.2.2-02")
    _report([f"{where} {why}" for where, v in found if (why := _one_of(IMPL_TYPES)(v))])


@clause("AID-2.2.2-04")
def test_2_2_2_implementation_protocol_string(manifest: Document) -> None:
    """| **`protocol`** | String | Yes | The agent communication protocol. Ex: `"mcp"`, `"a2a"`. |"""
    _required(_impls(manifest), "protocol", _string)


@clause("AID-2.2.2-05")
def test_2_2_2_tags_array_of_strings(manifest: Document) -> None:
    """| **`tags`** | Array of Strings | No | Optional tags for filtering. |"""
    _optional(_impls(manifest), "tags", _strings)


@clause("AID-2.2.2-06")
def test_2_2_2_remote_has_uri(manifest: Document) -> None:
    """| **`uri`** | String | If `type` is `"remote"` | The base HTTPS URL for the agent's remote API endpoint. |"""
    _required(_of_type(manifest, "remote"), "uri", _absolute_url())


@clause("AID-2.2.2-07")
def test_2_2_2_local_has_package(manifest: Document) -> None:
    """| **`package`** | Object | If `type` is `"local"` | Describes the software package to be executed. |"""
    _required(_of_type(manifest, "local"), "package", _object)


@clause("AID-2.2.2-08")
def test_2_2_2_local_has_execution(manifest: Document) -> None:
    """| **`execution`** | Object | If `type` is `"local"` | Defines the command and arguments to run the local package. |"""
    _required(_of_type(manifest, "local"), "execution", _object)


@clause("AID-2.2.2-09")
def test_2_2_2_implementation_authentication_object(manifest: Document) -> None:
    """| **`authentication`** | Object | Yes | Describes the required authentication method. |"""
    _required(_impls(manifest), "authentication", _object)


@clause("AID-2.2.2-10")
def test_2_2_2_configuration_array_of_objects(manifest: Document) -> None:
    """| **`configuration`** | Array of Objects | No | An array of user-configurable settings. |"""
    _optional(_impls(manifest), "configuration", _objects_array)


@clause("AID-2.2.2-11")
def test_2_2_2_required_paths_array_of_objects(manifest: Document) -> None:
    """| **`requiredPaths`** | Array of Objects | No | An array of local filesystem paths the user must provide. |"""
    _optional(_impls(manifest), "requiredPaths", _objects_array)


@clause("AID-2.2.2-13")
def test_2_2_2_status_active_or_deprecated(manifest: Document) -> None:
    """| **`status`** | `"active"`\\|`"deprecated"` | No |"""
    _optional(_impls(manifest), "status", _one_of(STATUSES))


@clause("AID-2.2.2-15")
def test_2_2_2_implementation_revocation_url_https(manifest: Document) -> None:
    """| **`revocationURL`** | String | No | Overrides global `revocationURL` for this implementation only. |"""
    _optional(_impls(manifest), "revocationURL", _absolute_url(https=True))


@clause("AID-2.2.2-17")
def test_2_2_2_mtls_has_certificate(manifest: Document) -> None:
    """| **`certificate`** | Object | If `authentication.scheme` = `mtls` | ... |"""
    mtls = [(w, o) for w, o in _impls(manifest)
            if isinstance(o.get("authentication"), dict) and o["authentication"].get("scheme") == "mtls"]
    if not mtls:
        not_applicable("no implementation's authentication.scheme is mtls")
    _required(mtls, "certificate", _object)


@clause("AID-2.2.2-18")
def test_2_2_2_certificate_source_and_enrollment_endpoint(manifest: Document) -> None:
    """| **`certificate`** | Object | ... | `{ "source":"file"\\|"enrollment", "enrollmentEndpoint":"https://…" }` |"""
    certs = _sub_objects(_impls(manifest), "certificate", "AID-2.2.2-17")
    problems = []
    for where, cert in certs:
        if "source" not in cert:
            problems.append(f"{where} has no source")
        elif why := _one_of(CERT_SOURCES)(cert["source"]):
            problems.append(f"{where}.source {why}")
        if "enrollmentEndpoint" in cert and (why := _absolute_url(https=True)(cert["enrollmentEndpoint"])):
            problems.append(f"{where}.enrollmentEndpoint {why}")
    _report(problems)


# ---------------------------------------------------------------- package

def _packages(manifest: Document) -> Objects:
    __tracebackhide__ = True
    return _sub_objects(_impls(manifest), "package", "AID-2.2.2-07", required_by="local")


@clause("AID-2.2.2-19")
def test_2_2_2_package_manager_string(manifest: Document) -> None:
    """| **`manager`** | String | Yes | The package manager used. Ex: `"docker"`, `"npx"`, `"pip"`. |"""
    _required(_packages(manifest), "manager", _string)


@clause("AID-2.2.2-20")
def test_2_2_2_package_identifier_string(manifest: Document) -> None:
    """| **`identifier`** | String | Yes | The name, image, or identifier of the package. |"""
    _required(_packages(manifest), "identifier", _string)


@clause("AID-2.2.2-21")
def test_2_2_2_package_digest_string(manifest: Document) -> None:
    """| **`digest`** | String | No | An optional content digest (e.g., `"sha256:..."`) for security verification. |"""
    _optional(_packages(manifest), "digest", _string, what="package")


# ---------------------------------------------------------------- execution

def _executions(manifest: Document) -> Objects:
    __tracebackhide__ = True
    return _sub_objects(_impls(manifest), "execution", "AID-2.2.2-08", required_by="local")


@clause("AID-2.2.2-22")
def test_2_2_2_execution_command_string(manifest: Document) -> None:
    """| **`command`** | String | Yes | The executable to run. Ex: `"docker"`. |"""
    _required(_executions(manifest), "command", _string)


@clause("AID-2.2.2-23")
def test_2_2_2_execution_args_array_of_strings(manifest: Document) -> None:
    """| **`args`** | Array of Strings | Yes | An array of arguments passed to the command. |"""
    _required(_executions(manifest), "args", _strings)


@clause("AID-2.2.2-24")
def test_2_2_2_platform_overrides_keys_and_shape(manifest: Document) -> None:
    """| **`platformOverrides`** | Object | No | An object to specify a different `command` or `args`
    based on client OS. Valid keys are `"windows"`, `"linux"`, and `"macos"`. |"""
    found = [(f"{w}.platformOverrides", o["platformOverrides"]) for w, o in _executions(manifest)
             if "platformOverrides" in o]
    if not found:
        not_applicable("no execution has platformOverrides (optional)")
    problems = []
    for where, overrides in found:
        if not isinstance(overrides, dict):
            problems.append(f"{where} is a JSON {kind_name(overrides)}, not an object")
            continue
        for key, override in overrides.items():
            if key not in PLATFORMS:
                problems.append(f"{where} has the key {key[:40]!r}, not one of {', '.join(map(repr, PLATFORMS))}")
            elif not isinstance(override, dict):
                problems.append(f"{where}.{key} is a JSON {kind_name(override)}, not an object")
            else:
                if "command" in override and (why := _string(override["command"])):
                    problems.append(f"{where}.{key}.command {why}")
                if "args" in override and (why := _strings(override["args"])):
                    problems.append(f"{where}.{key}.args {why}")
    _report(problems)


# ---------------------------------------------------------------- configuration items

def _settings(manifest: Document) -> Objects:
    __tracebackhide__ = True
    return _array_items(_impls(manifest), "configuration", "AID-2.2.2-10")


@clause("AID-2.2.2-26")
def test_2_2_2_configuration_key_string(manifest: Document) -> None:
    """| **`key`** | String | Yes | The internal key for this setting, used in variable substitution. |"""
    _required(_settings(manifest), "key", _string)


@clause("AID-2.2.2-27")
def test_2_2_2_configuration_description_string(manifest: Document) -> None:
    """| **`description`** | String | Yes | Human-readable text for the UI prompt. |"""
    _required(_settings(manifest), "description", _string)


@clause("AID-2.2.2-28")
def test_2_2_2_configuration_type_string(manifest: Document) -> None:
    """| **`type`** | String | Yes | The data type. |"""
    _required(_settings(manifest), "type", _string)


@clause("AID-2.2.2-29")
def test_2_2_2_configuration_type_allowed(manifest: Document) -> None:
    """| **`type`** | String | Yes | The data type. Allowed values: `"string"`, `"boolean"`, `"integer"`. |"""
    found = _with_string(_settings(manifest), "type", "AID-2.2.2-28")
    _report([f"{where} {why}" for where, v in found if (why := _one_of(CONFIG_TYPES)(v))])


@clause("AID-2.2.2-31")
def test_2_2_2_configuration_secret_boolean(manifest: Document) -> None:
    """| **`secret`** | Boolean | No |"""
    _optional(_settings(manifest), "secret", _kind(bool, "a boolean"), what="configuration item")


# ---------------------------------------------------------------- required path items

def _paths(manifest: Document) -> Objects:
    __tracebackhide__ = True
    return _array_items(_impls(manifest), "requiredPaths", "AID-2.2.2-11")


@clause("AID-2.2.2-33")
def test_2_2_2_required_path_key_string(manifest: Document) -> None:
    """| **`key`** | String | Yes | The internal key for this path, used in variable substitution. |"""
    _required(_paths(manifest), "key", _string)


@clause("AID-2.2.2-34")
def test_2_2_2_required_path_description_string(manifest: Document) -> None:
    """| **`description`** | String | Yes | Human-readable text for the UI prompt. |"""
    _required(_paths(manifest), "description", _string)


@clause("AID-2.2.2-35")
def test_2_2_2_required_path_type_file_or_directory(manifest: Document) -> None:
    """| **`type`** | String | No | Hint for the UI file picker. Either `"file"` or `"directory"`. |"""
    _optional(_paths(manifest), "type", _one_of(PATH_TYPES), what="requiredPaths item")
