"""v2.1 2.3 steps 5-7 (client): partition the valid records by version, select, fail on ambiguity."""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, connected_to, error_code, said, txt
from conformance.outcomes import clause, untestable, violation


def _aid2_works(client: AidClient, scenarios: AidScenarios) -> None:
    """*Untestable* unless the client connects to the u of one plain aid2 record."""
    __tracebackhide__ = True
    scenario = scenarios.new("plain-aid2", txt())
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://{scenario.host}/mcp":
        untestable(f"with the one record {txt()!r} {said(reply)}, not a connection to its u (see AID-2.3-58)")


@clause("AID-2.3-55")
def test_2_3_client_never_picks_one_of_several_valid_records(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **MUST NOT** choose among multiple valid same-version records by DNS answer order."""
    _aid2_works(client, scenarios)
    # two valid aid2 records: other endpoints, other protocols, the same endpoint written twice
    # with other optional keys; each set in both orders (a mock server answers in zone order)
    pairs = [(txt(u="https://{host}/a"), txt(u="https://{host}/b")),
             (txt(), txt(p="a2a")),
             (txt(), txt(s="Second")),
             (txt(), "V=aid2;U=https://{host}/mcp;P=mcp")]
    for n, (first, second) in enumerate(pairs):
        for order in ((first, second), (second, first)):
            scenario = scenarios.new(f"two-valid-{n}", None, zone="".join(
                f'_agent 300 IN TXT "{t}"\n' for t in order))
            reply = client.discover(scenario)
            if connected_to(reply) is not None or reply.get("outcome") == "execute":
                violation(f"_agent.{scenario.zone_name} holds two valid aid2 records {order[0]!r} and "
                          f"{order[1]!r}: discovery must fail with ambiguity, and {said(reply)}")
            code = error_code(reply)
            if code not in (None, "ERR_INVALID_TXT"):
                violation(f"two valid aid2 records are ambiguous ('A record was malformed, invalid, or "
                          f"ambiguous': ERR_INVALID_TXT), and the client reported {reply.get('error_kind')!r}")
