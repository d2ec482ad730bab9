"""Appendix A, scheme mtls (client): a client certificate from files the user names, and its
passphrase asked masked.

The scenario's manifest has one remote implementation whose authentication scheme is mtls
with ``certificate: {"source": "file"}``; the client says what it asked (``prompts``).
"""

from __future__ import annotations

import json

from conformance.aid.clients import (AidClient, AidScenario, AidScenarios, found_record, manifest, prompts, record,
                                     remote, said)
from conformance.outcomes import clause, not_applicable, untestable, violation


def _mtls(scenarios: AidScenarios, name: str) -> AidScenario:
    impl = remote("Cloud (mTLS)", "https://cloud.{host}/agent",
                  authentication={"scheme": "mtls", "description": "Your Example client certificate"},
                  certificate={"source": "file"})
    return scenarios.new(name, record(config=True), manifest=manifest(impl))


@clause("AID-A-01")
def test_A_client_prompts_for_certificate_files(client: AidClient, scenarios: AidScenarios) -> None:
    """If `certificate.source` = `file`, clients **MUST** prompt for the necessary file paths."""
    client.needs("aid.manifest", "the certificate object is in a manifest")
    scenario = _mtls(scenarios, "mtls-file")
    reply = client.discover(scenario)
    found_record(reply)
    asked = prompts(reply, "path")
    if asked:
        return
    if reply.get("outcome") == "connect":
        if reply["connect"].get("uri") != f"https://cloud.{scenario.host}/agent":
            untestable(f"the client did not use the manifest's mtls implementation: {said(reply)} (see AID-2.3-08)")
        kinds = [p.get("kind") for p in reply.get("prompts", [])]
        violation(f"the implementation authenticates by mtls with certificate.source file and the client asked for "
                  f"no file path (its prompts: {json.dumps(kinds)}); {said(reply)}")
    untestable(f"the client asked for no file path and would not connect: {said(reply)} (see AID-2.3-15)")


@clause("AID-A-02")
def test_A_client_masks_passphrase(client: AidClient, scenarios: AidScenarios) -> None:
    """Any associated passphrases **MUST** be requested in a masked/secure input."""
    client.needs("aid.manifest", "the certificate object is in a manifest")
    scenario = _mtls(scenarios, "mtls-passphrase")
    reply = client.discover(scenario)
    found_record(reply)
    # In this scenario the only secret is the key's passphrase, whatever kind of prompt asks for it.
    secret = prompts(reply, "passphrase") + prompts(reply, "credential")
    if not secret:
        not_applicable(f"the client asked for no passphrase of the certificate's key; {said(reply)}")
    shown = [p for p in secret if p.get("masked") is not True]
    if shown:
        violation(f"the client asked for the passphrase of the mtls client key in an unmasked input: "
                  f"{json.dumps(shown)}")
