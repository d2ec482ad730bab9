"""§7.5 Result minimisation and redaction."""

from __future__ import annotations

from conformance.adp._service_fixtures import Probe, reached, response_or_untestable
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
    sensitive information: a response with a redacted candidate has a non-empty warnings array."""
    metadata, answer, candidate = _redaction_case(service)
    omitted = sorted(k for k in metadata if k not in candidate)
    if not omitted and candidate.get("redacted") is not True:
        untestable("the service redacted nothing of the registered agent at detail full")
    warnings = answer.member("warnings")
    if not (isinstance(warnings, list) and warnings):
        violation(f"candidate {candidate.get('id')!r} was redacted (omits {omitted}) and warnings is "
                  f"{warnings if warnings is not None else '(absent)'!r}")
