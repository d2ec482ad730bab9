"""§17.3 Error Codes: stable, machine-readable error values; the suggested values are advice
(a lower-case list, no key word of its own): any spelling, any other value, and a suggested
name never used for an error it does not describe (AMB-04)."""

from __future__ import annotations

from conformance.aidre._server_checks import (chunks_offered, error_objects_of, machine_readable,
                                               names_describing, provoked_errors, spelled, unreadable_left)
from conformance.aidre._server_fixtures import MEDIA, Answer, Probe
from conformance.outcomes import clause, untestable, violation


def _with_error_values(cases: list[tuple[str, Answer]]) -> tuple[list[tuple[str, Answer]], list[str]]:
    """The error answers whose body is a JSON object holding an error member (an object
    without one is AIDRE-17.1-03's case), and the bodies left out as not UTF-8 (AMB-63)."""
    errors, skipped = error_objects_of(cases)
    return [(w, a) for w, a in errors if isinstance(a.value, dict) and "error" in a.value], skipped


@clause("AIDRE-17.3-01")
def test_17_3_error_values_are_stable_and_machine_readable(server: Probe) -> None:
    """Servers SHOULD use stable, machine-readable error values: each error object's error is a
    token a program can compare (any spelling: invalid_request, invalid-request, InvalidRequest;
    or an integer code; not prose, not empty), and the same invalid request sent twice gets the
    same value (AMB-04)."""
    errors, skipped = _with_error_values(provoked_errors(server))
    problems = []
    for what, a in errors:
        value = a.value.get("error")
        if not machine_readable(value):
            problems.append(f"{what} got error {value!r}, not a machine-readable token")
    pairs = [("a search with top_k 0", server.search(server.text_body(top_k=0)),
              server.search(server.text_body(top_k=0), fresh="again"))]
    if chunks_offered(server):  # AMB-31
        url = server.endpoints.chunk_url("adck-no-such-chunk-7f3a")
        again = Answer(server.fetcher.fetch(url, headers={"Accept": MEDIA}))  # a second GET, not the shared one
        server.used.append(again)
        pairs.append(("GET of an unknown chunk id", server.get(url), again))
    for what, first, second in pairs:
        values = [a.value.get("error") if a.is_error and isinstance(a.value, dict) and "error" in a.value else None
                  for a in (first, second)]
        if None not in values and values[0] != values[1]:
            problems.append(f"the same request ({what}) got error {values[0]!r}, then {values[1]!r}")
    if problems:
        violation(f"{len(problems)} of {len(errors) + len(pairs)} error values were not stable tokens: "
                  + "; ".join(problems[:4]), readings=("AMB-04",))
    unreadable_left(skipped)
    if not errors:
        untestable("no invalid request was answered with an error object holding an error value "
                   "(see AIDRE-10-01, AIDRE-17.1-03)")


#: The suggested values that name the fault of each request the kit provokes (AMB-04).
DESCRIBED_BY = {
    "a search with top_k 0": set(),
    "a search whose body is not JSON": set(),
    "a search with top_k 1000000": set(),
    "a search with an embedding space nobody advertises": {"unsupported_embedding_space", "not_found"},
    "a query_vector one number too long": {"invalid_embedding_dimension"},
    "GET of an unknown chunk id": {"not_found"},
}


@clause("AIDRE-17.3-02")
def test_17_3_suggested_error_values_mean_what_they_say(server: Probe) -> None:
    """Suggested values include: invalid_request, unsupported_embedding_space, ... A list of
    suggestions, with no key word: a server may use other values, or the suggested names in
    another spelling, and is never failed for it. What the kit checks is that a suggested name,
    where the server uses one (in any spelling), names the error it answers: not_found for a
    non-positive top_k, invalid_embedding_dimension for an unknown embedding space,
    internal_error for a request the client got wrong (answered 4xx), tell a client's program
    something false; invalid_request fits every one of these requests (AMB-04). Each request the run provokes anyway (AIDRE-10-01's), the vector ones where the
    target offers vector queries (AMB-32), the unknown chunk where it offers chunk retrieval
    (AMB-31), and an unknown collection where the server refuses it (AIDRE-15.4-07)."""
    cases = list(provoked_errors(server))
    unknown = server.search({"query": "invoice", "collection": "adck-no-such-collection"})
    cases.append(("a search of a collection the server does not list", unknown))
    described = DESCRIBED_BY | {"a search of a collection the server does not list": {"not_found"}}
    errors, skipped = _with_error_values(cases)
    problems = []
    for what, a in errors:
        value = a.value.get("error")
        name = spelled(value)
        if name is not None and name not in names_describing(described[what], a.status):
            problems.append(f"{what} was answered {a.status} with error {value!r}, a suggested value that names "
                            "another error")
    if problems:
        violation(f"{len(problems)} of {len(errors)} error values: " + "; ".join(problems[:4]), readings=("AMB-04",))
    unreadable_left(skipped)
    if not errors:
        untestable("no invalid request was answered with an error object holding an error value "
                   "(see AIDRE-10-01, AIDRE-17.1-03)")

