"""§21 Rate Limiting: limit state in HTTP rate limit fields (AMB-07)."""

from __future__ import annotations

from conformance.aidre._server_checks import fail_all, vector_spaces
from conformance.aidre._server_fixtures import Probe
from conformance.outcomes import clause, not_applicable, untestable

#: RateLimit fields of the draft (21.2, 24.2), or of later revisions of the fields' draft (AMB-07).
RATELIMIT_TRIPLE = ("ratelimit-limit", "ratelimit-remaining", "ratelimit-reset")
RATELIMIT_PAIR = ("ratelimit", "ratelimit-policy")


@clause("AIDRE-21.1-02", judges_rate_limits=True)
def test_21_1_rate_limit_state_exposed(server: Probe) -> None:
    """If rate limiting is applied, servers SHOULD expose limit state using HTTP rate limit
    fields: once the run sees a sign of rate limiting, search answers carry RateLimit-Limit,
    -Remaining and -Reset (or RateLimit and RateLimit-Policy), AMB-07."""
    answers = [server.search(server.text_body())]
    spaces = vector_spaces(server)  # AMB-32
    if spaces:
        answers.append(server.search(server.vector_body(spaces[0], seed=1)))
    # the limit state is judged on successful searches: what an error carries is the server's choice
    answers = [a for a in answers if a.final is not None and a.successful_search]
    def names(a):
        return {k.lower() for k, _ in a.final.response_headers}
    # a sign of rate limiting in any search answer of the run (a 429 the run met included)
    signs = [a for a in [*answers, *server.searches_seen()] if a.final is not None and (
        a.status == 429 or (isinstance(a.value, dict) and a.value.get("error") == "rate_limited")
        or any(n.startswith("ratelimit") for n in names(a)))]
    if signs and signs[0] not in answers:
        server.used.append(signs[0])  # the sign is evidence
    if not signs:
        not_applicable("no sign of rate limiting in the run (no 429, no rate_limited, no RateLimit field)")
    if not answers:  # signs, but no successful search to look at: a prerequisite failed
        untestable("the run saw signs of rate limiting, but no successful search whose fields could be judged "
                   "(see AIDRE-5.2-01)")
    problems = []
    for a in answers:
        have = names(a)
        if not (set(RATELIMIT_TRIPLE) <= have or set(RATELIMIT_PAIR) <= have):
            missing = sorted(set(RATELIMIT_TRIPLE) - have)
            problems.append(f"a search answer ({a.describe()}) lacks {', '.join(missing)}")
    fail_all(problems, len(answers), "search answers did not expose the rate limit state")
