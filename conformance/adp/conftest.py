"""Fixtures of the adp suite: the document under test (a file), read once per run."""

from __future__ import annotations

import pytest

from conformance.adp._client_fixtures import *  # noqa: F403
from conformance.document import Document
from conformance.outcomes import not_applicable
from conformance.targets import Target

try:  # the service role's fixtures, found by name (built beside this role)
    from conformance.adp._service_fixtures import *  # noqa: F403
except ImportError:  # pragma: no cover - until the service role exists
    pass


@pytest.fixture(scope="session")
def document(adck_target: Target) -> Document:
    """The document under test: the file of a document target, classified by its members as an
    Agent Metadata object, a Discovery Request, a Discovery Response or an error object
    (AMB-26). A discovery service's own answers are judged by the service role."""
    if adck_target.kind == "document":
        assert adck_target.document_path is not None
        return Document.from_file(adck_target.document_path, adck_target.http.limits.max_body_bytes)
    not_applicable("the document role judges an ADP object given as a file (--target ./metadata.json); "
                   "a discovery service's answers are judged by the service role")
