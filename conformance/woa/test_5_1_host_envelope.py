"""§5.1 Invocation envelope (host role): the implied operation."""

from __future__ import annotations

from conformance.generated import shown
from conformance.outcomes import NotApplicable, Untestable, clause, untestable, violation
from conformance.schemas import PatternNotChecked
from conformance.woa._host_fixtures import Call, Invocations, Selection, each_case
from conformance.woa.inputs import validator


@clause("WOA-5.1-05")
def test_5_1_host_omitted_operation_is_default(invocations: Invocations) -> None:
    """If omitted for an agent that defines operations, the name "default" is RECOMMENDED as
    the implied operation. (Each agent whose operations include one named "default" is
    invoked without operation, with an input valid for "default": the host answers as that
    operation: a 2xx whose body is valid against the default operation's outputs (or the
    agent's). A rejection of the omission fails too. Where the same input sent with operation
    "default" named is rejected as well, or answered with a body its outputs reject, the fault
    is not the omission's (WOA-4.2-05, WOA-5.2-06): untestable here. Agents without a "default" operation are not
    judged: AMB-16, AMB-31.)"""
    pairs = invocations.omitted()
    try:
        explicit = invocations.valid()
    except (NotApplicable, Untestable):  # judged without the comparison when not allowed
        explicit = []
    invocations.judge([c for c, _ in pairs])

    def check(pair: tuple[Call, Selection]) -> None:
        call, selection = pair
        final = call.answer()
        named = [c for c in explicit if c.selection == selection and c.envelope
                 and c.envelope.get("input") == call.envelope.get("input")]
        if not 200 <= final.status < 300:
            if named and named[0].final is not None and not 200 <= named[0].final.status < 300:
                untestable(f"{call.what}: {final.status}, and the same input with operation \"default\" got "
                           f"{named[0].final.status} too (see WOA-4.2-05)")
            violation(f"{call.what}: answered {final.status} {final.reason}: the omitted operation is not taken "
                      "as \"default\"")
        parsed, value = call.json()
        if not parsed:
            untestable(f"{call.what}: {final.status} with a body that is not JSON (see WOA-4.3.1-13)")
        try:
            errors = list(validator(selection.outputs).iter_errors(value))
            same_rejected = False
            if errors and named and named[0].final is not None and 200 <= named[0].final.status < 300:
                ok, same = named[0].json()
                same_rejected = not ok or bool(list(validator(selection.outputs).iter_errors(same)))
        except PatternNotChecked as exc:
            untestable(f"{call.what}: the outputs of operation \"default\": {exc}")
        if same_rejected:
            untestable(f"{call.what}: the body does not conform, but the same input with operation "
                       "\"default\" named gets a body its outputs reject too (see WOA-5.2-06)")
        if errors:
            violation(f"{call.what}: {final.status} with {shown(value, 160)}, which the outputs of operation "
                      f"\"default\" reject ({errors[0].message}): the host implied another operation")
    each_case(pairs, check)
    invocations.whole("omitted")
