"""§3.7 The "meta" Object."""

from __future__ import annotations

import datetime as dt
import re

from conformance.aiendpoint._uri import check_uri_member
from conformance.document import Document, kind_name
from conformance.outcomes import clause, violation

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")


def last_updated_problem(value: str) -> str | None:
    try:
        if _DATE.match(value):
            dt.date.fromisoformat(value)
            return None
        if _DATETIME.match(value):
            # a leap second (23:59:60) is a real UTC time that Python's datetime cannot hold
            leap = value[11:19] == "23:59:60"
            dt.datetime.strptime(value[:17] + "59Z" if leap else value, "%Y-%m-%dT%H:%M:%SZ")
            return None
    except ValueError:
        return f"{value!r} is not a real date"
    return f"{value[:40]!r} is neither YYYY-MM-DD nor YYYY-MM-DDThh:mm:ssZ"


@clause("AIE-3.7-01")
def test_3_7_last_updated_iso8601(document: Document) -> None:
    """last_updated: (string, OPTIONAL) ... in ISO 8601 format (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ)."""
    value = document.member("meta", "last_updated", required=False)
    if not isinstance(value, str):
        violation(f"meta.last_updated is a JSON {kind_name(value)}, not a string")
    if problem := last_updated_problem(value):
        violation(f"meta.last_updated: {problem}")


@clause("AIE-3.7-02")
def test_3_7_changelog_is_uri(document: Document) -> None:
    """changelog: (string, OPTIONAL) A URI pointing to a changelog or release notes page."""
    check_uri_member(document, "meta", "changelog")


@clause("AIE-3.7-03")
def test_3_7_status_is_uri(document: Document) -> None:
    """status: (string, OPTIONAL) A URI pointing to a service status page."""
    check_uri_member(document, "meta", "status")
