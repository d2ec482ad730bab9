"""v1.2 3.2 Enterprise Policy Modes (client): the presets balanced and strict, the four knobs and what
each value does, key rotation notices.

The policy goes into each step (``policy``: ``{"mode": "strict"}`` or single knobs); a client
without enterprise controls (no ``aid.policy`` feature) leaves every clause here not applicable.
A refusal's code is judged by AID-2.3-42 (Table 1), not here.
"""

from __future__ import annotations

from conformance.aid.clients import AidClient, AidScenarios, connected_to, said
from conformance.aid.v1_2._client import (LATER, OTHER_SEED, aid1, endpoint, keyed, keyed_scenario, new_warnings,
                                          proof, proof_works, policy_works, refused, reread, republish,
                                          warnings_of)
from conformance.outcomes import clause, not_applicable, untestable, violation

BALANCED = {"pka": "if-present", "dnssec": "prefer", "well-known": "auto", "downgrade": "warn"}
STRICT = {"pka": "require", "dnssec": "require", "well-known": "disable", "downgrade": "fail"}
#: The .well-known fallback's JSON for a name without a record (Appendix E).
FALLBACK = '{"v":"aid1","u":"https://%s/mcp","p":"mcp"}'


def _fallback_route() -> dict:
    return {"path": "/.well-known/agent", "body": "text", "text": FALLBACK % "{host}",
            "headers": {"Content-Type": "application/json"}}


def _scenes(client: AidClient, scenarios: AidScenarios) -> dict[str, tuple]:
    """What distinguishes the knobs: name -> (scenario factory, steps); each step's reply is compared."""
    return {
        "an unsigned record with a proven key": lambda: keyed_scenario(scenarios, "p-unsigned-key"),
        "a signed record without a key": lambda: scenarios.new("p-signed-nokey", aid1(), sign=True),
        "a signed record with a proven key": lambda: keyed_scenario(scenarios, "p-signed-key", sign=True),
        "an unsigned record without a key": lambda: scenarios.new("p-unsigned-nokey", aid1()),
        "no record, the .well-known fallback served": lambda: scenarios.new("p-fallback", None,
                                                                            routes=[_fallback_route()]),
    }


def _verdict(scenario, reply: dict) -> str:
    uri = connected_to(reply)
    fetched = " after GET /.well-known/agent" if scenario.requests("/.well-known/agent") else ""
    return (f"connect{fetched}" if uri else f"no endpoint{fetched}")


def _compare(client: AidClient, scenarios: AidScenarios, preset: str, knobs: dict) -> None:
    """Each scenario of :func:`_scenes` discovered under mode=``preset``, under ``knobs`` and under no
    policy: the first two must agree (AMB-88); a strict that agrees with no policy everywhere is no preset."""
    __tracebackhide__ = True
    differs: list[str] = []
    same_as_default = True
    for what, make in _scenes(client, scenarios).items():
        made = [make() for _ in range(3)]
        replies = [client.discover(m, policy=p) for m, p in zip(made, ({"mode": preset}, dict(knobs), None))]
        seen = [_verdict(m, r) for m, r in zip(made, replies)]
        same_as_default = same_as_default and seen[0] == seen[2]
        if seen[0] != seen[1] and not differs:
            differs = [what, f"{seen[0]} ({said(replies[0])})", f"{seen[1]} ({said(replies[1])})"]
    if preset == "strict" and same_as_default:
        not_applicable("the preset strict changes nothing the client does (no preset surface: AID-3.2-01)")
    if differs:
        violation(f"{differs[0]}: under mode={preset} {differs[1]}, and under the knobs {knobs} {differs[2]}: "
                  f"the preset is not those knobs (AMB-88)")


@clause("AID-3.2-01")
def test_3_2_client_offers_the_presets(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients that expose enterprise controls **SHOULD** provide a preset mode surface and **MAY** also expose the
    underlying policy knobs directly."""
    policy_works(client, scenarios)
    # strict refuses an unsigned record without a key, which the default returns
    scenario = scenarios.new("preset-strict", aid1())
    reply = client.discover(scenario, policy={"mode": "strict"})
    if not refused(reply):
        violation(f"an unsigned record without a key, under mode=strict (pka require, dnssec require): "
                  f"{said(reply)}, as without a preset: the client has no preset strict (AMB-88)")


@clause("AID-3.2-03")
def test_3_2_client_balanced_is_its_four_knobs(client: AidClient, scenarios: AidScenarios) -> None:
    """`balanced` - `pka`: `if-present` - `dnssec`: `prefer` - `well-known`: `auto` - `downgrade`: `warn`"""
    policy_works(client, scenarios)
    _compare(client, scenarios, "balanced", BALANCED)
    # downgrade warn: a key removed since the last discovery still returns the record
    for policy in ({"mode": "balanced"}, BALANCED):
        scenario = keyed_scenario(scenarios, "balanced-removed")
        session = client.session(scenario)
        client.discover(scenario, session=session, policy=policy)
        scenario.publish([aid1().replace("{host}", scenario.host).encode()])
        reply = client.discover(scenario, at=LATER, session=session, policy=policy)
        if connected_to(reply) is None:
            violation(f"under {policy} (downgrade warn), a record whose key was removed since the last "
                      f"discovery: {said(reply)}")


@clause("AID-3.2-04")
def test_3_2_client_strict_is_its_four_knobs(client: AidClient, scenarios: AidScenarios) -> None:
    """`strict` - `pka`: `require` - `dnssec`: `require` - `well-known`: `disable` - `downgrade`: `fail`"""
    policy_works(client, scenarios)
    _compare(client, scenarios, "strict", STRICT)


@clause("AID-3.2-05")
def test_3_2_client_knobs_take_their_lenient_values(client: AidClient, scenarios: AidScenarios) -> None:
    """**PKA policy:** `if-present | require` - **DNSSEC policy:** `off | prefer | require` - **Well-known
    policy:** `auto | disable` - **Downgrade policy:** `off | warn | fail`"""
    policy_works(client, scenarios)
    # the values no other sentence of 3.2 describes (AMB-58): pka if-present, dnssec off, downgrade off
    for knobs in ({"pka": "if-present"}, {"dnssec": "off"}, {"pka": "if-present", "dnssec": "off", "downgrade": "off"}):
        scenario = scenarios.new("knob-lenient", aid1())
        reply = client.discover(scenario, policy=knobs)
        if connected_to(reply) != endpoint(scenario):
            violation(f"an unsigned record without a key under {knobs}: {said(reply)}")
    proof_works(client, scenarios, policy={"pka": "if-present"})
    scenario = keyed_scenario(scenarios, "downgrade-off")
    session = client.session(scenario)
    client.discover(scenario, session=session, policy={"downgrade": "off"})
    scenario.publish([aid1().replace("{host}", scenario.host).encode()])
    reply = client.discover(scenario, at=LATER, session=session, policy={"downgrade": "off"})
    if connected_to(reply) is None:
        violation(f"under downgrade=off (no downgrade tracked, AMB-58), a record whose key was removed since the "
                  f"last discovery: {said(reply)}")


@clause("AID-3.2-06")
def test_3_2_client_pka_require_fails_without_a_key(client: AidClient, scenarios: AidScenarios) -> None:
    """**PKA `require`:** discovery **MUST** fail with `ERR_SECURITY` if the selected record does not publish `pka`
    and `kid`."""
    policy_works(client, scenarios)
    proof_works(client, scenarios, policy={"pka": "require"})
    for record, what in ((aid1(), "neither pka nor kid"), (aid1(i="g1"), "kid (i=g1) but no pka"),
                         (aid1(s="Agent"), "neither, other keys")):
        for policy in ({"pka": "require"}, {"pka": "require", "dnssec": "prefer", "downgrade": "off"}):
            scenario = scenarios.new("pka-require", record)
            reply = client.discover(scenario, policy=policy)
            if not refused(reply):
                violation(f"under {policy}, the record {record!r} publishes {what}, and {said(reply)}")


@clause("AID-3.2-07")
def test_3_2_client_prefer_continues_without_validation(client: AidClient, scenarios: AidScenarios) -> None:
    """**DNSSEC `prefer`:** clients **SHOULD** continue when DNSSEC cannot be validated, but **SHOULD** surface a
    warning."""
    policy_works(client, scenarios)
    for what, scenario in _unvalidated(scenarios):
        reply = client.discover(scenario, policy={"dnssec": "prefer"})
        if connected_to(reply) != endpoint(scenario):
            violation(f"under dnssec=prefer, {what}: DNSSEC cannot validate it, and {said(reply)}")


@clause("AID-3.2-08")
def test_3_2_client_prefer_warns_without_validation(client: AidClient, scenarios: AidScenarios) -> None:
    """**DNSSEC `prefer`:** clients **SHOULD** continue when DNSSEC cannot be validated, but **SHOULD** surface a
    warning."""
    policy_works(client, scenarios)
    for what, scenario in _unvalidated(scenarios):
        reply = client.discover(scenario, policy={"dnssec": "prefer"})
        if connected_to(reply) is not None and not warnings_of(reply):
            violation(f"under dnssec=prefer, {what}: DNSSEC cannot validate it, and the client returned "
                      f"{connected_to(reply)!r} without a warning")


def _unvalidated(scenarios: AidScenarios) -> list:
    """Answers DNSSEC cannot validate: unsigned, and signed without a trust anchor for the client."""
    unsigned = scenarios.new("dnssec-unsigned", aid1())
    unanchored = scenarios.new("dnssec-no-anchor", aid1(), sign=True)
    unanchored.anchors = []
    return [("an unsigned answer", unsigned), ("an answer signed by a zone no trust anchor reaches", unanchored)]


@clause("AID-3.2-09")
def test_3_2_client_dnssec_require_fails_unvalidated_answers(client: AidClient, scenarios: AidScenarios) -> None:
    """**DNSSEC `require`:** clients **MUST** fail with `ERR_SECURITY` when DNSSEC validation is unavailable or
    unsuccessful for the selected DNS answer."""
    policy_works(client, scenarios)
    signed = scenarios.new("require-signed", aid1(), sign=True)
    if connected_to(client.discover(signed, policy={"dnssec": "require"})) != endpoint(signed):
        untestable("a record whose signature validates to the anchor given is not returned under dnssec=require "
                   "(see AID-3-02)")
    cases = [*_unvalidated(scenarios),
             ("an unsigned record with a key its endpoint proves", keyed_scenario(scenarios, "require-keyed")),
             ("a signed record whose signature does not validate", scenarios.new("require-bogus", aid1(), bogus=True))]
    for what, scenario in cases:
        reply = client.discover(scenario, policy={"dnssec": "require"})
        if not refused(reply):
            violation(f"under dnssec=require, {what}: validation is unavailable or unsuccessful, and {said(reply)}")


@clause("AID-3.2-10")
def test_3_2_client_well_known_disable_sends_no_fallback(client: AidClient, scenarios: AidScenarios) -> None:
    """**Well-known `disable`:** clients **MUST NOT** use `/.well-known/agent` fallback."""
    policy_works(client, scenarios)
    cases = {"no record at the name (NXDOMAIN)": dict(txt=None),
             "a lookup failure (SERVFAIL)": dict(txt=None, fault="servfail"),
             "only a TXT record that is no AID record": dict(txt="google-site-verification=abc")}
    for policy in ({"well-known": "disable"}, {"well-known": "disable", "dnssec": "prefer"}):
        for what, options in cases.items():
            scenario = scenarios.new("wk-disable", routes=[_fallback_route()], **options)
            reply = client.discover(scenario, policy=policy)
            fetched = scenario.requests("/.well-known/agent")
            if fetched or connected_to(reply) is not None:
                violation(f"under {policy}, {what}, and the client "
                          + (f"sent GET /.well-known/agent; {said(reply)}" if fetched else said(reply)))


def _removed(client: AidClient, scenarios: AidScenarios, policy: dict) -> tuple:
    """The reply to a discovery under ``policy`` of a record whose proven key was removed since the last one."""
    __tracebackhide__ = True
    scenario = keyed_scenario(scenarios, "key-removed", record=keyed(s="before"))
    session = client.session(scenario)
    first = client.discover(scenario, session=session, policy=policy)
    if connected_to(first) is None:
        untestable(f"under {policy}, a record with a proven key: {said(first)} (see AID-D-01)")
    asked = republish(scenario, aid1(s="after"))
    reply = client.discover(scenario, at=LATER, session=session, policy=policy)
    reread(scenario, asked, reply)
    return scenario, reply


@clause("AID-3.2-11")
def test_3_2_client_downgrade_warn_warns(client: AidClient, scenarios: AidScenarios) -> None:
    """**Downgrade `warn`:** if a previously seen `pka` disappears, clients **SHOULD** surface a warning."""
    policy_works(client, scenarios)
    proof_works(client, scenarios, policy={"downgrade": "warn"})
    for policy in ({"downgrade": "warn"}, {"downgrade": "warn", "pka": "if-present"}):
        scenario, reply = _removed(client, scenarios, policy)
        if connected_to(reply) is None or not new_warnings(client, scenario, reply, policy):
            violation(f"under {policy}, the key seen at the last discovery is gone, and {said(reply)}"
                      + ("" if connected_to(reply) is None else " without a warning"))


@clause("AID-3.2-13")
def test_3_2_client_downgrade_fail_fails(client: AidClient, scenarios: AidScenarios) -> None:
    """**Downgrade `fail`:** if a previously seen `pka` disappears, clients **MUST** fail with `ERR_SECURITY`."""
    policy_works(client, scenarios)
    proof_works(client, scenarios, policy={"downgrade": "fail"})
    for policy in ({"downgrade": "fail"}, {"downgrade": "fail", "dnssec": "prefer", "pka": "if-present"}):
        _, reply = _removed(client, scenarios, policy)
        if not refused(reply):
            violation(f"under {policy}, the key seen at the last discovery is gone, and {said(reply)}")


def _rotated(client: AidClient, scenarios: AidScenarios, policy: dict | None, new_key: bool) -> tuple:
    """The reply to a discovery of a record whose i changed (g1 to g2) since the last, its key
    proven (the same key, or a new one)."""
    __tracebackhide__ = True
    scenario = keyed_scenario(scenarios, "rotated", record=keyed(s="before"))
    session = client.session(scenario)
    first = client.discover(scenario, session=session, policy=policy)
    if connected_to(first) is None:
        untestable(f"under {policy}, a record with a proven key: {said(first)} (see AID-D-01)")
    seed = OTHER_SEED if new_key else None
    # the new record at another path, its endpoint proving the new key; the old one still proves the
    # old key, so a client that kept the old record is seen keeping it (AID-4-14), not failing here
    asked = republish(scenario, keyed(kid="g2", seed=seed, s="after", u="https://{host}/mcp2"))
    scenario.change(routes=[{**proof(kid="g2", seed=seed), "path": "/mcp2"}])
    reply = client.discover(scenario, at=LATER, session=session, policy=policy)
    reread(scenario, asked, reply)
    return scenario, reply


_ROTATIONS = ((False, "i changed from g1 to g2, the same key"), (True, "i changed from g1 to g2 with a new key"))


@clause("AID-3.2-12")
def test_3_2_client_notices_a_rotation_whatever_the_policy(client: AidClient, scenarios: AidScenarios) -> None:
    """If `pka` is still present but `kid` has changed, clients **SHOULD** surface a key-rotation notice regardless of
    policy."""
    proof_works(client, scenarios)
    policies = [None] + ([{"downgrade": "off"}, {"downgrade": "warn"}, {"dnssec": "off", "downgrade": "off"}]
                         if "aid.policy" in client.features else [])
    for policy in policies:
        for new_key, what in _ROTATIONS:
            scenario, reply = _rotated(client, scenarios, policy, new_key)
            if connected_to(reply) is not None and not new_warnings(client, scenario, reply, policy):
                violation(f"{what}, under {policy or 'the default policy'}: the client returned "
                          f"{connected_to(reply)!r} with no key-rotation notice")


@clause("AID-3.2-14")
def test_3_2_client_notices_a_rotation_under_fail(client: AidClient, scenarios: AidScenarios) -> None:
    """If `pka` is still present but `kid` has changed, clients **SHOULD** surface a key-rotation notice but
    **SHOULD NOT** fail, as key rotation is a normal operational event."""
    policy_works(client, scenarios)
    for new_key, what in _ROTATIONS:
        scenario, reply = _rotated(client, scenarios, {"downgrade": "fail"}, new_key)
        if connected_to(reply) is not None and not new_warnings(client, scenario, reply, {"downgrade": "fail"}):
            violation(f"{what}, under downgrade=fail: the client returned {connected_to(reply)!r} with no "
                      f"key-rotation notice")


@clause("AID-3.2-15")
def test_3_2_client_does_not_fail_a_rotation(client: AidClient, scenarios: AidScenarios) -> None:
    """If `pka` is still present but `kid` has changed, clients **SHOULD** surface a key-rotation notice but
    **SHOULD NOT** fail, as key rotation is a normal operational event."""
    policy_works(client, scenarios)
    for policy in ({"downgrade": "fail"}, {"downgrade": "fail", "pka": "require"}):
        for new_key, what in _ROTATIONS:
            _, reply = _rotated(client, scenarios, policy, new_key)
            if connected_to(reply) is None:
                violation(f"{what}, the new proof valid, under {policy}: {said(reply)}")


@clause("AID-3.2-16")
def test_3_2_client_well_known_cannot_satisfy_dnssec_require(client: AidClient, scenarios: AidScenarios) -> None:
    """If discovery succeeds only through `.well-known`, that result cannot satisfy `dnssec=require`."""
    policy_works(client, scenarios)
    control = scenarios.new("wk-control", None, routes=[_fallback_route()])
    if connected_to(client.discover(control, policy={"well-known": "auto"})) is None:
        not_applicable("the client does not use the .well-known fallback where no record exists (a MAY, 2.3 step 2)")
    cases = {"no record at the name (NXDOMAIN)": dict(txt=None),
             "no record in a signed zone (a validated NXDOMAIN)": dict(txt=None, sign=True),
             "a lookup failure (SERVFAIL)": dict(txt=None, fault="servfail"),
             "only a TXT record that is no AID record": dict(txt="google-site-verification=abc")}
    for policy in ({"dnssec": "require"}, {"dnssec": "require", "well-known": "auto"}):
        for what, options in cases.items():
            scenario = scenarios.new("wk-require", routes=[_fallback_route()], **options)
            reply = client.discover(scenario, policy=policy)
            if not refused(reply):
                violation(f"under {policy}, {what}, the record served only at /.well-known/agent: {said(reply)}")
