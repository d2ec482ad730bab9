"""§4.1, 4.2 and 4.7, as a discovery service keeps metadata: unknown fields preserved by a
transparent relay and ignored in requests, names not assumed unique."""

from __future__ import annotations

from typing import Any

from conformance.adp._service_fixtures import (
    NOT_JSON,
    STATUS_OF,
    Answer,
    Probe,
    reached,
    response_or_untestable,
    same_candidates,
)
from conformance.adp.test_3_3_service_conformance_levels import KNOWN
from conformance.outcomes import clause, not_applicable, undeclared_choice, untestable, violation

#: A request, and the same with unknown top-level members (4.7).
PLAIN = {"query": "translate a contract", "limit": 10}
UNKNOWN_TOP = PLAIN | {"net.adck.trace": "on", "future_member": {"nested": [1, 2]}}
#: The same with unknown members inside client_context (4.7, nested).
UNKNOWN_NESTED = PLAIN | {"client_context": {"locale": "en", "net.adck.hint": {"x": 1}}}
CONTEXT = PLAIN | {"client_context": {"locale": "en"}}
#: The declaration (profile.toml [declarations]) that lets 4.7's unknown members be refused.
STRICT = "strict-validation"


def strict_rejection(answer: Answer, label: str) -> str | None:
    """Under a declared strict validation (4.7's "unless local policy requires strict
    validation"), why ``answer`` is no well-formed refusal of ``label`` by 8's rules, or None:
    a 4xx status (a 5xx is the service failing, not validating), a JSON object with a code
    member (ADP-8-02's MUST), a string, and the status its code maps to when the code is one of 8's
    recommended ones (invalid_request: 400 or 422, AMB-10)."""
    if answer.ok:
        return f"{label} was answered {answer.describe()}: the members were not refused, although strict validation is declared"
    if not answer.refused:
        return f"{label} was answered {answer.describe()}, not a refusal (a 4xx with an error object)"
    value = answer.value
    if not isinstance(value, dict):
        body = "a body that is not JSON" if value is NOT_JSON else f"a JSON {type(value).__name__}"
        return f"{label} was refused {answer.status} with {body}, not an error object (8)"
    code = value.get("code")
    if not isinstance(code, str) or not code.strip():
        return f"{label} was refused {answer.status} with an error object whose code is {code!r} (8: a stable code)"
    if code in STATUS_OF and answer.status not in STATUS_OF[code]:
        return f"{label} was refused {answer.status} with code {code!r}, which maps to {' or '.join(map(str, STATUS_OF[code]))} (AMB-10)"
    return None


def _relay_metadata(service: Probe) -> dict:
    return service.kit_metadata(
        "relay", **{"net.adck.relay": {"kept": [1, "two", None], "deep": {"a": True}}},
        bindings=[{"protocol": "https", "endpoint": f"https://agents.adck.test/probe/{service.token}/relay",
                   "net.adck.weight": 3}],
        examples=[{"id": "ex-1", "text": "Run the adck relay probe.", "net.adck.note": "kept"}])


#: The declaration (profile.toml [declarations]) that the service acts as a transparent relay.
RELAY = "transparent-relay"


@clause("ADP-4.1-26")
def test_4_1_transparent_relay_preserves_unknown_fields(service: Probe, adck_declarations: dict[str, Any]) -> None:
    """... but MUST preserve unknown fields when acting as a transparent metadata relay: metadata
    registered with unknown members at the top level and inside a binding and an example is served
    back by GET with those members and values unchanged (AMB-11). The draft does not define a
    transparent relay: a registry that keeps only the members it knows may not be one. Declared
    (``--declare transparent-relay``) a lost member fails; undeclared it is an undeclared choice
    (could not judge), and members served back unchanged pass either way."""
    service.require_registration()
    metadata = _relay_metadata(service)
    service.register(metadata, what="registering metadata with unknown members")
    got = service.get_agent(metadata["id"], fresh="relay")
    value = got.value
    if not got.ok or not isinstance(value, dict):
        untestable(f"GET of the registered agent was answered {got.describe()}")
    problems = []
    if value.get("net.adck.relay") != metadata["net.adck.relay"]:
        problems.append(f"top-level net.adck.relay is {value.get('net.adck.relay', '(absent)')!r}")
    bindings = value.get("bindings") if isinstance(value.get("bindings"), list) else []
    if not any(isinstance(b, dict) and b.get("net.adck.weight") == 3 for b in bindings):
        problems.append(f"the binding's net.adck.weight is gone: {bindings}")
    examples = value.get("examples") if isinstance(value.get("examples"), list) else []
    if not any(isinstance(e, dict) and e.get("net.adck.note") == "kept" for e in examples):
        problems.append(f"the example's net.adck.note is gone: {examples}")
    if problems and RELAY in adck_declarations:
        violation("the relayed metadata lost unknown members (transparent-relay declared): " + "; ".join(problems),
                  readings=("AMB-11",))
    if problems:
        undeclared_choice(f"the registered metadata came back without its unknown members ({problems[0]}): the draft "
                          "requires them kept only of a transparent metadata relay, which it does not define and the kit "
                          f"cannot tell from a registry that keeps what it knows; --declare {RELAY} states it (then "
                          "they must be kept)")


@clause("ADP-4.2-01")
def test_4_2_id_stable(service: Probe) -> None:
    """The id field MUST be stable for the lifecycle of the agent registration: an agent registered
    under an id with upper- and lower-case letters is served by GET, returned as a candidate (when
    a request returns it: not yet discoverable is no change of id, AMB-54) and, after a refresh,
    served again under exactly that id; and the first catalogue candidates are served by GET under
    the id they were listed with (AMB-42)."""
    problems = []
    for agent_id in [i for i in service.catalog().ids if isinstance(i, str)][:4]:
        got = service.get_agent(agent_id)
        if got.ok and isinstance(got.value, dict) and got.value.get("id") != agent_id:
            problems.append(f"candidate {agent_id!r} is served by GET with id {got.value.get('id')!r}")
    if service.registration_declared():
        first = service.kit_metadata("StableId-Mixed")
        later = service.kit_metadata("StableId-Mixed", updated_at="2026-07-01T00:00:00Z", version="1.1.0")
        service.register(first, what="registering an agent with a mixed-case id")
        seen = []
        got = service.get_agent(first["id"], fresh="stable")
        seen.append(("GET", got.value.get("id") if got.ok and isinstance(got.value, dict) else got.describe()))
        if service.discovers():
            answer = service.discover({"query": "adck probe", "required_tags": [first["tags"][0]], "limit": 5})
            response_or_untestable(answer, "a request for the registered agent")
            if answer.ids:  # none: not discoverable yet, which the draft leaves to the service (AMB-54)
                seen.append(("a candidate", answer.ids[0]))
        refresh = service.update(later)  # with If-Match where the service asks for one (AMB-53)
        reached(refresh, "the refresh")
        if refresh.ok:
            again = service.get_agent(first["id"], fresh="stable-after-refresh")
            seen.append(("GET after a refresh", again.value.get("id") if again.ok and isinstance(again.value, dict)
                         else again.describe()))
        problems += [f"{where} gives id {value!r}" for where, value in seen if value != first["id"]]
    elif not service.catalog().ids:
        untestable("the service lists no agent and takes no registration")
    if problems:
        violation(f"ids not kept exactly (registered {service.kit_id('StableId-Mixed')!r}): " + "; ".join(problems),
                  readings=("AMB-42",))


@clause("ADP-4.7-03")
def test_4_7_relayed_candidates_keep_unknown_fields(service: Probe) -> None:
    """Implementations that relay metadata SHOULD preserve unknown fields unless doing so
    conflicts with privacy or policy requirements: the agent registered with unknown members at
    the top level and inside a binding and an example, returned at detail=full, carries them with
    their values, unless the candidate says it was redacted (AMB-11)."""
    service.require_registration()
    if not service.discovers():
        not_applicable("the service answers no Discovery Request (D0, AMB-01): it relays metadata only by GET, "
                       "which ADP-4.1-26 judges")
    metadata = _relay_metadata(service)
    service.register(metadata, what="registering metadata with unknown members")
    answer = service.discover({"query": "adck relay probe", "required_tags": [metadata["tags"][0]], "detail": "full"})
    response_or_untestable(answer, "a request at detail full")
    found = [c for c in answer.candidates if c.get("id") == metadata["id"]]
    if not found:
        untestable(f"the registered agent is not returned at detail full: {answer.ids}")
    candidate = found[0]
    if candidate.get("redacted") is True:
        return  # withheld by policy, and said so
    problems = []
    if candidate.get("net.adck.relay") != metadata["net.adck.relay"]:
        problems.append(f"top-level net.adck.relay is {candidate.get('net.adck.relay', '(absent)')!r}")
    bindings = candidate.get("bindings") if isinstance(candidate.get("bindings"), list) else []
    if not any(isinstance(b, dict) and b.get("net.adck.weight") == 3 for b in bindings):
        problems.append(f"the binding's net.adck.weight is gone: {bindings}")
    examples = candidate.get("examples") if isinstance(candidate.get("examples"), list) else []
    if not any(isinstance(e, dict) and e.get("net.adck.note") == "kept" for e in examples):
        problems.append(f"the example's net.adck.note is gone: {examples}")
    if problems:
        violation("the candidate at detail full lost unknown members of the registered metadata: " + "; ".join(problems))


@clause("ADP-4.2-03")
def test_4_2_names_not_assumed_unique(service: Probe) -> None:
    """Discovery services MUST NOT assume that the human-readable name field is globally unique:
    two agents registered with the same name and different ids are both kept (GET serves each)
    and a request that matches both does not return one without the other (returning neither is
    a registration not yet discoverable, AMB-54); neither is refused."""
    service.require_registration()
    tag = f"adck-{service.token}-twins"
    name = f"adck twin {service.token}"
    first = service.kit_metadata("twin-a", name=name, tags=[tag])
    second = service.kit_metadata("twin-b", name=name, tags=[tag])
    service.register(first, what="registering the first agent")
    put = service.put_agent(second["id"], second)
    reached(put, "registering a second agent with the same name")
    if not put.ok:
        violation(f"a second agent with the name {name!r} and another id was answered {put.describe()}")
    problems = []
    for meta in (first, second):
        got = service.get_agent(meta["id"], fresh="twins")
        if not got.ok or not isinstance(got.value, dict) or got.value.get("id") != meta["id"]:
            problems.append(f"GET of {meta['id']} was answered {got.describe()}")
    if service.discovers():  # a D0 service answers no Discovery Request (AMB-01)
        answer = service.discover({"query": "adck twin", "required_tags": [tag], "limit": 10})
        response_or_untestable(answer, "a request matching both")
        lost = [m["id"] for m in (first, second) if m["id"] not in answer.ids]
        if len(lost) == 1:  # neither: not discoverable yet, which the draft leaves to the service (AMB-54)
            problems.append(f"a request matching both returns {answer.ids}, without {lost}: one name, one record")
    if problems:
        violation("; ".join(problems))


def _same_ids(service: Probe, variant: dict, label: str) -> str | None:
    base = service.discover(PLAIN, fresh=label)  # sent just before the variant: the same records
    response_or_untestable(base, "a plain request")
    other = service.discover(variant)
    reached(other, label)
    if not other.is_response:
        return f"{label} was answered {other.describe()}"
    if not same_candidates(other, base):
        return f"{label} returned {other.ids[:6]} where the plain request returned {base.ids[:6]} (AMB-56)"
    return None


def _strictly_refused(service: Probe, variant: dict, label: str) -> str | None:
    """Under strict-validation: the plain request is answered, ``variant`` (with unknown members)
    refused by a well-formed error object."""
    base = service.discover(PLAIN, fresh=label)
    response_or_untestable(base, "a plain request")
    other = service.discover(variant)
    reached(other, label)
    return strict_rejection(other, label)


def _conclude(problems: list[str], refusals: list[str], strict: bool, key_word: str) -> None:
    """4.7's verdict: a failure for what no policy allows; for a well-formed refusal the run did
    not declare, an undeclared choice (the sentence allows it where local policy requires strict
    validation, and the kit cannot see that policy: never a failure)."""
    __tracebackhide__ = True
    if problems:
        violation("; ".join(problems) + (" (strict validation declared)" if strict else ""),
                  readings=("AMB-11",) if strict else ("AMB-11", "AMB-56"))
    if refusals:
        undeclared_choice(f"{refusals[0]}, a well-formed refusal: the draft allows it only where local policy "
                          f"requires strict validation, which the kit cannot see; --declare {STRICT} states it (then "
                          f"such requests must be refused), else the service {key_word} ignore the members")


@clause("ADP-4.7-01")
def test_4_7_unknown_top_level_fields_ignored(service: Probe, adck_declarations: dict[str, Any]) -> None:
    """Unknown top-level fields MUST be ignored by discovery services unless local policy requires
    strict validation: a Discovery Request with unknown top-level members (fixed ones and the
    seed's) is answered as the same request without them (the same candidates, in the same
    order but among equal scores, AMB-56); when registration is declared, metadata with an unknown top-level
    member is accepted (AMB-11). Declared strict (``--declare strict-validation``), each such
    request is refused with a well-formed error object instead (a 4xx, a JSON object with a
    code, its status the code's: 8, AMB-10), and such metadata is accepted or refused so."""
    strict = STRICT in adck_declarations
    if not service.discovers() and not service.registration_declared():
        untestable("the service answers no Discovery Request and takes no registration (see ADP-3.3-02)")
    judge = _strictly_refused if strict else _same_ids
    problems: list[str] = []
    refusals: list[str] = []  # undeclared, well-formed refusals: allowed under a local policy the kit cannot see

    def undeclared(why: str | None, answer: Answer, label: str) -> None:
        if why and not strict and not answer.ok and strict_rejection(answer, label) is None:
            refusals.append(f"{label} was refused {answer.status}")
        elif why:
            problems.append(why)

    if service.discovers():
        why = judge(service, UNKNOWN_TOP, "a request with unknown top-level members")
        undeclared(why, service.discover(UNKNOWN_TOP), "a request with unknown top-level members")  # cached: the same answer
    for body in service.generated_requests() if service.discovers() else []:  # the seed's requests with unknown members, and without them
        unknown = sorted(k for k in body if k not in KNOWN)
        if unknown:
            known = {k: v for k, v in body.items() if k in KNOWN}
            plain = service.discover(known, fresh="generated")
            other = service.discover(body, fresh="generated")
            reached(other, "a generated request with unknown members")
            if strict:
                why = strict_rejection(other, f"a request with unknown members {unknown}") if plain.is_response else None
                if why:
                    problems.append(why)
            elif plain.is_response and not other.is_response:
                undeclared(f"a request with unknown members {unknown} was answered {other.describe()}", other,
                           f"a request with unknown members {unknown}")
            elif plain.is_response and not same_candidates(other, plain):
                problems.append(f"a request with unknown members {unknown} returned {other.ids[:6]}, without them "
                                f"{plain.ids[:6]} (AMB-56)")
    if service.registration_declared():
        metadata = service.kit_metadata("unknown-top", **{"net.adck.extension": {"v": 1}})
        put = service.put_agent(metadata["id"], metadata)
        reached(put, "registering metadata with an unknown member")
        label = "metadata with the unknown top-level member net.adck.extension"
        if not put.ok:
            if strict:
                why = strict_rejection(put, label)
                if why:
                    problems.append(why)
            else:
                undeclared(f"{label} was answered {put.describe()}", put, label)
    _conclude(problems, refusals, strict, "must")


@clause("ADP-4.7-02")
def test_4_7_unknown_nested_fields_ignored(service: Probe, adck_declarations: dict[str, Any]) -> None:
    """Unknown fields in nested objects SHOULD also be ignored: a request with an unknown member
    inside client_context is answered as the same request without it; when registration is
    declared, metadata with an unknown member inside a binding is accepted. "Also" carries 4.7's
    exception: where local policy requires strict validation each may instead be refused with a
    well-formed error object (AMB-11). Declared strict (``--declare strict-validation``) such a
    refusal passes; undeclared the kit cannot see that policy, so it could not judge (an
    undeclared choice, never failed). Any other answer (a 5xx, an error without an error object,
    other candidates) fails either way."""
    strict = STRICT in adck_declarations
    if not service.discovers() and not service.registration_declared():
        untestable("the service answers no Discovery Request and takes no registration (see ADP-3.3-02)")
    problems: list[str] = []
    refusals: list[str] = []  # undeclared, well-formed refusals: allowed under a local policy the kit cannot see

    def refused(answer: Answer, label: str, why: str) -> None:
        if answer.ok:
            problems.append(why)
            return
        malformed = strict_rejection(answer, label)
        if malformed:
            problems.append(malformed)
        elif not strict:
            refusals.append(f"{label} was refused {answer.status}")

    if service.discovers():
        label = "a request with an unknown client_context member"
        why = _same_ids(service, UNKNOWN_NESTED, label)
        if why:
            refused(service.discover(UNKNOWN_NESTED), label, why)
    if service.registration_declared():
        metadata = service.kit_metadata("unknown-nested", bindings=[
            {"protocol": "https", "endpoint": f"https://agents.adck.test/probe/{service.token}/nested",
             "net.adck.region_hint": "emea"}])
        put = service.put_agent(metadata["id"], metadata)
        reached(put, "registering metadata with an unknown binding member")
        label = "metadata with an unknown member inside a binding"
        if not put.ok:
            refused(put, label, f"{label} was answered {put.describe()}")
    _conclude(problems, refusals, strict, "should")
