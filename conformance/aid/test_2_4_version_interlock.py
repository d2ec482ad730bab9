"""2.4 Version interlock (provider): the manifest's schemaVersion and the record's v= agree."""

from __future__ import annotations

import re

from conformance.aid.conftest import RecordUnderTest
from conformance.document import Document
from conformance.outcomes import clause, untestable, violation


def major(schema_version: str) -> int | None:
    """AMB-09: the leading digits of schemaVersion, up to the first "." or the end."""
    m = re.match(r"^(\d+)(?:\.|$)", schema_version)
    return int(m.group(1)) if m else None


@clause("AID-2.4-01")
def test_2_4_schema_version_shares_major_with_txt_version(record: RecordUnderTest, manifest: Document) -> None:
    """The manifest's `"schemaVersion"` **MUST** share the same major number as the TXT `v=` token."""
    version = record.parsed.get("v")
    if version is None:  # v is required (AID-2.1-08): its absence blocks this clause, it does not waive it
        untestable("the record has no v key (see AID-2.1-08)")
    m = re.fullmatch(r"aid(\d+)", version)
    if m is None:
        untestable(f"the record's v={version!r} is not of the form aidN (see AID-2.1-09)")
    schema_version = manifest.member("schemaVersion", kind=str)
    found = major(schema_version)
    if found is None:
        untestable(f"schemaVersion {schema_version[:40]!r} has no major number (see AID-2.2.1-02)")
    if found != int(m.group(1)):
        violation(f"the record says v={version} (major {m.group(1)}) and the manifest's schemaVersion is "
                  f"{schema_version[:40]!r} (major {found})")
