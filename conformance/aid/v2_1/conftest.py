"""Fixtures of the AID v2.1 tests of this folder."""

from __future__ import annotations

import pytest

from conformance.aid.conftest import PublishedRecord
from conformance.outcomes import Untestable, untestable


@pytest.fixture(scope="session")
def aid_records(request: pytest.FixtureRequest) -> list[PublishedRecord]:
    """The AID records published (``published``), with the clause that explains their absence
    named when there are none to judge: a domain without a TXT answer fails AID-2-02, and an
    untestable clause of a non-conformant verdict names the failing clause it depends on."""
    __tracebackhide__ = True
    try:
        return request.getfixturevalue("published")
    except Untestable as exc:
        reason = str(exc.msg).removeprefix("untestable: ")
        untestable(reason if "AID-" in reason else f"{reason} (see AID-2-02)")
