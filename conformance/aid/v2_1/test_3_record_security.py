"""§3 Security Rules (AID v2.1), document role: a v=aid2 record's URI scheme, and no secrets."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from conformance import redact
from conformance.aid import versioned
from conformance.aid.conftest import PublishedRecord
from conformance.aid.v2_1._rules import aid2, judge, value, written
from conformance.outcomes import clause, not_applicable

#: The protocols of 7.2 whose agent is remote (reached at a URL), and the scheme each takes.
REMOTE = {p: s[0] for p, s in versioned.PROTOCOLS.items() if s in (("https",), ("wss",))}


@clause("AID-3-22")
def test_3_remote_uri_uses_https_or_wss(aid_records: list[PublishedRecord]) -> None:
    """**HTTPS:** Remote agent URIs **MUST** use `https://`, except `proto=websocket` which
    **MUST** use `wss://`.

    For every remote protocol of 7.2 (mcp, a2a, openapi, grpc, graphql, ucp) u is an https://
    URL, for websocket a wss:// URL (the scheme in any case, RFC 3986 3.1): not http://, ws://,
    the other one of the two, another scheme, no scheme, or the scheme without '//'. A local or
    zeroconf record, or a p outside the registry (AID-2.1-58), has no remote URI to judge."""
    records = [r for r in aid2(aid_records) if value(r, "proto") in REMOTE and value(r, "uri")]
    if not records:
        not_applicable("no aid2 record names a remote protocol of 7.2 with a u")

    def check(r: PublishedRecord) -> list[str]:
        uri, proto = value(r, "uri"), value(r, "proto")
        scheme, sep, rest = uri.partition(":")
        want = REMOTE[proto]
        if not sep or scheme.lower() != want or not rest.startswith("//"):
            return [f"{written(r, 'uri')}={uri[:80]!r} with p={proto}; expected an absolute {want}:// URL"]
        return []
    judge(records, check)


def secrets_in(record: PublishedRecord) -> list[str]:
    """What looks like a secret in the record's values. k (pka) is skipped: it is the endpoint's
    public key, published to be read (2.1, Appendix B), and base64url of 32 random-looking
    octets is no sign of a secret."""
    found = []
    for w, key, v in versioned._split(record.text)[0]:  # every pair, a key written twice too
        if key == "pka":
            continue
        if redact.is_secret_name(w) and v:
            found.append(f"the key {w!r} (a name for a secret) holds a value")
        if redact.looks_like_token(v):
            found.append(f"{w} holds a string shaped like a credential")
        if redact.USERINFO.search(v):
            found.append(f"{w} carries user credentials in a URL (scheme://user:password@)")
        if "://" in v:
            query = urlsplit(v).query
            if any(redact.is_secret_name(k) and qv for k, qv in parse_qsl(query)):
                found.append(f"{w} carries a credential in its query")
    return found


@clause("AID-3-23")
def test_3_record_holds_no_secret(aid_records: list[PublishedRecord]) -> None:
    """**No secrets:** TXT records are public and **MUST NOT** contain secrets.

    No key named for a secret (token, api_key, password, secret, ...) holds a value, no value is
    shaped like a well-known credential (a JWT, a GitHub or Stripe token, ...), and no URL
    carries user:password@ or a secret query parameter. k is the public key (2.1): not a
    secret, never flagged. Values are not shown: they may be secrets."""
    judge(aid2(aid_records), lambda r: [f"{m}; expected no secret in a public TXT record" for m in secrets_in(r)])
