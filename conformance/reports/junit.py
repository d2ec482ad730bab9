"""``junit.xml``: one test case per clause, for CI dashboards.

The dashboard must agree with the job: a failed case is a ``<failure>`` (or ``<error>``) exactly
when that clause makes ``adck run`` exit 1 (``summary.blocking``, from
:func:`conformance.reports.model.exit_rule`). So a SHOULD
that failed is ``<skipped message="SHOULD failed: …">`` with the case's ``<properties>`` saying
``outcome=fail``, unless the run was given ``--fail-on should``; a failure the baseline expects
is skipped too, marked ``baseline=expected`` with its reason; an expired baseline entry fails
again and says so. Untestable and not-applicable clauses are skipped with a message saying which.
The suite's counts are those of the cases written.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance.reports.model import FAIL_ON, ClauseResult, Report
from conformance.reports import quotes
from conformance.reports.verdict import cut, headline, judged, readings, revision_verdict

_PAST = {"fail": "failed", "error": "could not be evaluated"}


def _skip_message(r: ClauseResult) -> str:
    if r.outcome == "not-applicable":
        return f"not-applicable: {r.message}"
    if r.untestable_reason == "not-observable":
        return f"untestable (not observable from outside): {r.message}"
    if r.untestable_reason == "credentials":
        return f"untestable (the service wanted credentials the run did not have, so this {r.keyword} is not a pass): {r.message}"
    if r.untestable_reason == "rate-limited":
        return f"untestable (the target answered 429 to the kit's requests, so this {r.keyword} is not a pass): {r.message}"
    if r.untestable_reason == "budget":
        return f"untestable (the run's request budget ran out first, so this {r.keyword} is not a pass): {r.message}"
    if r.untestable_reason == "undeclared":
        return (f"untestable (the target made a choice the draft leaves to it, not declared for this run, so this "
                f"{r.keyword} is not a pass): {r.message}")
    return f"untestable (a prerequisite failed, so this {r.keyword} is not a pass): {r.message}"


def _case(suite: ET.Element, report: Report, r: ClauseResult, counts: set[str]) -> str | None:
    """Write one test case; returns the element kind written (failure, error, skipped) or None."""
    case = ET.SubElement(suite, "testcase", {
        "classname": f"{report.draft['short']}.{r.role}.s{r.section}",
        "name": f"{r.clause} [{r.keyword}] {cut(quotes.shown(report, r), 80)}",
    })
    props = ET.SubElement(case, "properties")
    pairs = [("clause", r.clause), ("keyword", r.keyword), ("requirement_level", r.level), ("outcome", r.outcome)]
    if r.untestable_reason:
        pairs.append(("untestable_reason", r.untestable_reason))
    if r.baseline:
        pairs += [("baseline", r.baseline["status"]), ("baseline_reason", r.baseline["reason"])]
        if r.baseline["expires"]:
            pairs.append(("baseline_expires", r.baseline["expires"]))
    for k, v in pairs:
        ET.SubElement(props, "property", {"name": k, "value": v})
    detail = f'{r.clause} (§{r.section}, {r.keyword}): "{quotes.shown(report, r)}"\nobserved: {r.message}'
    for amb in readings(report, r):
        detail += f"\nthe kit's reading ({amb['id']}, {amb['title']}): {amb['interpretation']}"
    if r.replay:
        detail += f"\nreplay: {r.replay}"
    status = r.baseline["status"] if r.baseline else None
    if r.outcome in ("fail", "error"):
        head = f"{r.keyword} {_PAST[r.outcome]}"
        if r.clause in report.summary.blocking:
            said = f"{head}: {r.message}"
            if status == "expired":
                said = f"the baseline entry expired on {r.baseline['expires']}, so this fails again: {said}"
            kind = "failure" if r.outcome == "fail" else "error"
            ET.SubElement(case, kind, {"message": cut(said, 500), "type": r.level}).text = detail
            return kind
        # it does not decide the exit status, so the dashboard does not go red either
        if status == "expected":
            why = f"expected by the baseline: {r.baseline['reason']}"
        elif r.level not in counts:
            why = f"not failing the run: --fail-on {report.summary.fail_on}"
        else:
            why = "above the draft level the verdict judges"
        # why first: the message is cut at 500 characters, and the target's words come last
        ET.SubElement(case, "skipped", {"message": cut(f"{head} ({why}): {r.message}", 500)}).text = detail
        return "skipped"
    if r.outcome in ("not-applicable", "untestable"):
        said = _skip_message(r)
        if status == "expected":
            said = f"{said} (expected by the baseline: {r.baseline['reason']})"
        elif r.clause in report.summary.blocking:
            said = f"{said} (counts against the run" + (
                f": its baseline entry expired on {r.baseline['expires']})" if status == "expired" else ")")
        ET.SubElement(case, "skipped", {"message": cut(said, 500)})
        return "skipped"
    return None


def _verdict_case(suite: ET.Element, report: Report) -> str:
    """One case for the run itself, when it exits 1 and no clause's case failed: MUST clauses a
    failed prerequisite, the request budget or the run's deadline left unchecked (skipped cases,
    since nothing was seen to fail), or a run that did not finish. Without it the dashboard
    would be green while the job is red."""
    s = report.summary
    unchecked = [c for c in s.blocking if c in {r.clause for r in report.results if r.outcome in
                                                 ("untestable", "not-applicable")}]
    why = (f"{len(unchecked)} MUST clause(s) could not be checked, and a MUST that was not checked "
           f"is never a pass: {', '.join(unchecked)}" if unchecked else "the run did not finish")
    case = ET.SubElement(suite, "testcase", {"classname": f"{report.draft['short']}.verdict",
                                             "name": "the run's verdict (exit status 1)"})
    ET.SubElement(case, "failure", {"message": cut(f"{headline(report)}: {why}", 500),
                                    "type": "verdict"}).text = why
    return "failure"


def to_junit(report: Report) -> str:
    results = report.results
    suite = ET.Element("testsuite", {"name": f"adck.{judged(report)}", "tests": str(len(results))})
    props = ET.SubElement(suite, "properties")
    s = report.summary
    pairs = [("target", report.target["spec"]), ("seed", str(report.seed)),
             ("requests_sent", str(report.requests_sent)), ("level", s.level),
             ("partial", "true" if s.partial else "false"), ("verdict", headline(report)),
             ("fail_on", s.fail_on), ("exit_status", str(s.exit_status))]
    pairs.insert(0, ("revision", report.draft.get("label", report.draft["short"])))
    for e in report.revisions:  # a run of several revisions: each one's verdict
        pairs.append((f"verdict_{e['label']}", revision_verdict(e)))
    if report.baseline:
        pairs.append(("baseline_file", report.baseline["path"]))
    for d in report.target.get("declarations") or ():  # the choices the verdict was reached under
        pairs.append(("declared", f"{d.get('shown') or d.get('name')} (§{d.get('section', '')}, by {d.get('by', '--declare')})"))
    for k, v in pairs:
        ET.SubElement(props, "property", {"name": k, "value": v})
    counts = set(FAIL_ON[s.fail_on])
    written = [_case(suite, report, r, counts) for r in results]
    if s.exit_status == 1 and not {"failure", "error"} & set(written):
        written.append(_verdict_case(suite, report))
    # the suite's counts are those of the cases, so a dashboard's totals add up
    suite.set("failures", str(written.count("failure")))
    suite.set("errors", str(written.count("error")))
    suite.set("skipped", str(written.count("skipped")))
    suite.set("tests", str(len(written)))
    suite.set("time", f"{report.duration_s:.3f}")
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
