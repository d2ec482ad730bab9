"""The report model: one result per clause, and the verdict.

The verdict rule, in one place: a run is *conformant* when every MUST clause that applies
passed, *full* when every SHOULD did too. A clause is ``untestable`` either because nothing
outside can observe it (catalogued, ``reason = not-observable``: it does not count against
the target) or because a prerequisite failed at run time (``reason = prerequisite``: a MUST
in that state is never counted as a pass).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from conformance import redact
from conformance.catalog import Clause, Profile
from conformance.fetch import Exchange
from conformance.credentials import NEEDS as NEEDS_CREDENTIALS
from conformance.outcomes import BUDGET_SPENT, NARROWED, RATE_LIMITED, UNDECLARED

#: Characters of a body from another origin than the target's that a report shows.
CROSS_ORIGIN_EXCERPT = 160

#: When one clause has several tests, the clause's outcome is the first of these they had.
_PRECEDENCE = ("fail", "error", "untestable", "pass", "not-applicable")


@dataclass
class TestOutcome:
    """What one test bound to a clause concluded (carried from pytest workers as data)."""

    nodeid: str
    clause: str
    outcome: str
    message: str
    evidence: list[dict] = field(default_factory=list)
    duration: float = 0.0
    #: The ambiguities whose reading the test said its conclusion rests on (``violation(...,
    #: readings=(...))``).
    readings: list[str] = field(default_factory=list)


@dataclass
class ClauseResult:
    clause: str
    section: str
    level: str
    keyword: str
    role: str
    text: str
    outcome: str
    message: str
    untestable_reason: str | None = None
    tests: list[str] = field(default_factory=list)
    evidence: list[dict] = field(default_factory=list)
    replay: str | None = None
    #: The draft's ambiguities whose reading the kit applies when it judges this clause
    #: (``adck ambiguities DRAFT`` says what each one is and how the kit reads it): every one
    #: the catalog links to the clause, for the traceability view.
    ambiguities: list[str] = field(default_factory=list)
    #: The ambiguities this outcome itself rests on: those the test named when it concluded,
    #: and those its message names by id. The renderings print these readings beside a failure,
    #: never the others (:func:`applied`).
    applied_ambiguities: list[str] = field(default_factory=list)
    #: Set when a baseline (``--baseline``) lists this clause: its reason, expiry date and status
    #: (``expected``, ``expired``, ``stale``; see :mod:`conformance.reports.baseline`). The
    #: outcome stays what was observed: an expected failure is still ``fail``.
    baseline: dict[str, Any] | None = None

    def counts_as_met(self) -> bool:
        """Passed, does not apply, or cannot be observed by anyone (catalogued)."""
        return self.outcome in ("pass", "not-applicable") or (
            self.outcome == "untestable" and self.untestable_reason == "not-observable")


def exchange_evidence(ex: Exchange) -> dict[str, Any]:
    """One exchange as report evidence, redacted."""
    out: dict[str, Any] = {
        "request": {"method": ex.method, "url": redact.url(ex.url),
                    "headers": dict(redact.headers(ex.request_headers))},
    }
    if ex.credentials:  # the user's credentials went with it ("sent"), or were withheld on purpose
        out["request"]["credentials"] = ex.credentials
        mine = {n.lower() for n in ex.credential_headers}
        out["request"]["headers"] = {k: (redact.REDACTED if k.lower() in mine else v)
                                     for k, v in out["request"]["headers"].items()}
    if ex.request_body:
        out["request"]["body_excerpt"] = redact.body_excerpt(ex.request_body, limit=2048)
    if ex.tls_version:
        out["tls_version"] = ex.tls_version
    if ex.status is not None:
        out["response"] = {
            "status": ex.status,
            "reason": ex.reason,
            "headers": [list(p) for p in redact.headers(ex.response_headers)],
            "body_bytes": len(ex.body),
            "body_truncated": ex.body_truncated,
            # a body from another origin than the target's (a redirect elsewhere) is shown only in part
            "body_excerpt": redact.body_excerpt(ex.body, limit=CROSS_ORIGIN_EXCERPT if ex.cross_origin else 2048),
        }
        if ex.cross_origin:
            out["response"]["cross_origin"] = True
    if ex.elapsed_headers is not None:
        out["elapsed_ms"] = round(ex.elapsed_headers * 1000, 1)
    if ex.error:
        out["error"] = {"kind": ex.error[0], "detail": redact.text(ex.error[1])}
    return out


def harness_evidence(step: Any) -> dict[str, Any]:
    """One harness step (what the kit asked the client's adapter, what it replied), redacted."""

    def shown(value: Any) -> Any:
        value = redact.json_value(value)
        text = json.dumps(value, ensure_ascii=False)
        return value if len(text) <= 4096 else f"[{len(text)} characters] " + text[:1024] + "…"

    request = dict(step.request)
    params = {k: v for k, v in request.get("params", {}).items() if k != "network"}
    params["network"] = {k: v for k, v in request.get("params", {}).get("network", {}).items() if k != "ca_pem"}
    request["params"] = shown(params)
    reply = None
    if isinstance(step.reply, dict):
        reply = {k: shown(v) if k in ("document", "cached") else redact.json_value(v) for k, v in step.reply.items()}
    out: dict[str, Any] = {"harness": {"request": request, "reply": reply}}
    if step.error:
        out["harness"]["error"] = step.error
    return out


def dns_evidence(answer: Any) -> dict[str, Any]:
    """A DNS answer as evidence: the name, what came back, TTL and DNSSEC state (redacted)."""
    return {"dns": {"query": f"{answer.name} TXT", "status": answer.status, "ttl": answer.ttl,
                    "records": [[redact.text(s.decode("utf-8", "replace")) for s in strings] for strings in answer.records],
                    "dnssec": answer.dnssec, "detail": redact.text(answer.detail)}}


def dns_query_evidence(query: Any, asker: dict[str, Any] | None = None) -> dict[str, Any]:
    """A DNS query the kit's nameserver received for a client under test: who sent it, the
    client itself or its adapter on its behalf (``asker``: the adapter's hello ``dns``, from
    ``Adapter.dns_asker()``; none: the client itself), and over which transport the nameserver
    saw it."""
    asker = asker or {}
    seen = f"over {query.transport}"
    name = asker.get("adapter")
    how = asker.get("how")
    if asker.get("asked_by") == "adapter":
        status = f"asked by the adapter {name} on the client's behalf {seen}"
        if asker.get("client_transport"):
            status += f" (the client asked the adapter over {asker['client_transport']})"
    elif name:
        status = f"asked by the client {seen}, to the nameserver its adapter {name} pointed it at"
    else:
        status = f"asked by the client {seen}"
    if how:
        status += f": {how}"
    ev: dict[str, Any] = {"query": f"{query.name} {query.rdtype}", "status": redact.text(status), "ttl": None,
                          "records": [], "dnssec": "DO bit set" if query.dnssec_ok else "DO bit clear", "detail": ""}
    if name:  # who asked, for machines: only when an adapter declared how the queries reach the kit
        ev["asked_by"] = asker.get("asked_by", "client")
        ev["adapter"] = name
        ev["transport"] = query.transport
    return {"dns": ev}


def evidence_item(item: Any, *, dns_asker: dict[str, Any] | None = None) -> dict[str, Any]:
    """Report evidence for an HTTP exchange, a harness step, a DNS answer or a client's DNS query
    (``dns_asker``: who sends the client's queries, :func:`dns_query_evidence`)."""
    if isinstance(item, Exchange):
        return exchange_evidence(item)
    if hasattr(item, "records") and hasattr(item, "dnssec"):
        return dns_evidence(item)
    if hasattr(item, "rdtype") and hasattr(item, "transport"):
        return dns_query_evidence(item, dns_asker)
    return harness_evidence(item)


def evidence_line(ev: dict[str, Any]) -> str:
    """One line for a person: ``GET https://… -> 200 OK`` or ``run aiendpoint.discover https://… -> none``."""
    if "dns" in ev:
        d = ev["dns"]
        return f"DNS {d['query']} -> {d['status']}" + (f" (TTL {d['ttl']}, DNSSEC {d['dnssec']})" if d["ttl"] else "")
    if "harness" in ev:
        h = ev["harness"]
        params = h["request"].get("params", {})
        got = h.get("error") or (f"{h['reply'].get('outcome')}" if h.get("reply") else "no reply")
        asked = params.get("authority") or params.get("domain", "")
        return f"{h['request'].get('operation', h['request'].get('type'))} {asked} -> {got}"
    req, resp = ev["request"], ev.get("response")
    got = f"{resp['status']} {resp['reason']}" if resp else f"no response ({ev.get('error', {}).get('kind')})"
    return f"{req['method']} {req['url']} -> {got}"


_AMBIGUITY_ID = re.compile(r"(?<![\w-])AMB-\d+(?!\d)")


def applied(message: str, named: list[str] | tuple[str, ...], linked: list[str] | tuple[str, ...],
            known: set[str] | frozenset[str] | None = None) -> list[str]:
    """The ambiguities an outcome rests on: those its test named (``violation(..., readings=)``),
    then those linked to the clause that its message names by id. A test that names none and a
    message that names none: none (the clause's other readings are not what this failure rests
    on; ``adck ambiguities`` lists them all)."""
    said = set(_AMBIGUITY_ID.findall(message))
    out = [a for a in named if known is None or a in known or a in linked]
    out += [a for a in linked if a in said]
    return list(dict.fromkeys(out))


def combine(clause: Clause, outcomes: list[TestOutcome], replay: str | None,
            ambiguities: list[str] | None = None, known: set[str] | None = None) -> ClauseResult:
    ranked = sorted(outcomes, key=lambda o: _PRECEDENCE.index(o.outcome))
    first = ranked[0]
    linked = list(ambiguities or ())
    return ClauseResult(
        clause=clause.id, section=clause.section, level=clause.level, keyword=clause.keyword,
        role=clause.role, text=clause.text, outcome=first.outcome, message=first.message,
        untestable_reason=(untestable_reason(first.message) if first.outcome == "untestable" else None),
        tests=[o.nodeid for o in outcomes],
        evidence=first.evidence if first.outcome in ("fail", "error", "untestable") else [],
        replay=replay if first.outcome != "pass" else None,
        ambiguities=linked,
        applied_ambiguities=applied(first.message, first.readings, linked, known) if first.outcome != "pass" else [],
    )


#: Untestable reasons that are the kit's own refusals, each with the partial-run reason that
#: names its clauses (``n``: "3 clauses", ``ids``: the first five): never failed, never passed.
KIT_REFUSALS = {
    "credentials": ("{n} could not be checked without credentials ({ids}): the service answered 401 or 403 to "
                    "requests sent without any; give them with -H or --header-env"),
    "undeclared": ("{n} saw a choice the draft leaves to the target, not declared for this run ({ids}): state it "
                   "with --declare (adck targets lists them)"),
    "rate-limited": ("{n} could not be judged: the target answered 429 Too Many Requests to the kit ({ids}): run "
                     "again later, or fewer clauses with --clause"),
    "budget": ("the run's request budget (--invoke-budget, --request-budget) stopped it: {n} left untestable "
               "({ids}): raise the budget to judge them"),
}


def untestable_reason(message: str) -> str:
    """Why a clause the run could not check is untestable, from its message: ``narrowed`` (the
    run's world cannot show it), ``credentials`` (the service wanted credentials the run did
    not have: ``conformance.credentials``), ``undeclared`` (the target made a choice the draft
    leaves to it, which the run did not declare: ``conformance.outcomes.undeclared_choice``) or
    ``rate-limited`` (it failed on a 429 the target answered to the kit's requests),
    ``budget`` (the run's request budget ran out before it could be checked) or
    ``prerequisite`` (something it depends on failed)."""
    if message.startswith(NARROWED):
        return "narrowed"
    if message.startswith(UNDECLARED):
        return "undeclared"
    if message.startswith(RATE_LIMITED):
        return "rate-limited"
    if message.startswith(NEEDS_CREDENTIALS):
        return "credentials"
    if BUDGET_SPENT in message:
        return "budget"
    return "prerequisite"


def unobservable(clause: Clause, ambiguities: list[str] | None = None) -> ClauseResult:
    return ClauseResult(
        clause=clause.id, section=clause.section, level=clause.level, keyword=clause.keyword,
        role=clause.role, text=clause.text, outcome="untestable",
        message=f"not observable from outside: {clause.untestable}",
        untestable_reason="not-observable", ambiguities=list(ambiguities or ()),
    )


#: Marks an ``error`` outcome caused by a client's adapter breaking the harness protocol.
ADAPTER_ERROR = "adapter error, not a verdict on the client"
#: Begins the message of an ``error`` outcome by which the kit declines to judge the target as
#: the user described it (:func:`conformance.outcomes.not_judged`): the run is not judged, exit 2.
NOT_JUDGED = "not judged: "


#: The verdicts a run can end in (``summary.level``).
LEVELS = ("full", "conformant", "non-conformant", "partial", "not-judged")


@dataclass
class Summary:
    """The verdict of a run.

    ``level`` is ``full`` or ``conformant`` only for a whole run; a run narrowed to some
    clauses or roles (``partial``) that failed no MUST is ``partial``, never ``conformant``;
    a MUST that failed makes any run ``non-conformant`` (so a non-conformant verdict always
    names a failing clause); a run in which no MUST failed but some could not be checked is
    ``partial`` (and exits 1: an unchecked MUST is never a pass); a run the kit could not judge
    (a client's adapter broke the harness protocol) is ``not-judged``, whatever else failed.
    """

    #: Every applicable MUST of the whole draft's checked roles passed (never true when partial).
    conformant: bool
    level: str
    counts: dict[str, dict[str, int]]
    #: MUST clauses that could not be checked because a prerequisite failed (or the run's
    #: request budget ran out before them: ``untestable_reason = budget``).
    must_unverified: list[str]
    #: True when the run did not check the whole of the target's roles: the verdict speaks of
    #: the clauses it checked, never of the draft.
    partial: bool = False
    #: Why the run is partial, one line each (--clause, --role, pytest -k/--deselect, ...).
    partial_reasons: list[str] = field(default_factory=list)
    #: Every applicable MUST among the clauses checked passed (the exit status is ``exit_status``:
    #: a baseline or ``--fail-on should`` can make it differ).
    passed: bool = False
    #: Why the kit could not judge the target (set when ``level`` is ``not-judged``).
    not_judged: str | None = None
    #: For a draft that defines levels of its own (ADP's D0, D1, D2): the highest one whose
    #: MUST clauses, and those of every level below it, all passed (None: none, or the draft
    #: has none); ``level`` then speaks of the clauses up to it ("D1 full").
    draft_level: str | None = None
    #: Each draft level, lowest first: met or not, and the MUST clauses that failed or could not
    #: be checked, and the SHOULD clauses that did not pass, at that level itself.
    draft_levels: list[dict[str, Any]] = field(default_factory=list)
    #: The exit policy (``--fail-on``): ``must`` (MUST clauses decide the exit status) or
    #: ``should`` (SHOULD clauses do too).
    fail_on: str = "must"
    #: The clauses that make the run exit 1 under the policy (a baseline waives none of these).
    blocking: list[str] = field(default_factory=list)
    #: Unmet clauses a live baseline entry waives: still failed in the verdict, not in the exit status.
    expected_failures: list[str] = field(default_factory=list)
    #: The exit status of ``adck run`` for this run (:func:`exit_rule`).
    exit_status: int = 0


#: Exit statuses of ``adck run``: every clause the policy counts passed (or is waived by a
#: baseline); one did not; the kit could not run or judge.
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
#: ``--fail-on``: the levels whose clauses decide the exit status.
FAIL_ON = {"must": ("MUST",), "should": ("MUST", "SHOULD")}


def exit_rule(judged: list[ClauseResult], *, complete: bool, fail_on: str = "must",
              waived: frozenset[str] | set[str] = frozenset(), not_judged: bool = False) -> tuple[int, list[str]]:
    """The exit status of a run, in one place, and the clauses that cause it.

    ``judged`` are the results the verdict speaks of. 2 when the kit could not judge; 1 when the
    run is incomplete or checked nothing (``complete`` false), or when a clause of a level the
    policy counts (MUST; with ``--fail-on should`` SHOULD too) is unmet — failed, errored, or left
    unchecked by a failed prerequisite — and no live baseline entry waives it; else 0. The
    verdict (``Summary.level``) never depends on this: a waived MUST failure is still a failure.
    """
    if not_judged:
        return EXIT_USAGE, []
    levels = FAIL_ON[fail_on]
    blocking = [r.clause for r in judged if r.level in levels and not r.counts_as_met() and r.clause not in waived]
    return (EXIT_FAILED if blocking or not complete else EXIT_OK), blocking


def _level_of(levels: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, str]:
    """Clause id -> the draft level it belongs to (the lowest that lists it)."""
    of: dict[str, str] = {}
    for name, ids in levels:
        for cid in ids:
            of.setdefault(cid, name)
    return of


def _draft_levels(results: list[ClauseResult], levels: tuple[tuple[str, tuple[str, ...]], ...],
                  offered_by: dict[str, str], declared_level: str | None,
                  witnessed: "list[ClauseResult]") -> tuple[str | None, list[dict[str, Any]], set[str]]:
    """(highest draft level met, each level's account, the clauses of the levels not offered).

    A level is *offered* when the target claims it (``--level`` at or above it) or shows it in
    its answers: the clause that defines the level (``offered_by``, the level's row of the
    draft's table) was judged, passed or failed, rather than found not to apply (a service that
    answers no Discovery Request does not offer D1); one that could not be checked leaves the
    level offered, its MUSTs unverified. A level without such a clause is offered when any of its
    clauses was judged. The verdict judges every clause up to the highest level
    offered: a MUST of an offered level that failed fails the run, whatever level was met; the
    levels above it are not offered, and their clauses do not count."""
    of = _level_of(levels)
    names = [name for name, _ in levels]
    claimed = names.index(declared_level) if declared_level in names else -1
    row_of = {r.clause: r for r in [*witnessed, *results]}
    outcome = {cid: r.outcome for cid, r in row_of.items()}
    accounts: list[dict[str, Any]] = []
    met: str | None = None
    blocked = False
    for index, (name, _) in enumerate(levels):
        mine = [r for r in results if of.get(r.clause) == name]
        checked = any(r.outcome in ("pass", "fail") for r in mine)
        defining = offered_by.get(name)
        # only a row found not to apply says the level is absent; one that could not be checked
        # (the service unreachable, a budget spent) leaves it offered, and its MUSTs unverified
        shown = outcome[defining] != "not-applicable" if defining in outcome else checked
        account = {
            "level": name,
            "offered": index <= claimed or shown,
            # why it is not offered, in the words of its row's test: they complete "D1 …", up to
            # the first ";" ("not found at POST https://…/discover (404): name the path with --binding")
            "absent": (row_of[defining].message.split("; ")[0] if defining in outcome and not shown else None),
            "checked": checked,
            "must_failed": [r.clause for r in mine if r.level == "MUST" and r.outcome in ("fail", "error")],
            "must_unverified": [r.clause for r in mine if r.level == "MUST" and r.outcome == "untestable"
                                and not r.counts_as_met()],
            "should_failed": [r.clause for r in mine if r.level == "SHOULD" and not r.counts_as_met()],
        }
        # a level nothing of the run speaks of (a document on its own has no D1 clause) is not met,
        # nor one whose defining row did not pass (a claimed level the target does not show)
        account["met"] = (not blocked and account["offered"] and checked and not account["must_failed"]
                          and not account["must_unverified"]
                          and (defining is None or outcome.get(defining) in ("pass", None)))
        if account["met"]:
            met = name
        else:
            blocked = True
        accounts.append(account)
    # judged: the clauses up to the highest level offered (the lowest level at least); a level
    # below one offered is offered too (a D2 service must also satisfy D0 and D1)
    ceiling = max([i for i, a in enumerate(accounts) if a["offered"]], default=0)
    for account in accounts[:ceiling + 1]:
        account["offered"] = True
    above = {r.clause for r in results if r.clause in of and names.index(of[r.clause]) > ceiling}
    return met, accounts, above


def not_offered(results: list[ClauseResult], accounts: list[dict[str, Any]],
                levels: tuple[tuple[str, tuple[str, ...]], ...]) -> list[ClauseResult]:
    """The results with every clause of a draft level the target does not offer (``accounts``,
    ``Summary.draft_levels``) made *not applicable*, saying why and what was seen: the counts
    and every report format then agree with the verdict, which does not count them."""
    missing = {a["level"] for a in accounts if not a["offered"]}
    if not missing:
        return results
    of = _level_of(levels)
    out = []
    for r in results:
        if of.get(r.clause) in missing and r.outcome != "not-applicable" and not (
                r.outcome == "untestable" and r.untestable_reason == "not-observable"):
            seen = f"; seen: {r.outcome}" + (f": {r.message}" if r.message else "")
            r = replace(r, outcome="not-applicable", untestable_reason=None, evidence=[], replay=None,
                        message=f"level {of[r.clause]} is not offered by the target (it neither shows nor claims "
                                f"it), so its clauses do not apply{seen}")
        out.append(r)
    return out


def summarize(results: list[ClauseResult], partial: bool = False, completed: bool = True,
              partial_reasons: list[str] | None = None,
              draft_levels: tuple[tuple[str, tuple[str, ...]], ...] = (),
              declared_level: str | None = None, fail_on: str = "must",
              waived: frozenset[str] | set[str] = frozenset(),
              offered_by: dict[str, str] | None = None, witnessed: "list[ClauseResult] | None" = None) -> Summary:
    """The verdict of a run. For a draft with levels of its own (``draft_levels``), the run is
    judged on the clauses up to the highest level the target offers (:func:`_draft_levels`: shown
    by its answers through the level's defining clause, ``offered_by``, or claimed with
    ``declared_level``, ``--level``): a MUST of an offered level that failed makes the run
    non-conformant ("non-conformant (D0 met; D1: 1 MUST failed)"); levels above are not offered
    and do not count ("D1 full (D2 not offered)"). ``draft_level`` names the highest level met.
    ``witnessed`` holds the results of defining clauses that ran beside a ``--clause`` selection
    without being reported. ``fail_on`` and ``waived`` (the clauses a baseline expects to fail)
    decide the exit status only."""
    draft_level, level_accounts, above = (None, [], set())
    if draft_levels and any(c in {r.clause for r in results} for _, ids in draft_levels for c in ids):
        draft_level, level_accounts, above = _draft_levels(results, draft_levels, dict(offered_by or {}),
                                                           declared_level, list(witnessed or ()))
        results = not_offered(results, level_accounts, draft_levels)
    counts: dict[str, dict[str, int]] = {
        lvl: {o: 0 for o in ("pass", "fail", "not-applicable", "untestable", "error")}
        for lvl in ("MUST", "SHOULD", "MAY")
    }
    for r in results:
        counts[r.level][r.outcome] += 1
    results = [r for r in results if r.clause not in above]
    reasons = list(partial_reasons or ())
    # what the run's world could not show (--world respx has no TLS) narrows the run, as --clause does
    narrowed = [r.clause for r in results if r.outcome == "untestable" and r.untestable_reason == "narrowed"]
    if narrowed:
        reasons.append(f"{', '.join(narrowed)} not checkable in the world this run chose (see each one's message)")
        results = [r for r in results if r.clause not in narrowed]
    # the kit's own refusals (credentials it did not have, a choice not declared, a 429 it caused,
    # its budget spent): unchecked, never failed, each kind named once with its clauses
    for reason, sentence in KIT_REFUSALS.items():
        ids = [r.clause for r in results if r.outcome == "untestable" and r.untestable_reason == reason]
        if ids:
            reasons.append(sentence.format(n=f"{len(ids)} clause{'s' if len(ids) != 1 else ''}",
                                           ids=", ".join(ids[:5]) + (", …" if len(ids) > 5 else "")))
    if partial and not reasons:
        reasons.append("the run was narrowed")
    if not completed:
        reasons.append("the run did not complete")
    # a run that checked nothing (no clause applied) is no evidence of conformance
    checked = any(r.outcome in ("pass", "fail") for r in results)
    if not checked:
        reasons.append("no clause of the checked roles applied to the target")
    passed = completed and checked and all(r.counts_as_met() for r in results if r.level == "MUST")
    full = passed and all(r.counts_as_met() for r in results if r.level == "SHOULD")
    is_partial = bool(reasons)
    must_failed = any(r.level == "MUST" and r.outcome == "fail" for r in results)
    adapter_errors = sorted(r.clause for r in results if r.outcome == "error" and ADAPTER_ERROR in r.message)
    declined = [r.message.removeprefix(NOT_JUDGED) for r in results
                if r.outcome == "error" and r.message.startswith(NOT_JUDGED)]
    if adapter_errors or declined:
        level = "not-judged"
    elif must_failed:
        level = "non-conformant"
    elif not passed:
        # no MUST failed, yet some could not be checked (the kit's limits, an error of the kit):
        # no verdict either way, and never a pass
        unchecked = [r.clause for r in results if r.level == "MUST" and not r.counts_as_met()
                     and r.untestable_reason not in KIT_REFUSALS]  # said above
        if unchecked:
            reasons.append(f"{len(unchecked)} MUST clause{'s' if len(unchecked) != 1 else ''} could not be "
                           f"checked and none failed ({', '.join(unchecked[:5])}{', …' if len(unchecked) > 5 else ''})")
        is_partial, level = True, "partial"
    elif is_partial:
        level = "partial"
    else:
        level = "full" if full else "conformant"
    status, blocking = exit_rule(results, complete=completed and checked, fail_on=fail_on, waived=waived,
                                 not_judged=level == "not-judged")
    return Summary(
        conformant=level in ("full", "conformant"),
        level=level,
        counts=counts,
        must_unverified=[r.clause for r in results
                         if r.level == "MUST" and r.outcome == "untestable"
                         and r.untestable_reason in ("prerequisite", "budget")],
        partial=is_partial,
        partial_reasons=reasons,
        passed=passed,
        not_judged=(declined[0] if declined else
                    f"the client's adapter broke the harness protocol (at {', '.join(adapter_errors)}): the kit "
                    "could not judge the client; fix the adapter and run again" if level == "not-judged" else None),
        draft_level=draft_level,
        draft_levels=level_accounts,
        fail_on=fail_on,
        blocking=blocking,
        expected_failures=[r.clause for r in results if r.clause in waived and not r.counts_as_met()],
        exit_status=status,
    )


@dataclass
class Report:
    kit: dict[str, str]
    draft: dict[str, str]
    target: dict[str, Any]
    roles: list[str]
    seed: int
    requests_sent: int
    started_at: str
    duration_s: float
    command: str
    summary: Summary
    results: list[ClauseResult]
    coverage: dict[str, int]
    ambiguities: list[dict[str, str]]
    report_version: str = "1"
    #: The baseline the run was given (``--baseline``): its path and each entry with its status
    #: (:func:`conformance.reports.baseline.apply`); None without one.
    baseline: dict[str, Any] | None = None
    #: A run that judged several revisions of the draft (``adck run aiendpoint@all``): each
    #: one's verdict, oldest first (:func:`revision_verdicts`); the rest of the report is the
    #: newest one's. Empty for a run of one revision.
    revisions: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def failing(self) -> list[ClauseResult]:
        return [r for r in self.results if r.outcome in ("fail", "error")]


def revision_verdicts(profiles: list[Profile], verdicts: list[tuple]) -> list[dict[str, Any]]:
    """Each revision's verdict (``profiles`` oldest first, ``verdicts`` their ``(results,
    summary, ...)``) from one run's outcomes: its level, counts, the clauses that did not pass,
    and ``differs``, the results of its clauses that another revision judged does not hold (the
    sentences the revisions disagree on), so a reader sees why the verdicts differ."""
    out = []
    for profile, (results, summary, *_rest) in zip(profiles, verdicts):
        others = [p for p in profiles if p is not profile]
        differs = [r for r in results if any(r.clause not in p.clauses for p in others)]
        out.append({
            "name": profile.revision, "label": profile.label, "draft": profile.draft,
            "level": summary.level, "draft_level": summary.draft_level, "conformant": summary.conformant,
            "counts": summary.counts, "must_unverified": list(summary.must_unverified),
            "not_passed": [r.clause for r in results if r.outcome in ("fail", "error") and r.level != "MAY"],
            "differs": [{"clause": r.clause, "section": r.section, "keyword": r.keyword, "level": r.level,
                         "outcome": r.outcome, "message": r.message, "replay": r.replay} for r in differs],
        })
    return out


def ambiguities_of(profile: Profile) -> dict[str, list[str]]:
    """Clause id -> the ids of the ambiguities whose reading the kit applies to it."""
    out: dict[str, list[str]] = {}
    for a in profile.ambiguities:
        for cid in a.clauses:
            out.setdefault(cid, []).append(a.id)
    return out


def build_results(profile: Profile, roles: list[str], outcomes: list[TestOutcome],
                  replay_for: dict[str, str], selected: set[str] | None) -> list[ClauseResult]:
    """One result per clause of the checked roles, in catalog order."""
    by_clause: dict[str, list[TestOutcome]] = {}
    for o in outcomes:
        by_clause.setdefault(o.clause, []).append(o)
    readings = ambiguities_of(profile)
    results = []
    for cid, clause in profile.clauses.items():
        if clause.role not in roles or (selected and cid not in selected):
            continue
        if cid in by_clause:
            results.append(combine(clause, by_clause[cid], replay_for.get(cid), readings.get(cid),
                                   {a.id for a in profile.ambiguities}))
        elif clause.untestable and clause.level != "MAY":
            results.append(unobservable(clause, readings.get(cid)))
    return inherit_kit_refusals(results)


#: The reasons a clause could not be judged that the kit caused, or the run's options: a clause
#: whose prerequisite could not be judged for one of them could not be judged for it too.
_INHERITED = {"credentials": NEEDS_CREDENTIALS + ": ", "rate-limited": RATE_LIMITED}
_SEE = re.compile(r"\(see ([A-Z]+-[\d.]+-\d+)\)")


def inherit_kit_refusals(results: list[ClauseResult]) -> list[ClauseResult]:
    """A clause left untestable by a prerequisite it names (``(see CLAUSE)``, the suites' way)
    that could not be judged because the service wanted credentials or rate-limited the kit is
    untestable for that reason too, saying so: the fix is the same (credentials, a later run),
    and it is no failed prerequisite of the target's."""
    by_id = {r.clause: r for r in results}
    out = []
    for r in results:
        if r.outcome == "untestable" and r.untestable_reason == "prerequisite":
            cause = next((by_id[c] for c in _SEE.findall(r.message) if c in by_id
                          and by_id[c].outcome == "untestable" and by_id[c].untestable_reason in _INHERITED), None)
            if cause is not None:
                said = {"credentials": "needs credentials", "rate-limited": "was rate-limited"}[cause.untestable_reason]
                r = replace(r, untestable_reason=cause.untestable_reason,
                            message=f"{_INHERITED[cause.untestable_reason]}its prerequisite {cause.clause} {said}: "
                                    f"{r.message}")
        out.append(r)
    return out
