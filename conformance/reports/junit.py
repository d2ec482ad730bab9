"""``junit.xml``: one test case per clause, for CI dashboards."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance.reports.model import Report
from conformance.reports.verdict import headline, readings


def to_junit(report: Report) -> str:
    results = report.results
    suite = ET.Element("testsuite", {
        "name": f"adck.{report.draft['short']}",
        "tests": str(len(results)),
        "failures": str(sum(r.outcome == "fail" for r in results)),
        "errors": str(sum(r.outcome == "error" for r in results)),
        "skipped": str(sum(r.outcome in ("not-applicable", "untestable") for r in results)),
        "time": f"{report.duration_s:.3f}",
    })
    props = ET.SubElement(suite, "properties")
    for k, v in (("target", report.target["spec"]), ("seed", str(report.seed)),
                 ("requests_sent", str(report.requests_sent)), ("level", report.summary.level),
                 ("partial", "true" if report.summary.partial else "false"), ("verdict", headline(report))):
        ET.SubElement(props, "property", {"name": k, "value": v})
    for r in results:
        case = ET.SubElement(suite, "testcase", {
            "classname": f"{report.draft['short']}.{r.role}.s{r.section}",
            "name": f"{r.clause} [{r.keyword}] {r.text[:80]}",
        })
        detail = f'{r.clause} (§{r.section}, {r.keyword}): "{r.text}"\nobserved: {r.message}'
        for amb in readings(report, r):
            detail += f"\nthe kit's reading ({amb['id']}, {amb['title']}): {amb['interpretation']}"
        if r.replay:
            detail += f"\nreplay: {r.replay}"
        if r.outcome == "fail":
            el = ET.SubElement(case, "failure" if r.level == "MUST" else "failure",
                               {"message": f"{r.keyword}: {r.message}"[:500], "type": r.level})
            el.text = detail
        elif r.outcome == "error":
            ET.SubElement(case, "error", {"message": r.message[:500]}).text = detail
        elif r.outcome in ("not-applicable", "untestable"):
            ET.SubElement(case, "skipped", {"message": f"{r.outcome}: {r.message}"[:500]})
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


