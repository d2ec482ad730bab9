"""§3 Security Rules (AID v2.1), provider role: DNSSEC."""

from __future__ import annotations

from conformance.dns import TxtAnswer
from conformance.outcomes import clause, untestable, violation


@clause("AID-3-20")
def test_3_records_signed_with_dnssec(lookup: TxtAnswer) -> None:
    """**DNSSEC:** Providers **SHOULD** sign DNS records with DNSSEC.

    The TXT answer at _agent.<domain> carries an RRSIG that validates with the zone's DNSKEY
    and, where the kit holds a trust anchor for the zone, a chain to it. Unsigned, or signed
    with a signature or a key the parent's DS does not vouch for, fails."""
    if lookup.status != "ok":
        untestable(f"no TXT record at {lookup.name}: {lookup.status} (see AID-2-02)")
    if lookup.dnssec == "unsigned":
        violation(f"the TXT answer for {lookup.name} carries no DNSSEC signature (no RRSIG); expected a signed answer")
    if lookup.dnssec == "invalid":
        violation(f"the DNSSEC signature of {lookup.name} does not validate: {lookup.detail}; "
                  "expected a signature that validates to the zone's trust anchor")
    if lookup.dnssec == "unchecked":
        untestable(f"signed, but the kit has no trust anchor for the zone to validate the chain ({lookup.detail})")
