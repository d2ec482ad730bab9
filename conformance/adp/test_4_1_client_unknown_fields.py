"""§4.1 Agent Metadata Fields, client role: unknown fields are ignored."""

from __future__ import annotations

from conformance.adp._client_fixtures import binding, candidate, metadata, must_choose, said
from conformance.outcomes import clause, violation

#: Members the draft does not define, at each level (never inside score_components: ADP-6.3-04).
UNKNOWN = {"x_vendor": {"plan": "gold", "regions": ["eu"]}, "x_list": [1, "two", None], "x_null": None,
           "x_flag": True}


def _with_unknown(value: dict) -> dict:
    return {**value, **UNKNOWN}


@clause("ADP-4.1-25")
def test_4_1_client_ignores_unknown_fields(adp_client, adp_services) -> None:
    """"Implementations SHOULD ignore unknown fields for forward compatibility". The same
    Discovery Response, and the same agent metadata of a D0 publisher, are offered without and
    with members the draft does not define (objects, arrays, null, booleans) at the top level,
    in each candidate or metadata object, and in nested objects (each binding, freshness, a
    matched or published example): the client chooses the same candidate and binding both
    times (AMB-65)."""
    names = ("benefits-desk", "onboarding-guide")

    def candidates(unknown: bool) -> list[dict]:
        out = []
        for i, name in enumerate(names):
            b = binding(name)
            c = candidate(name, 0.9 - i / 10, bindings=[_with_unknown(b) if unknown else b])
            if unknown:
                c = _with_unknown({**c, "freshness": _with_unknown(c["freshness"]),
                                   "matched_examples": [_with_unknown({"id": "ex-1", "score": 0.9,
                                                                       "text": "Prepare onboarding."})]})
            out.append(c)
        return out

    def agents(unknown: bool) -> list[dict]:
        out = []
        for name in names:
            m = metadata(name)
            if unknown:
                m = _with_unknown({**m, "bindings": [_with_unknown(b) for b in m["bindings"]],
                                   "examples": [_with_unknown({"id": "ex-1", "text": "Prepare onboarding."})]})
            out.append(m)
        return out

    ids = [metadata(n)["id"] for n in names]
    for what, plain, extended in (
        ("a Discovery Response",
         lambda: adp_client.discover(adp_services.new("known-fields", candidates(False))),
         lambda: adp_client.discover(adp_services.new("unknown-fields", candidates(True),
                                                      extra=dict(UNKNOWN)))),
        ("a D0 publisher's metadata",
         lambda: adp_client.discover(adp_services.new("known-metadata", status=404, agents=agents(False)),
                                     agents=ids, level="D0"),
         lambda: adp_client.discover(adp_services.new("unknown-metadata", status=404, agents=agents(True)),
                                     agents=ids, level="D0")),
    ):
        before = plain()
        must_choose(before, f"{what} with only the members the draft names")
        after = extended()
        if (after.get("candidate"), after.get("invocation")) != (before.get("candidate"), before.get("invocation")):
            violation(f"with members the draft does not define in {what} (x_vendor, x_list, x_null, x_flag at the "
                      f"top, in each candidate or metadata object, its bindings, freshness and examples), {said(after)}; without them {said(before)}")
