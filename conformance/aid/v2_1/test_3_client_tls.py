"""v1.2 3 and v2.1 3 (client): "Clients **MUST** perform standard TLS certificate and hostname validation."

Held word for word by both revisions (AID-3-04), tested once here. Discovery's own HTTPS requests
are the endpoint proof's handshake (v1.2 Appendix D, v2.1 Appendix B) and the .well-known fallback
(v1.2 E, v2.1 C); each is served by a name whose certificate fails validation: a certificate of
the kit's CA for another name, one for the right name from a CA the client was not told to trust,
and one that expired years ago. The client must abandon the request (no HTTP request reaches the
server: the TLS handshake fails first) and use nothing from it.
"""

from __future__ import annotations

from conformance.aid.clients import (AidClient, AidScenarios, connected_to, pka_route, said, scenario_key, txt)
from conformance.outcomes import clause, untestable, violation

LISTENERS = {"wrong-name": "a certificate for another host name",
             "untrusted": "a certificate from an issuer the client does not trust",
             "expired": "a certificate that expired years ago"}
FALLBACK = '{"v":"%s","u":"https://%s/mcp","p":"mcp"}'


def _versions(client: AidClient) -> list[str]:
    """The record versions the client reads: aid1 (v1.2), aid2 (v2.1)."""
    return [v for v, feature in (("aid1", "aid.v1.2"), ("aid2", "aid.v2.1")) if feature in client.features] or ["aid2"]


def _keyed(version: str) -> tuple[str, dict]:
    extra = {"i": "g1"} if version == "aid1" else {}
    return (txt(version, k=scenario_key(version), **extra),
            pka_route(version, **({"kid": "g1"} if version == "aid1" else {})))


def _fallback(version: str) -> dict:
    return {"path": "/.well-known/agent", "body": "text", "text": FALLBACK % (version, "{host}"),
            "headers": {"Content-Type": "application/json"}}


def _judge(scenario, reply: dict, what: str, request: str) -> None:
    __tracebackhide__ = True
    sent = scenario.requests()
    if sent:
        violation(f"{scenario.host} presents {what}, and the client completed the TLS handshake of {request} and "
                  f"sent {sent[0].method} {sent[0].path}; {said(reply)}")
    if connected_to(reply) is not None:
        violation(f"{scenario.host} presents {what} to {request}, and {said(reply)}")


@clause("AID-3-04")
def test_3_client_validates_certificates_and_host_names(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST** perform standard TLS certificate and hostname validation."""
    judged = 0
    for version in _versions(client):
        if "aid.pka" in client.features:
            record, route = _keyed(version)
            control = scenarios.new(f"tls-pka-{version}", record, routes=[route])
            if connected_to(client.discover(control)) == f"https://{control.host}/mcp":
                judged += 1
                for listener, what in LISTENERS.items():
                    scenario = scenarios.new(f"tls-pka-{listener}", record, routes=[route], listener=listener)
                    _judge(scenario, client.discover(scenario), what, f"the endpoint proof's request ({version})")
        if "aid.well-known" in client.features:
            control = scenarios.new(f"tls-wk-{version}", None, routes=[_fallback(version)])
            if connected_to(client.discover(control)) == f"https://{control.host}/mcp":
                judged += 1
                for listener, what in LISTENERS.items():
                    scenario = scenarios.new(f"tls-wk-{listener}", None, routes=[_fallback(version)],
                                             listener=listener)
                    _judge(scenario, client.discover(scenario), what, f"GET /.well-known/agent ({version})")
    if not judged:
        untestable("the client sends no HTTPS request of its own in discovery: neither a record with a key whose "
                   "endpoint proves it nor a name served only by /.well-known/agent gave an endpoint (see AID-D-01, "
                   "AID-2.3-22)")
