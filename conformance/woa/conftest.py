"""Fixtures of the woa suite, one module per role, so that each reads on its own:

* the document role (a woa.json on its own, or the one a host serves): ``document`` here;
* the host role (an origin serving /.well-known/woa.json and invoking its agents):
  ``_host_fixtures``;
* the host's MCP transport (the kit as an MCP client): ``_mcp_fixtures``;
* the client role (software that discovers and invokes agents, through the harness):
  ``_client_fixtures``.
"""

from __future__ import annotations

import pytest

from conformance.document import Document
from conformance.outcomes import not_applicable
from conformance.targets import Target
from conformance.woa._client_fixtures import *  # noqa: F403 - pytest finds fixtures by name
from conformance.woa._host_fixtures import *  # noqa: F403
from conformance.woa._mcp_fixtures import *  # noqa: F403


@pytest.fixture(scope="session")
def document(adck_target: Target, request: pytest.FixtureRequest) -> Document:
    """The WoA document under test: the file of a document target, or the body a host serves
    at /.well-known/woa.json (*untestable* when it serves none: see WOA-3-01)."""
    if adck_target.kind == "document" and adck_target.document_path is not None:
        return Document.from_file(adck_target.document_path, adck_target.http.limits.max_body_bytes)
    if adck_target.kind == "origin":
        return request.getfixturevalue("host_document")
    not_applicable(f"a {adck_target.kind} target serves no WoA document")
