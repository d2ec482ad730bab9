"""§2.2.4 Authentication Schema and Patterns (the manifest's authentication objects).

Each test looks at the authentication object of every implementation that has one (whether
an implementation must have one is §2.2.2's business). A member of the wrong type makes the
clauses below it untestable for that implementation, not failed: its type clause fails.
"""

from __future__ import annotations

from typing import Any, Callable, NoReturn
from urllib.parse import urlsplit

from conformance.aid._checks import absolute_url_problem, array_problem
from conformance.document import Document, kind_name
from conformance.outcomes import clause, not_applicable, untestable, violation

#: Appendix A: the authentication scheme registry.
SCHEMES = ("none", "pat", "apikey", "basic", "oauth2_device", "oauth2_code", "oauth2_service", "mtls", "custom")
OAUTH_SCHEMES = ("oauth2_device", "oauth2_code", "oauth2_service")
PLACEMENT_IN = ("header", "query", "cli_arg")


class _Findings:
    """What one clause test observed across the implementations: problems, and how much was
    checked (nothing checked is not-applicable, or untestable when prerequisites broke)."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.checked = 0
        self.blocked: list[str] = []

    def verdict(self, absent: str) -> None:
        __tracebackhide__ = True
        if self.problems:
            violation("; ".join(self.problems))
        if not self.checked:
            if self.blocked:
                untestable("; ".join(self.blocked))
            not_applicable(absent)


def _auths(manifest: Document) -> list[tuple[str, dict, dict]]:
    """(JSON path, implementation, authentication) for each implementation with an
    authentication object; *untestable* when implementations is not an array."""
    __tracebackhide__ = True
    out = []
    for i, impl in manifest.objects("implementations"):
        auth = impl.get("authentication")
        if isinstance(auth, dict):
            out.append((f"implementations[{i}].authentication", impl, auth))
    return out


def _absolute(value: str) -> bool:
    return absolute_url_problem(value) is None


def _scheme(auth: dict) -> str | None:
    scheme = auth.get("scheme")
    return scheme if isinstance(scheme, str) else None


def _optional_member(manifest: Document, name: str, check: Callable[[str, Any], str | None]) -> None:
    """For an optional member of authentication: each present one passes ``check`` (which
    returns a problem or None)."""
    __tracebackhide__ = True
    f = _Findings()
    for path, _impl, auth in _auths(manifest):
        if name in auth:
            f.checked += 1
            problem = check(f"{path}.{name}", auth[name])
            if problem:
                f.problems.append(problem)
    f.verdict(f"no authentication object holds {name} (optional)")


def _type_problem(path: str, value: Any, kind: type, what: str) -> str | None:
    return None if isinstance(value, kind) and not isinstance(value, bool) else f"{path} is a JSON {kind_name(value)}, not {what}"


# ---------------------------------------------------------------- the authentication object

@clause("AID-2.2.4-01")
def test_2_2_4_scheme_present_string(manifest: Document) -> None:
    """| **`scheme`** | String | Yes | The primary authentication token from the registry in Appendix A."""
    f = _Findings()
    for path, _impl, auth in _auths(manifest):
        f.checked += 1
        if "scheme" not in auth:
            f.problems.append(f"{path} has no scheme")
        elif not isinstance(auth["scheme"], str):
            f.problems.append(f"{path}.scheme is a JSON {kind_name(auth['scheme'])}, not a string")
    f.verdict("no implementation has an authentication object")


@clause("AID-2.2.4-02")
def test_2_2_4_scheme_from_registry(manifest: Document) -> None:
    """| **`scheme`** | String | Yes | The primary authentication token from the registry in Appendix A.
    Use `"none"` for no authentication. |"""
    f = _Findings()
    for path, _impl, auth in _auths(manifest):
        scheme = _scheme(auth)
        if scheme is None:
            f.blocked.append(f"{path}.scheme is absent or not a string (see AID-2.2.4-01)")
            continue
        f.checked += 1
        if scheme not in SCHEMES:
            f.problems.append(f"{path}.scheme is {scheme!r}, not a token of Appendix A")
    f.verdict("no implementation has an authentication object")


@clause("AID-2.2.4-03")
def test_2_2_4_description_unless_none(manifest: Document) -> None:
    """| **`description`** | String | If `scheme` is not `"none"` | Human-readable text for the UI. |"""
    f = _Findings()
    for path, _impl, auth in _auths(manifest):
        scheme = _scheme(auth)
        if "description" in auth:
            f.checked += 1
            if not isinstance(auth["description"], str):
                f.problems.append(f"{path}.description is a JSON {kind_name(auth['description'])}, not a string")
        elif scheme is None:
            f.blocked.append(f"{path}.scheme is absent or not a string (see AID-2.2.4-01)")
        elif scheme != "none":
            f.checked += 1
            f.problems.append(f"{path} has scheme {scheme!r} but no description")
    f.verdict("every authentication object has scheme \"none\" and no description")


@clause("AID-2.2.4-04")
def test_2_2_4_token_url_https(manifest: Document) -> None:
    """| **`tokenUrl`** | String | No | An optional HTTPS URL where the user can generate the required credential."""

    def check(path: str, value: Any) -> str | None:
        if not isinstance(value, str):
            return f"{path} is a JSON {kind_name(value)}, not a string"
        if not _absolute(value) or urlsplit(value).scheme.lower() != "https":
            return f"{path} is {value!r}, not an absolute https URL"
        return None

    _optional_member(manifest, "tokenUrl", check)


@clause("AID-2.2.4-06")
def test_2_2_4_credentials_array_of_objects(manifest: Document) -> None:
    """| **`credentials`** | Array of Objects | No | For multi-part secrets (like Client ID/Secret)."""

    _optional_member(manifest, "credentials", lambda p, v: array_problem(p, v, dict, "objects"))


@clause("AID-2.2.4-08")
def test_2_2_4_oauth_for_oauth2_schemes(manifest: Document) -> None:
    """| **`oauth`** | Object | If `scheme` is an `oauth2_*` type | Contains the necessary endpoints and
    scopes for an OAuth 2.0 flow. |"""
    f = _Findings()
    for path, _impl, auth in _auths(manifest):
        scheme = _scheme(auth)
        if scheme not in OAUTH_SCHEMES:
            continue
        f.checked += 1
        if "oauth" not in auth:
            f.problems.append(f"{path} has scheme {scheme!r} but no oauth")
        elif not isinstance(auth["oauth"], dict):
            f.problems.append(f"{path}.oauth is a JSON {kind_name(auth['oauth'])}, not an object")
    f.verdict("no authentication object has an oauth2_* scheme")


@clause("AID-2.2.4-09")
def test_2_2_4_placement_is_object(manifest: Document) -> None:
    """| **`placement`** | Object | No | Describes how to *apply* the final token."""
    _optional_member(manifest, "placement", lambda p, v: _type_problem(p, v, dict, "an object"))


@clause("AID-2.2.4-10")
def test_2_2_4_placement_for_remote(manifest: Document) -> None:
    """| **`placement`** | Object | No | ... Required for `remote` implementations unless `scheme` is `"none"`. |"""
    f = _Findings()
    for path, impl, auth in _auths(manifest):
        if impl.get("type") != "remote":
            continue
        scheme = _scheme(auth)
        if scheme is None:
            f.blocked.append(f"{path}.scheme is absent or not a string (see AID-2.2.4-01)")
            continue
        if scheme in ("none", "mtls"):
            continue
        f.checked += 1
        if "placement" not in auth:
            f.problems.append(f"{path} (a remote implementation, scheme {scheme!r}) has no placement")
    f.verdict("no remote implementation has an authentication scheme other than none and mtls (AMB-20)")


# ---------------------------------------------------------------- credentials items

def _credential_items(manifest: Document) -> list[tuple[str, dict]]:
    __tracebackhide__ = True
    out = []
    for path, _impl, auth in _auths(manifest):
        creds = auth.get("credentials")
        if isinstance(creds, list):
            out += [(f"{path}.credentials[{i}]", c) for i, c in enumerate(creds) if isinstance(c, dict)]
    return out


def _item_member(items: list[tuple[str, dict]], name: str, absent: str) -> NoReturn | None:
    __tracebackhide__ = True
    f = _Findings()
    for path, item in items:
        f.checked += 1
        if name not in item:
            f.problems.append(f"{path} has no {name}")
        elif not isinstance(item[name], str):
            f.problems.append(f"{path}.{name} is a JSON {kind_name(item[name])}, not a string")
    f.verdict(absent)
    return None


@clause("AID-2.2.4-11")
def test_2_2_4_credential_item_key(manifest: Document) -> None:
    """| **`key`** | String | Yes | The internal key for this secret, used in `${auth.<key>}` substitution. |"""
    _item_member(_credential_items(manifest), "key", "no authentication object has credentials items")


@clause("AID-2.2.4-12")
def test_2_2_4_credential_item_description(manifest: Document) -> None:
    """| **`description`** | String | Yes | Human-readable text for this specific secret's UI prompt. |"""
    _item_member(_credential_items(manifest), "description", "no authentication object has credentials items")


# ---------------------------------------------------------------- the oauth object

def _oauths(manifest: Document) -> list[tuple[str, str | None, dict]]:
    """(JSON path, scheme, oauth object) for each authentication object with an oauth object."""
    __tracebackhide__ = True
    return [(f"{path}.oauth", _scheme(auth), auth["oauth"]) for path, _impl, auth in _auths(manifest)
            if isinstance(auth.get("oauth"), dict)]


def _endpoint(manifest: Document, name: str, only_for: str | None) -> None:
    """``name`` of each oauth object (of the ``only_for`` scheme). A member required "For
    `oauth2_code`" is required by the scheme: an authentication object of that scheme with no
    oauth object at all lacks it too, and fails (AMB-31); an oauth member of another type is
    AID-2.2.4-08's failure, and leaves the endpoint unjudged."""
    __tracebackhide__ = True
    f = _Findings()
    if only_for is not None:
        for path, _impl, auth in _auths(manifest):
            if _scheme(auth) != only_for or isinstance(auth.get("oauth"), dict):
                continue
            if "oauth" not in auth:
                f.checked += 1
                f.problems.append(f"{path} has scheme {only_for!r} but no oauth object, so no {name}")
            else:
                f.blocked.append(f"{path}.oauth is a JSON {kind_name(auth['oauth'])}, not an object (see AID-2.2.4-08)")
    for path, scheme, oauth in _oauths(manifest):
        if only_for is not None and scheme != only_for:
            continue
        f.checked += 1
        value = oauth.get(name)
        if name not in oauth:
            f.problems.append(f"{path} has no {name}" + (f" (scheme {scheme!r})" if only_for else ""))
        elif not isinstance(value, str):
            f.problems.append(f"{path}.{name} is a JSON {kind_name(value)}, not a string")
        elif not _absolute(value):
            f.problems.append(f"{path}.{name} is {value!r}, not an absolute URL")
    f.verdict("no oauth object" + (f" under scheme {only_for!r}" if only_for else ""))


@clause("AID-2.2.4-13")
def test_2_2_4_oauth_authorization_endpoint(manifest: Document) -> None:
    """| **`authorizationEndpoint`** | String | For `oauth2_code` | The URL for the authorization code grant flow. |"""
    _endpoint(manifest, "authorizationEndpoint", "oauth2_code")


@clause("AID-2.2.4-14")
def test_2_2_4_oauth_device_authorization_endpoint(manifest: Document) -> None:
    """| **`deviceAuthorizationEndpoint`** | String | For `oauth2_device` | The URL for the device authorization flow. |"""
    _endpoint(manifest, "deviceAuthorizationEndpoint", "oauth2_device")


@clause("AID-2.2.4-15")
def test_2_2_4_oauth_token_endpoint(manifest: Document) -> None:
    """| **`tokenEndpoint`** | String | Yes | The URL to exchange a code or credentials for an access token. |"""
    _endpoint(manifest, "tokenEndpoint", None)


def _oauth_optional(manifest: Document, name: str, check: Callable[[str, Any], str | None]) -> None:
    __tracebackhide__ = True
    f = _Findings()
    for path, _scheme_, oauth in _oauths(manifest):
        if name in oauth:
            f.checked += 1
            problem = check(f"{path}.{name}", oauth[name])
            if problem:
                f.problems.append(problem)
    f.verdict(f"no oauth object holds {name} (optional)")


@clause("AID-2.2.4-16")
def test_2_2_4_oauth_scopes_strings(manifest: Document) -> None:
    """| **`scopes`** | Array of Strings | No | An optional list of required OAuth scopes. |"""

    _oauth_optional(manifest, "scopes", lambda p, v: array_problem(p, v, str, "strings"))


@clause("AID-2.2.4-17")
def test_2_2_4_oauth_client_id_string(manifest: Document) -> None:
    """| **`clientId`** | String | No | The public identifier for the client application, if required by the provider. |"""
    _oauth_optional(manifest, "clientId", lambda p, v: _type_problem(p, v, str, "a string"))


# ---------------------------------------------------------------- the placement object

def _placements(manifest: Document) -> list[tuple[str, dict]]:
    __tracebackhide__ = True
    return [(f"{path}.placement", auth["placement"]) for path, _impl, auth in _auths(manifest)
            if isinstance(auth.get("placement"), dict)]


@clause("AID-2.2.4-18")
def test_2_2_4_placement_in_present(manifest: Document) -> None:
    """| **`in`** | String | Yes | Where to place the token. One of: `"header"`, `"query"`, `"cli_arg"`. |"""
    _item_member(_placements(manifest), "in", "no authentication object has a placement object")


@clause("AID-2.2.4-19")
def test_2_2_4_placement_in_allowed_value(manifest: Document) -> None:
    """| **`in`** | String | Yes | Where to place the token. One of: `"header"`, `"query"`, `"cli_arg"`. |"""
    f = _Findings()
    for path, placement in _placements(manifest):
        value = placement.get("in")
        if not isinstance(value, str):
            f.blocked.append(f"{path}.in is absent or not a string (see AID-2.2.4-18)")
            continue
        f.checked += 1
        if value not in PLACEMENT_IN:
            f.problems.append(f"{path}.in is {value!r}, not \"header\", \"query\" or \"cli_arg\"")
    f.verdict("no authentication object has a placement object")


@clause("AID-2.2.4-21")
def test_2_2_4_placement_key_present(manifest: Document) -> None:
    """| **`key`** | String | Yes | For `"header"`/`"query"`, the name of the header/parameter.
    For `"cli_arg"`, the name of the argument (e.g., `"--token"`). |"""
    _item_member(_placements(manifest), "key", "no authentication object has a placement object")


@clause("AID-2.2.4-22")
def test_2_2_4_placement_format_string(manifest: Document) -> None:
    """| **`format`** | String | No | A format string for the value. `{token}` is the placeholder. |"""
    f = _Findings()
    for path, placement in _placements(manifest):
        if "format" in placement:
            f.checked += 1
            problem = _type_problem(f"{path}.format", placement["format"], str, "a string")
            if problem:
                f.problems.append(problem)
    f.verdict("no placement object holds format (optional)")
