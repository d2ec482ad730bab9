"""Fixtures of the aiendpoint suite: each resource is fetched once per run and shared."""

from __future__ import annotations

import pytest

from conformance.aiendpoint import ALIAS_PATH, WELL_KNOWN_PATH
from conformance.document import Document
from conformance.fetch import Exchange, Fetch, Fetcher
from conformance.outcomes import untestable
from conformance.targets import Target

#: Non-200 statuses that another clause already explains, and that clause.
EXPLAINED_STATUS = {
    404: "AIE-2.1-01", 410: "AIE-2.1-01",
    401: "AIE-2.2-02", 403: "AIE-2.2-02", 407: "AIE-2.2-02",
    405: "AIE-2.2-01", 501: "AIE-2.2-01",
}

#: Fetch failures and the clause that reports them.
FETCH_ERROR_CLAUSE = {
    "tls": "AIE-6.4-03", "insecure-redirect": "AIE-6.4-03",
    "connect": "AIE-2.1-01", "timeout": "AIE-2.1-01", "protocol": "AIE-2.1-01",
    "too-many-redirects": "AIE-2.1-01", "bad-redirect": "AIE-2.1-01", "transport": "AIE-2.1-01",
}


def response(fetch: Fetch) -> Exchange:
    """The final response of a fetch, or *untestable* naming the clause that reports why not."""
    __tracebackhide__ = True
    final = fetch.final
    if fetch.error and fetch.error_kind != "too-large" and (final is None or final.status in (301, 302, 303, 307, 308)):
        untestable(f"no response to {fetch.url}: {fetch.describe_error()} "
                   f"(see {FETCH_ERROR_CLAUSE.get(fetch.error_kind or '', 'AIE-2.1-01')})")
    if final is None:  # pragma: no cover - a fetch without error always has a response
        untestable(f"no response to {fetch.url}")
    return final


def delivered(fetch: Fetch) -> Exchange:
    """The response that delivered the document (2xx), or *untestable* naming the clause."""
    __tracebackhide__ = True
    final = response(fetch)
    if not 200 <= final.status < 300:
        clause = EXPLAINED_STATUS.get(final.status, "AIE-2.2-05")
        untestable(f"{fetch.url} answered {final.status} {final.reason}, not the document (see {clause})")
    return final


@pytest.fixture(scope="session")
def origin(adck_target: Target) -> str:
    """``scheme://host[:port]`` of the publisher under test."""
    assert adck_target.origin, "publisher-role tests run only on origin targets"
    return adck_target.origin


@pytest.fixture(scope="session")
def well_known(origin: str, adck_fetcher: Fetcher) -> Fetch:
    """GET /.well-known/ai, once per run."""
    return adck_fetcher.get(origin + WELL_KNOWN_PATH)


@pytest.fixture(scope="session")
def alias(origin: str, adck_fetcher: Fetcher) -> Fetch:
    """GET /ai (the optional alias of 2.1), once per run, only if a test asks for it."""
    return adck_fetcher.get(origin + ALIAS_PATH)


@pytest.fixture(scope="session")
def document(adck_target: Target, adck_fetcher: Fetcher, request: pytest.FixtureRequest) -> Document:
    """The AI Discovery Document under test: the file of a document target, or the body
    served at /.well-known/ai."""
    if adck_target.kind == "document":
        assert adck_target.document_path is not None
        return Document.from_file(adck_target.document_path, adck_target.http.limits.max_body_bytes)
    fetch = request.getfixturevalue("well_known")
    delivered(fetch)
    return Document.from_fetch(fetch)
