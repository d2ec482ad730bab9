"""§4.4 Version Negotiation (agent role)."""

from __future__ import annotations

import json

from conformance.aiendpoint.conftest import Client, Scenarios, each, said
from conformance.outcomes import clause, violation
from conformance.world.site import load_reference

#: "aiendpoint" values no version of the draft defines: words, empty, pre-release and prefixed
#: spellings (none of them higher than 1.0: that space is 4.4-02's). Not a JSON number: a value
#: of the wrong type may be taken for a missing required field (4.1 step 4, 4.3-06).
UNRECOGNIZED = ["next", "", "v1", "1.0-beta", "1.0-draft+exp.sha.5114f85"]
#: Values higher than 1.0: minor and major, two-digit parts (1.10 is higher than 1.9, not
#: 1.1), a patch level.
#: The capabilities of the reference document, which a 1.0 parse finds.
CAPABILITY_IDS = {c["id"] for c in load_reference("aiendpoint").document["capabilities"]}
HIGHER = ["1.1", "1.10", "2.0", "10.3", "1.0.1"]


@clause("AIE-4.4-01")
def test_4_4_agent_parses_unrecognized_version(client: Client, scenarios: Scenarios) -> None:
    """An AI agent that encounters an "aiendpoint" value it does not recognize SHOULD still
    attempt to parse the document using the rules of the highest version it supports. (Values
    that are not versions the draft defines, each on 1.0 content: the document is accepted and
    its capabilities are found as 1.0 finds them.)"""

    def check(version: object) -> None:
        s = scenarios.new("version-unrecognized", patch=[{"op": "replace", "path": "/aiendpoint", "value": version}])
        reply = client.discover(s)
        if reply["outcome"] != "document":
            violation(f'a document with "aiendpoint": {json.dumps(version)} and 1.0 content was served and {said(reply)}')
        reported = {c.get("id") for c in reply.get("capabilities", []) if isinstance(c, dict)}
        if "capabilities" in reply and not reported & CAPABILITY_IDS:
            violation(f'a document with "aiendpoint": {json.dumps(version)} was accepted, but none of its 1.0 '
                      "capabilities is reported: it was not parsed with the 1.0 rules")

    each(UNRECOGNIZED, check)


@clause("AIE-4.4-02")
def test_4_4_agent_accepts_higher_version(client: Client, scenarios: Scenarios) -> None:
    """An AI agent MUST NOT reject a document solely because the "aiendpoint" value is higher
    than the version it supports. (The sentence speaks of any higher value, major versions
    included: each of them on 1.0 content, which the agent can parse.)"""

    def check(version: str) -> None:
        s = scenarios.new("version-higher", patch=[{"op": "replace", "path": "/aiendpoint", "value": version}])
        reply = client.discover(s)
        if reply["outcome"] != "document":
            violation(f'a 1.0 document labelled "aiendpoint": "{version}" was served and {said(reply)}')

    each(HIGHER, check)


@clause("AIE-4.4-02")
def test_4_4_agent_accepts_higher_version_with_unknown_fields(client: Client, scenarios: Scenarios) -> None:
    """An AI agent MUST NOT reject a document solely because the "aiendpoint" value is higher
    than the version it supports. (4.4: a 1.0 agent processes a 1.1 document by ignoring
    unknown fields: at the top level, in a capability, in service.)"""

    def check(version: str) -> None:
        s = scenarios.new("version-higher-additive", patch=[
            {"op": "replace", "path": "/aiendpoint", "value": version},
            {"op": "add", "path": "/webhooks", "value": {"events": "/api/events"}},
            {"op": "add", "path": "/service/region", "value": "eu"},
            {"op": "add", "path": "/capabilities/0/examples", "value": ["q=groceries"]}])
        reply = client.discover(s)
        if reply["outcome"] != "document":
            violation(f'a "{version}" document with fields 1.0 does not define was served and {said(reply)}')

    each(["1.1", "2.0"], check)


@clause("AIE-4.4-02")
def test_4_4_agent_accepts_generated_higher_versions(client: Client, scenarios: Scenarios, adck_seed: int) -> None:
    """An AI agent MUST NOT reject a document solely because the "aiendpoint" value is higher
    than the version it supports. Hypothesis draws dotted versions higher than 1.0 (AMB-20)."""
    from hypothesis import given
    from hypothesis import strategies as st

    from conformance.generated import generated

    parts = st.lists(st.integers(0, 120), min_size=2, max_size=3).filter(lambda p: tuple(p) > (1, 0))

    @generated(adck_seed, max_examples=4)
    @given(version=parts.map(lambda p: ".".join(map(str, p))))
    def check(version: str) -> None:
        s = scenarios.new("generated-version-higher", patch=[{"op": "replace", "path": "/aiendpoint", "value": version}])
        reply = client.discover(s)
        if reply["outcome"] != "document":
            violation(f'a 1.0 document labelled "aiendpoint": "{version}" was served and {said(reply)}')

    check()


@clause("AIE-4.4-01")
def test_4_4_agent_parses_generated_unrecognized_versions(client: Client, scenarios: Scenarios,
                                                          adck_seed: int) -> None:
    """An AI agent that encounters an "aiendpoint" value it does not recognize SHOULD still
    attempt to parse the document using the rules of the highest version it supports.
    Hypothesis draws strings that are not dotted versions."""
    import re

    from hypothesis import given
    from hypothesis import strategies as st

    from conformance.generated import generated

    @generated(adck_seed, max_examples=4)
    @given(version=st.text(max_size=20).filter(lambda v: re.fullmatch(r"\d+(\.\d+)*", v) is None))
    def check(version: str) -> None:
        s = scenarios.new("generated-version-unrecognized",
                          patch=[{"op": "replace", "path": "/aiendpoint", "value": version}])
        reply = client.discover(s)
        if reply["outcome"] != "document":
            violation(f'a document with "aiendpoint": {json.dumps(version)} and 1.0 content was served and {said(reply)}')

    check()
