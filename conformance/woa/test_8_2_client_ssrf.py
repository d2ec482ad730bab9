"""§8.2 Server Side Request Forgery (client): no invocation to a REST base, or a redirect
target, that resolves to a private or link-local address (AMB-21).

The private resolution is declared in the step's ``network.resolve`` (``HOST:ADDRESS``) while
``connect_to`` still maps the name to the kit's loopback listener: a client that sends anyway
is recorded by the scenario world, and nothing ever leaves the machine."""

from __future__ import annotations

from conformance.outcomes import clause, untestable, violation
from conformance.woa._client_fixtures import WoaClient, WoaScenarios, agent, control_invocation, each, posts, said

#: Private and link-local addresses of 8.2 (AMB-21), IPv4, IPv6 and IPv4-mapped.
PRIVATE_ADDRESSES = ["10.20.30.40", "172.16.5.4", "192.168.1.10", "169.254.169.254", "fd00::1", "fe80::1",
                     "::ffff:10.0.0.1"]


def _private_base(woa_client: WoaClient, woa_scenarios: WoaScenarios, address: str) -> None:
    __tracebackhide__ = True
    internal = woa_scenarios.new("internal", private=address)
    s = woa_scenarios.new("public-origin", base=f"https://{internal.host}")
    reply = woa_client.invoke(woa_scenarios, s, "summarizer", operation="default", input={"text": "hello"})
    if not s.requests():
        untestable(f"the client did not fetch the document of {s.authority}; {said(reply)} (see WOA-3-02)")
    if sent := internal.requests():
        violation(f"the document's REST base is https://{internal.host}, which resolves to {address}, and the client "
                  f"(not configured to allow private addresses) sent {sent[0].method} {sent[0].path} to it")


@clause("WOA-8.2-02")
def test_8_2_client_no_invocation_to_private_addresses(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """In particular, clients SHOULD NOT automatically send invocation requests to URLs that
    resolve to private or link local address ranges, such as those defined in [RFC1918],
    unless explicitly configured to do so by an administrator. (REST bases whose names resolve to
    each range; for a client that speaks MCP, an MCP server URL too.)"""
    control_invocation(woa_client, woa_scenarios)
    cases = [("rest", address) for address in PRIVATE_ADDRESSES]
    if "woa.mcp" in woa_client.adapter.features:
        cases.append(("mcp", "10.20.30.41"))
    each(cases, lambda case: (_private_base if case[0] == "rest" else _private_mcp_server)(
        woa_client, woa_scenarios, case[1]))


def _private_mcp_server(woa_client: WoaClient, woa_scenarios: WoaScenarios, address: str) -> None:
    """An agent listing only mcp, whose MCP server's name resolves to a private address."""
    __tracebackhide__ = True
    internal = woa_scenarios.new("internal-mcp", private=address, routes=[{"path": "/mcp", "handler": "woa.client-mcp"}])
    config = {"server": f"https://{internal.host}/mcp", "tool_namespace": "kit", "tool_field": "agent"}
    s = woa_scenarios.new("public-origin", patch=[{"op": "add", "path": "/transports/mcp", "value": config}],
                          agents=[agent("tooler", transports=["mcp"])])
    reply = woa_client.invoke(woa_scenarios, s, "tooler", input={"text": "hello"})
    if sent := internal.requests():
        violation(f"agent tooler's MCP server is https://{internal.host}/mcp, which resolves to {address}, and the "
                  f"client (not configured to allow private addresses) sent {sent[0].method} {sent[0].path} to it; "
                  f"{said(reply)}")


def _redirect(location: str) -> dict:
    return {"path": "/agents/summarizer/invoke", "method": "POST", "status": 307, "body": "empty",
            "headers": {"Location": location}, "remove_headers": ["Content-Type"]}


def _redirected(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: tuple[str, str]) -> None:
    __tracebackhide__ = True
    hops, address = case
    internal = woa_scenarios.new("internal", private=address)
    target = f"https://{internal.host}/agents/summarizer/invoke"
    if hops == "one redirect":
        s = woa_scenarios.new("redirecting", routes=[_redirect(target)])
    else:
        relay = woa_scenarios.new("relay", routes=[_redirect(target)])
        s = woa_scenarios.new("redirecting", routes=[_redirect(f"https://{relay.host}/agents/summarizer/invoke")])
    reply = woa_client.invoke(woa_scenarios, s, "summarizer", operation="default", input={"text": "hello"})
    if not posts(s):
        untestable(f"{hops}: the client sent no invocation to {s.host}; {said(reply)} (see WOA-3-02)")
    if sent := internal.requests():
        violation(f"{hops}: the invocation was redirected (307) towards https://{internal.host}, which resolves to "
                  f"{address}, and the client followed: it sent {sent[0].method} {sent[0].path} there")


@clause("WOA-8.2-04")
def test_8_2_client_validates_redirect_targets(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """SHOULD apply the same validation to the redirect target. (An invocation answered with
    307 to another authority that resolves to a private or link-local address, directly or
    after a hop through a public name, is not followed there: AMB-21.)"""
    each([("one redirect", "10.9.8.7"), ("two redirects", "169.254.169.254")],
         lambda case: _redirected(woa_client, woa_scenarios, case))
