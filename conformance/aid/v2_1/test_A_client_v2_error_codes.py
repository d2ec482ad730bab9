"""v2.1 Appendix A Client Error Codes (client): the existing family, 1000 to 1005."""

from __future__ import annotations

from conformance.aid.clients import ERROR_CODES, AidClient, AidScenarios, error_code, said, txt
from conformance.aid.v2_1._discovery import aid2_works, failed, several
from conformance.outcomes import clause, untestable, violation

#: Failures of every kind Table 1 names (a conforming client may fail on each).
FAILURES = (("no record (NXDOMAIN)", {"txt": None}),
            ("a malformed record (no u)", {"txt": "v=aid2;p=mcp"}),
            ("an aid2 record holding kid", {"txt": txt(kid="g1")}),
            ("two valid aid2 records", {"records": (txt(u="https://{host}/a"), txt(u="https://{host}/b"))}),
            ("a protocol token outside the registry", {"txt": txt(p="smtp")}),
            ("a bogus DNSSEC signature", {"txt": txt(), "bogus": True}),
            ("a SERVFAIL", {"txt": txt(), "fault": "servfail"}),
            ("a past dep", {"txt": txt(e="2020-01-01T00:00:00Z")}))


@clause("AID-A-04")
def test_A_client_keeps_the_existing_error_code_family(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **SHOULD** continue using the existing error code family. (Every failure is
    reported with a code of 1000 to 1005, by name or number, as v1.x's clients did.)"""
    aid2_works(client, scenarios)
    family = ", ".join(f"{name} ({n})" for name, n in ERROR_CODES.items())
    judged = 0
    for what, setup in FAILURES:
        setup = dict(setup)
        records = setup.pop("records", None)
        scenario = several(scenarios, "family", *records) if records else scenarios.new("family", setup.pop("txt"), **setup)
        reply = client.discover(scenario)
        if not failed(reply):
            continue  # whether it must fail is its step's clause
        judged += 1
        if error_code(reply) is None:
            violation(f"discovery failed on {what}, and the client reported {reply.get('error_kind')!r}, no code of the "
                      f"family ({family}); {said(reply)}")
    if not judged:
        untestable("the client failed on none of the failures Table 1 names, so its codes cannot be judged")
