"""v2.1 2.3 steps 5-7 and the downgrade sentence after them (client): partition by version,
select the highest supported version, one valid record per version, aid2 then aid1-only.
(The rule against choosing by answer order, AID-2.3-55, is test_2_3_client_selection.py's.)"""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, connected_to, said, scenario_key, txt
from conformance.aid.v2_1._discovery import after, aid2_works, failed, reads_aid1, record_of, several, shown
from conformance.outcomes import clause, not_applicable, untestable, violation

V1 = txt("aid1", u="https://{host}/v1")
V2 = txt(u="https://{host}/v2")


def _answers(scenario, texts) -> str:
    return " and ".join(shown(t, scenario) for t in texts)


@clause("AID-2.3-51")
def test_2_3_client_partitions_valid_records_by_version(client: AidClient, scenarios: AidScenarios) -> None:
    """Partition valid records by AID major version. (A valid aid1 record beside a valid aid2
    one, or two aid1 records beside one aid2, are no ambiguity: each version is its own partition.)"""
    aid2_works(client, scenarios)
    cases = [(V1, V2), (V2, V1), (txt("aid1"), txt()), (V1, V2, txt("aid1", u="https://{host}/v1b")),
             (txt("aid1", u="https://{host}/v1b"), V1, V2)]
    for texts in cases:
        scenario = several(scenarios, "partition", *texts)
        reply = client.discover(scenario)
        if failed(reply):
            violation(f"_agent.{scenario.zone_name} answers {_answers(scenario, texts)}: one valid aid2 record, the "
                      f"rest aid1; partitioned by version nothing is ambiguous, expected a result, and {said(reply)}",
                      readings=("AMB-60",))


#: (what, records, the u a client must use; None: the aid1 one, only for a client reading aid1).
HIGHEST = (("an aid3 record before the aid2 one", ("v=aid3;u=https://{host}/next;p=mcp", V2), "/v2"),
           ("an aid3 record after the aid2 one", (V2, "v=aid3;u=https://{host}/next;p=mcp"), "/v2"),
           ("an aid9 record with keys aid2 does not know", ("v=aid9;u=https://{host}/next;p=mcp;n=1", V2), "/v2"),
           ("an invalid aid1 record (k without i) beside a valid aid2", (txt("aid1", u="https://{host}/v1", k="{k1}"), V2), "/v2"),
           ("an aid2 record without p beside a valid aid1", (V1, "v=aid2;u=https://{host}/v2"), None),
           ("an aid2 record with a malformed k beside a valid aid1", (txt(u="https://{host}/v2", k="abc="), V1), None))


@clause("AID-2.3-52")
def test_2_3_client_selects_the_highest_supported_valid_version(client: AidClient, scenarios: AidScenarios) -> None:
    """Select the highest supported valid version allowed by local policy. (A higher version
    the client does not support is not selected; an invalid aid2 record leaves aid1 the highest
    valid version, for a client reading aid1: AMB-60.)"""
    aid2_works(client, scenarios)
    aid1 = reads_aid1(client, scenarios)
    for what, texts, path in HIGHEST:
        if path is None and not aid1:
            continue
        texts = tuple(t.replace("{k1}", scenario_key("aid1")) for t in texts)
        scenario = several(scenarios, "highest", *texts)
        reply = client.discover(scenario)
        want = f"https://{scenario.host}{path or '/v1'}"
        if connected_to(reply) != want:
            violation(f"_agent.{scenario.zone_name} answers {_answers(scenario, texts)} ({what}); the highest supported "
                      f"valid version is {'aid2' if path else 'aid1'}, expected a connection to {want}, and {said(reply)}",
                      readings=("AMB-60",))


@clause("AID-2.3-53")
def test_2_3_client_prefers_aid2_over_aid1(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients that support `aid2` **SHOULD** prefer `aid2` over `aid1`. (One valid record of
    each version, in both orders, other endpoints or other protocols.)"""
    aid2_works(client, scenarios)
    pairs = [(V1, V2), (txt("aid1", u="https://{host}/v1", p="a2a"), V2), (txt("aid1", u="https://{host}/v2", p="a2a"), V2)]
    for pair in pairs:
        for texts in (pair, pair[::-1]):
            scenario = several(scenarios, "prefer-aid2", *texts)
            reply = client.discover(scenario)
            if failed(reply):
                untestable(f"_agent.{scenario.zone_name} answers {_answers(scenario, texts)}, and {said(reply)}: no "
                           "result to judge a preference on (see AID-2.3-51)")
            version = record_of(reply).get("version")
            if connected_to(reply) != f"https://{scenario.host}/v2" or reply["connect"].get("protocol") != "mcp" \
                    or version not in (None, "aid2"):
                violation(f"_agent.{scenario.zone_name} answers {_answers(scenario, texts)}; expected the aid2 record "
                          f"used (https://{scenario.host}/v2, mcp), and the client connected to "
                          f"{connected_to(reply)!r} with protocol {reply['connect'].get('protocol')!r}"
                          + (f", record version {version!r}" if version else ""))


#: aid2 records that are not valid, to stand beside the valid one.
MALFORMED = ("v=aid2;p=mcp", "v=aid2;u=https://{host}/other", txt(u="https://{host}/other", k="abc="), "v=aid2",
             "v=aid2;not a pair;u=https://{host}/other;p=mcp", txt(u="https://{host}/other", p=""))


@clause("AID-2.3-54")
def test_2_3_client_uses_the_one_valid_record_and_fails_on_two(client: AidClient, scenarios: AidScenarios) -> None:
    """Within the selected version, if exactly one valid record exists, use it. If more than
    one valid record exists, fail with ambiguity. (Malformed aid2 records beside the valid one,
    in both orders; for a client that selects aid2 over aid1, two valid aid2 records beside a
    valid aid1 must not fall back to it: which aid2 record is chosen by order is AID-2.3-55's.)"""
    aid2_works(client, scenarios)
    for bad in MALFORMED:
        for texts in ((bad, V2), (V2, bad)):
            scenario = several(scenarios, "one-valid", *texts)
            reply = client.discover(scenario)
            if connected_to(reply) != f"https://{scenario.host}/v2":
                violation(f"_agent.{scenario.zone_name} answers {_answers(scenario, texts)}: exactly one valid aid2 "
                          f"record; expected it used (https://{scenario.host}/v2), and {said(reply)}")
    probe = several(scenarios, "prefers-aid2", V1, V2)
    if connected_to(client.discover(probe)) != f"https://{probe.host}/v2":
        return  # a client that does not select aid2 over aid1 may use the aid1 record (AID-2.3-52, -53)
    two = (txt(u="https://{host}/a"), txt(u="https://{host}/b"))
    for texts in ((V1, *two), (two[0], V1, two[1]), (*two, V1)):
        scenario = several(scenarios, "two-valid", *texts)
        reply = client.discover(scenario)
        if connected_to(reply) == f"https://{scenario.host}/v1" or reply.get("outcome") == "execute":
            violation(f"_agent.{scenario.zone_name} answers {_answers(scenario, texts)}: two valid aid2 records, "
                      f"the selected version is ambiguous; expected discovery to fail, and {said(reply)}")


@clause("AID-2.3-59")
def test_2_3_client_treats_aid1_after_aid2_as_a_downgrade(client: AidClient, scenarios: AidScenarios) -> None:
    """Returning clients that previously selected `aid2` **SHOULD** treat an `aid1`-only result
    as a version downgrade. (Warned of beyond what a first visit shows, or refused; with
    downgrade=fail, refused: 3.3.)"""
    aid2_works(client, scenarios)
    control = scenarios.new("aid1-first-visit", txt("aid1"))
    first_visit = client.discover(control)
    if connected_to(first_visit) != f"https://{control.host}/mcp":
        not_applicable(f"with the one record {txt('aid1')!r} {said(first_visit)}: the client does not use aid1 "
                       "records (optional for a v2.1 client, AMB-60), so it meets no aid1-only result")
    policies = [None] + ([{"downgrade": "fail"}] if "aid.policy" in client.features else [])
    for policy in policies:
        for before in ((txt(),), (txt(), txt("aid1", u="https://{host}/v1"))):
            scenario = several(scenarios, "downgrade", *before)
            session = client.session(scenario)
            reply = client.discover(scenario, session=session, policy=policy)
            if connected_to(reply) != f"https://{scenario.host}/mcp":
                untestable(f"_agent.{scenario.zone_name} answers {_answers(scenario, before)}, and {said(reply)}, "
                           f"not a connection to the aid2 record's https://{scenario.host}/mcp (see AID-2.3-53)")
            scenario.publish([txt("aid1", u=f"https://{scenario.host}/v1").encode()])
            reply = client.discover(scenario, session=session, policy=policy, at=after(300))
            if connected_to(reply) == f"https://{scenario.host}/mcp":
                untestable(f"returning after the TTL to {scenario.domain}, which now holds only an aid1 record naming "
                           f"/v1, the client still used the aid2 record it had before (see AID-4-16)")
            usual = {w.replace(control.host, scenario.host) for w in first_visit.get("warnings") or []}
            new = [w for w in reply.get("warnings") or [] if w not in usual]
            if policy and not failed(reply):
                violation(f"with downgrade=fail, the client selected aid2 at {scenario.domain} and, returning after "
                          f"the TTL to find only an aid1 record (naming /v1), still {said(reply)[len('the client '):]}")
            if not failed(reply) and not new:
                violation(f"the client selected aid2 at {scenario.domain} ({_answers(scenario, before)}); returning "
                          f"after the TTL it found only an aid1 record (naming /v1) and {said(reply)[len('the client '):]} with "
                          f"no warning beyond those a first visit shows ({sorted(usual) or 'none'})")
