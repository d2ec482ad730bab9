"""AID v1.2 §2.1 Format: the record's syntax, its keys and their values (document role).

A sentence only v1.2 holds judges the v=aid1 records; AID-2.1-31 and AID-2.1-41, which v2.1
holds word for word, judge every aid1 and aid2 record, each by its own version's table."""

from __future__ import annotations

import re
from datetime import datetime

from conformance.aid.conftest import PublishedRecord
from conformance.aid.v1_2 import judge
from conformance.aid.v1_2.judge import ALIASES, AUTH_TOKENS, PROTOCOLS, label, value
from conformance.outcomes import clause, untestable, violation

#: The short-key form of v1.x records (2.1).
SHORT_KEYS = "vupasdeki"


@clause("AID-2.1-25")
def test_2_1_record_is_semicolon_delimited_pairs(aid_records: list[PublishedRecord]) -> None:
    """The record **MUST** be a single string of semicolon-delimited `key=value` pairs.

    Every piece between semicolons holds '=' after a non-empty key; an empty piece (';;', a
    leading ';', a piece of white space) or a bare word is no pair. One trailing ';' ends the last
    pair (AMB-07). The record's character-strings are concatenated first (AID-2.1-28)."""
    def check(record: PublishedRecord) -> None:
        pieces = record.text.split(";")
        if len(pieces) > 1 and not pieces[-1].strip():
            pieces = pieces[:-1]
        bad = []
        for i, piece in enumerate(pieces, 1):
            if not piece.strip():
                bad.append(f"piece {i} is empty")
            elif "=" not in piece:
                bad.append(f"piece {i} {piece.strip()[:30]!r} has no '='")
            elif not piece.split("=", 1)[0].strip():
                bad.append(f"piece {i} {piece.strip()[:30]!r} has an empty key")
        if bad:
            violation(f"{label(record)}: expected semicolon-delimited key=value pairs; saw " + "; ".join(bad),
                      readings=("AMB-07",))
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-29")
def test_2_1_record_under_255_bytes(aid_records: list[PublishedRecord]) -> None:
    """Keep the total length under 255 bytes when possible.

    The record's strings concatenated, counted in bytes (UTF-8 as aid_records): 254 is under 255,
    255 is not. 'When possible' cannot be seen (AMB-01): every longer record is a finding."""
    def check(record: PublishedRecord) -> None:
        if len(record.raw) >= 255:
            violation(f"{label(record)}: expected under 255 bytes; saw {len(record.raw)} bytes "
                      f"in {len(record.strings)} character-string(s)", readings=("AMB-01", "AMB-65"))
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-31")
def test_2_1_no_key_beside_its_alias(aid_records: list[PublishedRecord]) -> None:
    """A record **MUST NOT** include both a full key and its alias.

    Judged on every aid1 record (v1.2's nine keys and aliases) and every aid2 record (v2.1's
    eight: no kid/i), key names compared case-insensitively (AMB-51), whether or not the two
    values agree."""
    def check(record: PublishedRecord) -> None:
        first = {}
        for w in record.reading.written:
            first.setdefault(w.lower(), w)
        both = [f"{first[key]!r} and {first[alias]!r}"
                for key, alias in ALIASES[record.reading.version].items() if key in first and alias in first]
        if both:
            violation(f"{label(record)}: expected each key once, as its full name or its alias; saw both "
                      + ", ".join(both), readings=("AMB-51",))
    judge.judge(judge.shared(aid_records), check)


@clause("AID-2.1-32")
def test_2_1_short_keys(aid_records: list[PublishedRecord]) -> None:
    """Providers **SHOULD** emit the short-key form `v,u,p,a,s,d,e,k,i` for v1.x records.

    Every key of the table is written as its single lower-case letter; a full key (version, uri,
    proto, auth, desc, docs, dep, pka, kid) in any case, or an upper-case alias (V, U, ...), is
    not the short-key form. Other keys (extensions, ignored by clients) are not judged."""
    def check(record: PublishedRecord) -> None:
        long = [w for w in record.reading.written if w.lower() in ALIASES["aid1"]]
        upper = [w for w in record.reading.written if len(w) == 1 and w.lower() in SHORT_KEYS and w != w.lower()]
        if long or upper:
            shown = [f"{w!r} (expected {ALIASES['aid1'][w.lower()]!r})" for w in long]
            shown += [f"{w!r} (expected {w.lower()!r})" for w in upper]
            violation(f"{label(record)}: expected the short-key form v,u,p,a,s,d,e,k,i; saw " + ", ".join(shown),
                      readings=("AMB-64",))
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-33")
def test_2_1_record_holds_version(aid_records: list[PublishedRecord]) -> None:
    """| `version` | `v` | **Required** | The specification version. For v1 it **MUST** be `aid1`. |

    Every v1.x record the name publishes (every AID record but a v=aid2 one, v2.1's) holds a
    version key, as v or version in any case."""
    records = judge.v1x(aid_records)
    if not records:
        judge.aid1(aid_records)  # not applicable when every record is v=aid2 (v2.1's)
        untestable("no AID record is published (see AID-2-01, AID-2-02)")

    def check(record: PublishedRecord) -> None:
        if "version" not in record.reading.order:
            violation(f"{label(record)}: expected a v (version) key; saw the keys "
                      + ", ".join(map(repr, record.reading.written)))
    judge.judge(records, check)


@clause("AID-2.1-34")
def test_2_1_version_is_aid1(aid_records: list[PublishedRecord]) -> None:
    """| `version` | `v` | **Required** | The specification version. For v1 it **MUST** be `aid1`. |

    The version of every v1.x record (all but v=aid2, v2.1's) is exactly aid1: lower case, no
    minor number, white space around it trimmed as clients SHOULD (2.1)."""
    records = [r for r in judge.v1x(aid_records) if "version" in r.reading.order]
    if not records:
        if not judge.v1x(aid_records):
            judge.aid1(aid_records)  # not applicable when every record is v=aid2 (v2.1's)
        untestable("no AID record but v=aid2 ones holds a version key (see AID-2.1-33, AID-2-01)")

    def check(record: PublishedRecord) -> None:
        if record.reading.version != "aid1":
            violation(f"{label(record)}: expected v=aid1; saw v={record.reading.version!r}")
    judge.judge(records, check)


def _required(aid_records: list[PublishedRecord], key: str) -> None:
    __tracebackhide__ = True

    def check(record: PublishedRecord) -> None:
        found = record.reading.fields.get(key)
        if not found:
            saw = "it empty" if found == "" else "no such key among " + ", ".join(map(repr, record.reading.written))
            violation(f"{label(record)}: expected a non-empty {ALIASES['aid1'][key]} ({key}); saw {saw}")
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-35")
def test_2_1_record_holds_uri(aid_records: list[PublishedRecord]) -> None:
    """| `uri` | `u` | **Required** | An absolute `https://` URL for a remote agent, or a
    package/locator for local agents. See Appendix B. |

    Every aid1 record holds a non-empty u (uri); its form per protocol: AID-3-03, AID-B-06 to B-14."""
    _required(aid_records, "uri")


@clause("AID-2.1-36")
def test_2_1_record_holds_proto(aid_records: list[PublishedRecord]) -> None:
    """| `proto` | `p` | **Required** | The protocol token from Appendix B. |

    Every aid1 record holds a non-empty p (proto)."""
    _required(aid_records, "proto")


@clause("AID-2.1-37")
def test_2_1_proto_is_a_registry_token(aid_records: list[PublishedRecord]) -> None:
    """| `proto` | `p` | **Required** | The protocol token from Appendix B. |

    One token of Appendix B (mcp, a2a, openapi, grpc, graphql, websocket, local, zeroconf, ucp),
    exactly: 'All protocol tokens are case-sensitive and defined in lowercase ASCII', and one
    token, not v1's comma-separated list."""
    def check(record: PublishedRecord) -> None:
        proto = value(record, "proto")
        if not proto:
            untestable(f"{label(record)} has an empty p (see AID-2.1-36)")
        if proto not in PROTOCOLS:
            violation(f"{label(record)}: expected one protocol token of Appendix B ({', '.join(PROTOCOLS)}); "
                      f"saw p={proto!r}")
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-38")
def test_2_1_auth_hint_recommended(aid_records: list[PublishedRecord]) -> None:
    """| `auth` | `a` | Recommended | An authentication hint token from Appendix A. |

    Every aid1 record holds an a (auth) key ('Recommended' in the table: AMB-01)."""
    def check(record: PublishedRecord) -> None:
        if "auth" not in record.reading.fields:
            violation(f"{label(record)}: expected an a (auth) hint; saw the keys "
                      + ", ".join(map(repr, record.reading.written)), readings=("AMB-01",))
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-39")
def test_2_1_auth_is_a_registry_token(aid_records: list[PublishedRecord]) -> None:
    """| `auth` | `a` | Recommended | An authentication hint token from Appendix A. |

    When present, one token of Appendix A (none, pat, apikey, basic, oauth2_device, oauth2_code,
    mtls, custom), exactly: 'All scheme tokens are case-sensitive and defined in lowercase
    ASCII'; one token, not a list; v1's oauth2_service is no longer in the registry."""
    def check(record: PublishedRecord) -> None:
        auth = value(record, "auth")
        if auth not in AUTH_TOKENS:
            violation(f"{label(record)}: expected one auth token of Appendix A ({', '.join(AUTH_TOKENS)}); "
                      f"saw a={auth!r}")
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-40")
def test_2_1_desc_at_most_60_bytes(aid_records: list[PublishedRecord]) -> None:
    """| `desc` | `s` | Optional | Short, human-readable text (≤ 60 UTF-8 bytes) for UI display. |

    When present, at most 60 bytes in UTF-8 (60 passes, 61 fails; a multi-byte character counts
    its bytes, not one)."""
    def check(record: PublishedRecord) -> None:
        desc = value(record, "desc")
        size = len(desc.encode("utf-8"))
        if size > 60:
            violation(f"{label(record)}: expected s (desc) of at most 60 UTF-8 bytes; saw {size} bytes "
                      f"({len(desc)} characters)")
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-41")
def test_2_1_docs_is_absolute_https_url(aid_records: list[PublishedRecord]) -> None:
    """| `docs` | `d` | Optional | Absolute `https://` URL to human-readable documentation. |

    When present, in every aid1 and aid2 record: scheme https (any case), '//', a host."""
    def check(record: PublishedRecord) -> None:
        docs = value(record, "docs")
        if why := judge.absolute_url_problem(docs, "https"):
            violation(f"{label(record)}: expected d (docs) to be an absolute https:// URL; saw d={docs!r} ({why})")
    judge.judge(judge.shared(aid_records), check)


#: ISO 8601 date and time of day, extended or basic format, seconds and fractions optional, in
#: UTC: Z or a zero offset (+00:00, +0000, +00).
_UTC = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})T(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?)?(?:Z|\+00(?::?00)?)")


def utc_problem(text: str) -> str | None:
    m = _UTC.fullmatch(text)
    if not m:
        if re.fullmatch(r"\d{4}-?\d{2}-?\d{2}", text):
            return "a date without a time"
        if re.search(r"T\d{2}", text) and not re.search(r"(Z|[+-]\d{2}(:?\d{2})?)$", text):
            return "a local time without a zone"
        if re.search(r"[+-]\d{2}(:?\d{2})?$", text) and "T" in text:
            return "a time with a non-zero offset, not UTC"
        return "no ISO 8601 timestamp"
    year, month, day, hour, minute, second = (int(g) if g else 0 for g in m.groups())
    try:
        datetime(year, month, day, hour if hour != 24 else 0, minute, min(second, 59))
    except ValueError as exc:
        return f"no calendar date and time ({exc})"
    if hour == 24 and (minute or second):
        return "hour 24 past 24:00:00"
    return None


@clause("AID-2.1-42")
def test_2_1_dep_is_iso_8601_utc(aid_records: list[PublishedRecord]) -> None:
    """| `dep` | `e` | Optional | ISO 8601 UTC timestamp indicating deprecation. |

    When present, an ISO 8601 date and time in UTC (Z, or a zero offset), such as
    2026-01-01T00:00:00Z; a date alone, a local time, another offset, another notation or an
    impossible date is not."""
    def check(record: PublishedRecord) -> None:
        dep = value(record, "dep")
        if why := utc_problem(dep):
            violation(f"{label(record)}: expected e (dep) as an ISO 8601 UTC timestamp such as "
                      f"2026-01-01T00:00:00Z; saw e={dep!r} ({why})", readings=("AMB-65",))
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-43")
def test_2_1_pka_is_multibase_ed25519_key(aid_records: list[PublishedRecord]) -> None:
    """| `pka` | `k` | Optional | Multibase-encoded Ed25519 public key for endpoint proof.
    Requires `kid` when present. |

    When present: base58btc multibase ('z', as the examples; another base is a finding of this
    clause only, AMB-53) of 32 bytes that encode a point of edwards25519 (RFC 8032 5.1.3): an
    Ed25519 public key. Its size alone: AID-D.1-01; 'Requires kid': AID-2.1-44."""
    def check(record: PublishedRecord) -> None:
        pka = value(record, "pka")
        raw = judge.multibase_decode(pka)
        if raw is None:
            violation(f"{label(record)}: expected k (pka) as multibase base58btc ('z...') of an Ed25519 key; "
                      f"saw k={pka[:60]!r}, which is no multibase string", readings=("AMB-53",))
        if pka[:1] != "z":
            violation(f"{label(record)}: expected k (pka) in base58btc ('z...'); saw multibase prefix "
                      f"{pka[:1]!r}", readings=("AMB-53",))
        if len(raw) != 32:
            violation(f"{label(record)}: expected k (pka) to encode a 32-byte Ed25519 public key; "
                      f"saw {len(raw)} bytes")
        if not judge.ed25519_point(raw):
            violation(f"{label(record)}: expected k (pka) to encode an Ed25519 public key; saw 32 bytes "
                      "that are no point of edwards25519 (RFC 8032 5.1.3)")
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-44")
def test_2_1_kid_with_pka(aid_records: list[PublishedRecord]) -> None:
    """| `kid` | `i` | Conditional | 1–6 char rotation id `[a-z0-9]`. Required when `pka` is present. |

    Every aid1 record holding k (pka) holds a non-empty i (kid)."""
    _kid_with_pka(aid_records)


def _kid_with_pka(aid_records: list[PublishedRecord]) -> None:
    __tracebackhide__ = True

    def check(record: PublishedRecord) -> None:
        value(record, "pka")
        kid = record.reading.fields.get("kid")
        if not kid:
            violation(f"{label(record)}: expected i (kid) beside k (pka); saw "
                      + ("an empty i" if kid == "" else "no i among " + ", ".join(map(repr, record.reading.written))))
    judge.judge(judge.aid1(aid_records), check)


@clause("AID-2.1-45")
def test_2_1_kid_form(aid_records: list[PublishedRecord]) -> None:
    """| `kid` | `i` | Conditional | 1–6 char rotation id `[a-z0-9]`. Required when `pka` is present. |

    When present (with or without pka), 1 to 6 characters, each a lower-case ASCII letter or a
    digit: 6 passes, 7 fails; an upper-case letter, '-', '_' or a non-ASCII letter fails."""
    def check(record: PublishedRecord) -> None:
        kid = value(record, "kid")
        if kid == "" and "pka" in record.reading.fields:
            untestable(f"{label(record)} has an empty i beside k (see AID-2.1-44)")
        if not re.fullmatch(r"[a-z0-9]{1,6}", kid):
            violation(f"{label(record)}: expected i (kid) of 1-6 characters of [a-z0-9]; saw i={kid!r} "
                      f"({len(kid)} characters)")
    judge.judge(judge.aid1(aid_records), check)
