"""§2.1 The AID DNS Record."""

from __future__ import annotations

from urllib.parse import urlsplit

from conformance.aid.conftest import RecordUnderTest, value_of
from conformance.aid.record import parse
from conformance.dns import TxtAnswer
from conformance.outcomes import clause, not_applicable, untestable, violation

#: Appendix A: the authentication scheme registry.
AUTH_TOKENS = ("none", "pat", "apikey", "basic", "oauth2_device", "oauth2_code", "oauth2_service", "mtls", "custom")


@clause("AID-2.1-01")
def test_2_1_txt_record_published_at_agent_subdomain(lookup: TxtAnswer) -> None:
    """A domain advertises its agent service by publishing a DNS TXT record at a well-known
    subdomain: `_agent.<domain>`."""
    if lookup.status != "ok":
        violation(f"TXT {lookup.name}: {lookup.status} ({lookup.detail})")
    texts = lookup.texts()
    if not any(parse(t).get("v") == "aid1" for t in texts):  # keys and values trimmed (AMB-07)
        violation(f"the TXT record(s) at {lookup.name} hold no v=aid1: {', '.join(repr(t[:60]) for t in texts)}",
                  readings=("AMB-07",))


@clause("AID-2.1-02")
def test_2_1_record_is_semicolon_delimited_key_value_pairs(record: RecordUnderTest) -> None:
    """The record's content is a single string composed of semicolon-delimited `key=value` pairs."""
    syntax = [p for p in record.parsed.problems if "more than once" not in p and "white space" not in p]
    if syntax:
        violation(f"{record.text[:120]!r}: " + "; ".join(syntax), readings=("AMB-07",))


@clause("AID-2.1-03")
def test_2_1_keys_at_most_9_characters(record: RecordUnderTest) -> None:
    """Keys should be concise (ideally ≤9 characters) and use US-ASCII."""
    long = [k for k in record.parsed.keys() if len(k) > 9]
    if long:
        violation(f"keys longer than 9 characters: {', '.join(map(repr, long))}")


@clause("AID-2.1-04")
def test_2_1_keys_are_us_ascii(record: RecordUnderTest) -> None:
    """Keys should be concise (ideally ≤9 characters) and use US-ASCII."""
    bad = [k for k in record.parsed.keys() if not k.isascii()]
    if bad:
        violation(f"keys with characters outside US-ASCII: {', '.join(map(repr, bad))}")


@clause("AID-2.1-06")
def test_2_1_record_under_255_characters(record: RecordUnderTest) -> None:
    """To keep DNS responses efficient, the record should be kept under 255 characters."""
    if len(record.raw) > 255:
        violation(f"the record is {len(record.raw)} bytes long ({len(record.strings)} character-strings)")


@clause("AID-2.1-08")
def test_2_1_record_holds_v(record: RecordUnderTest) -> None:
    """| **v** | **Required** | Version of the AID specification. Must be `aid1`. |"""
    if "v" not in record.parsed.keys():
        violation(f"the record has no v key: {record.text[:120]!r}")


@clause("AID-2.1-09")
def test_2_1_v_is_aid1(record: RecordUnderTest) -> None:
    """| **v** | **Required** | Version of the AID specification. Must be `aid1`. |"""
    value = record.parsed.get_written("v")
    if value is None:
        untestable("the record has no v key (see AID-2.1-08)")
    if value != "aid1":  # exactly: case as written, no white space around it
        violation(f"v is {value!r}, not aid1")


def _simple_profile(record: RecordUnderTest) -> None:
    __tracebackhide__ = True
    if record.parsed.get("config") is not None:
        not_applicable("the record has config (Extended Profile): the manifest decides whether uri and proto belong")


@clause("AID-2.1-10")
def test_2_1_simple_profile_record_holds_uri(record: RecordUnderTest) -> None:
    """| **uri** | Required **iff** at least one *remote* implementation exists (Simple Profile: the record alone)."""
    _simple_profile(record)
    if record.parsed.get("uri") is None:
        violation("a record without config (Simple Profile) has no uri")


@clause("AID-2.1-13")
def test_2_1_simple_profile_record_holds_proto(record: RecordUnderTest) -> None:
    """| **proto** | Required **iff** at least one *remote* implementation exists (Simple Profile: the record alone)."""
    _simple_profile(record)
    if record.parsed.get("proto") is None:
        violation("a record without config (Simple Profile) has no proto")


@clause("AID-2.1-16")
def test_2_1_proto_is_comma_separated_list(record: RecordUnderTest) -> None:
    """Supported protocol(s) at the primary URI. A comma-separated list; the first is preferred."""
    value = value_of(record, "proto")
    items = value.split(",")
    if not value or any(not i.strip() or i != i.strip() for i in items):
        violation(f"proto={value!r} is not a comma-separated list of protocol tokens")


@clause("AID-2.1-19")
def test_2_1_auth_hint_recommended(record: RecordUnderTest) -> None:
    """| **auth** | Recommended | Authentication hint(s) for the primary URI."""
    if record.parsed.get("uri") is None:
        not_applicable("the record has no uri, so there is no primary URI to hint for")
    if record.parsed.get("auth") is None:
        violation("the record has a uri but no auth hint")


@clause("AID-2.1-20")
def test_2_1_auth_tokens_from_registry(record: RecordUnderTest) -> None:
    """| **auth** | ... Authentication hint(s) for the primary URI. See Appendix A for registry."""
    value = value_of(record, "auth")
    unknown = [t for t in value.split(",") if t not in AUTH_TOKENS]
    if not value or unknown:
        violation(f"auth={value!r}: {', '.join(map(repr, unknown)) or 'empty'} not in the registry of Appendix A")


@clause("AID-2.1-21")
def test_2_1_config_is_absolute_url(record: RecordUnderTest) -> None:
    """| **config** | Optional | Absolute `https://` URL of an AID Manifest (`aid.json`)."""
    value = value_of(record, "config")
    parts = urlsplit(value)
    if not parts.scheme or not parts.netloc or " " in value:
        violation(f"config={value!r} is not an absolute URL with a host")


@clause("AID-2.1-22")
def test_2_1_config_uses_well_known_path(record: RecordUnderTest) -> None:
    """The URL should use a well-known path (see RFC 8615)."""
    value = value_of(record, "config")
    parts = urlsplit(value)
    if not parts.netloc:
        untestable(f"config={value!r} is not an absolute URL (see AID-2.1-21)")
    if not parts.path.startswith("/.well-known/"):
        violation(f"config={value!r} is not under /.well-known/")
