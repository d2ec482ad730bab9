"""§2.1 Format (AID v2.1), provider role: TXT records, their size and their key form."""

from __future__ import annotations

from conformance.aid import versioned
from conformance.aid.conftest import PublishedRecord
from conformance.aid.v2_1._rules import aid2, judge
from conformance.dns import Resolver, TxtAnswer
from conformance.outcomes import clause, not_applicable, outside_world, untestable, violation

#: The record types a provider could mistake for TXT to advertise an agent: a TXT-shaped SPF
#: record, a service binding (RFC 9460), a service location (RFC 2782) or a URI (RFC 7553).
OTHER_TYPES = ("SPF", "SVCB", "HTTPS", "SRV", "URI")


def other_records(resolver: Resolver, name: str) -> list[str] | None:
    """What ``name`` holds of :data:`OTHER_TYPES`, each as ``TYPE data`` (at most 80 characters);
    None when the run may not ask (a recorded world holds TXT lookups only)."""
    found = []
    for rdtype in OTHER_TYPES:
        held = resolver.records(name, rdtype)
        if held is None:
            return None
        found += [f"{rdtype} {text[:80]}" for text in held]
    return found


@clause("AID-2.1-46")
def test_2_1_v2_record_is_txt(lookup: TxtAnswer, adck_resolver: Resolver) -> None:
    """For AID v2, providers **MUST** use DNS TXT records for discovery.

    The aid2 record is a TXT record at _agent.<domain>. When the TXT answer holds none, the
    name is asked for the types an agent could be advertised by instead (SPF, SVCB, HTTPS, SRV,
    URI): any found fails. A TXT aid2 record passes whatever else the name holds."""
    if lookup.status == "ok" and any(versioned.read(t).version == "aid2" for t in lookup.texts()):
        return
    others = other_records(adck_resolver, lookup.name)
    if others is None:
        outside_world(f"{lookup.name} holds no TXT record with v=aid2 ({lookup.status}), and the other types an agent "
                      f"could be advertised by ({', '.join(OTHER_TYPES)}) were not asked: a recorded run holds TXT "
                      "lookups only")
    if others:
        violation(f"{lookup.name} holds no TXT record with v=aid2 ({lookup.status}), but advertises through "
                  f"{'; '.join(others)}; expected the v2 record as TXT", readings=("AMB-71",))
    if lookup.status == "ok" and lookup.records:
        not_applicable(f"{lookup.name} publishes no AID v2 record, and nothing of another type")
    untestable(f"no record at {lookup.name}: {lookup.status} (see AID-2-02)")


@clause("AID-2.1-51")
def test_2_1_record_below_255_bytes(aid_records: list[PublishedRecord]) -> None:
    """Providers **SHOULD** keep total payload size below 255 bytes when possible.

    Each aid2 record, its character-strings concatenated, is at most 254 bytes: 255 is not
    below 255. (The aid1 record beside it is judged by aid@v1.2.)"""
    judge(aid2(aid_records), lambda r: [] if len(r.raw) < 255 else
          [f"{len(r.raw)} bytes in {len(r.strings)} character-string(s); expected fewer than 255"])


#: The long keys of 2.1's table with a single-letter alias (kid is forbidden in aid2: AID-2.1-64).
LONG = {k: a for k, a in versioned.ALIASES.items() if k != "kid"}


@clause("AID-2.1-53")
def test_2_1_short_keys_emitted(aid_records: list[PublishedRecord]) -> None:
    """Providers **SHOULD** emit the short-key form for compact DNS deployment.

    Every key of 2.1's table in an aid2 record is written as its single-letter alias (v, u, p,
    a, s, d, e, k): version=, uri=, PKA= and the other long keys, in any case, are not the
    short-key form. Keys with no alias (extensions) are not judged."""
    def check(r: PublishedRecord) -> list[str]:
        long = [w for w in r.reading.written if w.lower() in LONG]
        if not long:
            return []
        return [f"keys in their long form: {', '.join(long)}; expected "
                f"{', '.join(LONG[w.lower()] for w in long)}"]
    judge(aid2(aid_records), check)
