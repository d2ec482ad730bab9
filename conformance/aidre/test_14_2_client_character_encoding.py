"""§14.2 Character Encoding, client role: request bodies are UTF-8."""

from __future__ import annotations

from conformance.aidre._client_fixtures import said, searched
from conformance.outcomes import clause, violation

#: Queries beyond ASCII: Latin-1 letters, CJK of the BMP, a character outside the BMP.
QUERIES = ("Zürich café setup", "東京 single sign-on 🚀 rollout")


@clause("AIDRE-14.2-02")
def test_14_2_client_sends_utf8(aidre_client, aidre_scenarios) -> None:
    """"AIDRE JSON payloads MUST use UTF-8 encoding." The kit asks for searches whose text
    holds Latin-1 letters, CJK characters and a character outside the BMP; the bytes of every
    request body the client sends are valid UTF-8 (JSON's \\u escapes are ASCII, and so
    UTF-8: AMB-58)."""
    scenario = aidre_scenarios.new("utf-8")
    replies = [aidre_client.search(scenario, query=q) for q in QUERIES]
    sent = searched(scenario, replies[0], f"searches for {' and '.join(map(repr, QUERIES))}")
    for request in sent:
        try:
            request.body.decode("utf-8")
        except UnicodeDecodeError as exc:
            violation(f"the body of {request.method} {request.path} is not UTF-8: {exc.reason} at byte {exc.start} "
                      f"({request.body[max(exc.start - 12, 0):exc.start + 8]!r}); {'; '.join(said(r) for r in replies)}")
