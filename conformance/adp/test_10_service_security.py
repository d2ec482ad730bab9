"""§10 Security Considerations, for a discovery service: freshness exposed, unsupported hard
filters reported, requests protected in transit."""

from __future__ import annotations

from typing import Any

from conformance.adp._service_fixtures import Probe, reached
from conformance.adp.test_5_2_service_hard_filters import judge_reporting
from conformance.adp.test_7_8_service_federation import (
    MINIMAL,
    federated,
    judge_members_kept,
    views,
)
from conformance.outcomes import clause, not_applicable, untestable, violation

#: Requests without include_evidence, at the default, summary and full detail (minimal asks for
#: no more than identifiers, status and endpoints, AMB-16).
PLAIN = [{"query": "translate a document", "limit": 10},
         {"query": "review code for security", "limit": 10, "detail": "summary"}]


@clause("ADP-10-05")
def test_10_freshness_exposed(service: Probe) -> None:
    """Discovery services SHOULD expose freshness data: every candidate of responses at the
    default, summary and full detail, with or without include_evidence, carries a freshness
    object (AMB-08; detail=minimal is exempt, AMB-16)."""
    answers = [service.catalog()] + [service.discover(b) for b in PLAIN]
    problems, judged = [], 0
    for answer in answers:
        reached(answer, "a Discovery Request")
        for c in answer.candidates:
            judged += 1
            if not isinstance(c.get("freshness"), dict):
                problems.append(f"candidate {c.get('id')!r} (detail {answer.body.get('detail', 'default')}) has "
                                f"freshness {c.get('freshness')!r}")
    if not judged:
        untestable("no request returned a candidate (see ADP-3.3-02)")
    if problems:
        violation(f"{len(problems)} of {judged} candidates: " + "; ".join(problems[:4]))


@clause("ADP-10-09")
def test_10_unsupported_hard_filters_reported(service: Probe, adck_declarations: dict[str, Any]) -> None:
    """Services MUST report unsupported hard filters in unsupported_filters or fail the request:
    tag filters beside a constraint the service may not apply (AMB-12; ``--declare
    unknown-constraints-hard``: the constraint is one)."""
    judge_reporting(service, [{"query": "find a contract reviewer", "required_tags": ["legal"],
                               "excluded_tags": ["tax"], "constraints": {"net.adck.jurisdiction": "eu"}}],
                    adck_declarations)


@clause("ADP-10-10")
def test_10_requests_protected_in_transit(service: Probe) -> None:
    """Discovery services MUST protect requests in transit: the binding's base URL is https and
    the TLS handshake verifies (AMB-24)."""
    answer = service.catalog()
    if not service.base.lower().startswith("https://"):
        violation(f"Discovery Requests go to {service.discover_url}, in the clear (not https)")
    final = answer.final
    if answer.status is None:
        kind = answer.fetch.error_kind or ""
        detail = answer.fetch.describe_error()
        if kind in ("tls", "certificate") or "certificate" in detail.lower() or "ssl" in detail.lower():
            violation(f"the TLS connection to {service.discover_url} did not verify: {detail}")
        untestable(f"the discovery service could not be reached: {detail}")
    if final is not None and final.tls_version is None:
        violation(f"the request to {service.discover_url} was not sent over TLS")


@clause("ADP-10-07")
def test_10_federation_preserves_origin_and_signature(service: Probe) -> None:
    """Discovery services MUST preserve origin and signature information: every view of a
    federated candidate at the default, summary and full detail holds the origin_service,
    origin_authority and origin_signature of the agent's metadata (GET {base}/agents/{id}) with
    the same values; detail=minimal requests only identifiers, status and endpoints, and may
    leave them out (AMB-44)."""
    pairs = views(service)
    ids = federated(pairs)
    if not ids:
        not_applicable("no candidate carries provenance: the service shows no federated result (AMB-44)")
    judge_members_kept(service, pairs, ids, ("origin_service", "origin_authority", "origin_signature"), skip=MINIMAL)
