"""AID v1.2 §0 Glossary: where the record is published (provider role)."""

from __future__ import annotations

from conformance.aid.conftest import _aid_like
from conformance.aid import versioned
from conformance.dns import Resolver, TxtAnswer
from conformance.outcomes import clause, untestable, violation
from conformance.targets import Target

#: Names near _agent.<domain> where a misplaced record is looked for: the domain itself, the label
#: without its underscore or misspelt, and the protocol-specific names of 2.5 (allowed beside the
#: base record, never instead of it).
ELSEWHERE = ("", "agent.", "_aid.", "_agents.", "_agent._mcp.", "_agent._a2a.")


def _v1x(answer: TxtAnswer) -> list[str]:
    return [t for t in answer.texts() if _aid_like(t) and versioned.read(t).version != "aid2"] \
        if answer.status == "ok" else []


@clause("AID-0-03")
def test_0_record_published_at_agent_subdomain(adck_target: Target, lookup: TxtAnswer,
                                               adck_resolver: Resolver) -> None:
    """| **\\_agent subdomain** | The well-known subdomain `_agent.<domain>` where the AID TXT record
    **MUST** be published. |

    The v1.x record is at _agent.<domain> of the exact host. When it is not there, the kit looks
    for it where it is commonly misplaced (the domain itself, agent., _aid., _agents., and
    _agent._mcp./_agent._a2a., which 2.5 allows only beside the base record): a record found
    there is one published elsewhere; found nowhere, there is nothing to place (AID-2-01)."""
    if _v1x(lookup):
        return
    domain = adck_target.domain
    found = [(f"{prefix}{domain}", t) for prefix in ELSEWHERE
             for t in _v1x(adck_resolver.txt(f"{prefix}{domain}"))]
    if not found:
        untestable(f"no v1.x AID record at {lookup.name} nor at {', '.join(p + domain for p in ELSEWHERE)} "
                   "(see AID-2-01, AID-2-02)")
    violation(f"expected the AID record at {lookup.name}; saw none there ({lookup.status}) but "
              + "; ".join(f"{name}: {text[:60]!r}" for name, text in found), readings=("AMB-66",))
