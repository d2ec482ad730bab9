"""§9 Interoperability examples, as test cases for a service: the 9.1 minimal metadata, the
9.2 minimal D1 query, the 9.3 unsupported private filter."""

from __future__ import annotations

from typing import Any

from conformance.adp._service_fixtures import Probe, reached, same_value
from conformance.adp.test_5_2_service_hard_filters import judge_reporting
from conformance.outcomes import clause, untestable, violation

#: The request of 9.2, as the draft gives it.
QUERY_9_2 = {"query": "answer a short factual question", "protocols": ["https"], "limit": 1}
#: The request of 9.3, as the draft gives it.
QUERY_9_3 = {"query": "find a translation agent", "required_tags": ["translation"],
             "constraints": {"unsupported_private_filter": "example"}}


@clause("ADP-9.1-01")
def test_9_1_minimal_metadata_is_accepted(service: Probe) -> None:
    """An implementation claiming D0 support MUST accept this object as valid metadata: the 9.1
    object (id, name, description, one https binding; the kit's own URN id, AMB-42) registered
    with PUT succeeds, and GET serves it: the same id, name and description and its binding's
    protocol and endpoint; members the service adds or normalises are no refusal (AMB-20,
    AMB-52)."""
    service.require_registration()
    minimal = {"id": service.kit_id("minimal"), "name": "Minimal Agent",
               "description": "Answers short factual questions.",
               "bindings": [{"protocol": "https", "endpoint": "https://example.net/agent/invoke"}]}
    put = service.put_agent(minimal["id"], minimal)
    reached(put, "registering the 9.1 minimal object")
    if not put.ok:
        violation(f"registering the 9.1 minimal object was answered {put.describe()}")
    got = service.get_agent(minimal["id"], fresh="after-put")
    value = got.value
    if not got.ok or not isinstance(value, dict):
        violation(f"after its registration was answered {put.status}, GET of the minimal object was answered "
                  f"{got.describe()}")
    changed = {k: value.get(k, "(absent)") for k in ("id", "name", "description") if not same_value(value.get(k), minimal[k])}
    served = value.get("bindings") if isinstance(value.get("bindings"), list) else []
    if not any(isinstance(b, dict) and b.get("protocol") == "https" and b.get("endpoint") == minimal["bindings"][0]["endpoint"]
               for b in served):
        changed["bindings"] = served
    if changed:
        violation(f"the minimal object is served with {changed}, not as registered: it was not kept as the metadata "
                  "it is (members a service adds or writes otherwise, such as a binding's default interaction_model, "
                  "are allowed: AMB-52)", readings=("AMB-52",))


@clause("ADP-9.2-01")
def test_9_2_minimal_query_returns_zero_or_more(service: Probe) -> None:
    """A D1 discovery service receiving this query SHOULD return zero or more candidates: the 9.2
    request, and the same with a required tag no agent has (zero candidates), are each answered
    with a Discovery Response (2xx, candidates an array, possibly empty), not an error."""
    bodies = [QUERY_9_2, QUERY_9_2 | {"required_tags": [f"adck-{service.token}-nobody"]}]
    problems = []
    for body in bodies:
        answer = service.discover(body)
        reached(answer, "the 9.2 request")
        if not answer.is_response:
            problems.append(f"{'the 9.2 request' if body is QUERY_9_2 else 'the 9.2 request matching nothing'} "
                            f"was answered {answer.describe()}")
    if problems:
        violation("; ".join(problems))


@clause("ADP-9.2-02")
def test_9_2_include_evidence_not_required(service: Probe) -> None:
    """... and MUST NOT require include_evidence: the 9.2 request without include_evidence, and
    with include_evidence false, is not refused where the same request with include_evidence true
    is answered (AMB-09)."""
    asked = service.discover(QUERY_9_2 | {"include_evidence": True})
    reached(asked, "the 9.2 request with include_evidence")
    if not asked.is_response:
        untestable(f"the 9.2 request even with include_evidence true was answered {asked.describe()}")
    problems = []
    for label, body in (("without include_evidence", QUERY_9_2), ("with include_evidence false",
                                                                  QUERY_9_2 | {"include_evidence": False})):
        answer = service.discover(body)
        reached(answer, f"the 9.2 request {label}")
        if not answer.is_response:
            problems.append(f"the 9.2 request {label} was answered {answer.describe()}")
    if problems:
        violation("; ".join(problems) + f" (with include_evidence true: {asked.describe()})")


@clause("ADP-9.3-01")
def test_9_3_unsupported_private_filter(service: Probe, adck_declarations: dict[str, Any]) -> None:
    """If the service treats unsupported_private_filter as a hard filter and cannot apply it,
    the service MUST either fail the request or include the filter name in unsupported_filters:
    the 9.3 request, judged when the response shows the filter went unapplied, or always when the
    service is declared to treat unknown constraints as hard (``--declare
    unknown-constraints-hard``, AMB-12)."""
    judge_reporting(service, [QUERY_9_3], adck_declarations)
