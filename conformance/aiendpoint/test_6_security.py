"""§6 Security Considerations (6.2 Credential Exposure, 6.4 Content Integrity)."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlsplit

from conformance import redact
from conformance.aiendpoint.conftest import Client, Scenarios, accepted_document, refused_over_tls, response, said
from conformance.document import Document
from conformance.fetch import Fetch
from conformance.outcomes import clause, not_applicable, untestable, violation

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


# ------------------------------------------------------------------ agent role

SECRET = "adck-client-credential-5f2a9c"


@clause("AIE-6.2-02")
def test_6_2_agent_caches_no_credentials(client: Client, scenarios: Scenarios) -> None:
    """An AI agent that stores or caches AI Discovery Documents MUST ensure that no
    credentials are written into the cached document, even if the agent possesses
    credentials for the service."""
    s = scenarios.new("client-holds-credentials")
    reply = client.discover(s, credentials={"X-API-Key": SECRET})
    accepted_document(reply)
    if reply.get("cached") is None:
        not_applicable("the client reports that it caches nothing")
    if SECRET in json.dumps(reply["cached"]):
        violation("the credential the client holds for the service is in its cached document")


@clause("AIE-6.4-01")
def test_6_4_agent_fetches_over_https(client: Client, scenarios: Scenarios) -> None:
    """AI agents MUST fetch the AI Discovery Document over HTTPS (TLS). (The authority is
    given as a bare host name.)"""
    s = scenarios.new("bare-host")
    reply = client.discover(s, authority=s.host)
    plain = s.requests("http")
    if plain:
        violation(f"given the host {s.host}, the client fetched http://{s.host}{plain[0].path} over plain HTTP")
    if not s.requests():
        untestable(f"the client sent no request for a bare host name ({said(reply)})")


@clause("AIE-6.4-02")
def test_6_4_agent_never_fetches_over_plain_http(client: Client, scenarios: Scenarios) -> None:
    """Agents MUST NOT fetch the document over plain HTTP. (The authority is given as
    http://HOST; an agent may upgrade it to https or refuse.)"""
    s = scenarios.new("http-authority")
    client.discover(s, authority=f"http://{s.host}")
    plain = s.requests("http")
    if plain:
        violation(f"the client sent {plain[0].method} http://{s.host}{plain[0].path} over plain HTTP")


@clause("AIE-6.4-04")
def test_6_4_agent_validates_certificate_names(client: Client, scenarios: Scenarios) -> None:
    """AI agents SHOULD validate TLS certificates according to [RFC6125] ... (a certificate
    from the trusted CA, for another name)."""
    refused_over_tls(client, scenarios.new("wrong-name-certificate", listener="wrong-name"),
                     "the certificate names another host")


@clause("AIE-6.4-05")
def test_6_4_agent_does_not_proceed_on_untrusted_certificate(client: Client, scenarios: Scenarios) -> None:
    """AI agents ... MUST NOT proceed if certificate validation fails. (A certificate for the
    right name from a CA the client was not told to trust.)"""
    refused_over_tls(client, scenarios.new("untrusted-certificate", listener="untrusted"),
                     "the certificate's CA is not trusted")


@clause("AIE-6.5-01")
def test_6_5_agent_enforces_size_limits(client: Client, scenarios: Scenarios) -> None:
    """AI agents SHOULD enforce the size limits described in Section 4.5. (A 400 KiB document;
    4.5 lets agents refuse anything over 256 kilobytes.)"""
    s = scenarios.new("oversized", routes=[{"path": "/.well-known/ai", "pad_bytes": 400 * 1024}])
    reply = client.discover(s)
    if reply["outcome"] == "document":
        violation("the client accepted a document of over 400 KiB")


@clause("AIE-6.5-02")
def test_6_5_agent_limits_capabilities(client: Client, scenarios: Scenarios) -> None:
    """AI agents ... SHOULD impose their own limits on the number of capabilities processed
    (RECOMMENDED: no more than 100 capabilities per document)."""
    many = [{"id": f"read_{i}", "description": f"Read shelf {i}", "endpoint": f"/api/shelves/{i}", "method": "GET"}
            for i in range(150)]
    s = scenarios.new("many-capabilities", patch=[{"op": "replace", "path": "/capabilities", "value": many}])
    reply = client.discover(s)
    if reply["outcome"] == "document" and len(reply.get("capabilities", [])) > 100:
        violation(f"the client processed {len(reply['capabilities'])} capabilities of one document")
