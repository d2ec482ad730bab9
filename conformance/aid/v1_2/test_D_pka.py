"""AID v1.2 Appendix D: the PKA key in the record (document role). The handshake a provider
answers (AID-D-06) is tested elsewhere."""

from __future__ import annotations

from conformance.aid.conftest import PublishedRecord
from conformance.outcomes import clause


@clause("AID-D-07")
def test_D_kid_included_with_pka(aid_records: list[PublishedRecord]) -> None:
    """Providers MUST include `kid`/`i` with `pka`/`k`.

    Every aid1 record holding k (pka) holds a non-empty i (kid); the same requirement as
    AID-2.1-44 and AID-3-07 (mutant-floor.toml [restates])."""
    from conformance.aid.v1_2.test_2_1_format import _kid_with_pka
    _kid_with_pka(aid_records)
