"""§7.8 Federation: provenance of federated candidates.

A candidate is federated when any view of it (a candidate at any detail, its metadata) carries a
provenance member of 7.8's table (AMB-44)."""

from __future__ import annotations

from conformance.adp._service_fixtures import PROVENANCE, Answer, Probe, reached
from conformance.outcomes import clause, not_applicable, untestable, violation


def views(service: Probe) -> list[tuple[str, Answer]]:
    """Responses that show federated candidates at each detail."""
    bodies = [("full", service.catalog().body),
              ("summary", {"query": "review a contract", "required_tags": ["contracts"], "limit": 10}),
              ("summary", {"query": "review a contract", "required_tags": ["contracts"], "limit": 10,
                           "include_evidence": True}),
              ("minimal", {"query": "review a contract", "required_tags": ["contracts"], "detail": "minimal"})]
    out = []
    for label, body in bodies:
        answer = service.discover(body)
        reached(answer, "a Discovery Request")
        out.append((label, answer))
    return out


def federated(pairs: list[tuple[str, Answer]]) -> set:
    return {c.get("id") for _, a in pairs for c in a.candidates if any(k in c for k in PROVENANCE)}


def judge_members_kept(service: Probe, pairs: list[tuple[str, Answer]], ids: set, members: tuple[str, ...],
                       skip: tuple[str, ...] = ()) -> None:
    """Each federated agent's ``members`` (as its metadata, GET {base}/agents/{id}, holds them)
    are in every candidate of it with the same values, at each detail but those in ``skip``;
    untestable when no federated agent's metadata could be read."""
    problems, judged, unread = [], 0, []
    for agent_id in sorted(i for i in ids if isinstance(i, str)):
        got = service.get_agent(agent_id)
        metadata = got.value if got.ok and isinstance(got.value, dict) else None
        if metadata is None:
            # say why: a redirect the kit did not follow (a private address) is named, never hidden
            unread.append(f"GET {service.agent_url(agent_id)} was answered {got.describe()}")
            continue
        kept = {k: metadata[k] for k in members if k in metadata}
        for label, answer in pairs:
            if label in skip:
                continue
            for c in answer.candidates:
                if c.get("id") != agent_id:
                    continue
                judged += 1
                lost = {k: c.get(k, "(absent)") for k, v in kept.items() if c.get(k) != v}
                if lost:
                    problems.append(f"candidate {agent_id!r} at detail {label} has {lost} where its metadata has "
                                    f"{ {k: kept[k] for k in lost} }")
    if not judged:
        untestable("no federated candidate's metadata could be read (GET of its id)"
                   + (": " + "; ".join(unread[:3]) if unread else ""))
    if problems:
        violation("; ".join(problems[:4]), readings=("AMB-44",))


#: The detail whose candidates may leave provenance out: "A value of minimal requests only
#: identifiers, status, and enough endpoint data to continue resolution", and where that
#: sentence and 7.8's both apply, an answer either allows is accepted (AMB-44).
MINIMAL = ("minimal",)


@clause("ADP-7.8-02")
def test_7_8_federated_results_carry_provenance(service: Probe) -> None:
    """Federated results MUST include provenance sufficient for a client or local policy engine
    to determine the origin of the data: every view of a federated candidate at the default,
    summary and full detail names its origin (origin_service or origin_authority); a minimal
    one may hold only identifiers, status and endpoints (AMB-44)."""
    pairs = views(service)
    ids = federated(pairs)
    if not ids:
        not_applicable("no candidate carries provenance: the service shows no federated result (AMB-44)")
    problems = [f"candidate {c.get('id')!r} at detail {label} has {sorted(k for k in PROVENANCE if k in c) or 'no provenance'}"
                for label, a in pairs if label not in MINIMAL for c in a.candidates
                if c.get("id") in ids and not any(isinstance(c.get(k), str) and c.get(k) for k in ("origin_service", "origin_authority"))]
    if problems:
        violation("a federated candidate does not name its origin: " + "; ".join(problems[:4]), readings=("AMB-44",))


@clause("ADP-7.8-03")
def test_7_8_federated_candidate_metadata(service: Probe) -> None:
    """Federated candidate metadata SHOULD include: origin_service, origin_authority,
    origin_signature and received_at, in every view of a federated candidate at the default,
    summary and full detail (detail=minimal may leave them out, AMB-44)."""
    pairs = views(service)
    ids = federated(pairs)
    if not ids:
        not_applicable("no candidate carries provenance: the service shows no federated result (AMB-44)")
    problems = [f"candidate {c.get('id')!r} at detail {label} lacks {[k for k in PROVENANCE if k not in c]}"
                for label, a in pairs if label not in MINIMAL for c in a.candidates
                if c.get("id") in ids and any(k not in c for k in PROVENANCE)]
    if problems:
        violation("; ".join(problems[:4]), readings=("AMB-44",))


@clause("ADP-7.8-04")
def test_7_8_federation_keeps_trust_information(service: Probe) -> None:
    """Federation MUST NOT remove freshness, redaction, or credential information that a client
    needs to make a trust decision: the credential_refs and redacted of a federated agent's
    metadata (GET {base}/agents/{id}) are in each of its summary and full candidates with the same
    values (detail=minimal asks for less, AMB-44); a missing freshness object is ADP-10-05's."""
    pairs = views(service)
    ids = federated(pairs)
    if not ids:
        not_applicable("no candidate carries provenance: the service shows no federated result (AMB-44)")
    judge_members_kept(service, pairs, ids, ("credential_refs", "redacted"), skip=("minimal",))

