"""§17.1 Error Envelope, judged on an error object given as a document on its own (AMB-30).
A server's own errors are judged by the server-role tests of the same clauses; "Errors MUST be
JSON objects" and the error member are judged there only, since a document classified as an
error object is a JSON object with an error member by construction."""

from __future__ import annotations

from conformance.aidre._kinds import only
from conformance.document import Document
from conformance.outcomes import clause, untestable, violation


def _error(document: Document) -> dict:
    __tracebackhide__ = True
    if document.unreadable:
        untestable(f"{document.unreadable} (see AIDRE-14.2-01)")
    only(document, "error")
    return document.value()


def _member(document: Document, member: str) -> None:
    __tracebackhide__ = True
    value = _error(document)
    if member not in value:
        violation(f"the error object has no {member} (members: {', '.join(sorted(value)[:8])})")


@clause("AIDRE-17.1-04")
def test_17_1_document_error_has_message(document: Document) -> None:
    """Error responses SHOULD contain: message."""
    _member(document, "message")


@clause("AIDRE-17.1-05")
def test_17_1_document_error_has_details(document: Document) -> None:
    """Error responses SHOULD contain: details."""
    _member(document, "details")


@clause("AIDRE-17.1-06")
def test_17_1_document_error_has_request_id(document: Document) -> None:
    """Error responses SHOULD contain: request_id."""
    _member(document, "request_id")
