"""The AID authors' conformance fixtures as a peer suite (issue #24, point 3).

Every case of ../shared/corpora/aid-conformance (golden.json, enterprise.json,
pka_vectors.json; read here, never copied) is judged by the kit for the revision it targets
(conformance/aid/peer.py). A case either agrees with its authors or is listed, with the
sentence that makes the kit's reading right, in profiles/aid/authors-fixtures.toml; these tests
keep that list exact and docs/aid-conformance-fixtures.md current.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance import revisions
from conformance.aid import peer

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def judged(corpora_dir: Path) -> list[peer.Case]:
    return peer.cases(corpora_dir / peer.FOLDER)


def test_every_case_of_the_three_files_is_judged(judged: list[peer.Case]) -> None:
    counts = {f: sum(c.file == f for c in judged) for f in ("golden.json", "enterprise.json", "pka_vectors.json")}
    # 8 valid records, 16 invalid, 6 record sets; 8 policies; 17 endpoint-proof vectors (the folder's README)
    assert counts == {"golden.json": 30, "enterprise.json": 8, "pka_vectors.json": 17}
    assert len({c.key for c in judged}) == len(judged), "two cases share a key"


def test_each_case_agrees_or_is_listed_with_its_reason(judged: list[peer.Case]) -> None:
    listed = peer.readings()
    unlisted = [f"{c.key}: the authors expect {c.expected!r}, adck says {c.kit!r}"
                for c in judged if not c.agrees and c.key not in listed]
    stale = [f"{c.key} is listed but agrees now: remove it" for c in judged if c.agrees and c.key in listed]
    unknown = sorted(set(listed) - {c.key for c in judged})
    assert not unlisted + stale + unknown, "\n".join(unlisted + stale + [f"{k}: no such case" for k in unknown])


def test_each_listed_reason_names_a_clause_of_the_revision_judged(judged: list[peer.Case]) -> None:
    listed = peer.readings()
    for case in (c for c in judged if c.key in listed):
        entry = listed[case.key]
        assert entry["clause"] in revisions.profile_of("aid", case.revision).clauses, \
            f"{case.key}: {entry['clause']} is no clause of aid@{case.revision}"
        assert len(entry["reading"]) > 80 and '"' in entry["reading"], f"{case.key}: quote the sentence"


def test_the_document_is_what_the_peer_suite_writes(judged: list[peer.Case]) -> None:
    doc = ROOT / "docs" / "aid-conformance-fixtures.md"
    assert doc.read_text("utf-8") == peer.to_markdown(judged, peer.readings()), \
        "docs/aid-conformance-fixtures.md is stale: python -m conformance.aid.peer > docs/aid-conformance-fixtures.md"


@pytest.mark.parametrize("text, revision, codes", [
    # a record with v anywhere is an AID record (v first is asked by no revision)
    ("u=https://a.example/mcp;p=mcp;v=aid2", "v2.1", None),
    # an aid1 record is read by a v2.1 client when no aid2 is valid (AMB-60), by v1.2's rules
    ("v=aid1;u=https://a.example/mcp;p=mcp;k=z" + "2" * 44 + ";i=g1", "v2.1", None),  # 32 bytes
    ("v=aid1;u=https://a.example/mcp;p=mcp;k=z" + "2" * 43 + ";i=g1", "v2.1", {"ERR_INVALID_TXT"}),  # 31
    # TXT data that is no AID record at all is not "a record found"
    ("google-site-verification=abc", "v2.1", {"ERR_NO_RECORD"}),
    # key comparisons are case-insensitive, aliases included (AMB-51)
    ("V=aid2;U=https://a.example/mcp;P=mcp", "v2.1", None),
    ("v=aid2;u=https://a.example/mcp;U=https://b.example/mcp;p=mcp", "v2.1", {"ERR_INVALID_TXT"}),
    # a v1.2 client reads aid1 only
    ("v=aid2;u=https://a.example/mcp;p=mcp", "v1.2", {"ERR_INVALID_TXT"}),
    # websocket's wss:// is the remote scheme v2.1 allows beside https://
    ("v=aid2;u=wss://a.example/s;p=websocket", "v2.1", None),
    ("v=aid2;u=https://a.example/s;p=websocket", "v2.1", {"ERR_INVALID_TXT"}),
])
def test_the_kit_selects_by_each_revisions_rules(text: str, revision: str, codes: set[str] | None) -> None:
    from conformance.aid import versioned
    selection = versioned.select([text], revision)
    if codes is None:
        assert selection.record is not None, selection.reason
    else:
        assert selection.record is None and selection.codes == codes, (selection.codes, selection.reason)
