"""§5.2 REST invocation (host role): the agent named twice, success and error answers."""

from __future__ import annotations

from conformance.generated import shown
from conformance.outcomes import clause, untestable, violation
from conformance.outcomes import NotApplicable, Untestable
from conformance.woa._host_fixtures import PROBLEM, REFUSED, Call, Invocations, each_case, media_type, problem_issue
from conformance.woa.inputs import validator


@clause("WOA-5.2-03")
def test_5_2_host_may_take_agent_from_url(invocations: Invocations) -> None:
    """[If the envelope's] agent field is absent in the envelope, the host MAY use the
    identifier from the URL. (A MAY: the kit reports whether the host invoked the agent of
    the URL or rejected the envelope, and fails neither: AMB-05, AMB-06.)"""
    call = invocations.judge(invocations.no_agent())[0]
    final = call.answer()
    if 200 <= final.status < 300:
        print(f"the host uses the URL's agent: {call.what} got {final.status}")
    else:
        print(f"the host does not use the URL's agent: {call.what} got {final.status} (allowed: agent is "
              "REQUIRED in the envelope, AMB-06)")


def _accepted_at(invocations: Invocations, agent: str) -> Call | None:
    """A valid invocation of ``agent``'s URL the endpoint took (not refused as a whole)."""
    for call in invocations.calls:
        if call.kind == "valid" and call.selection and call.selection.agent == agent and call.final is not None \
                and call.final.status not in REFUSED:
            return call
    return None


@clause("WOA-5.2-04")
def test_5_2_host_rejects_agent_mismatch_with_400(invocations: Invocations) -> None:
    """[If the envelope holds an] agent field with a different value, the host MUST reject
    the request with HTTP status 400 (Bad Request). (Otherwise valid envelopes POSTed to
    agent A's URL naming another agent of the document, an id the document does not list,
    and A's id in another case (ids compare exactly: AMB-24) each get 400: not 2xx, 404 or
    422. Only when invoke_path holds {agent_id}: AMB-05, AMB-32.)"""
    calls = invocations.judge(invocations.mismatches())
    try:
        invocations.valid()
    except (NotApplicable, Untestable):  # the budget may not allow it: judged without
        pass

    def check(call: Call) -> None:
        final = call.answer()
        if final.status == 400:
            return
        if final.status in REFUSED and call.url_agent and _accepted_at(invocations, call.url_agent) is None:
            untestable(f"{call.what}: {final.status}, and no valid envelope to that URL was taken either "
                       "(see WOA-4.3.1-12)")
        verdict = "accepted it" if 200 <= final.status < 300 else "rejected it"
        violation(f"{call.what}: the host {verdict} with {final.status} {final.reason}, not 400")
    each_case(calls, check)
    invocations.whole("mismatches")


@clause("WOA-5.2-05")
def test_5_2_host_explains_mismatch_in_problem_json(invocations: Invocations) -> None:
    """The host SHOULD return a application/problem+json body explaining the mismatch. (The
    400 answers of WOA-5.2-04 have Content-Type application/problem+json and a JSON object
    body whose RFC 9457 members have their types; what the explanation says is not judged.)"""
    calls = invocations.judge([c for c in invocations.mismatches() if c.final is not None and c.final.status == 400])
    if not calls:
        invocations.whole("mismatches")
        # the answers seen are the evidence: a 401 to a call sent without credentials makes
        # this clause "needs credentials", as it does WOA-5.2-04 (conformance.credentials)
        invocations.judge(invocations.mismatches())
        untestable("no mismatched envelope got 400 (see WOA-5.2-04)")

    def check(call: Call) -> None:
        final = call.answer()
        if media_type(final) != PROBLEM:
            violation(f"{call.what}: the 400 has Content-Type {final.header('content-type')!r}, not {PROBLEM}")
        parsed, value = call.json()
        if not parsed:
            violation(f"{call.what}: the 400's body is not JSON")
        issue = problem_issue(value)
        if issue:
            violation(f"{call.what}: the 400 is {PROBLEM} but {issue}")
    each_case(calls, check)
    invocations.whole("mismatches")


@clause("WOA-5.2-06")
def test_5_2_host_success_is_2xx_json_valid_against_outputs(invocations: Invocations) -> None:
    """On success, the host MUST return a 2xx status code and a JSON response body that
    conforms to the JSON Schema specified in the selected operation's outputs schema, or the
    agent level outputs schema if there is no per operation override. (Each agent, and each
    of its operations by name, invoked with inputs built from its own inputs schema and
    validated before sending: every 2xx answer's body is JSON valid against the outputs of
    the operation named, else the agent's. A 4xx or 5xx is not a success and is judged by
    WOA-5.2-07 and WOA-4.2-05; a 1xx or 3xx that the kit does not follow is not a success
    status: AMB-15.)"""
    calls = invocations.judge(invocations.valid())

    def check(call: Call) -> None:
        final = call.answer()
        if 300 <= final.status < 400:
            violation(f"{call.what}: answered {final.status} {final.reason} (a redirect is not the 2xx of a success)")
        if not 200 <= final.status < 300:
            untestable(f"{call.what}: answered {final.status}, not a success (see WOA-4.2-05, WOA-5.2-07)")
        if final.body_truncated:
            untestable(f"{call.what}: the answer is larger than the kit reads (--max-body)")
        parsed, value = call.json()
        if not parsed:
            violation(f"{call.what}: {final.status} with a body that is not JSON: {final.body[:80]!r}")
        assert call.selection is not None
        which = "the operation's outputs" if call.selection.operation is not None and call.selection.outputs is not None \
            else "the agent's outputs"
        try:
            errors = sorted(validator(call.selection.outputs).iter_errors(value), key=lambda e: list(e.absolute_path))
        except Exception as exc:  # noqa: BLE001 - an outputs schema the validator cannot use
            untestable(f"{call.what}: {which} is not a schema the kit can apply ({exc}); see WOA-4.2-01")
        if errors:
            where = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
            violation(f"{call.what}: {final.status} with {shown(value, 160)}, which {which} rejects at {where}: "
                      f"{errors[0].message}")
    each_case(calls, check)
    invocations.whole("valid")


#: The reading of "On error" for inputs a host could have refused (AMB-34).
LENIENT = "AMB-34"
#: Invocations no host can run, so that a 2xx to them can only hide an error (AMB-34).
_NO_SUCCESS = {"malformed": "a body that is not JSON holds no envelope to run",
               "unknown-operation": "the agent defines no operation of that name to run"}


def _lenient_issue(call: Call) -> str | None:
    """Why a 2xx answered to an input the inputs schema rejects is not a success (None when it
    is one: a JSON body, not a problem document, valid against the selected outputs), so that
    it reports an error under a 2xx; *untestable* where the body cannot be judged."""
    __tracebackhide__ = True
    final = call.answer()
    if media_type(final) == PROBLEM:
        return f"a {PROBLEM} body: an error reported under a success status"
    if final.body_truncated:
        untestable(f"{call.what}: the answer is larger than the kit reads (--max-body)")
    parsed, value = call.json()
    if not parsed:
        untestable(f"{call.what}: {final.status} with a body that is not JSON (see WOA-4.3.1-13)")
    assert call.selection is not None
    try:
        errors = sorted(validator(call.selection.outputs).iter_errors(value), key=lambda e: list(e.absolute_path))
    except Exception as exc:  # noqa: BLE001 - an outputs schema the validator cannot use
        untestable(f"{call.what}: the outputs schema is not one the kit can apply ({exc}); see WOA-4.2-01")
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
        return (f"{shown(value, 160)}, which the selected outputs reject at {where} ({errors[0].message}): not a "
                "success, so an error under a success status")
    return None


@clause("WOA-5.2-07")
def test_5_2_host_errors_are_4xx_or_5xx(invocations: Invocations) -> None:
    """On error, the host SHOULD return a 4xx or 5xx status code and a response body using
    the problem details format defined in [RFC9457] with media type
    application/problem+json. (Invocations that must fail: a body that is not JSON, an
    unknown operation: each gets a 4xx or 5xx, not a 2xx or a 3xx. Inputs the agent's inputs
    schema rejects (a required member missing, a member of the wrong type, a value out of
    range), each proven invalid before it is sent: the schema's MUST binds the client, and a
    host may take such an input leniently (clamp it, default it) and succeed, so either
    answer passes: a 4xx or 5xx, or a real success, a 2xx whose JSON body the selected
    outputs accept. A 3xx, or a 2xx whose body is a problem document or is not valid against
    the outputs (an error under a success status), fails: AMB-34. The body's problem format
    is judged for every error by WOA-4.3.1-14, the same request said of the REST transport:
    AMB-26.)"""
    calls = invocations.judge(invocations.errors())

    def check(call: Call) -> None:
        final = call.answer()
        if 400 <= final.status < 600:
            return
        if call.kind == "invalid" and 200 <= final.status < 300:
            issue = _lenient_issue(call)
            if issue:
                violation(f"{call.what}: answered {final.status} {final.reason} with {issue}", readings=(LENIENT,))
            print(f"{call.what}: {final.status}, a success valid against the outputs: the host took the input "
                  "leniently (AMB-34)")
            return
        why = _NO_SUCCESS.get(call.kind) if 200 <= final.status < 300 else None
        violation(f"{call.what}: answered {final.status} {final.reason}, not a 4xx or 5xx error"
                  + (f" ({why}: no success is possible, AMB-34)" if why else ""), readings=(LENIENT,) if why else ())
    each_case(calls, check)
    invocations.whole("errors")
