"""4 Security Considerations (client): DNSSEC, TLS with host name matching, IDNA-2008."""

from __future__ import annotations

from conformance.aid.clients import (STATUS_PATH, AidClient, AidScenario, AidScenarios, connected_to, manifest,
                                     record, remote, said, untrusted_manifest)
from conformance.outcomes import clause, untestable, violation


def connects_to_record(client: AidClient, scenarios: AidScenarios, name: str, **options) -> None:
    """*Untestable* unless the client connects to the uri of a plain Simple Profile record
    published with ``options`` (a signed zone, say): the test's other scenario differs from it
    in one respect only."""
    __tracebackhide__ = True
    scenario = scenarios.new(name, record(), **options)
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://api.{scenario.host}/mcp":
        how = "in a correctly signed zone (its trust anchor given)" if options.get("sign") else "in an unsigned zone"
        untestable(f"with the plain record {record()!r} {how}, {said(reply)}, not a connection to its uri "
                   "(see AID-2.3-02)")


def reaching(scenario: AidScenario, other: AidScenario) -> AidScenario:
    """``scenario``, with a network that also reaches ``other``'s name (on ``other``'s listener):
    a manifest may name an endpoint on another host (AidScenario.network maps its own name only)."""
    own = scenario.network

    def network() -> dict:
        net = own()
        net["connect_to"] = list(net["connect_to"]) + list(other.web.network()["connect_to"])
        return net

    scenario.network = network  # type: ignore[method-assign]
    return scenario


@clause("AID-4-02")
def test_4_client_refuses_tampered_record(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **SHOULD** validate the signature on the AID record to ensure it has not been tampered with.
    (Signatures valid at the step's clock, ``now``, and at the wall clock; then a record changed
    after signing, and a signed answer replayed after its signatures expired: before ``now``
    and before the wall clock.)"""
    connects_to_record(client, scenarios, "unsigned")
    connects_to_record(client, scenarios, "signed", sign=True)
    for name, options, what in (
            ("tampered", {"bogus": True}, "was changed after signing (its uri now at attacker.invalid) and its "
                                          "RRSIG fails against the trust anchor given"),
            ("expired", {"expired": True}, "is signed with RRSIGs that expired the day before the step's clock "
                                           "(a replayed answer)")):
        scenario = scenarios.new(name, record(), sign=True, **options)
        # the user does not override (2.5: a DNSSEC failure lets the client go on only if the user does)
        reply = client.discover(scenario, user={"confirm": False, "consent": False})
        if reply.get("outcome") in ("connect", "execute"):
            violation(f"the TXT record at _agent.{scenario.zone_name} {what}, the user did not override, "
                      f"and {said(reply)}")


@clause("AID-4-06")
def test_4_client_checks_certificate_host_name(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST** perform standard TLS certificate validation, including host name matching."""
    client.needs("aid.manifest", "a client without manifest support sends no HTTPS request during discovery")
    what = "a certificate from the trusted CA for another host name"
    untrusted_manifest(client, scenarios, "wrong-name", what)
    # a revocation check (Appendix C) at another name, judged only if the client checks revocation
    status = scenarios.new("revocation-trusted", None)
    scenario = reaching(scenarios.new("revocation-check", record(config=True), manifest=manifest(
        remote("Cloud", "https://cloud.{host}/agent", revocationURL=status.url(STATUS_PATH)))), status)
    client.discover(scenario)
    if not status.requests(STATUS_PATH):
        return  # the client does not check revocation: no second HTTPS request to judge
    status = scenarios.new("revocation-wrong-name", None, listener="wrong-name")
    scenario = reaching(scenarios.new("revocation-check", record(config=True), manifest=manifest(
        remote("Cloud", "https://cloud.{host}/agent", revocationURL=status.url(STATUS_PATH)))), status)
    reply = client.discover(scenario)
    sent = status.requests()
    if sent:
        violation(f"the revocation endpoint {status.url(STATUS_PATH)} presents {what}, and the client completed "
                  f"the TLS handshake and sent {sent[0].method} {sent[0].path}; {said(reply)}")


@clause("AID-4-10")
def test_4_client_queries_idna_2008_a_label(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients SHOULD apply IDNA-2008 A-label conversion before DNS lookup for non-ASCII domains."""
    connects_to_record(client, scenarios, "ascii-domain")
    # a label IDNA 2003 maps otherwise (ß), one both map alike (ü), non-ASCII below an ASCII label
    for label, parent in (("straße", False), ("bücher", False), ("straße", True)):
        scenario = scenarios.new("idna", record(), unicode_label=label, unicode_parent=parent)
        before = len(scenario.dns.log)
        reply = client.discover(scenario)
        wanted = f"_agent.{scenario.zone_name}."
        asked = [q for q in scenario.dns.log[before:] if q.name.lower().endswith(f".{scenario.host}.")]
        if not any(q.name.lower() == wanted and q.rdtype == "TXT" for q in asked):
            names = ", ".join(f"{q.name} {q.rdtype}" for q in asked) or "nothing"
            violation(f"the user entered {scenario.domain}, whose IDNA-2008 A-label form is {scenario.zone_name}; "
                      f"the client sent no TXT query for {wanted} (it asked: {names}); {said(reply)}")
        if connected_to(reply) != f"https://api.{scenario.host}/mcp":
            violation(f"the record at {wanted} names https://api.{scenario.host}/mcp, and {said(reply)}")
