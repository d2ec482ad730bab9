"""The AID TXT record (AID v1 §2.1, §2.3): parsing, shared by the aid suite and its clients.

A record is one or more character-strings, concatenated (RFC 6763, AID 2.3), holding
semicolon-delimited ``key=value`` pairs. The parser keeps every pair in order, its key and
value trimmed of white space around them (AMB-07; each value as written is kept beside it, for
v's exact comparison), and records each syntax problem instead of guessing: the suite decides
which clause a problem breaks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# a zone-file TXT line is DNS, not AID: the kit's one DNS module parses it
from conformance.dns import ZoneLine, parse_zone_line  # noqa: F401


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


