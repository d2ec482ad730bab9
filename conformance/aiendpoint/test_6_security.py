"""§6 Security Considerations (6.2 Credential Exposure, 6.4 Content Integrity)."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlsplit

from conformance import redact
from conformance.aiendpoint.conftest import Client, Scenarios, accepted_document, each, refused_over_tls, response, said
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


def _forms(value: str) -> set[str]:
    """A credential as it could be written down: as is, base64 (plain and URL-safe), URL-encoded."""
    import base64
    from urllib.parse import quote

    raw = value.encode()
    return {value, base64.b64encode(raw).decode().rstrip("="), base64.urlsafe_b64encode(raw).decode().rstrip("="),
            quote(value, safe=""), quote(value)}


@clause("AIE-6.2-02")
def test_6_2_agent_caches_no_credentials(client: Client, scenarios: Scenarios) -> None:
    """An AI agent that stores or caches AI Discovery Documents MUST ensure that no
    credentials are written into the cached document, even if the agent possesses
    credentials for the service. (An API key and a bearer token, for a document whose auth
    names the header and for one without auth; looked for as is and encoded.)"""
    cases = [({"X-API-Key": SECRET}, []),
             ({"Authorization": f"Bearer {SECRET}"},
              [{"op": "replace", "path": "/auth", "value": {"type": "bearer", "header": "Authorization"}}]),
             ({"X-API-Key": SECRET}, [{"op": "remove", "path": "/auth"}])]
    stores = []

    def check(case: tuple[dict[str, str], list]) -> None:
        credentials, patch = case
        s = scenarios.new("client-holds-credentials", patch=patch)
        reply = client.discover(s, credentials=credentials)
        accepted_document(reply)
        if reply.get("cached") is None:
            return
        stores.append(True)
        cached = json.dumps(reply["cached"])
        header, value = next(iter(credentials.items()))
        found = sorted(f for f in _forms(value) | _forms(SECRET) if f in cached)
        if found:
            violation(f"holding {header}, the client's cached document contains its credential"
                      + (" (encoded)" if all(SECRET not in f for f in found) else ""))

    each(cases, check)
    if not stores:
        not_applicable("the client reports that it caches nothing")


@clause("AIE-6.4-01")
def test_6_4_agent_fetches_over_https(client: Client, scenarios: Scenarios) -> None:
    """AI agents MUST fetch the AI Discovery Document over HTTPS (TLS). (The authority is
    given without a scheme: a host name, with a trailing slash, with port 443, in capitals.)"""
    forms = ["{host}", "{host}/", "{host}:443", "{HOST}"]

    def check(form: str) -> None:
        s = scenarios.new("bare-host")
        authority = form.replace("{host}", s.host).replace("{HOST}", s.host.upper())
        reply = client.discover(s, authority=authority)
        plain = s.requests("http")
        if plain:
            violation(f"given {authority}, the client fetched http://{s.host}{plain[0].path} over plain HTTP")
        if not s.requests():
            untestable(f"the client sent no request for {authority} ({said(reply)})")

    each(forms, check)


@clause("AIE-6.4-02")
def test_6_4_agent_never_fetches_over_plain_http(client: Client, scenarios: Scenarios) -> None:
    """Agents MUST NOT fetch the document over plain HTTP. (The authority is given as
    http://HOST, and an agent may upgrade it to https or refuse; and an https authority whose
    fetch fails, by a server error, a refused certificate or an unreachable name: plain HTTP
    is never the fallback.)"""
    error = {"path": "/.well-known/ai", "status": 503, "body": "text", "text": "busy",
             "headers": {"Content-Type": "text/plain"}, "remove_headers": ["Cache-Control"]}
    cases = [("an http:// authority", "https", [], "http://{host}"),
             ("an http:// authority with a path", "https", [], "http://{host}/"),
             ("a 503 over https", "https", [error], None),
             ("a certificate from an untrusted CA", "untrusted", [], None),
             ("a certificate for another name", "wrong-name", [], None)]

    def check(case: tuple[str, str, list, str | None]) -> None:
        name, listener, routes, authority = case
        s = scenarios.new("http-authority", routes=routes, listener=listener)
        client.discover(s, authority=authority.replace("{host}", s.host) if authority else None)
        plain = s.requests("http")
        if plain:
            violation(f"after {name} the client sent {plain[0].method} http://{s.host}{plain[0].path} over plain HTTP")

    each(cases, check)


@clause("AIE-6.4-04")
def test_6_4_agent_validates_certificate_names(client: Client, scenarios: Scenarios) -> None:
    """AI agents SHOULD validate TLS certificates according to [RFC6125] ... (a certificate
    from the trusted CA, for another name)."""
    refused_over_tls(client, scenarios.new("wrong-name-certificate", listener="wrong-name"),
                     "the certificate names another host")


@clause("AIE-6.4-05")
def test_6_4_agent_does_not_proceed_on_untrusted_certificate(client: Client, scenarios: Scenarios) -> None:
    """AI agents ... MUST NOT proceed if certificate validation fails. (A certificate for the
    right name from a CA the client was not told to trust; one from the trusted CA that has
    expired.)"""
    cases = [("untrusted", "the certificate's CA is not trusted"),
             ("expired", "the certificate, from the trusted CA, expired in 2021")]
    each(cases, lambda case: refused_over_tls(client, scenarios.new(f"{case[0]}-certificate", listener=case[0]),
                                              case[1]))


@clause("AIE-6.5-01")
def test_6_5_agent_enforces_size_limits(client: Client, scenarios: Scenarios) -> None:
    """AI agents SHOULD enforce the size limits described in Section 4.5. (4.5 lets agents
    refuse anything over 256 kilobytes: documents of over 300 KiB, made large by trailing
    whitespace or by content, must not be accepted.)"""
    notes = [f"note {i}: " + "x" * 1000 for i in range(300)]
    cases = [("300 KiB, mostly whitespace", {"pad_bytes": 300 * 1024}, []),
             ("over 300 KiB of content", {}, [{"op": "add", "path": "/meta/notes", "value": notes}])]

    def check(case: tuple[str, dict, list]) -> None:
        name, route, patch = case
        s = scenarios.new("oversized", routes=[{"path": "/.well-known/ai", **route}], patch=patch)
        reply = client.discover(s)
        if reply["outcome"] == "document":
            violation(f"the client accepted a document of {name}")

    each(cases, check)


@clause("AIE-6.5-02")
def test_6_5_agent_limits_capabilities(client: Client, scenarios: Scenarios) -> None:
    """AI agents ... SHOULD impose their own limits on the number of capabilities processed
    (RECOMMENDED: no more than 100 capabilities per document). (101 and 500 capabilities;
    and a capability beyond those the client reports must not be invoked either.)"""

    def check(count: int) -> None:
        many = [{"id": f"read_{i}", "description": f"Read shelf {i}", "endpoint": f"/api/shelves/{i}", "method": "GET"}
                for i in range(count)]
        s = scenarios.new("many-capabilities", patch=[{"op": "replace", "path": "/capabilities", "value": many}])
        session = client.session(s)
        reply = client.discover(s, session=session)
        reported = {c.get("id") for c in reply.get("capabilities", []) if isinstance(c, dict)}
        if reply["outcome"] == "document" and len(reported) > 100:
            violation(f"the client processed {len(reported)} of {count} capabilities of one document")
        if reply["outcome"] != "document" or "aiendpoint.invoke" not in client.adapter.operations:
            return
        beyond = next((f"read_{i}" for i in reversed(range(count)) if f"read_{i}" not in reported), None)
        if beyond is None:
            return
        client.invoke(s, beyond, session=session)
        path = f"/api/shelves/{beyond.removeprefix('read_')}"
        if any(r.path == path for r in s.requests()):
            violation(f"of {count} capabilities the client reported {len(reported)}, then invoked {beyond}, "
                      "one it did not report")

    each([101, 500], check)
