"""§4.1 Agent Metadata Fields, client role: unknown fields are ignored."""

from __future__ import annotations

from conformance.adp._client_fixtures import binding, candidate, metadata, must_choose, said
from conformance.outcomes import clause, each_case, violation

#: Members the draft does not define, at each level (never inside score_components: ADP-6.3-04).
UNKNOWN = {"x_vendor": {"plan": "gold", "regions": ["eu"]}, "x_list": [1, "two", None], "x_null": None,
           "x_flag": True}
NAMES = ("benefits-desk", "onboarding-guide")


def _with_unknown(value: dict, unknown: bool) -> dict:
    return {**value, **UNKNOWN} if unknown else dict(value)


def _candidates(unknown: bool) -> list[dict]:
    """The same candidates, with or without the unknown members, and only those differing: each
    carries matched_examples and freshness both times (AMB-66)."""
    out = []
    for i, name in enumerate(NAMES):
        c = candidate(name, 0.9 - i / 10, bindings=[_with_unknown(binding(name), unknown)],
                      matched_examples=[_with_unknown({"id": "ex-1", "score": 0.9, "text": "Prepare onboarding."},
                                                      unknown)])
        c["freshness"] = _with_unknown(c["freshness"], unknown)
        out.append(_with_unknown(c, unknown))
    return out


def _agents(unknown: bool) -> list[dict]:
    out = []
    for name in NAMES:
        m = metadata(name, examples=[_with_unknown({"id": "ex-1", "text": "Prepare onboarding."}, unknown)])
        m["bindings"] = [_with_unknown(b, unknown) for b in m["bindings"]]
        out.append(_with_unknown(m, unknown))
    return out


@clause("ADP-4.1-25")
def test_4_1_client_ignores_unknown_fields(adp_client, adp_services) -> None:
    """"Implementations SHOULD ignore unknown fields for forward compatibility". The same
    offer is made without and with members the draft does not define (objects, arrays, null,
    booleans) at the top level, in each candidate or metadata object, and in nested objects
    (each binding, freshness, a matched or published example), nothing else changed: the
    client chooses the same candidate and binding both times (AMB-65). The offer without them
    holds only what the draft defines (AMB-66), so a client that refuses unknown members is
    offered a choice there. Three places: a Discovery Response; a D0 publisher's metadata; the
    second of two services, the first of which offers only a candidate the local policy
    refuses (every service of the step, not only the first)."""
    ids = [metadata(n)["id"] for n in NAMES]

    def response(unknown: bool) -> dict:
        tag = "unknown" if unknown else "known"
        return adp_client.discover(adp_services.new(f"{tag}-fields", _candidates(unknown),
                                                    extra=dict(UNKNOWN) if unknown else None))

    def publisher(unknown: bool) -> dict:
        tag = "unknown" if unknown else "known"
        return adp_client.discover(adp_services.new(f"{tag}-metadata", status=404, agents=_agents(unknown)),
                                   agents=ids, level="D0")

    def second_service(unknown: bool) -> dict:
        tag = "unknown" if unknown else "known"
        first = adp_services.new(f"{tag}-first", [candidate("grpc-only", 0.95, bindings=[
            binding("grpc-only", "grpc", "grpc://agents.adck.test:443/x")])])
        second = adp_services.new(f"{tag}-second", _candidates(unknown), extra=dict(UNKNOWN) if unknown else None)
        return adp_client.discover(first, also=[second])

    def check(case) -> None:
        what, offer = case
        before = offer(False)
        must_choose(before, f"{what} with only the members the draft defines")
        after = offer(True)
        if (after.get("candidate"), after.get("invocation")) != (before.get("candidate"), before.get("invocation")):
            violation(f"with members the draft does not define in {what} (x_vendor, x_list, x_null, x_flag at the "
                      f"top, in each candidate or metadata object, its bindings, freshness and examples), "
                      f"{said(after)}; without them {said(before)}", readings=["AMB-65", "AMB-66"])

    each_case([("a Discovery Response", response), ("a D0 publisher's metadata", publisher),
               ("the second service's Discovery Response", second_service)], check)
