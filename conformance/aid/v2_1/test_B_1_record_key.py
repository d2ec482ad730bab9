"""Appendix B.1 Key Decoding (AID v2.1), document role: a v=aid2 record's k."""

from __future__ import annotations

from conformance.aid.conftest import PublishedRecord
from conformance.aid.v2_1._rules import RULES, aid2, judge, only_where, problems, value, written
from conformance.outcomes import clause, untestable


@clause("AID-B.1-01")
def test_B_1_k_is_unpadded_base64url(aid_records: list[PublishedRecord]) -> None:
    """For v2, `k` **MUST** be unpadded base64url.

    k (or pka) is written in the URL-safe alphabet (A-Z a-z 0-9 - _) only: no '=' padding, no
    '+' or '/' of standard base64, no other character, not empty, and of a length base64 can
    have (not 1 more than a multiple of 4)."""
    records = only_where(aid2(aid_records), "pka")
    judge(records, lambda r: [f"{written(r, 'pka')}={value(r, 'pka')[:60]!r} is not unpadded base64url; "
                              "expected only A-Z a-z 0-9 - _ without '=' (the JWK x member)"
                              for _m in problems(r, RULES["pka"])])


@clause("AID-B.1-02")
def test_B_1_k_decodes_to_32_octets(aid_records: list[PublishedRecord]) -> None:
    """Decoding **MUST** produce exactly 32 octets.

    k decodes to 32 octets (43 characters): not 31 or 33, not a 64-octet private-and-public
    pair, not a legacy multibase key (z... or u... decode to more)."""
    records = only_where(aid2(aid_records), "pka")
    if all(problems(r, RULES["pka"]) for r in records):
        untestable("k is not unpadded base64url, so it cannot be decoded (see AID-B.1-01)")

    def check(r: PublishedRecord) -> list[str]:
        return [f"{written(r, 'pka')}={value(r, 'pka')[:60]!r} {m.split(' decodes to ', 1)[1].replace(', not 32', '')}; "
                "expected exactly 32 (an Ed25519 public key)" for m in problems(r, RULES["pka-size"])]
    judge(records, check)
