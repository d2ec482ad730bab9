"""§4 Security Considerations (the manifest)."""

from __future__ import annotations

import re
from typing import Any, Iterator
from urllib.parse import parse_qsl, urlsplit

from conformance.document import Document, kind_name
from conformance.outcomes import clause, not_applicable, violation

#: AMB-22: what the kit counts as a secret beyond doubt (nothing else fails).
CREDENTIAL_SHAPES = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"                    # PEM private key block
    r"|\b(?:ghp|gho)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}"  # GitHub
    r"|\bxox[a-z]-[A-Za-z0-9-]{10,}"                                  # Slack
    r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"                                 # AWS access key id
    r"|\b(?:sk|rk)_live_[A-Za-z0-9]{8,}"                              # Stripe live keys
    r"|\bAIza[0-9A-Za-z_-]{30,}"                                      # Google API key
    r"|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"  # signed JWT
)
SECRET_PARAMS = frozenset({"token", "access_token", "api_key", "apikey", "key", "secret", "password"})


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{path}.{k}" if path else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{path}[{i}]")
    elif isinstance(value, str):
        yield path, value


def _url_problem(value: str) -> str | None:
    if "://" not in value:
        return None
    try:
        parts = urlsplit(value.strip())
    except ValueError:
        return None
    userinfo = parts.netloc.rpartition("@")[0] if "@" in parts.netloc else ""
    if ":" in userinfo and userinfo.partition(":")[2]:
        return "a URL with a password in its userinfo"
    if any(k.lower() in SECRET_PARAMS and v for k, v in parse_qsl(parts.query, keep_blank_values=True)):
        return "a URL with a credential in its query"
    return None


@clause("AID-4-05")
def test_4_implementation_uri_uses_https(manifest: Document) -> None:
    """All `uri` and `config` URLs **MUST** use `https://`. (every implementation's uri)"""
    problems, seen = [], 0
    for i, impl in manifest.objects("implementations"):
        if "uri" not in impl or not isinstance(impl["uri"], str):
            continue  # absent, or not a string: AID-2.2.2-06
        seen += 1
        value = impl["uri"]
        parts = urlsplit(value)
        if parts.scheme.lower() != "https" or not parts.netloc:
            problems.append(f"implementations[{i}].uri is {value!r}, not an absolute https:// URL")
    if problems:
        violation("; ".join(problems))
    if not seen:
        not_applicable("no implementation has a uri string")


@clause("AID-4-08")
def test_4_manifest_holds_no_secret(manifest: Document) -> None:
    """They **MUST NOT** contain any secrets (tokens, keys, passwords). (the AID Manifest)"""
    found = []
    for path, value in _strings(manifest.value(), ""):
        if CREDENTIAL_SHAPES.search(value):
            found.append(f"{path} holds a string in a well-known credential format")
        problem = _url_problem(value)
        if problem:
            found.append(f"{path} holds {problem}")
    top = manifest.value()
    impls = top.get("implementations") if isinstance(top, dict) else None
    for i, impl in enumerate(impls if isinstance(impls, list) else []):
        settings = impl.get("configuration") if isinstance(impl, dict) else None
        for j, item in enumerate(settings if isinstance(settings, list) else []):
            if isinstance(item, dict) and item.get("secret") is True and "defaultValue" in item:
                default = item["defaultValue"]
                # a boolean or a number is never a token, key or password: only text can hold one
                if _holds_text(default):
                    found.append(f"implementations[{i}].configuration[{j}] is secret but its defaultValue "
                                 f"is a non-empty JSON {kind_name(default)}")
    if found:
        violation("; ".join(found) + " (values are not shown: they may be secrets)")


def _holds_text(value: object) -> bool:
    """A non-empty string, or an array or object holding one (where a secret could be)."""
    if isinstance(value, str):
        return value != ""
    if isinstance(value, list):
        return any(_holds_text(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_text(v) for v in value.values())
    return False
