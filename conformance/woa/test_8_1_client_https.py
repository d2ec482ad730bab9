"""§8.1 Transport Security (client): certificates validated as HTTPS does, and no plain HTTP,
for the document and for REST invocations."""

from __future__ import annotations

from conformance.outcomes import clause, untestable, violation
from conformance.woa._client_fixtures import WoaClient, WoaScenarios, control_invocation, each, said

#: The scenario world's listeners whose certificate fails validation, and why.
BAD_CERTIFICATES = {
    "wrong-name": "presents a certificate for another name",
    "untrusted": "presents a certificate from a CA the client was not told to trust",
    "expired": "presents a certificate that expired in 2021",
}


def _document_over(woa_client: WoaClient, woa_scenarios: WoaScenarios, listener: str) -> None:
    __tracebackhide__ = True
    s = woa_scenarios.new(f"document-{listener}", listener=listener)
    reply = woa_client.discover(woa_scenarios, s)
    sent = s.requests()
    if sent or reply.get("outcome") == "document":
        violation(f"the origin {s.authority} {BAD_CERTIFICATES[listener]}, and {said(reply)}"
                  + (f" after sending {sent[0].method} {sent[0].path} over that connection" if sent else ""))


def _invocation_over(woa_client: WoaClient, woa_scenarios: WoaScenarios, listener: str) -> None:
    __tracebackhide__ = True
    api = woa_scenarios.new(f"base-{listener}", listener=listener)
    s = woa_scenarios.new("origin", base=f"https://{api.host}")
    reply = woa_client.invoke(woa_scenarios, s, "summarizer", operation="default", input={"text": "hello"})
    if not any(r.path == "/.well-known/woa.json" for r in s.requests()):
        untestable(f"the client did not fetch the document of {s.authority} (a valid certificate); {said(reply)} "
                   "(see WOA-3-02)")
    if sent := api.requests():
        violation(f"the REST base https://{api.host} {BAD_CERTIFICATES[listener]}, and the client sent "
                  f"{sent[0].method} {sent[0].path} over that connection; {said(reply)}")


@clause("WOA-8.1-03")
def test_8_1_client_validates_certificates(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """Clients MUST validate server certificates according to normal HTTPS rules. (For the
    document's origin and for a REST base: another name, an untrusted CA, an expired
    certificate; the client sends nothing over such a connection.)"""
    control_invocation(woa_client, woa_scenarios)
    cases = [("document", name) for name in BAD_CERTIFICATES] + [("invocation", name) for name in BAD_CERTIFICATES]
    each(cases, lambda case: (_document_over if case[0] == "document" else _invocation_over)(
        woa_client, woa_scenarios, case[1]))


def _plain_http(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: str) -> None:
    __tracebackhide__ = True
    base = {"http base": "http://{host}", "HTTP base": "HTTP://{host}"}.get(case)
    s = woa_scenarios.new(f"plain-{case.lower().replace(' ', '-')}", base=base)
    if base is not None:
        reply = woa_client.invoke(woa_scenarios, s, "summarizer", operation="default", input={"text": "hello"})
        if not s.requests():
            untestable(f"{case}: the client did not fetch the document of {s.authority}; {said(reply)} (see WOA-3-02)")
    else:
        authority = f"http://{s.host}" if case == "http origin" else s.host
        reply = woa_client.discover(woa_scenarios, s, authority=authority)
    plain = [r for r in s.requests() if r.listener == "http"]
    if plain:
        what = {"http base": "the document's REST base is http://" + s.host,
                "HTTP base": "the document's REST base is HTTP://" + s.host + " (a scheme is case-insensitive)",
                "http origin": f"asked to discover http://{s.host}",
                "bare name": f"asked to discover {s.host} (no scheme)"}[case]
        violation(f"{case}: {what}, and the client sent {plain[0].method} {plain[0].path} over plain HTTP; "
                  f"{said(reply)}")


@clause("WOA-8.1-05")
def test_8_1_client_never_uses_plain_http(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """Plain HTTP MUST NOT be used for WoA documents or REST invocations on the open Internet.
    (The scenario names stand for public names: AMB-13. A base written HTTP:// is plain HTTP
    too: schemes are case-insensitive, RFC 3986 3.1.)"""
    control_invocation(woa_client, woa_scenarios)
    each(["http origin", "bare name", "http base", "HTTP base"],
         lambda case: _plain_http(woa_client, woa_scenarios, case))
