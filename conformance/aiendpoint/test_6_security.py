"""§6 Security Considerations (6.2 Credential Exposure, 6.4 Content Integrity)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from conformance import redact
from conformance.aiendpoint.conftest import response
from conformance.document import Document
from conformance.fetch import Fetch
from conformance.outcomes import clause, untestable, violation

UNSAFE_METHODS = ("POST", "PUT", "DELETE", "PATCH")


def credential_findings(auth: dict) -> list[str]:
    """Where an auth object holds a credential rather than describing one."""
    found = []

    def walk(value: object, where: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                path = f"{where}.{k}"
                is_url = isinstance(v, str) and v.lower().startswith(("https://", "http://"))
                if redact.is_secret_name(k) and isinstance(v, (str, int)) and str(v).strip() and not is_url:
                    found.append(f"{path} holds a value")
                else:
                    walk(v, path)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{where}[{i}]")
        elif isinstance(value, str) and redact.looks_like_token(value):
            found.append(f"{where} holds a token-shaped string")

    walk(auth, "auth")
    header = auth.get("header")
    if isinstance(header, str) and (":" in header or " " in header.strip()):
        found.append("auth.header carries more than a header name")
    docs = auth.get("docs")
    if isinstance(docs, str):
        try:
            parts = urlsplit(docs)
        except ValueError:
            parts = None
        if parts is not None:
            if "@" in parts.netloc:
                found.append("auth.docs carries user credentials")
            if any(redact.is_secret_name(k) and v for k, v in parse_qsl(parts.query)):
                found.append("auth.docs carries a credential in its query")
    return sorted(set(found))


@clause("AIE-6.2-01")
def test_6_2_auth_holds_no_credentials(document: Document) -> None:
    """The "auth" object describes the authentication mechanism but MUST NOT contain actual
    credentials, secrets, tokens, or keys."""
    auth = document.member("auth", kind=dict, required=False)
    if found := credential_findings(auth):
        violation("; ".join(found) + " (values are not shown: they may be secrets)")


@clause("AIE-6.2-03")
def test_6_2_none_auth_not_used_for_write_operations(document: Document) -> None:
    """Service providers MUST NOT use "none" for endpoints that handle sensitive data,
    perform write operations, or incur costs."""
    auth_type = document.member("auth", "type", required=False)
    if auth_type != "none":
        return
    caps = document.objects("capabilities")
    if not caps:
        untestable("there is no capability object to look at")
    writes = [f"{c.get('id', f'capabilities[{i}]')} ({c['method']})"
              for i, c in caps if isinstance(c.get("method"), str) and c["method"] in UNSAFE_METHODS]
    if writes:
        violation(f'auth.type is "none" and these capabilities perform write operations: {", ".join(writes[:6])}')


@clause("AIE-6.4-03")
def test_6_4_served_over_https(well_known: Fetch) -> None:
    """Service providers MUST serve the document over HTTPS."""
    if well_known.url.startswith("http://"):
        violation(f"the document is served at {well_known.url}, over plain HTTP")
    if well_known.error_kind in ("tls", "insecure-redirect"):
        violation(well_known.describe_error())
    final = response(well_known)
    if not final.url.startswith("https://"):
        violation(f"the document is served from {final.url}, over plain HTTP")
