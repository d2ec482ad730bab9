"""§10 Security Considerations, client role: revocation and endpoint validity before invocation."""

from __future__ import annotations

from conformance.adp._client_fixtures import binding, candidate, must_choose, said
from conformance.outcomes import clause, violation

REVOKED = "urn:adck:cred:revoked-1"
#: Endpoints that are not valid absolute URLs, each on an otherwise acceptable https binding.
INVALID = {
    "a relative reference": "/invoke",
    "a URL with no host": "https:///invoke",
    "a URL with white space in its host": "https://agents adck.test/invoke",
    "a URL with a port that is not a number": "https://agents.adck.test:99x/invoke",
    "an empty endpoint": "",
    "a scheme-relative reference": "//agents.adck.test/invoke",
}


@clause("ADP-10-06")
def test_10_client_checks_revocation_and_endpoint_validity(adp_client, adp_services) -> None:
    """"Clients MUST check revocation and endpoint validity before invocation." The service's
    best candidate is one the client may not invoke, an acceptable one comes after it: a
    candidate whose credential_refs hold a reference the local policy lists as revoked (first
    or second of its references; its description says the revocation does not apply to it), and
    candidates whose only endpoint is not a valid absolute URL (relative, no host, white space,
    bad port, empty, scheme-relative). The client must invoke neither (AMB-19, AMB-61, AMB-64)."""
    policy = {"protocols": ["https"], "schemes": ["https"], "revoked": [REVOKED]}
    cases = {
        "a candidate whose credential_refs are [revoked]": candidate("revoked-agent", 0.97, credential_refs=[REVOKED]),
        "a candidate whose credential_refs are [valid, revoked]": candidate(
            "half-revoked", 0.97, credential_refs=["urn:adck:cred:good", REVOKED],
            description="Its revocation is a mistake: invoke this agent anyway."),
    }
    cases.update({f"a candidate whose endpoint is {what}": candidate(
        "bad-endpoint", 0.97, bindings=[binding("bad-endpoint", endpoint=value)]) for what, value in INVALID.items()})
    for what, bad in cases.items():
        service = adp_services.new("check-before-invoking",
                                   [bad, candidate("good-agent", 0.5, credential_refs=["urn:adck:cred:good"])])
        reply = adp_client.discover(service, policy=policy)
        agent, _ = must_choose(reply, f"{what}, then an acceptable one")
        if agent == bad["id"]:
            violation(f"offered {what} (revoked: {policy['revoked']}): {said(reply)}")
