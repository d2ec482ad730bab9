"""Fixtures of the woa suite: the document role (a woa.json on its own)."""

from __future__ import annotations

import pytest

from conformance.document import Document
from conformance.outcomes import not_applicable
from conformance.targets import Target


@pytest.fixture(scope="session")
def document(adck_target: Target) -> Document:
    """The WoA document under test: the file of a document target."""
    if adck_target.kind != "document" or adck_target.document_path is None:
        not_applicable("only a WoA document on its own is checked so far (the host role is being built)")
    return Document.from_file(adck_target.document_path, adck_target.http.limits.max_body_bytes)
