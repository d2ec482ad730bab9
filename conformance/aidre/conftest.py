"""Fixtures of the aidre suite: the document under test, read once per run."""

from __future__ import annotations

import pytest

from conformance.document import Document
from conformance.outcomes import untestable
from conformance.targets import Target
from conformance.aidre._server_fixtures import *  # noqa: F403 - the server role's fixtures, found by name
from conformance.aidre._client_fixtures import *  # noqa: F403

#: Where an AIDRE origin serves its discovery document (3.1).
WELL_KNOWN_PATH = "/.well-known/ai-discovery"


@pytest.fixture(scope="session")
def document(adck_target: Target, request: pytest.FixtureRequest) -> Document:
    """The document under test: the file of a document target, read as a discovery document
    (AMB-25), or the body an origin serves at /.well-known/ai-discovery."""
    if adck_target.kind == "document":
        assert adck_target.document_path is not None
        return Document.from_file(adck_target.document_path, adck_target.http.limits.max_body_bytes)
    assert adck_target.origin, "document-role tests run on document or origin targets"
    fetch = request.getfixturevalue("discovery_fetch")  # the server role's one GET, shared
    final = fetch.final
    if final is None or (fetch.error and fetch.error_kind != "too-large"):
        untestable(f"no discovery document at {fetch.url}: {fetch.describe_error()} (see AIDRE-3.1-01)")
    if not 200 <= final.status < 300:
        untestable(f"{fetch.url} answered {final.status} {final.reason}, not the discovery document (see AIDRE-3.1-01)")
    return Document.from_fetch(fetch)
