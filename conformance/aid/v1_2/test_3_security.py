"""AID v1.2 §3 Security Rules: DNSSEC (provider), https, no secrets, kid with pka (document)."""

from __future__ import annotations

from conformance.aid.conftest import PublishedRecord
from conformance.aid.v1_2 import judge
from conformance.aid.v1_2.judge import NOT_REMOTE, label
from conformance.dns import TxtAnswer
from conformance.outcomes import clause, not_applicable, untestable, violation


@clause("AID-3-01")
def test_3_record_signed_with_dnssec(lookup: TxtAnswer) -> None:
    """**DNSSEC:** Providers **SHOULD** sign their DNS records with DNSSEC.

    The TXT answer at _agent.<domain> validates: signed, and the chain from the trust anchor
    holds (a signature that does not validate is no signing a client can use)."""
    if lookup.status != "ok":
        untestable(f"no TXT record at {lookup.name}: {lookup.status} (see AID-2-01, AID-2-02)")
    if lookup.dnssec == "unsigned":
        violation(f"expected a DNSSEC-signed answer for {lookup.name}; saw no signature (RRSIG)")
    if lookup.dnssec == "invalid":
        violation(f"expected a DNSSEC signature of {lookup.name} that validates; saw one that does not: {lookup.detail}")
    if lookup.dnssec == "unchecked":
        untestable(f"signed, but the kit has no trust anchor for the zone to validate the chain "
                   f"(--dnssec-anchor): {lookup.detail}")


@clause("AID-3-03")
def test_3_remote_uri_uses_https(aid_records: list[PublishedRecord]) -> None:
    """**HTTPS:** A `remote` agent's `uri` **MUST** use `https://`.

    Every aid1 record whose p is not local, zeroconf or websocket (Appendix B governs those,
    AMB-55; a token outside the registry is remote) has a u that is an absolute https:// URL:
    scheme https in any case, '//', a host."""
    def check(record: PublishedRecord) -> None:
        proto, uri = record.reading.fields.get("proto"), record.reading.fields.get("uri")
        if not proto:
            untestable(f"{label(record)} has no p, so whether its agent is remote is unknown (see AID-2.1-36)")
        if proto in NOT_REMOTE:
            not_applicable(f"{label(record)} has p={proto}: Appendix B names its uri (AMB-55)")
        if not uri:
            untestable(f"{label(record)} has no u (see AID-2.1-35)")
        if why := judge.absolute_url_problem(uri, "https"):
            violation(f"{label(record)}: expected the remote agent's u to be an https:// URL; saw u={uri[:80]!r} "
                      f"({why})", readings=("AMB-55",))
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-3-05")
def test_3_record_holds_no_secret(aid_records: list[PublishedRecord]) -> None:
    """**No Secrets:** The TXT record is public and **MUST NOT** contain any secrets.

    The kit fails only what is a secret beyond doubt (AMB-22): a private-key block, a string in a
    well-known credential format, a password in a URL's userinfo, a non-empty credential query
    parameter (token, access_token, api_key, apikey, key, secret, password), in any key's value.
    Passing proves no absence."""
    def check(record: PublishedRecord) -> None:
        found = judge.secrets(record)
        if found:
            violation(f"{label(record)}: expected no secret in the public record; saw " + "; ".join(found)
                      + " (values not shown: they may be secrets)", readings=("AMB-22",))
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-3-07")
def test_3_kid_published_with_pka(aid_records: list[PublishedRecord]) -> None:
    """Providers **MUST** publish `kid`/`i` when `pka` is present.

    Every aid1 record holding k (pka) holds a non-empty i (kid); the same requirement as
    AID-2.1-44 and AID-D-07 (mutant-floor.toml [restates])."""
    from conformance.aid.v1_2.test_2_1_format import _kid_with_pka
    _kid_with_pka(aid_records)
