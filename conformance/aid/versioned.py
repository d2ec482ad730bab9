"""AID records read by versioned rules: v1.x (aid@v1.2) and v2 (aid@v2.1), and the selection
among the TXT answers at one name.

v2.1 2.3 step 4: "Validate records using versioned rules." A record's ``v`` decides which rules
read it: ``aid1`` by v1.2's (v2.1 keeps aid1 as a legacy format and does not restate its rules,
AMB-60), ``aid2`` by v2.1's. Every problem names the clause of the revision whose rules read the
record, and says whether the text makes a client *reject* the record (``rejects``):

- rejected (ERR_INVALID_TXT, no other code): not a string of key=value pairs, a key beside its
  alias, a required key (v, u, p; i beside k in aid1) missing or empty, an unknown version; for
  aid2 also ``kid``/``i`` and a malformed ``k`` (v2.1 step 4 names each of them);
- other record MUSTs (a uri scheme its protocol does not allow, desc over 60 bytes, docs not
  https, dep not an ISO 8601 UTC time, a kid outside 1-6 of [a-z0-9], an aid1 k that is no
  32-byte key, an auth token outside the registry, one key twice): the record is not a valid AID
  record, and the kit's own client rejects it; a client that reads it anyway is not failed for
  that alone, since no client sentence asks it to check that rule (AMB-50).

A protocol token outside the registry is the client's "unsupported protocol" (1002) rather
than a malformed record: Table 1 names 1002 "The record is valid, but the client does not
support the specified protocol", and ERR_INVALID_TXT is accepted as well, the token breaking
"The protocol token from Appendix B" (AMB-50).

:func:`read` parses one TXT string; :func:`select` is steps 3-7 over all the answers.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field

#: The keys and their single-letter aliases (v1.2 and v2.1 2.1; kid/i is v1.x only).
ALIASES = {"version": "v", "uri": "u", "proto": "p", "auth": "a", "desc": "s", "docs": "d",
           "dep": "e", "pka": "k", "kid": "i"}
_LONG = {alias: key for key, alias in ALIASES.items()}

#: Appendix B of v1.2, 7.2 of v2.1 (the same table): protocol token -> allowed uri schemes.
PROTOCOLS: dict[str, tuple[str, ...]] = {
    "mcp": ("https",), "a2a": ("https",), "openapi": ("https",), "grpc": ("https",),
    "graphql": ("https",), "websocket": ("wss",), "local": ("docker", "npx", "pip"),
    "zeroconf": ("zeroconf",), "ucp": ("https",),
}
#: Appendix A of v1.2, 7.1 of v2.1 (the same list).
AUTH_TOKENS = ("none", "pat", "apikey", "basic", "oauth2_device", "oauth2_code", "mtls", "custom")

#: The record versions the kit reads, and the revision whose rules read each.
VERSIONS = {"aid1": "v1.2", "aid2": "v2.1"}
#: Which record versions a revision's client reads (v1.2 knows aid1 only; v2.1 both, AMB-60).
READS = {"v1.2": ("aid1",), "v2.1": ("aid2", "aid1")}

#: Clause ids of each revision's record rules (a rule -> the clause that states it).
CLAUSES: dict[str, dict[str, str]] = {
    "v1.2": {"pairs": "AID-2.1-25", "alias": "AID-2.1-31", "version": "AID-2.1-33", "aid": "AID-2.1-34",
             "uri": "AID-2.1-35", "proto": "AID-2.1-36", "token": "AID-2.1-37", "auth": "AID-2.1-39",
             "https": "AID-3-03", "desc": "AID-2.1-40", "docs": "AID-2.1-41", "dep": "AID-2.1-42",
             "pka": "AID-D.1-01", "kid": "AID-2.1-44", "kid-form": "AID-2.1-45"},
    "v2.1": {"pairs": "AID-2.1-47", "alias": "AID-2.1-31", "version": "AID-2.1-54", "aid": "AID-2.1-55",
             "uri": "AID-2.1-56", "proto": "AID-2.1-57", "token": "AID-2.1-58", "auth": "AID-2.1-60",
             "https": "AID-3-22", "desc": "AID-2.1-61", "docs": "AID-2.1-41", "dep": "AID-2.1-62",
             "pka": "AID-B.1-01", "pka-size": "AID-B.1-02", "no-kid": "AID-2.1-64"},
}
#: The clause of each protocol's row of the registry (its allowed schemes), per revision.
SCHEME_CLAUSES = {
    "v1.2": {"mcp": "AID-B-06", "a2a": "AID-B-07", "openapi": "AID-B-08", "grpc": "AID-B-09",
             "graphql": "AID-B-10", "websocket": "AID-B-11", "local": "AID-B-12", "zeroconf": "AID-B-13",
             "ucp": "AID-B-14"},
    "v2.1": {"mcp": "AID-B-06", "a2a": "AID-B-07", "openapi": "AID-7.2-01", "grpc": "AID-B-09",
             "graphql": "AID-B-10", "websocket": "AID-B-11", "local": "AID-7.2-02", "zeroconf": "AID-B-13",
             "ucp": "AID-B-14"},
}

_KID = re.compile(r"[a-z0-9]{1,6}")
_B64URL = re.compile(r"[A-Za-z0-9_-]+")
# ISO 8601 in UTC: extended or basic format, seconds and fractions optional, Z or a zero offset
_UTC = re.compile(r"\d{4}-?\d{2}-?\d{2}T\d{2}(:?\d{2}(:?\d{2}(\.\d+)?)?)?(Z|[+]00(:?00)?)")
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


@dataclass(frozen=True)
class Problem:
    """One rule a record breaks: the clause, what was seen, and whether clients must reject."""

    clause: str
    message: str
    rejects: bool = False
    #: the protocol token is outside the registry: the one problem that is a client's
    #: "unsupported protocol" (1002) rather than an invalid record (see the module docstring)
    unregistered_protocol: bool = False


@dataclass
class Reading:
    """One TXT string read as an AID record."""

    text: str
    #: long key -> value (trimmed, as a client SHOULD: v1.2 and v2.1 2.1), the first of each key
    fields: dict[str, str] = field(default_factory=dict)
    #: the long keys in the order written, aliases folded (a key twice appears twice)
    order: list[str] = field(default_factory=list)
    #: the keys as written, in order (short or long, case kept)
    written: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def version(self) -> str | None:
        return self.fields.get("version")

    @property
    def is_aid(self) -> bool:
        """A TXT string holding a version key is an AID record, valid or not (v anywhere:
        neither text asks v first); other TXT data may share the name (AMB-50)."""
        return "version" in self.order

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def rejected(self) -> bool:
        """The text makes every client reject it (see the module docstring)."""
        return any(p.rejects for p in self.problems)

    @property
    def unsupported(self) -> bool:
        """Its only problem is a protocol token outside the registry (1002)."""
        return bool(self.problems) and all(p.unregistered_protocol for p in self.problems)

    def as_fixture(self) -> dict[str, str]:
        """The record in the authors' fixture form: long keys (v for version), known keys only."""
        return {("v" if k == "version" else k): v for k, v in self.fields.items() if k in ALIASES}


def _split(text: str) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(written key, long key, value) of each pair, and the syntax problems."""
    pairs, problems = [], []
    segments = text.split(";")
    if len(segments) > 1 and segments[-1].strip() == "":
        segments = segments[:-1]  # a trailing ';' ends the last pair
    for i, segment in enumerate(segments, 1):
        if "=" not in segment:
            problems.append(f"pair {i} {segment.strip()[:40]!r} is not key=value" if segment.strip()
                            else f"pair {i} is empty (';;')")
            continue
        key, value = segment.split("=", 1)
        written, key = key.strip(), key.strip().lower()  # key comparisons are case-insensitive
        if not key:
            problems.append(f"pair {i} {segment.strip()[:40]!r} has an empty key")
            continue
        pairs.append((written, _LONG.get(key, key), value.strip()))
    return pairs, problems


def read(text: str) -> Reading:
    """Parse one TXT string (its character-strings already concatenated) and check it by the
    rules of the version it names."""
    reading = Reading(text=text)
    pairs, syntax = _split(text)
    for written, key, value in pairs:
        reading.written.append(written)
        reading.order.append(key)
        reading.fields.setdefault(key, value)
    rules = VERSIONS.get(reading.fields.get("version", ""), "v2.1")
    c = CLAUSES[rules]
    out = reading.problems
    for message in syntax:
        out.append(Problem(c["pairs"], message, rejects=True))
    for key in {k for k in reading.order if k in ALIASES}:
        forms = {w for w, (k) in zip(reading.written, reading.order) if k == key}
        if ALIASES[key] in {f.lower() for f in forms} and key in {f.lower() for f in forms}:
            out.append(Problem(c["alias"], f"{key} and its alias {ALIASES[key]} are both present", rejects=True))
        elif reading.order.count(key) > 1:
            out.append(Problem(c["pairs"], f"{key} appears {reading.order.count(key)} times"))
    version = reading.fields.get("version")
    if version is None:
        out.append(Problem(c["version"], "no v (version) key", rejects=True))
        return reading
    if version not in VERSIONS:
        out.append(Problem(c["aid"], f"v={version!r} is no version the kit's revisions define (aid1, aid2)",
                           rejects=True))
        return reading
    _check(reading, rules)
    return reading


def _check(reading: Reading, rules: str) -> None:
    c, f, out = CLAUSES[rules], reading.fields, reading.problems
    for key in ("uri", "proto"):
        if not f.get(key):
            out.append(Problem(c["uri" if key == "uri" else "proto"],
                               f"{key} ({ALIASES[key]}) is {'empty' if key in f else 'missing'}", rejects=True))
    proto, uri = f.get("proto", ""), f.get("uri", "")
    if proto and proto not in PROTOCOLS:
        out.append(Problem(c["token"], f"p={proto!r} is not a token of the protocol registry",
                           unregistered_protocol=True))
    elif proto and uri:
        scheme = uri.split(":", 1)[0].lower() if ":" in uri else ""
        allowed = PROTOCOLS[proto]
        if scheme not in allowed:
            remote = allowed in (("https",), ("wss",))
            clause = c["https"] if remote else SCHEME_CLAUSES[rules][proto]
            out.append(Problem(clause, f"u={uri[:80]!r} is not a {' or '.join(s + ':' for s in allowed)} "
                                       f"uri, as p={proto} requires"))
        elif allowed in (("https",), ("wss",)) and not uri.split(":", 1)[1].startswith("//"):
            out.append(Problem(c["https"], f"u={uri[:80]!r} is not an absolute URL"))
    if "auth" in f and f["auth"] not in AUTH_TOKENS:
        out.append(Problem(c["auth"], f"a={f['auth'][:40]!r} is not a token of the auth registry"))
    if "desc" in f and len(f["desc"].encode("utf-8")) > 60:
        out.append(Problem(c["desc"], f"s (desc) is {len(f['desc'].encode('utf-8'))} UTF-8 bytes, over 60"))
    if "docs" in f and not f["docs"].lower().startswith("https://"):
        out.append(Problem(c["docs"], f"d={f['docs'][:80]!r} is not an absolute https:// URL"))
    if "dep" in f and not _UTC.fullmatch(f["dep"]):
        out.append(Problem(c["dep"], f"e={f['dep'][:40]!r} is not an ISO 8601 UTC timestamp"))
    if rules == "v1.2":
        _check_aid1_key(reading, c)
    else:
        _check_aid2_key(reading, c)


def _check_aid1_key(reading: Reading, c: dict[str, str]) -> None:
    f, out = reading.fields, reading.problems
    if "pka" in f and not f.get("kid"):
        out.append(Problem(c["kid"], "k (pka) without i (kid): kid is required when pka is present", rejects=True))
    if f.get("kid") and not _KID.fullmatch(f["kid"]):
        out.append(Problem(c["kid-form"], f"i={f['kid'][:20]!r} is not 1-6 characters of [a-z0-9]"))
    if "pka" in f:
        size = multibase_size(f["pka"])
        if size != 32:
            out.append(Problem(c["pka"], f"k={f['pka'][:50]!r} is " + (
                "not multibase" if size is None else f"multibase of {size} bytes, not a 32-byte Ed25519 key")))


def _check_aid2_key(reading: Reading, c: dict[str, str]) -> None:
    f, out = reading.fields, reading.problems
    if "kid" in f:
        out.append(Problem(c["no-kid"], f"{'i' if 'i' in [w.lower() for w in reading.written] else 'kid'} "
                                        "in a v=aid2 record", rejects=True))
    if "pka" in f:
        k = f["pka"]
        if not _B64URL.fullmatch(k) or len(k) % 4 == 1:
            out.append(Problem(c["pka"], f"k={k[:50]!r} is not unpadded base64url", rejects=True))
        elif (size := len(base64.urlsafe_b64decode(k + "=" * (-len(k) % 4)))) != 32:
            out.append(Problem(c["pka-size"], f"k={k[:50]!r} decodes to {size} octets, not 32", rejects=True))


def multibase_size(value: str) -> int | None:
    """How many bytes a multibase string decodes to (None: not a base the kit reads).

    "Multibase-encoded" (v1.2 2.1) is an open list: base58btc (z), base64url (u), base64 (m),
    base16 (f/F) and base32 (b/B) are read."""
    prefix, body = value[:1], value[1:]
    try:
        if prefix == "z":
            if not body or any(ch not in _B58 for ch in body):
                return None
            n = 0
            for ch in body:
                n = n * 58 + _B58.index(ch)
            zeros = len(body) - len(body.lstrip("1"))
            return zeros + (n.bit_length() + 7) // 8
        if prefix == "u":
            return len(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        if prefix == "m":
            return len(base64.b64decode(body + "=" * (-len(body) % 4)))
        if prefix in "fF" and prefix:
            return len(bytes.fromhex(body))
        if prefix in "bB" and prefix:
            return len(base64.b32decode(body.upper() + "=" * (-len(body) % 8)))
    except (ValueError, TypeError):
        return None
    return None


def usable(reading: Reading, lenient: bool = False) -> bool:
    """A valid AID record; ``lenient``: one no rule of the text makes a client reject."""
    return reading.valid or lenient and not reading.rejected and not reading.unsupported


@dataclass
class Selection:
    """What discovery does with the TXT answers at one name (2.3 steps 3-7)."""

    record: Reading | None
    #: the error codes a conforming client may return when ``record`` is None
    codes: frozenset[str] = frozenset()
    reason: str = ""
    readings: list[Reading] = field(default_factory=list)


def select(texts: list[str], revision: str, *, lenient: bool = False) -> Selection:
    """The record a client of ``revision`` uses among ``texts`` (each one TXT answer, its
    strings concatenated), or the failure and its codes.

    v1.2 2.3 step 3: "If exactly one valid AID record is present at the queried DNS name, use
    it. If more than one valid AID record is present …, clients **MUST** fail due to ambiguity
    rather than choosing by answer order. Malformed answers do not matter when there is exactly
    one valid AID record." v2.1 steps 5-7 partition the valid records by major version, select
    the highest supported (aid2 SHOULD be preferred over aid1) and apply the same rule within it.

    ``lenient``: a client that checks only the rules the text makes it reject by (a record
    breaking another record MUST still counts as valid): both are conforming clients.
    """
    readings = [read(t) for t in texts]
    aid = [r for r in readings if r.is_aid]
    if not aid:
        return Selection(None, frozenset({"ERR_NO_RECORD"}), "no TXT answer holds an AID record", readings)
    for version in READS[revision]:
        valid = [r for r in aid if r.version == version and usable(r, lenient)]
        if len(valid) == 1:
            return Selection(valid[0], frozenset(), f"the one valid {version} record", readings)
        if len(valid) > 1:
            return Selection(None, frozenset({"ERR_INVALID_TXT"}),
                             f"{len(valid)} valid {version} records: ambiguous", readings)
    unsupported = [r for r in aid if r.version in READS[revision] and r.unsupported]
    if len(unsupported) == 1:
        return Selection(None, frozenset({"ERR_UNSUPPORTED_PROTO", "ERR_INVALID_TXT"}),
                         f"p={unsupported[0].fields.get('proto')!r} is not a registered protocol", readings)
    problems = "; ".join(p.message for r in aid for p in r.problems)
    return Selection(None, frozenset({"ERR_INVALID_TXT"}), f"no valid AID record: {problems}", readings)
