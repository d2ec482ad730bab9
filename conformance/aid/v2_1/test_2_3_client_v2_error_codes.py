"""v2.1 Table 1 (client): the code each failure mode is reported with (rows 1000 to 1004; 1005
and the lead-in are test_2_3_client_discovery.py's, shared with v1.2).

Each row is a SHOULD under the lead-in's SHOULD (AID-2.3-38). A row judges the failures a
client reported with a code of the family: a case it did not fail is its step's clause, and
a failure reported without a code of Table 1 is AID-2.3-38's and AID-A-04's.
"""

from __future__ import annotations

from conformance.aid import pka
from conformance.aid.clients import AidClient, AidScenario, AidScenarios, error_code, pka_route, said, scenario_key, txt
from conformance.aid.v2_1._discovery import WELL_KNOWN, aid2_works, failed, several, shown
from conformance.aid.versioned import PROTOCOLS
from conformance.outcomes import clause, untestable, violation


class Row:
    """The failures of one row, judged one by one."""

    def __init__(self, client: AidClient, code: str) -> None:
        self.client, self.code, self.judged = client, code, 0

    def check(self, scenario: AidScenario, what: str, *, policy: dict | None = None,
              also: tuple[str, ...] = ()) -> None:
        """``scenario`` fails by ``what``: the client reports this row's code (or one of ``also``,
        other codes a reading of the text allows there)."""
        __tracebackhide__ = True
        reply = self.client.discover(scenario, policy=policy)
        if not failed(reply):
            return  # whether it must fail is its step's clause
        code = error_code(reply)
        if code is None:
            return  # no code of the family: AID-2.3-38, AID-A-04
        self.judged += 1
        allowed = (self.code, *also)
        if code not in allowed:
            knobs = f" (policy {policy})" if policy else ""
            violation(f"discovery failed on {what}{knobs}; expected {' or '.join(allowed)}, and the client reported "
                      f"{reply.get('error_kind')!r} ({code}); {said(reply)}")

    def done(self) -> None:
        __tracebackhide__ = True
        if not self.judged:
            untestable(f"the client reported no failure of this row with a code of Table 1, so the use of "
                       f"{self.code} cannot be judged (see AID-2.3-38)")


def _no_fallback(client: AidClient) -> dict | None:
    return {"well-known": "disable"} if "aid.policy" in client.features else None


#: What _agent.<host> answers when there is no AID record there.
NO_RECORD = (("NXDOMAIN", None, ""), ("NODATA", None, "_agent 300 IN A 127.0.0.1\n"),
             ("only a TXT record that is no AID record", "hello=world", ""),
             ("only TXT data without a v key", "uri=https://{host}/mcp;proto=mcp", ""))


@clause("AID-2.3-62")
def test_2_3_client_reports_no_record_as_1000(client: AidClient, scenarios: AidScenarios) -> None:
    """| `1000` | `ERR_NO_RECORD` | No AID DNS record was found. | (With the fallback disabled
    where the client has the knob; without it, a 404 fallback: ERR_FALLBACK_FAILED accepted
    then.)"""
    aid2_works(client, scenarios)
    row = Row(client, "ERR_NO_RECORD")
    for how, text, zone in NO_RECORD:
        if (policy := _no_fallback(client)) is not None:
            row.check(scenarios.new("no-record", text, zone=zone), f"_agent answering {how}, the fallback disabled",
                      policy=policy)
        scenario = scenarios.new("no-record", text, zone=zone)
        row.check(scenario, f"_agent answering {how}, and GET {WELL_KNOWN} answering 404",
                  also=("ERR_FALLBACK_FAILED",))
    row.done()


@clause("AID-2.3-63")
def test_2_3_client_reports_malformed_invalid_and_ambiguous_records_as_1001(
        client: AidClient, scenarios: AidScenarios) -> None:
    """| `1001` | `ERR_INVALID_TXT` | A record was malformed, invalid, or ambiguous. |"""
    aid2_works(client, scenarios)
    row = Row(client, "ERR_INVALID_TXT")
    cases = [("malformed: no u", ("v=aid2;p=mcp",)), ("malformed: no p", ("v=aid2;u=https://{host}/mcp",)),
             ("malformed: not key=value", ("v=aid2;u=https://{host}/mcp;p=mcp;oops",)),
             ("malformed: u beside uri", ("v=aid2;u=https://{host}/mcp;uri=https://{host}/mcp;p=mcp",)),
             ("invalid: kid in aid2", (txt(kid="g1"),)), ("invalid: i in aid2", (txt(i="g1"),)),
             ("invalid: a k that is not 32 octets", (txt(k="AAAA"),)),
             ("ambiguous: two valid aid2 records", (txt(u="https://{host}/a"), txt(u="https://{host}/b")))]
    for what, texts in cases:
        scenario = several(scenarios, "invalid-txt", *texts)
        row.check(scenario, f"{' and '.join(shown(t, scenario) for t in texts)} ({what})")
    row.done()


@clause("AID-2.3-64")
def test_2_3_client_reports_an_unsupported_protocol_as_1002(client: AidClient, scenarios: AidScenarios) -> None:
    """| `1002` | `ERR_UNSUPPORTED_PROTO` | The protocol token is unsupported. | (Registered tokens
    the client does not speak; tokens outside the registry, where ERR_INVALID_TXT is accepted
    too: the record then breaks "Protocol token from the protocol registry".)"""
    aid2_works(client, scenarios)
    row = Row(client, "ERR_UNSUPPORTED_PROTO")
    spoken = client.adapter.protocols
    schemes = {"https": "https://{host}/agent", "wss": "wss://{host}/agent", "docker": "docker:example/agent:1",
               "npx": "npx:example-agent", "pip": "pip:example-agent", "zeroconf": "zeroconf:_mcp._tcp"}
    if spoken:
        for token, allowed in PROTOCOLS.items():
            if token not in spoken:
                text = txt(u=schemes[allowed[0]], p=token)
                scenario = scenarios.new("unsupported", text)
                row.check(scenario, f"{shown(text, scenario)} (p={token}, a registered token the client does not "
                                    f"speak: it speaks {', '.join(spoken)})")
    for token in ("smtp", "x-custom", "MCP2"):
        text = txt(p=token)
        scenario = scenarios.new("unsupported", text)
        row.check(scenario, f"{shown(text, scenario)} (p={token}, no registered token)", also=("ERR_INVALID_TXT",))
    row.done()


@clause("AID-2.3-65")
def test_2_3_client_reports_security_failures_as_1003(client: AidClient, scenarios: AidScenarios) -> None:
    """| `1003` | `ERR_SECURITY` | Discovery failed due to security policy or failed endpoint proof. |
    (A bogus DNSSEC signature, a failed endpoint proof, and the policies pka=require and
    dnssec=require where the client has the knobs: AMB-62.)"""
    aid2_works(client, scenarios)
    row = Row(client, "ERR_SECURITY")
    row.check(scenarios.new("bogus", txt(), bogus=True), "a TXT answer whose DNSSEC signature does not validate")
    if "aid.pka" in client.features:
        for broken in ("wrong-key", "stale-created", "wrong-keyid"):
            if broken in pka.BREAKS:
                scenario = scenarios.new("proof-fails", txt(k=scenario_key()), routes=[pka_route(breaks=(broken,))])
                row.check(scenario, f"a record with k whose endpoint's proof is broken ({broken})")
    if "aid.policy" in client.features:
        row.check(scenarios.new("pka-required", txt()), "a record without k under pka=require", policy={"pka": "require"})
        row.check(scenarios.new("dnssec-required", txt()), "an unsigned answer under dnssec=require",
                  policy={"dnssec": "require"})
    row.done()


@clause("AID-2.3-66")
def test_2_3_client_reports_a_failed_lookup_as_1004(client: AidClient, scenarios: AidScenarios) -> None:
    """| `1004` | `ERR_DNS_LOOKUP_FAILED` | DNS lookup failed for network-related reasons. |
    (SERVFAIL, a truncated answer even over TCP, no answer at all; with the fallback disabled
    where the client has the knob; without it, a 404 fallback: ERR_FALLBACK_FAILED accepted then.)"""
    aid2_works(client, scenarios)
    row = Row(client, "ERR_DNS_LOOKUP_FAILED")
    for fault, how in (("servfail", "SERVFAIL"), ("truncate-always", "a truncated answer, over TCP too"),
                       ("drop", "no answer at all")):
        if (policy := _no_fallback(client)) is not None:
            row.check(scenarios.new("lookup-fails", txt(), fault=fault), f"{how} for _agent, the fallback disabled",
                      policy=policy)
        if fault == "servfail":
            row.check(scenarios.new("lookup-fails", txt(), fault=fault),
                      f"{how} for _agent, and GET {WELL_KNOWN} answering 404", also=("ERR_FALLBACK_FAILED",))
    row.done()
