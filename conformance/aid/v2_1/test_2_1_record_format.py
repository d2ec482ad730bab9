"""§2.1 Format (AID v2.1), document role: the keys and values of a v=aid2 record.

Keys are compared case-insensitively and each single-letter alias stands for its key (2.1);
values are read trimmed (AMB-07). Only v=aid2 records are judged here: an aid1 record beside
them is the legacy version, judged by aid@v1.2 (AMB-60).
"""

from __future__ import annotations

from conformance.aid import versioned
from conformance.aid.conftest import PublishedRecord
from conformance.aid.v2_1._rules import (RULES, aid2, calendar_error, decoded_key, judge, only_where,
                                         point_error, problems, unpadded_b64url, value, written)
from conformance.outcomes import clause, not_applicable, untestable, violation

REGISTRY = ", ".join(versioned.PROTOCOLS)
AUTH = ", ".join(versioned.AUTH_TOKENS)


@clause("AID-2.1-47")
def test_2_1_record_is_one_string_of_key_value_pairs(aid_records: list[PublishedRecord]) -> None:
    """The record **MUST** be a single semicolon-delimited string of `key=value` pairs.

    Every ';'-separated piece of the record (its character-strings concatenated; a trailing ';'
    ends the last pair) is key=value with a key: no empty piece, no piece without '=', no
    empty key, no key written twice (an alias and its key together are AID-2.1-31's)."""
    records = aid2(aid_records)
    judge(records, lambda r: [f"{m}; expected only key=value pairs, each key once, separated by ';'"
                              for m in problems(r, RULES["pairs"])], readings=("AMB-07",))


@clause("AID-2.1-54")
def test_2_1_record_holds_v(aid_records: list[PublishedRecord]) -> None:
    """| `version` | `v` | **Required** | The specification version. For v2 it **MUST** be `aid2`. |

    Every AID record published (a TXT record holding uri and proto, or the record given) holds
    v, or version, in any case of its letters."""
    if not aid_records:
        untestable("no AID record is published (see AID-2-02)")
    missing = [r for r in aid_records if r.reading.version is None]
    judge(missing, lambda r: [f"no v (version) key among {', '.join(r.reading.written) or 'no keys'}; "
                              "expected v=aid2"], readings=("AMB-71",))


@clause("AID-2.1-55")
def test_2_1_v_is_aid2(aid_records: list[PublishedRecord]) -> None:
    """| `version` | `v` | **Required** | The specification version. For v2 it **MUST** be `aid2`. |

    A record's v is aid2, exactly (lower case; white space around it trimmed, AMB-07); v=aid1
    is the legacy version, judged by aid@v1.2 (AMB-60), and a record without v is AID-2.1-54's."""
    claimed = [r for r in aid_records if r.reading.version is not None and r.reading.version != "aid1"]
    if not claimed:
        not_applicable("no record holds a v other than the legacy aid1 (judged by aid@v1.2)" if aid_records
                       else "no AID record is published")
    judge(claimed, lambda r: [] if r.reading.version == "aid2" else
          [f"{written(r, 'version')}={r.reading.version!r}; expected aid2"], readings=("AMB-07", "AMB-60", "AMB-71"))


@clause("AID-2.1-56")
def test_2_1_record_holds_uri(aid_records: list[PublishedRecord]) -> None:
    """| `uri` | `u` | **Required** | Absolute `https://` URL for a remote agent, `wss://` for
    WebSocket, or a local locator. |

    Every aid2 record holds u (or uri), not empty; written as an absolute URL (scheme://host)
    its host is not empty. Which scheme each protocol takes is AID-3-22's and 7.2's."""
    def check(r: PublishedRecord) -> list[str]:
        uri = value(r, "uri")
        if uri is None:
            return [f"no u (uri) key among {', '.join(r.reading.written)}; expected u=<the agent's URI>"]
        if not uri:
            return [f"{written(r, 'uri')} is empty; expected the agent's URI"]
        scheme, sep, rest = uri.partition("://")
        if sep and scheme.lower() in ("https", "wss"):
            host = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].rsplit("@", 1)[-1]
            if not host or host.startswith(":"):
                return [f"{written(r, 'uri')}={uri[:80]!r} has no host; expected an absolute URL naming one"]
        return []
    judge(aid2(aid_records), check)


@clause("AID-2.1-57")
def test_2_1_record_holds_proto(aid_records: list[PublishedRecord]) -> None:
    """| `proto` | `p` | **Required** | Protocol token from the protocol registry. |

    Every aid2 record holds p (or proto), not empty."""
    def check(r: PublishedRecord) -> list[str]:
        proto = value(r, "proto")
        if proto is None:
            return [f"no p (proto) key among {', '.join(r.reading.written)}; expected p=<a protocol token>"]
        return [] if proto else [f"{written(r, 'proto')} is empty; expected a protocol token ({REGISTRY})"]
    judge(aid2(aid_records), check)


@clause("AID-2.1-58")
def test_2_1_proto_is_registry_token(aid_records: list[PublishedRecord]) -> None:
    """| `proto` | `p` | **Required** | Protocol token from the protocol registry. |

    p is one token of 7.2, written as the registry writes it (lower case): not another name,
    not a list (v1's comma-separated form), not an upper-case spelling."""
    records = only_where(aid2(aid_records), "proto")
    judge(records, lambda r: [] if not value(r, "proto") or value(r, "proto") in versioned.PROTOCOLS else
          [f"{written(r, 'proto')}={value(r, 'proto')[:40]!r}; expected one token of 7.2 ({REGISTRY})"])


@clause("AID-2.1-59")
def test_2_1_auth_hint_recommended(aid_records: list[PublishedRecord]) -> None:
    """| `auth` | `a` | Recommended | Authentication hint token from the auth registry. |

    Every aid2 record holds a (or auth); a key of another name (authentication=, au=) is an
    unknown key, not the hint."""
    judge(aid2(aid_records), lambda r: [] if "auth" in r.reading.fields else
          [f"no a (auth) key among {', '.join(r.reading.written)}; expected a=<a token of 7.1> ({AUTH})"])


@clause("AID-2.1-60")
def test_2_1_auth_is_registry_token(aid_records: list[PublishedRecord]) -> None:
    """| `auth` | `a` | Recommended | Authentication hint token from the auth registry. |

    When present, a is one token of 7.1, as written there: not empty, not a list (v1's
    comma-separated form), not v1's oauth2_service (gone from 7.1), not an upper-case spelling."""
    records = only_where(aid2(aid_records), "auth")
    judge(records, lambda r: [] if value(r, "auth") in versioned.AUTH_TOKENS else
          [f"{written(r, 'auth')}={value(r, 'auth')[:40]!r}; expected one token of 7.1 ({AUTH})"])


@clause("AID-2.1-61")
def test_2_1_desc_at_most_60_bytes(aid_records: list[PublishedRecord]) -> None:
    """| `desc` | `s` | Optional | Short human-readable display text. MUST be ≤ 60 UTF-8 bytes. |

    s (or desc), trimmed (AMB-07), is at most 60 bytes in UTF-8: 60 pass, 61 fail, and a text
    of fewer than 60 characters fails when its UTF-8 form is longer."""
    records = only_where(aid2(aid_records), "desc")

    def check(r: PublishedRecord) -> list[str]:
        size = len(value(r, "desc").encode("utf-8"))
        return [] if size <= 60 else [f"{written(r, 'desc')} is {size} UTF-8 bytes "
                                      f"({len(value(r, 'desc'))} characters); expected at most 60 bytes"]
    judge(records, check, readings=("AMB-07",))


@clause("AID-2.1-62")
def test_2_1_dep_is_iso8601_utc(aid_records: list[PublishedRecord]) -> None:
    """| `dep` | `e` | Optional | ISO 8601 UTC deprecation timestamp. |

    e (or dep) is an ISO 8601 date and time in UTC: extended (2027-01-01T00:00:00Z) or basic
    (20270101T000000Z) form, minutes, seconds and fractions optional, Z or a zero offset; a
    date alone, a local time without offset, another offset, epoch seconds or a date that does
    not exist (month 13, 30 February) are not."""
    records = only_where(aid2(aid_records), "dep")

    def check(r: PublishedRecord) -> list[str]:
        dep = value(r, "dep")
        expected = "expected an ISO 8601 UTC timestamp such as 2027-01-01T00:00:00Z"
        if problems(r, RULES["dep"]):
            return [f"{written(r, 'dep')}={dep[:40]!r}; {expected}"]
        if why := calendar_error(dep):
            return [f"{written(r, 'dep')}={dep[:40]!r} names no instant ({why}); {expected}"]
        return []
    judge(records, check)


@clause("AID-2.1-63")
def test_2_1_pka_is_jwk_x_of_an_ed25519_key(aid_records: list[PublishedRecord]) -> None:
    """| `pka` | `k` | Optional | Unpadded base64url Ed25519 public key. The value is exactly the
    RFC 8037 JWK `x` member. |

    Beyond B.1's two checks (unpadded base64url, 32 octets: AID-B.1-01, AID-B.1-02): the value
    is exactly what RFC 8037 writes as x, the canonical encoding of those octets (no stray bits
    in its last character, AMB-70), and the octets are an Ed25519 public key (RFC 8032 5.1.3:
    y below p, a point of the curve)."""
    records = only_where(aid2(aid_records), "pka")
    blocked = [r for r in records if decoded_key(value(r, "pka")) is None]
    if len(blocked) == len(records):
        untestable("k is not unpadded base64url of 32 octets (see AID-B.1-01, AID-B.1-02)")

    def check(r: PublishedRecord) -> list[str]:
        k = value(r, "pka")
        raw = decoded_key(k)
        if raw is None:
            return []
        found = []
        if unpadded_b64url(raw) != k:
            found.append(f"{written(r, 'pka')}={k!r} is not the canonical base64url of its octets; "
                         f"expected the JWK x member {unpadded_b64url(raw)!r}")
        if why := point_error(raw):
            found.append(f"{written(r, 'pka')}={k!r} is no Ed25519 public key: {why}; "
                         "expected the JWK x member of an Ed25519 public key")
        return found
    judge([r for r in records if r not in blocked], check, readings=("AMB-70",))


@clause("AID-2.1-64")
def test_2_1_no_kid_in_aid2(aid_records: list[PublishedRecord]) -> None:
    """AID v2 records **MUST NOT** use `kid` or `i` for endpoint proof.

    No aid2 record holds kid or i, in any case of its letters, with a value or empty."""
    judge(aid2(aid_records), lambda r: [f"{w}={value(r, 'kid')!r} is present; expected no kid or i in a v=aid2 record"
                                      for w, k in zip(r.reading.written, r.reading.order) if k == "kid"])
