"""§17.3 Error Codes: stable, machine-readable error values, and the suggested ones where they
name the error (AMB-04)."""

from __future__ import annotations

import re

from conformance.aidre._server_checks import chunks_offered, fail_all, provoked_errors, vector_spaces
from conformance.aidre._server_fixtures import MEDIA, Answer, Probe
from conformance.outcomes import clause, not_applicable, untestable

#: The shape of every suggested error value (AMB-04).
ERROR_VALUE = re.compile(r"[a-z0-9_]+")


@clause("AIDRE-17.3-01")
def test_17_3_error_values_are_stable_and_machine_readable(server: Probe) -> None:
    """Servers SHOULD use stable, machine-readable error values: each error object's error is a
    lower-case token, and the same invalid request sent twice gets the same value (AMB-04)."""
    # an error object without an error member is AIDRE-17.1-03's case
    errors = [(w, a) for w, a in provoked_errors(server) if a.is_error and isinstance(a.value, dict) and "error" in a.value]
    if not errors:
        untestable("no invalid request was answered with an error object holding an error value "
                   "(see AIDRE-10-01, AIDRE-17.1-03)")
    problems = []
    for what, a in errors:
        value = a.value.get("error")
        if not isinstance(value, str) or not ERROR_VALUE.fullmatch(value):
            problems.append(f"{what} got error {value!r}, not a machine-readable token")
    pairs = [("a search with top_k 0", server.search(server.text_body(top_k=0)),
              server.search(server.text_body(top_k=0), fresh="again"))]
    if chunks_offered(server):  # AMB-31
        url = server.endpoints.chunk_url("adck-no-such-chunk-7f3a")
        again = Answer(server.fetcher.fetch(url, headers={"Accept": MEDIA}))  # a second GET, not the shared one
        server.used.append(again)
        pairs.append(("GET of an unknown chunk id", server.get(url), again))
    for what, first, second in pairs:
        values = [a.value.get("error") if a.is_error and isinstance(a.value, dict) else None for a in (first, second)]
        if None not in values and values[0] != values[1]:
            problems.append(f"the same request ({what}) got error {values[0]!r}, then {values[1]!r}")
    fail_all(problems, len(errors) + len(pairs), "error values were not stable tokens")


@clause("AIDRE-17.3-02")
def test_17_3_suggested_error_values_used(server: Probe) -> None:
    """Suggested values include invalid_embedding_dimension, not_found, ...: where an error is
    one these names describe, the server uses that name (AMB-04): the errors of vector queries
    where the target offers them (AMB-32), not_found where it offers chunk retrieval (AMB-31)."""
    cases: list[tuple[str, Answer, str]] = []
    spaces = vector_spaces(server)
    if spaces:
        body = server.vector_body(spaces[0], vector=[0.25] * (spaces[0]["dimensions"] + 1))
        cases.append(("a query_vector one number too long", server.search(body), "invalid_embedding_dimension"))
        cases.append(("an embedding space nobody advertises",
                      server.search({"query_vector": [0.1, 0.2], "embedding_space": "adck:no-such-space", "top_k": 5}),
                      "unsupported_embedding_space"))
    if chunks_offered(server):
        cases.append(("an unknown chunk id", server.get(server.endpoints.chunk_url("adck-no-such-chunk-7f3a")),
                      "not_found"))
    if not cases:
        not_applicable("the target offers neither vector queries (§5.3 SHOULD) nor chunk retrieval (§8 SHOULD), "
                       "whose errors the kit provokes for the suggested values (AMB-31, AMB-32)")
    judged = [(w, a, v) for w, a, v in cases if a.is_error and isinstance(a.value, dict) and "error" in a.value]
    if not judged:
        untestable("none of the requests was answered with an error object holding an error value "
                   "(see AIDRE-10-01, AIDRE-17.1-03)")
    problems = [f"{w} got error {a.value.get('error')!r}, not {v!r}" for w, a, v in judged if a.value.get("error") != v]
    fail_all(problems, len(judged), "errors did not use the suggested value that names them")


# ---------------------------------------------------------------- 18.1 top_k
