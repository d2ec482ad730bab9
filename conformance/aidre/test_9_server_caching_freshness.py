"""§9 Caching and Freshness: content_hash, updated_at and etag where results, chunks and
resources are exposed (AMB-17)."""

from __future__ import annotations

from conformance.aidre._server_checks import fail_all, offered_chunk_answers, search_reached, unreadable_left
from conformance.aidre._server_fixtures import Answer, Endpoints, Probe
from conformance.fetch import Fetch
from conformance.outcomes import clause, untestable


def _exposed(server: Probe, member: str) -> None:
    __tracebackhide__ = True
    problems, judged, skipped = [], 0, []
    for body in (server.text_body(), server.text_body("invoice", top_k=2)):
        answer = server.search(body)
        search_reached(answer, "a search")
        for r in answer.results:
            if not isinstance(r, dict):
                continue
            judged += 1
            meta = r.get("metadata") if isinstance(r.get("metadata"), dict) else {}
            if member not in r and member not in meta:
                problems.append(f"result {r.get('id', '?')!r} has no {member} (in metadata or at its top level)")
    if server.endpoints.chunk is not None:  # where chunk retrieval is offered (AMB-31)
        for cid, answer in offered_chunk_answers(server):
            if answer.status == 200 and answer.foreign_encoding and not isinstance(answer.value, dict):
                skipped.append(f"chunk {cid!r}: {answer.foreign_encoding}")  # AIDRE-14.2-01's (AMB-63)
            elif answer.status == 200 and isinstance(answer.value, dict):
                judged += 1
                meta = answer.value.get("metadata") if isinstance(answer.value.get("metadata"), dict) else {}
                if member not in answer.value and member not in meta:
                    problems.append(f"chunk {cid!r} has no {member}")
    fail_all(problems, judged, f"results and chunks did not expose {member}")
    unreadable_left(skipped)
    if not judged:
        untestable("no search result or chunk was served to look in (see AIDRE-5.2-01, AIDRE-8-01)")


@clause("AIDRE-9-02")
def test_9_content_hash_exposed(server: Probe) -> None:
    """Servers SHOULD expose: content_hash (in each result's metadata or top level, and in chunks, AMB-17)."""
    _exposed(server, "content_hash")


@clause("AIDRE-9-03")
def test_9_updated_at_exposed(server: Probe) -> None:
    """Servers SHOULD expose: updated_at (in each result's metadata or top level, and in chunks, AMB-17)."""
    _exposed(server, "updated_at")


@clause("AIDRE-9-04")
def test_9_etag_exposed(server: Probe, discovery_fetch: Fetch, endpoints: Endpoints,
                        collections_answer: Answer | None) -> None:
    """Servers SHOULD expose: etag (the ETag header, or an etag body member, on the discovery
    document, the collections resource and chunk resources where chunk retrieval is offered,
    AMB-17, AMB-31)."""
    resources: list[tuple[str, Answer]] = [("the discovery document", Answer(discovery_fetch))]
    if collections_answer is not None and collections_answer.ok:
        resources.append(("the collections resource", collections_answer))
        server.used.append(collections_answer)
    if endpoints.chunk is not None:
        resources += [(f"chunk {cid!r}", a) for cid, a in offered_chunk_answers(server, 2) if a.status == 200]
    problems = []
    for what, answer in resources:
        final = answer.final
        has_member = isinstance(answer.value, dict) and "etag" in answer.value
        if final is not None and not final.header("etag") and not has_member:
            problems.append(f"{what} came without an ETag")
    fail_all(problems, len(resources), "resources exposed no etag")
