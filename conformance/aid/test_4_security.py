"""§4 Security Considerations (record and provider)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from conformance import redact
from conformance.aid.conftest import RecordUnderTest, value_of
from conformance.dns import TxtAnswer
from conformance.outcomes import clause, untestable, violation


def _https(value: str, key: str) -> None:
    __tracebackhide__ = True
    parts = urlsplit(value)
    if parts.scheme.lower() != "https" or not parts.netloc:
        violation(f"{key}={value!r} is not an https:// URL")


@clause("AID-4-03")
def test_4_record_uri_uses_https(record: RecordUnderTest) -> None:
    """All `uri` and `config` URLs **MUST** use `https://`. (the record's uri)"""
    _https(value_of(record, "uri"), "uri")


@clause("AID-4-04")
def test_4_record_config_uses_https(record: RecordUnderTest) -> None:
    """All `uri` and `config` URLs **MUST** use `https://`. (the record's config)"""
    value = value_of(record, "config")
    if not urlsplit(value).netloc:
        untestable(f"config={value!r} is not an absolute URL (see AID-2.1-21)")
    _https(value, "config")


@clause("AID-4-07")
def test_4_record_holds_no_secret(record: RecordUnderTest) -> None:
    """They **MUST NOT** contain any secrets (tokens, keys, passwords). (the TXT record)"""
    found = []
    for key, value in record.parsed.pairs:
        if redact.is_secret_name(key) and value:
            found.append(f"the key {key!r} holds a value")
        if redact.looks_like_token(value):
            found.append(f"{key} holds a token-shaped string")
        parts = urlsplit(value) if "://" in value else None
        if parts is not None:
            if "@" in parts.netloc:
                found.append(f"{key} carries user credentials")
            if any(redact.is_secret_name(k) and v for k, v in parse_qsl(parts.query)):
                found.append(f"{key} carries a credential in its query")
    if found:
        violation("; ".join(found) + " (values are not shown: they may be secrets)")


@clause("AID-4-01")
def test_4_record_signed_with_dnssec(lookup: TxtAnswer) -> None:
    """Providers are **STRONGLY ENCOURAGED** to sign their DNS records with DNSSEC."""
    if lookup.status != "ok":
        untestable(f"no TXT record at {lookup.name} (see AID-2.1-01)")
    if lookup.dnssec == "unsigned":
        violation(f"the TXT answer for {lookup.name} carries no DNSSEC signature")
    if lookup.dnssec == "invalid":
        violation(f"the DNSSEC signature of {lookup.name} does not validate: {lookup.detail}")
    if lookup.dnssec == "unchecked":
        untestable(f"signed, but the kit has no trust anchor for the zone to validate the chain ({lookup.detail})")
