"""AID v1.2 Appendix D.1: Key Format Interoperability, the record's pka as a JWK (document role)."""

from __future__ import annotations

from conformance.aid.conftest import PublishedRecord
from conformance.aid.v1_2 import judge
from conformance.aid.v1_2.judge import label, value
from conformance.outcomes import clause, untestable, violation


@clause("AID-D.1-01")
def test_D_1_pka_convertible_to_jwk(aid_records: list[PublishedRecord]) -> None:
    """This key material **MUST** be convertible to the JSON Web Key (JWK) form defined in [RFC8037]:

    'decode the multibase `pka` value to obtain 32 raw bytes, then base64url-encode those bytes
    to produce the JWK `x` parameter': the pka of every aid1 record decodes (any multibase base
    the kit reads: z, u, m, f, b) to exactly 32 bytes. A value that is no multibase at all is
    AID-2.1-43's failure."""
    def check(record: PublishedRecord) -> None:
        pka = value(record, "pka")
        raw = judge.multibase_decode(pka)
        if raw is None:
            untestable(f"{label(record)}: k={pka[:60]!r} is no multibase string to decode (see AID-2.1-43)")
        if len(raw) != 32:
            violation(f"{label(record)}: expected k (pka) to decode to the 32 raw bytes of an OKP Ed25519 JWK's x; "
                      f"saw {len(raw)} bytes")
    judge.judge(judge.aid1(aid_records), check)
