"""§20 Representation Negotiation, server side: unsupported return fields (20.2) and unknown
request fields (20.3)."""

from __future__ import annotations

from typing import Any

from conformance.aidre._server_checks import fail_all, machine_readable, search_reached
from conformance.aidre._server_fixtures import NOT_JSON, Probe
from conformance.outcomes import clause, untestable, violation


#: The declaration (profile.toml [declarations]) of the behaviour 20.2 says is documented.
DOCUMENTED = "unsupported-return-field"


@clause("AIDRE-20.2-01")
def test_20_2_unsupported_return_field_ignored_or_rejected(server: Probe, adck_declarations: dict[str, Any]) -> None:
    """If a client requests an unsupported return field, the server MUST either ignore the
    field, or reject the request with a machine-readable error: asked for a field no server
    defines, the answer is a successful search, or an error object whose error is a string;
    the same way both times. With the documented choice declared (``--declare
    unsupported-return-field=ignore|reject``), only that one passes."""
    chosen = adck_declarations.get(DOCUMENTED)
    plain = server.search(server.text_body())
    search_reached(plain, "the same search without the return field")
    if not plain.successful_search:
        untestable(f"the same search without the return field was answered {plain.describe()} (see AIDRE-5.2-01)")
    problems = []
    for field in ("x_adck_unheard_of", "adck_vectors_2"):
        body = server.text_body(**{"return": {field: True, "metadata": True}})
        first, second = server.search(body), server.search(body, fresh="again")
        for answer in (first, second):
            if answer.status is None:
                untestable(f"a search asking for return field {field!r}: {answer.describe()}")
            if answer.foreign_encoding and answer.value is NOT_JSON:
                untestable(f"a search asking for return field {field!r} was answered {answer.describe()}, which the "
                           "kit cannot read (see AIDRE-14.2-01)")
            # a machine-readable error: an error object whose error is a token, in any spelling (AMB-04)
            rejected = answer.refused and isinstance(answer.value, dict) and machine_readable(answer.value.get("error"))
            if not answer.successful_search and not rejected:
                problems.append(f"return {{{field!r}: true}} was answered {answer.describe()}; expected a successful "
                                "search, or a 4xx error object with a machine-readable error value")
            elif chosen == "ignore" and rejected:
                problems.append(f"return {{{field!r}: true}} was rejected ({answer.describe()}), but the deployment "
                                "is declared to ignore unsupported return fields")
            elif chosen == "reject" and answer.successful_search:
                problems.append(f"return {{{field!r}: true}} was answered as a successful search, but the deployment "
                                "is declared to reject unsupported return fields")
        if first.successful_search != second.successful_search:
            problems.append(f"return {{{field!r}: true}} was ignored once and rejected once")
    if problems:
        violation("; ".join(dict.fromkeys(problems[:3])) + (f" (declared {DOCUMENTED}={chosen})" if chosen else ""))


@clause("AIDRE-20.3-02")
def test_20_3_unknown_request_fields_ignored(server: Probe) -> None:
    """Servers SHOULD ignore unknown request fields: a search with an extra member is answered
    as a successful search, with the same results as the search without it."""
    plain = server.text_body("backup snapshot schedule", top_k=3)
    cases = {"x_adck_unknown: 1": plain | {"x_adck_unknown": 1},
             "an extension object": plain | {"x_adck_hints": {"rerank": False, "trace": "adck"}}}
    base = server.search(plain)
    search_reached(base, "a text search")
    if not base.successful_search:  # a prerequisite failed: could not judge, never "does not apply"
        untestable(f"the same search without the unknown members was answered {base.describe()} "
                   "(see AIDRE-5.2-01)")
    want = [r.get("id") for r in base.results if isinstance(r, dict)]
    problems = []
    for what, body in cases.items():
        answer = server.search(body)
        search_reached(answer, f"a search with {what}")
        if not answer.successful_search:
            problems.append(f"a search with {what} was answered {answer.describe()}")
        elif [r.get("id") for r in answer.results if isinstance(r, dict)] != want:
            problems.append(f"a search with {what} got other results than the same search without it")
    fail_all(problems, len(cases), "searches with unknown members were not answered as without them")
