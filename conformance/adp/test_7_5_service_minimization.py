"""§7.5 Result minimisation and redaction."""

from __future__ import annotations

import re
from typing import Any

from conformance.adp._checks import internal_names, secrets
from conformance.adp._service_fixtures import (
    CANDIDATE_FIELDS,
    Answer,
    Probe,
    reached,
    response_or_untestable,
)
from conformance.outcomes import clause, untestable, violation

#: Members of Agent Metadata beyond a summary candidate (AMB-16).
BEYOND_SUMMARY = ("examples", "auth", "constraints", "signature", "input_schema", "output_schema", "billing")


@clause("ADP-7.5-01")
def test_7_5_minimize_by_default(service: Probe) -> None:
    """Discovery services SHOULD minimize results by default: candidates of requests without
    detail hold none of the metadata's examples, auth, constraints, signature, schemas or other
    members beyond the candidate table (AMB-16)."""
    bodies = [{"query": "book a trip", "limit": 50}, {"query": "hr payroll", "required_tags": ["hr"]}]
    problems, judged = [], 0
    for body in bodies:
        answer = service.discover(body)
        reached(answer, "a request without detail")
        for c in answer.candidates:
            judged += 1
            extra = [k for k in BEYOND_SUMMARY if k in c]
            if extra:
                problems.append(f"candidate {c.get('id')!r} holds {extra}")
    if not judged:
        untestable("no request without detail returned a candidate")
    if problems:
        violation(f"{len(problems)} of {judged} candidates: " + "; ".join(problems[:4]))


#: Requests below detail=full over the whole catalogue (shared with ADP-7.5-01 and ADP-5.3-01).
BELOW_FULL = [{"query": "book a trip", "limit": 50}, {"query": "find an agent", "detail": "minimal", "limit": 50},
              {"query": "find an agent", "detail": "summary", "limit": 50}]


def _sensitive_metadata(service: Probe) -> tuple[dict, dict[str, str]]:
    """An agent the kit registers with one of each thing 7.5 asks a service to withhold below
    detail=full, and the marker that shows each one (AMB-50)."""
    token = service.token
    internal = f"ledger-{token}.corp.internal"
    metadata = service.kit_metadata(
        "sensitive",
        bindings=[{"protocol": "https", "endpoint": f"https://agents.adck.test/probe/{token}/sensitive"},
                  {"protocol": "https", "endpoint": f"https://{internal}/agent"}],
        examples=[{"id": "ex-1", "text": "Run the adck probe sensitive."},
                  {"id": "ex-private", "text": f"Audit the adckprivateexample{token} acquisition files.",
                   "private": True}],
        billing={"plan": "enterprise", "account": f"adckbilling{token}"},
        credential_refs=[f"https://agents.adck.test/keys/{token}.jwk", f"vault://secrets-{token}.corp.internal/adck"])
    markers = {"an endpoint on an internal host (sensitive endpoint details, internal system names)": internal,
               "the private example": f"adckprivateexample{token}",
               "the billing member (billing hints)": f"adckbilling{token}",
               "a non-public credential reference": f"secrets-{token}.corp.internal"}
    return metadata, markers


def _strings(value: Any, where: str = ""):
    """(where, string) of every string in a JSON value."""
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{where}.{k}" if where else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{where}[{i}]")


def _exposed(answer: Answer, markers: dict[str, str]) -> list[str]:
    """What a response below detail=full shows that 7.5 asks it to omit (the kit's heuristic,
    AMB-14, AMB-50): members named billing, examples marked private, secret-shaped values,
    private or internal host names, and the registered agent's markers."""
    found = []
    detail = answer.body.get("detail", "default") if isinstance(answer.body, dict) else "default"
    for c in answer.candidates:
        cid = c.get("id")
        if "billing" in c:
            found.append(f"candidate {cid!r} (detail {detail}) holds billing")
        examples = c.get("examples") if isinstance(c.get("examples"), list) else []
        if any(isinstance(e, dict) and e.get("private") is True for e in examples):
            found.append(f"candidate {cid!r} (detail {detail}) holds an example marked private")
        for where, text in _strings(c):
            hits = internal_names(text)
            if hits:
                found.append(f"candidate {cid!r} (detail {detail}) {where} names the internal host {hits[0]!r}")
            if secrets(text):
                found.append(f"candidate {cid!r} (detail {detail}) {where} holds a secret-shaped value")
    for what, marker in markers.items():
        if marker in answer.text and not any(marker in f for f in found):
            found.append(f"the response (detail {detail}) shows {what}")
    return found


@clause("ADP-7.5-02")
def test_7_5_sensitive_details_omitted_below_full(service: Probe) -> None:
    """Unless detail=full is requested and authorized, responses SHOULD omit sensitive endpoint
    details, private examples, internal system names, billing hints, and non-public credential
    references: responses without detail, at detail=minimal and at detail=summary (with and
    without include_evidence) hold no billing member, no example marked private, no secret-shaped
    value and no private or internal host name; when registration is declared, an agent
    registered with one of each (an endpoint and a credential reference on an internal host, a
    private example, a billing member) shows none of them below detail=full (AMB-14, AMB-50)."""
    answers = [service.discover(b) for b in BELOW_FULL]
    markers: dict[str, str] = {}
    if service.registration_declared():
        metadata, markers = _sensitive_metadata(service)
        service.register(metadata, what="registering an agent with internal endpoints, billing and a private example")
        tag = metadata["tags"][0]
        for body in ({"query": "adck probe sensitive", "required_tags": [tag], "limit": 5},
                     {"query": "adck probe sensitive", "required_tags": [tag], "detail": "minimal", "limit": 5},
                     {"query": "adck probe sensitive", "required_tags": [tag], "detail": "summary",
                      "include_evidence": True, "limit": 5}):
            answer = service.discover(body)
            response_or_untestable(answer, "a request for the registered agent below detail full")
            if metadata["id"] not in answer.ids:
                untestable(f"the registered agent is not returned by its tag ({answer.ids[:5]})")
            answers.append(answer)
    judged, problems = 0, []
    for answer in answers:
        reached(answer, "a request below detail full")
        judged += len(answer.candidates)
        problems += _exposed(answer, markers)
    if not judged:
        untestable("no request below detail full returned a candidate (see ADP-3.3-02)")
    if problems:
        violation(f"{len(problems)} things below detail full: " + "; ".join(problems[:4]))


def _redaction_case(service: Probe):
    """Register an agent with members a service may withhold; ask for it at detail=full."""
    __tracebackhide__ = True
    service.require_registration()
    metadata = service.kit_metadata("redaction", auth={"type": "oauth2"},
                                    billing={"plan": "enterprise", "account": f"acct-{service.token}"},
                                    constraints={"regions": ["emea"]})
    service.register(metadata, what="registering an agent with billing and auth members")
    answer = service.discover({"query": "adck probe redaction", "required_tags": [metadata["tags"][0]],
                               "detail": "full", "limit": 5})
    response_or_untestable(answer, "a request at detail full")
    found = [c for c in answer.candidates if c.get("id") == metadata["id"]]
    if not found:
        untestable(f"the registered agent is not returned at detail full: {answer.ids}")
    return metadata, answer, found[0]


@clause("ADP-7.5-03")
def test_7_5_redacted_flag(service: Probe) -> None:
    """If fields are omitted due to policy, the candidate SHOULD include "redacted": true: an agent
    registered with billing, auth and constraints members, returned at detail=full without some
    of them, carries redacted: true."""
    metadata, answer, candidate = _redaction_case(service)
    omitted = sorted(k for k in metadata if k not in candidate)
    if omitted and candidate.get("redacted") is not True:
        violation(f"the candidate at detail full omits {omitted} of the registered metadata and has redacted "
                  f"{candidate.get('redacted', '(absent)')!r}")


@clause("ADP-7.5-04")
def test_7_5_redaction_warning(service: Probe) -> None:
    """... and the response SHOULD include a warning or policy reason when doing so does not reveal
    sensitive information: a response with a redacted candidate has a non-empty warnings array,
    or the response or the candidate gives a policy reason in a member so named (AMB-47)."""
    metadata, answer, candidate = _redaction_case(service)
    omitted = sorted(k for k in metadata if k not in candidate)
    if not omitted and candidate.get("redacted") is not True:
        untestable("the service redacted nothing of the registered agent at detail full")
    warnings = answer.member("warnings")
    reasons = policy_reasons(answer.value) + policy_reasons(candidate)
    if not (isinstance(warnings, list) and warnings) and not reasons:
        violation(f"candidate {candidate.get('id')!r} was redacted (omits {omitted}); warnings is "
                  f"{warnings if warnings is not None else '(absent)'!r} and no member of the response or the "
                  "candidate gives a policy reason (AMB-47)", readings=("AMB-47",))


def policy_reasons(value: Any) -> list[str]:
    """Members of a response or candidate beyond its table that give a policy reason (7.5: "a
    warning or policy reason"): a name holding the word reason, policy or redaction, with a
    non-empty string, array or object (AMB-47)."""
    if not isinstance(value, dict):
        return []
    defined = CANDIDATE_FIELDS | {"request_id", "applied_filters", "unsupported_filters", "warnings", "generated_at",
                                  "candidates"}
    return [str(k) for k, v in value.items() if k not in defined and isinstance(v, (str, list, dict)) and v
            and {w for w in re.split(r"[^a-z0-9]+", str(k).lower()) if w} & {"reason", "reasons", "policy", "redaction"}]
