"""§2 TXT Record Specification (AID v2.1), provider role: the domain advertises its agent."""

from __future__ import annotations

from conformance.aid import versioned
from conformance.dns import TxtAnswer
from conformance.outcomes import clause, untestable, violation


@clause("AID-2-02")
def test_2_agent_advertised_in_txt_at_base_name(lookup: TxtAnswer) -> None:
    """A provider **MUST** advertise its agent service by publishing a DNS TXT record at the
    canonical base name `_agent.<domain>`.

    A TXT query for _agent.<domain> answers, and among its answers a v2.1 client finds the one
    record it uses (2.3 steps 3-7): an aid2 record, or the legacy aid1 record when no valid aid2
    one stands beside it (AMB-60). No answer (NXDOMAIN, NODATA, SERVFAIL), only other TXT
    data, no valid AID record, or two valid records of one version (ambiguous, step 7) fail. A
    record that breaks a rule no client rejects by (desc over 60 bytes) still advertises the
    agent: that rule's own clause fails (AMB-50)."""
    if lookup.status in ("timeout",):
        untestable(f"TXT {lookup.name}: {lookup.detail}: the kit cannot tell the provider's outage from its own network")
    if lookup.status != "ok":
        violation(f"TXT {lookup.name}: {lookup.status} ({lookup.detail}); expected a TXT record holding v=aid2")
    texts = lookup.texts()
    chosen = versioned.select(texts, "v2.1", lenient=True)
    if chosen.record is None:
        shown = ", ".join(repr(t[:70]) for t in texts)
        violation(f"TXT {lookup.name} answers {len(texts)} record(s) ({shown}), but a v2.1 client finds no record "
                  f"to use: {chosen.reason} (it fails with {' or '.join(sorted(chosen.codes))}); expected exactly "
                  "one valid AID record of the version it selects", readings=("AMB-50", "AMB-60", "AMB-71"))
