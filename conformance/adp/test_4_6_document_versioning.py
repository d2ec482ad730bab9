"""§4.6 Versioning, judged on an Agent Metadata object on its own."""

from __future__ import annotations

from conformance.adp import _checks
from conformance.document import Document
from conformance.outcomes import clause


@clause("ADP-4.6-01")
def test_4_6_publisher_includes_a_version(document: Document) -> None:
    """Metadata publishers SHOULD include a version field"""
    _checks.present(_checks.metadata(document), "version")
