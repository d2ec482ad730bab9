"""AID v1.2 §2 TXT Record Specification: a single record at _agent.<domain> (provider role)."""

from __future__ import annotations

import pytest

from conformance.aid.conftest import PublishedRecord
from conformance.aid.v1_2 import judge
from conformance.dns import TxtAnswer
from conformance.outcomes import clause, violation


@clause("AID-2-01")
def test_2_single_txt_record_at_agent(lookup: TxtAnswer, request: pytest.FixtureRequest) -> None:
    """A provider **MUST** advertise its agent service by publishing a single DNS TXT record at
    `_agent.<domain>`.

    The TXT answer at _agent.<domain> holds exactly one v1.x AID record (an AID record that is not
    v=aid2: a v2.1 record may stand beside it during migration, v2.1 2.2; other TXT data may share
    the name, AMB-50). None (no answer, only other data, only aid2) or two fail; what the one
    record holds is judged by the document clauses."""
    if lookup.status != "ok" or not lookup.records:
        violation(f"expected one AID TXT record at {lookup.name}; saw {lookup.status} ({lookup.detail})")
    aid_records: list[PublishedRecord] = request.getfixturevalue("aid_records")
    mine = judge.v1x(aid_records)
    if len(mine) != 1:
        saw = ", ".join(repr(r.text[:60]) for r in mine) or "none among " + ", ".join(
            repr(t[:60]) for t in lookup.texts())
        violation(f"expected a single v1.x AID TXT record at {lookup.name}; saw {len(mine)}: {saw}",
                  readings=("AMB-50",))
