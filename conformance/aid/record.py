"""The AID TXT record (AID v1 §2.1, §2.3): parsing, shared by the aid suite and its clients.

A record is one or more character-strings, concatenated (RFC 6763, AID 2.3), holding
semicolon-delimited ``key=value`` pairs. The parser keeps every pair as written, in order,
and records each syntax problem instead of guessing: the suite decides which clause a
problem breaks.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

import dns.exception
import dns.name
import dns.rdata
import dns.rdataclass
import dns.rdatatype


@dataclass
class AidRecord:
    """A parsed AID record string."""

    text: str
    pairs: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: Each pair's value as written, white space around it kept (``pairs`` has it stripped).
    written: list[str] = field(default_factory=list)

    def get(self, key: str) -> str | None:
        """The value of the first pair with this key (keys compare as written)."""
        return next((v for k, v in self.pairs if k == key), None)

    def keys(self) -> list[str]:
        return [k for k, _ in self.pairs]

    def get_written(self, key: str) -> str | None:
        """The value of the first pair with this key as written (white space kept)."""
        return next((w for (k, _v), w in zip(self.pairs, self.written) if k == key), None)


def parse(text: str) -> AidRecord:
    """Parse a concatenated record string into its key=value pairs."""
    record = AidRecord(text=text)
    segments = text.split(";")
    if segments and segments[-1] == "":
        segments = segments[:-1]  # one trailing ';' ends the last pair
    for i, segment in enumerate(segments):
        if segment == "":
            record.problems.append(f"empty pair at position {i + 1} (';;')")
            continue
        if "=" not in segment:
            record.problems.append(f"{segment[:40]!r} is not a key=value pair")
            continue
        key, value = segment.split("=", 1)
        if key != key.strip() or value != value.strip():
            record.problems.append(f"white space around {segment.strip()[:40]!r}")
        written = value
        key, value = key.strip(), value.strip()
        if not key:
            record.problems.append(f"{segment[:40]!r} has an empty key")
            continue
        if key in record.keys():
            record.problems.append(f"the key {key!r} appears more than once")
        record.pairs.append((key, value))
        record.written.append(written)
    return record


@dataclass
class ZoneLine:
    """A zone-file TXT line: ``_agent.example.com. 300 IN TXT "v=aid1;..." "..."``."""

    name: str
    ttl: int | None
    strings: list[bytes]

    def text(self) -> str:
        return b"".join(self.strings).decode("utf-8", errors="replace")


_TTL = re.compile(r"^\d+$")


def parse_zone_line(line: str) -> ZoneLine:
    """Parse one zone-file line holding a TXT record (owner [ttl] [class] TXT strings...)."""
    tokens = shlex.split(line.split(" ;", 1)[0], posix=False)
    if len(tokens) < 3:
        raise ValueError(f"not a zone-file TXT line: {line[:80]!r}")
    name, rest = tokens[0], tokens[1:]
    ttl = None
    if rest and _TTL.match(rest[0]):
        ttl, rest = int(rest[0]), rest[1:]
    if rest and rest[0].upper() in ("IN", "CH", "HS"):
        rest = rest[1:]
    if not rest or rest[0].upper() != "TXT":
        raise ValueError(f"not a TXT record: {line[:80]!r}")
    rdata_text = line[line.upper().index(" TXT ") + 5:].strip()
    try:
        rdata = dns.rdata.from_text(dns.rdataclass.IN, dns.rdatatype.TXT, rdata_text)
        dns.name.from_text(name)
    except dns.exception.DNSException as exc:
        raise ValueError(f"cannot parse the TXT data of {line[:80]!r}: {exc}") from None
    return ZoneLine(name=name, ttl=ttl, strings=list(rdata.strings))
