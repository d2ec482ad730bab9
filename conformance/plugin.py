"""The adck pytest plugin (registered through the ``pytest11`` entry point).

It is inert unless collected tests carry a ``clause`` mark. Then it resolves ``--adck-target``
once, shares one :class:`~conformance.fetch.Fetcher` across the session (so each document is
fetched once per run), turns every bound test's result into a clause outcome, rewrites a
failure's message to name and quote the clause, and writes the report when the session ends.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
import random
import shlex
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest

from conformance import __version__, catalog, recording, revisions
from conformance.dns import DnsConfig
from conformance.fetch import ConnectTo, Fetcher, Limits
from conformance.invoke import DEFAULT_BUDGET, Invoker
from conformance.outcomes import ClauseViolation, NotApplicable, Untestable
from conformance.reports import model
from conformance.targets import Target, TargetError, TargetOptions, resolve


@dataclass
class RunState:
    """Everything one session gathers for its report."""

    seed: int
    started: float = field(default_factory=time.time)
    #: What the run checks: the newest revision judged, widened by the clauses only older ones
    #: hold (one revision: its profile).
    profile: catalog.Profile | None = None
    #: The profile of each revision judged, oldest first; each gets its own verdict.
    judged: list[catalog.Profile] = field(default_factory=list)
    target: Target | None = None
    roles: list[str] = field(default_factory=list)
    selected: set[str] = field(default_factory=set)
    fetcher: Fetcher | None = None
    #: The scenario world of an agent-role run (it counts the client's requests).
    world: Any = None
    #: The run's DNS resolver, when a suite asked DNS.
    resolver: Any = None
    #: The mock DNS server of a client-role run (it counts the client's queries).
    scenario_dns: Any = None
    outcomes: dict[str, model.TestOutcome] = field(default_factory=dict)
    #: Node ids of the clause tests the kit's own selection kept (roles, --adck-clause).
    kept: set[str] = field(default_factory=set)
    profile_clause_of: dict[str, str] = field(default_factory=dict)
    #: Node ids of the clause tests that were to run after every selection.
    expected: set[str] = field(default_factory=set)
    #: When the run must end (time.time()), and the seconds it was given.
    deadline: float | None = None
    run_timeout: float | None = None
    #: The HTTP binding of a draft that defines none (ADP), overrides applied.
    binding: dict = field(default_factory=dict)
    #: The run's declarations (``--adck-declare`` and a built-in variant's own), as the report
    #: gives them (``conformance.preflight.declarations``).
    declarations: list = field(default_factory=list)
    #: Clause tests not started because the deadline had passed.
    past_deadline: int = 0
    watchdog: Any = None
    finished: bool = False
    #: Why the run checks less than the whole of the target's roles (empty: a whole run).
    partial_reasons: list[str] = field(default_factory=list)
    report: model.Report | None = None
    written: list[Path] = field(default_factory=list)
    #: The expected failures the user listed (``--adck-baseline``), checked at configure time.
    baseline: Any = None
    #: The user's credentials (``--adck-header``, ``--adck-header-env``), bound to the target's
    #: origin once it is resolved; None: the run has none (``conformance.credentials``).
    credentials: Any = None
    #: Whether a 401 or 403 answered without credentials makes a clause untestable (the
    #: run's clauses send requests a service may protect, to a target reached over HTTP).
    credentials_apply: bool = False
    #: Whether a failure on a 429 the target answered makes a clause untestable (the kit sends
    #: the requests itself, to a server: not a client's harness, not a document).
    rate_limits_apply: bool = False
    #: Whether the target is a recorded world (``adck scan``, ``adck judge``): a clause that looked
    #: at a request the recording refused is not checked (conformance.recording).
    recorded: bool = False


STATE = pytest.StashKey[RunState]()

#: Default deadline of a whole run, in seconds: a client is driven step by step (each step has
#: its own deadline), a server or a document is fetched a few times.
RUN_TIMEOUT = {"client": 900.0, "other": 300.0}
#: How long a clause test that is still running at the deadline may go on before the kit
#: interrupts the run (what finished is reported; the run is partial).
RUN_TIMEOUT_GRACE = 30.0


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("adck", "adck conformance kit")
    g.addoption("--adck-draft", metavar="DRAFT[@REV]",
                help="the revision(s) of the collected suite's draft to judge: aiendpoint@01, aiendpoint@00,01, "
                     "aiendpoint@all (default: the newest the suite judges; `adck revisions` lists them)")
    g.addoption("--adck-target", metavar="TARGET",
                help="what to check: builtin, builtin:MUTANT, https://HOST[:PORT], or a document PATH")
    g.addoption("--adck-role", action="append", default=[], metavar="ROLE",
                help="check only this role of the draft (repeatable; default: every role the target has)")
    g.addoption("--adck-clause", action="append", default=[], metavar="ID",
                help="check only this clause (repeatable); used by replay commands")
    g.addoption("--adck-ca-bundle", metavar="PEM", help="trust the CA certificates in this PEM file")
    g.addoption("--adck-connect-to", action="append", default=[], metavar="H1:P1:H2:P2",
                help="connect to H2:P2 instead of H1:P1, keeping the name for Host, SNI and certificate (curl's meaning)")
    g.addoption("--adck-nameserver", action="append", default=[], metavar="HOST[:PORT]",
                help="ask this DNS server (repeatable; default: the system's resolver)")
    g.addoption("--adck-dnssec-anchor", action="append", default=[], metavar="DS",
                help="a DS record anchoring DNSSEC validation of its zone (repeatable)")
    g.addoption("--adck-timeout", type=float, default=Limits.total_timeout, metavar="S",
                help="seconds allowed for one request, body included (default %(default)s)")
    g.addoption("--adck-max-body", type=int, default=Limits.max_body_bytes, metavar="BYTES",
                help="read at most this many body bytes (default %(default)s)")
    g.addoption("--adck-allow-private", action="store_true", default=False,
                help="follow redirects to loopback or private addresses the target did not name "
                     "(by default such a redirect is reported, not fetched)")
    g.addoption("--adck-invoke", action="store_true", default=False,
                help="invoke a live host's agents (may cost money or change state; built-in targets always are)")
    g.addoption("--adck-invoke-budget", type=int, default=None, metavar="N",
                help=f"send at most N invocations in the run (default {DEFAULT_BUDGET})")
    g.addoption("--adck-binding", action="append", default=[], metavar="NAME=PATH",
                help="for a draft with no wire binding of its own (ADP): the path of one operation under the "
                     "target's base, replacing the kit's default (repeatable; `adck targets DRAFT` lists them)")
    g.addoption("--adck-level", default=None, metavar="LEVEL",
                help="for a draft with levels of its own (ADP: D0, D1, D2): the level the target claims; "
                     "the verdict judges the clauses up to it (default: the highest level met)")
    g.addoption("--adck-declare", action="append", default=[], metavar="NAME[=VALUE]",
                help="state a choice the draft leaves to the implementation (local policy, documented behaviour), "
                     "such as adp's strict-validation or aidre's max-top-k=50: the clauses it names accept the "
                     "declared behaviour, and check it (repeatable; `adck targets DRAFT` lists a draft's)")
    g.addoption("--adck-header", action="append", default=[], metavar="'NAME: VALUE'",
                help="send this header (curl's -H form) with every request to the target's origin, and to the "
                     "origins of --adck-header-origin, never elsewhere (repeatable); the value is kept out of "
                     "every report. Prefer --adck-header-env, which keeps it out of argv too")
    g.addoption("--adck-header-env", action="append", default=[], metavar="NAME=ENVVAR",
                help="send header NAME with the value of the environment variable ENVVAR, read at run time "
                     "(repeatable); as --adck-header, but the value never sits in argv or shell history")
    g.addoption("--adck-header-origin", action="append", default=[], metavar="ORIGIN",
                help="also send the --adck-header/--adck-header-env headers to this origin (https://HOST[:PORT]), "
                     "for URLs the target's documents name there (repeatable; default: the target's origin only)")
    g.addoption("--adck-report-dir", default="reports", metavar="DIR", help="where reports are written (default reports/)")
    g.addoption("--adck-format", default="json,junit,md", metavar="LIST",
                help="report formats, comma-separated: json, junit, md, html, badge ('' for none)")
    g.addoption("--adck-seed", type=int, default=None, metavar="N", help="hypothesis seed (default: random, recorded)")
    g.addoption("--adck-world", default="sockets", choices=("sockets", "respx"),
                help="agent role: serve scenarios on loopback sockets (default), or in-process through respx "
                     "for Python clients built on httpx (no sockets; certificate clauses are untestable)")
    g.addoption("--adck-run-timeout", type=float, default=None, metavar="S",
                help=f"seconds allowed for the whole run (default {RUN_TIMEOUT['client']:g} for a client, "
                     f"{RUN_TIMEOUT['other']:g} otherwise); past it the clauses not yet checked are untestable "
                     "and the run is partial")
    g.addoption("--adck-fail-on", default="must", choices=tuple(model.FAIL_ON),
                help="the levels whose failures fail the run (exit 1): must (default), or should (MUST and SHOULD)")
    g.addoption("--adck-baseline", default=None, metavar="FILE",
                help="expected failures (TOML; docs/baselines.md): listed failures do not fail the run, "
                     "the report still shows them, marked expected")
    g.addoption("--adck-replay", default=None, metavar="TEMPLATE",
                help="command that replays one clause, with {clause}; set by the adck CLI")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(id): the catalog clause this test checks (adck)")
    seed = config.getoption("adck_seed")
    hypothesis_seed = getattr(config.option, "hypothesis_seed", None)
    if seed is None:
        seed = int(hypothesis_seed) if hypothesis_seed not in (None, "") else random.randrange(2**32)
    if hasattr(config.option, "hypothesis_seed") and hypothesis_seed in (None, ""):
        config.option.hypothesis_seed = seed
    from conformance.reports.render import FORMATS

    formats = [f.strip() for f in (config.getoption("adck_format") or "").split(",") if f.strip()]
    if set(formats) - set(FORMATS):
        raise pytest.UsageError(f"--adck-format: unknown format(s) {', '.join(sorted(set(formats) - set(FORMATS)))}; "
                                f"choose from {', '.join(FORMATS)}")
    for option, name in (("adck_timeout", "--timeout"), ("adck_max_body", "--max-body"),
                         ("adck_run_timeout", "--run-timeout")):
        value = config.getoption(option)
        if value is not None and not value > 0:  # also catches NaN
            raise pytest.UsageError(f"{name} must be more than 0 (got {value:g})")
    if formats and config.getoption("adck_target"):
        from conformance import preflight

        try:  # created, written and removed again: the run cannot end unable to write its reports
            preflight.check_report_dir(Path(config.getoption("adck_report_dir")))
        except preflight.Refused as exc:
            raise pytest.UsageError(str(exc)) from None
    if config.getoption("adck_target") and getattr(config.option, "numprocesses", None):
        raise pytest.UsageError("run a conformance suite without pytest-xdist (-n): the run fetches each "
                                "resource once and shares it across clauses, which needs one process")
    state = RunState(seed=seed)
    from conformance import credentials, redact

    try:  # read once, now (an env var included), and never shown: refused naming the header, not the value
        state.credentials = credentials.from_options(config.getoption("adck_header"),
                                                     config.getoption("adck_header_env"),
                                                     config.getoption("adck_header_origin"))
    except credentials.CredentialError as exc:
        raise pytest.UsageError(str(exc)) from None
    if state.credentials is not None:
        redact.add_secrets(state.credentials.secrets())  # masked in every text of the run
    if config.getoption("adck_baseline") and config.getoption("adck_target"):
        from conformance.reports import baseline

        try:
            state.baseline = baseline.load(config.getoption("adck_baseline"))
        except baseline.BaselineError as exc:
            raise pytest.UsageError(str(exc)) from None
    config.stash[STATE] = state
    config.pluginmanager.register(_Collector(state), "adck-collector")


def _profile_of(item: pytest.Item) -> catalog.Profile | None:
    short = _suite_of(getattr(getattr(item, "module", None), "__name__", ""))
    return catalog.load(short) if short is not None else None


def _judged_revisions(config: pytest.Config, suite: catalog.Profile, state: "RunState") -> catalog.Profile:
    """The revisions ``--adck-draft`` names (the newest the suite judges without it), each its
    own profile in ``state.judged`` (oldest first); returned: the run's profile, the newest one
    widened by the clauses only older ones hold (:func:`conformance.revisions.run_profile`)."""
    spec = config.getoption("adck_draft") or suite.short
    try:
        short, chosen = revisions.judgeable(spec)
    except catalog.CatalogError as exc:
        raise pytest.UsageError(f"--adck-draft {spec}: {exc}") from None
    if short != suite.short:
        raise pytest.UsageError(f"--adck-draft {spec} names {short}, but the suite collected is {suite.short}'s")
    state.judged = [revisions.profile_of(short, r.name) for r in chosen]
    return revisions.run_profile(short, tuple(r.name for r in chosen))


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under `adck run -v`, pytest's own lines name the suite's files from the suite's root
    (``aiendpoint/test_2_2_access_method.py``), not from the user's folder, from which an
    installed kit is ``../../…/site-packages/conformance/…``: pytest writes paths relative to the
    invocation folder, which the adck CLI (it sets --adck-replay) never chose."""
    import dataclasses

    _COLLECTING.clear()  # what an earlier session left half learnt (interrupted mid-collection) is not this one's
    config = session.config
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if config.getoption("adck_replay") and reporter is not None:
        reporter.startpath = config.rootpath  # the progress lines
        config.invocation_params = dataclasses.replace(config.invocation_params, dir=config.rootpath)  # node ids


#: What this process learnt of each suite module it collected whole: the clauses its tests are
#: bound to, or None when one of its tests is bound to none. A module is its file, whose tests do
#: not change while the process lives.
_MODULE_CLAUSES: dict[str, frozenset[str] | None] = {}
#: The same, for the modules of the collection in progress (kept once it ends without error).
_COLLECTING: dict[str, set[str] | None] = {}


def _would_deselect(config: pytest.Config, short: str, clause: str) -> bool:
    """Whether :func:`pytest_collection_modifyitems` would deselect a test of ``clause`` (of
    ``short``'s suite): a clause no revision judged here holds, or, with ``--adck-role`` given, of
    a role the run does not check."""
    spec = config.getoption("adck_draft", None)
    judged = _run_clauses(spec) if spec else None
    held = _roles_of(short, clause)
    if judged is None or judged[0] != short or not held:  # not a run, or a mistake the run names
        return False
    roles = config.getoption("adck_role", None)
    return clause not in judged[1] or bool(roles and not held & set(roles))


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> list | None:
    """A clause test the run would deselect (:func:`_would_deselect`) is not collected at all.
    ``adck scan`` judges many documents in one process, a run each, and most of a suite's tests
    are of roles a scan does not check: created and dropped each time, their parametrized items
    would be most of a run's time."""
    if not isinstance(collector, pytest.Module) or not callable(obj) or not name.startswith("test"):
        return None
    short = _suite_of(getattr(collector.module, "__name__", ""))
    if short is None:
        return None
    marks = getattr(obj, "pytestmark", None) or []
    clause = next((m.args[0] for m in marks if getattr(m, "name", None) == "clause" and m.args), None)
    key = str(collector.path)
    if clause is None:
        _COLLECTING[key] = None
        return None
    if _COLLECTING.setdefault(key, set()) is not None:
        _COLLECTING[key].add(clause)
    return [] if _would_deselect(collector.config, short, clause) else None


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A suite module this process collected before, every test of which this run would
    deselect, is not collected again (nor its fixtures parsed)."""
    known = _MODULE_CLAUSES.get(str(collection_path))
    spec = config.getoption("adck_draft", None) if known is not None else None
    judged = _run_clauses(spec) if spec else None
    if judged is None or not all(_would_deselect(config, judged[0], c) for c in known):
        return None
    return True


def _learn_collected_modules(session: pytest.Session) -> None:
    if session.testsfailed == 0:  # a collection error may have cut a module's short
        for key, clauses in _COLLECTING.items():
            _MODULE_CLAUSES.setdefault(key, None if clauses is None else frozenset(clauses))
    _COLLECTING.clear()


@functools.lru_cache(maxsize=None)
def _run_clauses(spec: str) -> tuple[str, frozenset[str]] | None:
    """The draft ``--adck-draft`` names and the clauses of the revisions it judges (None: the
    spec is wrong, which :func:`_judged_revisions` says)."""
    try:
        short, chosen = revisions.judgeable(spec)
    except catalog.CatalogError:
        return None
    return short, frozenset(revisions.run_profile(short, tuple(r.name for r in chosen)).clauses)


@functools.lru_cache(maxsize=None)
def _suite_of(module_name: str) -> str | None:
    """The draft whose suite holds the module (its short name), or None."""
    for short in catalog.available():
        if module_name.startswith(catalog.load(short).suite + "."):
            return short
    return None


@functools.lru_cache(maxsize=None)
def _roles_of(short: str, clause_id: str) -> frozenset[str]:
    """The role of ``clause_id`` in every revision of ``short`` that holds it (empty: none does;
    such a test is left to :func:`pytest_collection_modifyitems`, which names the mistake)."""
    return frozenset(revisions.catalog_of(short, r.name).clauses[clause_id].role for r in revisions.revisions(short)
                     if clause_id in revisions.catalog_of(short, r.name).clauses)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    _learn_collected_modules(session)
    bound = [i for i in items if i.get_closest_marker("clause")]
    if not bound:
        return
    state = config.stash[STATE]
    profiles = {p.short: p for p in (_profile_of(i) for i in bound) if p}
    if len(profiles) != 1:
        raise pytest.UsageError("adck runs one draft's suite at a time; collect a single suite "
                                f"(found: {', '.join(sorted(profiles)) or 'tests outside any suite'})")
    profile = _judged_revisions(config, next(iter(profiles.values())), state)
    state.profile = profile
    known = revisions.every_clause(profile.short)
    for item in bound:
        cid = item.get_closest_marker("clause").args[0]
        if cid not in known:
            raise pytest.UsageError(f"{item.nodeid} is bound to {cid!r}, which is in no {profile.short} catalog")
    # a test of a clause no revision judged here holds is not this run's (an -00 sentence -01 dropped)
    foreign = [i for i in items if i.get_closest_marker("clause")
               and i.get_closest_marker("clause").args[0] not in profile.clauses]
    if foreign:
        config.hook.pytest_deselected(items=foreign)
        items[:] = [i for i in items if i not in foreign]
    spec = config.getoption("adck_target")
    if not spec:
        raise pytest.UsageError(
            f"the {profile.short} suite checks a target: pass --adck-target "
            "(builtin, builtin:MUTANT, https://HOST, or a document path)")
    try:
        options = TargetOptions(
            draft=profile.short,
            revision=profile.revision or "",
            roles=tuple(config.getoption("adck_role")),
            ca_bundle=Path(config.getoption("adck_ca_bundle")) if config.getoption("adck_ca_bundle") else None,
            connect_to=tuple(ConnectTo.parse(s) for s in config.getoption("adck_connect_to")),
            nameservers=tuple(DnsConfig.parse_nameserver(s) for s in config.getoption("adck_nameserver")),
            trust_anchors=tuple(DnsConfig.parse_anchor(s) for s in config.getoption("adck_dnssec_anchor")),
            allow_private=bool(config.getoption("adck_allow_private")),
            invoke=bool(config.getoption("adck_invoke")),
            invoke_budget=_budget(config),
            limits=Limits(total_timeout=config.getoption("adck_timeout"),
                          connect_timeout=min(Limits.connect_timeout, config.getoption("adck_timeout")),
                          max_body_bytes=config.getoption("adck_max_body")),
        )
        if options.ca_bundle:
            check_ca_bundle(options.ca_bundle)
        target = resolve(spec, options)
        carried = recording.carried(config.pluginmanager.get_plugins())
        if carried is not None:  # the recorded world of adck scan or adck judge (conformance.recording)
            target.http = dataclasses.replace(target.http, recording=carried)
            if target.dns is not None:
                target.dns = dataclasses.replace(target.dns, recording=carried)
    except (TargetError, ValueError) as exc:
        raise pytest.UsageError(str(exc)) from None
    try:
        if not set(target.roles) & set(profile.roles):
            raise pytest.UsageError(
                f"target {spec!r} is {target.kind!r}-kind, which {profile.short} has no role for "
                f"(its roles: {', '.join(profile.roles)}); `adck targets {profile.short}` lists the kinds it takes")
        roles, wanted = _check_selection(config, profile, target, spec)
        state.binding = binding_of(profile, config.getoption("adck_binding"))
        if profile.binding:
            target.notes.append("HTTP binding assumed (the draft defines none): " + ", ".join(
                f"{name} {path}" for name, path in state.binding.items()))
        level = config.getoption("adck_level")
        names = [name for name, _ in profile.draft_levels]
        if level is not None and level not in names:
            raise pytest.UsageError(
                f"--level {level}: " + (f"{profile.short} defines the levels {', '.join(names)}" if names
                                        else f"{profile.short} defines no conformance levels of its own"))
        if state.baseline is not None:
            from conformance.reports import baseline

            try:
                baseline.check(state.baseline, profile.short, profile.clauses)
            except baseline.BaselineError as exc:
                raise pytest.UsageError(str(exc)) from None
        state.declarations = _declarations(config, profile, target, roles)
        _preflight(config, profile, target, items, roles, wanted)
        if state.credentials is not None:
            state.credentials = state.credentials.bound(target.origin)
            from conformance.credentials import replay_note

            note = replay_note(config.getoption("adck_header"))
            target.notes.append(f"credentials: {', '.join(state.credentials.names())} sent to "
                                + ", ".join(_origins(state.credentials)) + " only" + (f"; {note}" if note else ""))
    except BaseException:  # a usage error, or Ctrl-C: whatever the target started stops
        target.close()
        raise
    state.target, state.roles, state.selected = target, roles, wanted
    if config.stash.get(_LOCK, None) is not None:
        # the run starts: no verdict of an earlier run may stay beside whatever this one leaves
        from conformance.reports.render import clear

        clear(Path(config.getoption("adck_report_dir")))
    left_out = [r for r in target.roles if r in profile.roles and r not in roles]
    if left_out:
        state.partial_reasons.append(f"--role {' --role '.join(roles)}: the target's {', '.join(left_out)} "
                                     f"role{'s were' if len(left_out) > 1 else ' was'} not checked")
    if wanted:
        state.partial_reasons.append(f"--clause: only {', '.join(sorted(wanted))} checked")
    keep, drop = [], []
    for item in items:
        mark = item.get_closest_marker("clause")
        if mark is None:
            keep.append(item)
            continue
        clause = profile.clauses[mark.args[0]]
        # a draft level's defining clause runs beside a selection (unreported): whether the target
        # offers the level decides whether the selected clauses of it count (a replay's verdict)
        witness = wanted and clause.id in profile.draft_levels_offered_by.values()
        (keep if clause.role in roles and (not wanted or clause.id in wanted or witness) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
    state.kept = {i.nodeid for i in keep if i.get_closest_marker("clause")}
    state.profile_clause_of = {i.nodeid: i.get_closest_marker("clause").args[0]
                               for i in keep if i.get_closest_marker("clause")}


def pytest_collection_finish(session: pytest.Session) -> None:
    """Clause tests the kit kept but pytest's own options (-k, -m, --deselect) left out make
    the run partial: its verdict then speaks of the clauses checked, never of the draft."""
    state = session.config.stash.get(STATE, None)
    if state is None or state.profile is None or not state.kept:
        return
    run = {i.nodeid for i in session.items if i.get_closest_marker("clause")}
    state.expected = run
    _start_deadline(session.config, state)
    missing = state.kept - run
    if missing:
        clauses = {state.profile_clause_of.get(n) for n in missing} - {None}
        state.partial_reasons.append(
            f"pytest options (-k, -m, --deselect) left out {len(missing)} clause test"
            f"{'s' if len(missing) != 1 else ''} ({len(clauses)} clause{'s' if len(clauses) != 1 else ''})")


def _start_deadline(config: pytest.Config, state: RunState) -> None:
    """The run's deadline: clause tests not started by then are untestable; a test still
    running well past it is interrupted, so that a hostile target never holds the run."""
    import _thread
    import os
    import signal
    import threading

    client = state.target is not None and state.target.adapter is not None
    seconds = config.getoption("adck_run_timeout") or RUN_TIMEOUT["client" if client else "other"]
    state.run_timeout = seconds
    state.deadline = state.started + seconds
    if client:
        state.target.adapter.deadline = state.deadline  # no harness step waits past it

    def interrupt() -> None:
        if state.report is None and not state.finished:
            # a real signal, so that a wait in the main thread (a socket, a queue) is interrupted
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                os.kill(os.getpid(), signal.SIGINT)
            else:
                _thread.interrupt_main()

    state.watchdog = threading.Timer(max(0.0, state.deadline - time.time()) + RUN_TIMEOUT_GRACE, interrupt)
    state.watchdog.daemon = True
    state.watchdog.start()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    state = item.config.stash.get(STATE, None)
    if state is None or state.deadline is None or item.get_closest_marker("clause") is None:
        return
    if time.time() > state.deadline:
        state.past_deadline += 1
        raise Untestable(msg=f"the run's deadline ({state.run_timeout:g} s, --run-timeout) passed before "
                             "this clause was checked", pytrace=False)


def check_ca_bundle(path: Path) -> None:
    """A --ca-bundle must be a readable PEM file of CA certificates."""
    import ssl

    if not path.is_file():
        raise TargetError(f"--ca-bundle {path}: " + ("is a directory" if path.is_dir() else "no such file"))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TargetError(f"--ca-bundle {path}: cannot read it ({exc.strerror})") from None
    if b"-----BEGIN CERTIFICATE-----" not in data:
        raise TargetError(f"--ca-bundle {path}: not a PEM file of certificates (no BEGIN CERTIFICATE block)")
    try:
        ssl.create_default_context(cafile=str(path))
    except (ssl.SSLError, ValueError) as exc:
        raise TargetError(f"--ca-bundle {path}: its certificates do not load ({exc})") from None


def _check_selection(config: pytest.Config, profile: catalog.Profile, target: Target,
                     spec: str) -> tuple[list[str], set[str]]:
    """The roles and clauses the user selected, checked against the draft and the target."""
    roles = config.getoption("adck_role") or list(target.roles)
    for role in roles:
        if role not in profile.roles:
            raise pytest.UsageError(f"{role!r} is not a role of {profile.short} (roles: {', '.join(profile.roles)})")
        if role not in target.roles:
            raise pytest.UsageError(f"target {spec!r} cannot be checked in the {role} role "
                                    f"(it can be: {', '.join(target.roles)})")
    wanted = set(config.getoption("adck_clause"))
    unknown = wanted - profile.clauses.keys()
    elsewhere = {cid: r for cid in unknown for r in [revisions.holding(profile.short, cid)] if r is not None}
    if elsewhere:  # a sentence of a revision this run does not judge (AIE-2.1-03 is -00's)
        cid, held = sorted(elsewhere.items())[0]
        raise pytest.UsageError(f"--clause {cid}: a clause of {held.label}, which this run ({profile.label}) does not "
                                f"judge; run {held.label} (or {profile.short}@all)")
    if unknown:
        raise pytest.UsageError(f"unknown clause(s) {', '.join(sorted(unknown))}; see `adck clauses {profile.short}`")
    from conformance import preflight

    refusal = preflight.clause_refusal(profile, target, roles, bool(config.getoption("adck_role")), wanted)
    if refusal:  # it would check nothing
        raise pytest.UsageError(refusal)
    return roles, wanted


def _declarations(config: pytest.Config, profile: catalog.Profile, target: Target, roles: list[str]) -> list[dict]:
    """The run's declarations (``--adck-declare``, a built-in variant's own), checked against the
    draft and the roles checked; those the variant made are said in the target's notes."""
    from conformance import preflight

    try:
        found = preflight.declarations(profile, target, roles, config.getoption("adck_declare"))
    except preflight.Refused as exc:
        raise pytest.UsageError(str(exc)) from None
    own = [d["shown"] for d in found if d["by"] != "--declare"]
    if own:
        target.notes.append(f"declared by the built-in variant itself (as --declare would): {', '.join(own)}")
    return found


#: The report folder this run holds (``conformance.preflight.lock_report_dir``), until unconfigure.
_LOCK = pytest.StashKey[Any]()


def _budget(config: pytest.Config) -> int:
    """--adck-invoke-budget, or the default (None when not given: an option that does not apply
    to the run is refused only when the user gave it)."""
    value = config.getoption("adck_invoke_budget")
    return DEFAULT_BUDGET if value is None else value


def _preflight(config: pytest.Config, profile: catalog.Profile, target: Target, items: list[pytest.Item],
               roles: list[str], wanted: set[str]) -> None:
    """The last checks before the run starts (``conformance.preflight``): every option given
    applies to this draft and target, what it needs is installed, and the report folder is
    this run's (held until the reports are written)."""
    from conformance import preflight

    used: set[str] = set()  # the fixtures the clause tests about to run use
    for item in items:
        mark = item.get_closest_marker("clause")
        if mark is not None and profile.clauses[mark.args[0]].role in roles and (not wanted or mark.args[0] in wanted):
            used.update(getattr(item, "fixturenames", ()))
    refusal = preflight.option_refusal(profile, target, config.getoption, used)
    if refusal:
        raise pytest.UsageError(refusal)
    # a 401 or 403 to a request sent without credentials is "needs credentials" where they could be given
    config.stash[STATE].credentials_apply = preflight.credentials_apply(profile, target, used)
    # a failure on a 429 answered to the kit's own requests is "rate-limited", never failed
    config.stash[STATE].rate_limits_apply = preflight.target_class(target) in ("origin", "builtin") \
        and target.adapter is None
    config.stash[STATE].recorded = target.http.recording is not None or (
        target.dns is not None and target.dns.recording is not None)
    try:
        world = config.getoption("adck_world")
        if world in preflight.WORLD_NEEDS:
            preflight.require(preflight.WORLD_NEEDS[world], f"--world {world}")
        if [f for f in (config.getoption("adck_format") or "").split(",") if f.strip()]:
            config.stash[_LOCK] = preflight.lock_report_dir(Path(config.getoption("adck_report_dir")))
    except preflight.Refused as exc:
        raise pytest.UsageError(str(exc)) from None


def _origins(given: Any) -> list[str]:
    from conformance.credentials import show_origin

    return [show_origin(o) for o in given.origins]


def pytest_unconfigure(config: pytest.Config) -> None:
    """The reports are written: the report folder is free for another run, and the run's
    secrets are forgotten (every report of the run was masked of them)."""
    state = config.stash.get(STATE, None)
    if state is not None and state.credentials is not None:
        from conformance import redact

        redact.clear_secrets()
    lock = config.stash.get(_LOCK, None)
    if lock is not None:
        lock.release()
        del config.stash[_LOCK]


@pytest.fixture(scope="session")
def adck_target(request: pytest.FixtureRequest) -> Target:
    """The target under test, resolved once per session."""
    target = request.config.stash[STATE].target
    if target is None:
        raise pytest.UsageError("no --adck-target")
    return target


@pytest.fixture(scope="session")
def adck_seed(request: pytest.FixtureRequest) -> int:
    """The run's seed: hypothesis inside clause tests uses it (``@seed``), so a report's seed
    and its replay command reproduce every generated example."""
    return request.config.stash[STATE].seed


@pytest.fixture(scope="session")
def adck_adapter(adck_target: Target):
    """The harness adapter of a client target (agent role)."""
    if adck_target.adapter is None:
        raise pytest.UsageError("agent-role tests need a client target (builtin, python:..., cmd:...)")
    return adck_target.adapter


@pytest.fixture(scope="session")
def scenario_world(request: pytest.FixtureRequest):
    """The loopback world where the kit plays the server for the client under test."""
    from conformance.world.scenarios import ScenarioWorld

    world = ScenarioWorld(request.config.getoption("adck_world"))
    request.config.stash[STATE].world = world
    yield world
    world.stop()


@pytest.fixture(scope="session")
def scenario_dns(request: pytest.FixtureRequest):
    """The mock DNS server where the kit publishes the scenarios' records for a client under
    test (AID); it stops with the session."""
    from conformance.world.dns import MockDNS

    server = MockDNS()
    request.config.stash[STATE].scenario_dns = server
    yield server
    server.stop()


@pytest.fixture
def adck_dns():
    """A mock DNS server on loopback (UDP and TCP, one port) for the zones a test adds; it
    stops when the test ends. See :class:`conformance.world.dns.MockDNS`."""
    from conformance.world.dns import MockDNS

    server = MockDNS()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def adck_resolver(request: pytest.FixtureRequest, adck_target: Target):
    """The session's one DNS resolver (counted like the fetcher's requests)."""
    from conformance.dns import Resolver

    state = request.config.stash[STATE]
    if state.resolver is None:
        state.resolver = Resolver(adck_target.dns or DnsConfig())
    return state.resolver


@pytest.fixture(scope="session")
def adck_fetcher(request: pytest.FixtureRequest, adck_target: Target) -> Fetcher:
    """The session's one fetcher: every request of the run goes through it and is counted."""
    state = request.config.stash[STATE]
    if state.fetcher is None:
        from dataclasses import replace

        # the user's credentials, for the origins they named only (conformance.credentials)
        state.fetcher = Fetcher(replace(adck_target.http, credentials=state.credentials))
        state.fetcher.named_host = named_host(adck_target)
    return state.fetcher


def named_host(target: Target) -> str | None:
    """The host the user named (an origin's, a DNS provider's domain): the one host a URL
    taken from the target may reach when it is loopback or private (Fetcher.named_host)."""
    import httpx

    if target.origin:
        return httpx.URL(target.origin).host
    return target.domain.rstrip(".").lower() if target.domain else None


def binding_of(profile: catalog.Profile, overrides: list[str]) -> dict[str, str]:
    """The draft's binding (``[binding]`` of its profile) with the user's ``NAME=PATH`` overrides;
    a usage error names what is wrong."""
    binding = dict(profile.binding)
    for item in overrides:
        name, sep, path = item.partition("=")
        if not profile.binding:
            raise pytest.UsageError(f"--binding {item}: {profile.short} has a wire binding of its own; nothing to override")
        if not sep or name not in binding:
            raise pytest.UsageError(f"--binding {item}: expected NAME=PATH with NAME one of {', '.join(binding)}")
        if not path.startswith("/") or any(c in path for c in " ?#\r\n"):
            raise pytest.UsageError(f"--binding {item}: PATH is an absolute path under the target's base, such as /v1/discover")
        for placeholder in ("{id}",):
            if placeholder in profile.binding[name] and placeholder not in path:
                raise pytest.UsageError(f"--binding {item}: the path of {name} must hold {placeholder}")
        binding[name] = path
    return binding


@pytest.fixture(scope="session")
def adck_binding(request: pytest.FixtureRequest) -> dict[str, str]:
    """The HTTP binding of a draft that defines none (ADP), with the user's overrides."""
    return dict(request.config.stash[STATE].binding)


@pytest.fixture(scope="session")
def adck_declarations(request: pytest.FixtureRequest) -> dict[str, Any]:
    """The choices the run declares the target made (``--declare NAME[=VALUE]``, and a built-in
    variant's own): name -> value (True for a flag, an int, an enum's string). A clause test
    that a declaration names judges the declared behaviour when it is here, its default
    reading otherwise."""
    return {d["name"]: d["value"] for d in request.config.stash[STATE].declarations}


@pytest.fixture(scope="session")
def adck_invoker(request: pytest.FixtureRequest, adck_target: Target, adck_fetcher: Fetcher) -> Invoker:
    """The session's invocations of the target's agents: opt-in for live targets, budgeted."""
    import httpx

    budget = _budget(request.config)
    host = httpx.URL(adck_target.origin).host if adck_target.origin else None
    return Invoker(adck_fetcher, allowed=adck_target.invoke, budget=budget, named_host=host)


def _classify(call: pytest.CallInfo) -> tuple[str, str]:
    if call.excinfo is None:
        return "pass", ""
    exc = call.excinfo.value
    if isinstance(exc, Untestable):
        return "untestable", exc.msg.removeprefix("untestable: ")
    if isinstance(exc, NotApplicable):
        return "not-applicable", exc.msg.removeprefix("not applicable: ")
    if isinstance(exc, pytest.skip.Exception):
        return "untestable", str(exc.msg)
    if isinstance(exc, (ClauseViolation, AssertionError)):
        return "fail", str(exc) or "assertion failed"
    from conformance.harness.adapters import AdapterError

    if isinstance(exc, AdapterError):
        return "error", f"{model.ADAPTER_ERROR}: {exc}"
    from conformance.outcomes import NotJudged

    if isinstance(exc, NotJudged):
        return "error", f"{model.NOT_JUDGED}{exc}"
    return "error", f"the kit could not evaluate this clause: {type(exc).__name__}: {exc}"


def _evidence(item: pytest.Item) -> list[dict[str, Any]]:
    seen: set[int] = set()
    out = []
    state = item.config.stash.get(STATE, None)
    adapter = state.target.adapter if state is not None and state.target is not None else None
    asker = adapter.dns_asker() if adapter is not None else None  # who sent the client's DNS queries
    for value in getattr(item, "funcargs", {}).values():
        getter = getattr(value, "evidence", None)
        if not callable(getter):
            continue
        for ex in getter():
            if id(ex) not in seen:
                seen.add(id(ex))
                out.append(model.evidence_item(ex, dns_asker=asker))
    return out


def _exchanges(item: pytest.Item):
    """The HTTP exchanges a test looked at (its fixtures' evidence), as the fetcher kept them."""
    for value in getattr(item, "funcargs", {}).values():
        getter = getattr(value, "evidence", None)
        if callable(getter):
            try:
                yield from getter()
            except Exception:  # noqa: BLE001 - evidence is shown, never judged
                return


def _needs_credentials(item: pytest.Item, state: RunState, outcome: str, message: str,
                       evidence: list[dict[str, Any]], own: bool) -> tuple[str, str, list[dict[str, Any]]]:
    """The one place the rule of :mod:`conformance.credentials` is applied: a clause whose test
    looked at a 401 or 403 answered to a request sent without credentials (that the user could
    have given for its origin) could not be judged: *untestable*, ``needs credentials
    (--header)``, whether the test passed, failed on that answer, or stopped on it. A failure
    whose own evidence (the failing cases) holds no such answer stands; so does every 401 or 403
    answered *with* the user's credentials (the service's own answer), and one to a request the
    test sent without them on purpose (it judges the unauthenticated answer)."""
    from conformance import credentials

    if outcome not in ("pass", "fail", "untestable") or message.startswith(credentials.NEEDS):
        return outcome, message, evidence
    from conformance.outcomes import NARROWED

    if outcome == "untestable" and message.startswith(NARROWED):
        return outcome, message, evidence
    if not own:  # cheap first: a passing test's evidence is rendered only when it holds such an answer
        if not any(getattr(ex, "status", None) in credentials.STATUSES and not getattr(ex, "credentials", "x")
                   for ex in _exchanges(item)):
            return outcome, message, evidence
        if outcome == "pass":
            evidence = _evidence(item)
    refused = credentials.refused_for_want(evidence)
    if refused is None:
        return outcome, message, [] if outcome == "pass" else evidence
    return "untestable", credentials.reason(refused, state.credentials), evidence


def _rate_limited(item: pytest.Item, outcome: str, message: str,
                  evidence: list[dict[str, Any]]) -> tuple[str, str, list[dict[str, Any]]]:
    """A clause whose evidence holds a 429 the target answered to the kit's requests could not
    be judged: the kit caused that refusal by how much it asked (AIDRE 21.1, "Servers MAY apply
    rate limiting"; any server may). A failure is judged on its failing cases' evidence (else
    every exchange of the test); a pass on every exchange of the test, since a 429 may have
    stood where the answer to judge should have been: a MUST seen through one is never counted
    as passed. The clauses about rate limiting themselves are bound with ``judges_rate_limits``
    and keep their verdict."""
    from conformance.outcomes import RATE_LIMITED

    if outcome == "pass":
        if not any(getattr(ex, "status", None) == 429 for ex in _exchanges(item)):
            return outcome, message, evidence
        evidence = _evidence(item)
    for ev in evidence:
        request, response = ev.get("request"), ev.get("response")
        if isinstance(request, dict) and isinstance(response, dict) and response.get("status") == 429:
            headers = response.get("headers") or []
            pairs = headers.items() if isinstance(headers, dict) else headers
            after = next((str(p[1]) for p in pairs if len(p) == 2 and str(p[0]).lower() == "retry-after"), None)
            what = {"fail": f"What failed on it: {message}", "pass": "The answers it had passed.",
                    "untestable": f"Then: {message}"}[outcome]
            return "untestable", (f"{RATE_LIMITED}{request.get('method', '?')} {request.get('url', '?')} was answered "
                                  f"429 Too Many Requests{f' (Retry-After: {after})' if after else ''}, so the kit "
                                  f"could not judge the clause; run again later, or fewer clauses (--clause). {what}"), \
                evidence
    return outcome, message, [] if outcome == "pass" else evidence


def _not_recorded(item: pytest.Item, outcome: str, message: str,
                  evidence: list[dict[str, Any]]) -> tuple[str, str, list[dict[str, Any]]]:
    """A clause whose test looked at a request the recorded world refused (a probe a scan did not
    send, a method or host a scan does not ask: :mod:`conformance.recording`) is *not checked*:
    untestable, narrowed, whatever the test concluded, since its answer stood where the answer
    to judge should have been. Never a pass."""
    from conformance.outcomes import NARROWED

    if outcome not in ("pass", "fail", "untestable") or (outcome == "untestable" and message.startswith(NARROWED)):
        return outcome, message, evidence
    refused = next((r for r in map(recording.refusal, _exchanges(item)) if r is not None), None)
    if refused is None:
        return outcome, message, evidence
    return "untestable", f"{NARROWED}{refused[1]}", evidence if outcome != "pass" else _evidence(item)


def format_failure(clause: catalog.Clause, message: str, evidence: list[dict[str, Any]]) -> str:
    """What a person reads for a failing clause: id, section, level, the quote, the observation."""
    from conformance.reports.safe import text as safe

    from conformance.reports.quotes import display

    lines = [f"{clause.id} (§{clause.section}, {clause.keyword}, {clause.role})",
             f'  the draft: "{display(clause.text, clause.section, clause.lead)}"',
             f"  observed:  {safe(message)}"]
    for ev in evidence[-4:]:
        lines.append(f"  evidence:  {safe(model.evidence_line(ev))}")
    return "\n".join(lines)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """While a clause test runs, :func:`conformance.outcomes.each_case` may ask for its evidence
    so far, to keep apart the exchanges of the cases that failed from those that passed."""
    from conformance import outcomes

    if item.get_closest_marker("clause") is None:
        return (yield)
    token = outcomes.EVIDENCE_PROBE.set(lambda: _evidence(item))
    try:
        return (yield)
    finally:
        outcomes.EVIDENCE_PROBE.reset(token)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    mark = item.get_closest_marker("clause")
    state = item.config.stash.get(STATE, None)
    if mark is None or state is None or state.profile is None or call.when == "teardown":
        return report
    if call.when == "setup" and call.excinfo is None:
        return report  # the call phase decides
    outcome, message = _classify(call)
    if call.when == "setup" and outcome == "fail":
        outcome = "error"
    raised = call.excinfo.value if call.excinfo is not None else None
    # a failure shows the exchanges of the case(s) that failed when the test kept them apart
    # (each_case does), else every exchange of the test
    own = raised.evidence if outcome == "fail" and isinstance(raised, ClauseViolation) else None
    try:
        evidence = own if own else _evidence(item) if outcome != "pass" else []
    except Exception as exc:  # noqa: BLE001 - hostile bytes must not crash the run
        evidence = [{"request": {"method": "?", "url": "?", "headers": {}},
                     "error": {"kind": "evidence", "detail": f"the kit could not render the evidence: {exc!r}"}}]
    if state.recorded:
        outcome, message, evidence = _not_recorded(item, outcome, message, evidence)
    if state.credentials_apply:
        outcome, message, evidence = _needs_credentials(item, state, outcome, message, evidence, bool(own))
    if state.rate_limits_apply and outcome in ("pass", "fail", "untestable") and not mark.kwargs.get("judges_rate_limits") \
            and not (outcome == "untestable" and model.untestable_reason(message) != "prerequisite"):
        outcome, message, evidence = _rate_limited(item, outcome, message, evidence)
    module = getattr(item, "module", None)
    name = f"{module.__name__.rsplit('.', 1)[-1]}::{item.name}" if module else item.nodeid
    readings = list(raised.readings) if outcome == "fail" and isinstance(raised, ClauseViolation) else []
    data = model.TestOutcome(nodeid=name, clause=mark.args[0], outcome=outcome, message=message,
                             evidence=evidence, duration=call.duration, readings=readings)
    report.user_properties.append(("adck", asdict(data)))
    # a failure, or a client's adapter that broke the protocol, reads as the clause and what was
    # seen, not as a traceback through the kit's files; a kit bug keeps its traceback
    if outcome == "fail" or (outcome == "error" and message.startswith((model.ADAPTER_ERROR, model.NOT_JUDGED))):
        report.longrepr = format_failure(state.profile.clauses[mark.args[0]], message, evidence)
    return report


class _Collector:
    """Reads clause outcomes from test reports (on the controller, also under xdist)."""

    def __init__(self, state: RunState) -> None:
        self.state = state

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for key, value in report.user_properties:
            if key == "adck":
                self.state.outcomes[report.nodeid] = model.TestOutcome(**value)


def _target_info(state: RunState) -> dict[str, Any]:
    target = state.target
    assert target is not None
    info: dict[str, Any] = {"spec": target.spec, "kind": target.kind, "description": target.description,
                            "notes": list(target.notes), "declarations": [dict(d) for d in state.declarations]}
    if state.resolver is not None:
        info["dns_queries"] = state.resolver.queries_sent
    if target.adapter is not None:
        from conformance.harness import PROTOCOL

        info["adapter"] = {"spec": target.adapter.spec, "protocol": PROTOCOL, "client": target.adapter.client,
                           "operations": list(target.adapter.operations), "steps": len(target.adapter.steps),
                           "client_requests": state.world.request_count() if state.world else 0}
        if target.adapter.features:
            info["adapter"]["features"] = list(target.adapter.features)
        if state.scenario_dns is not None:
            info["adapter"]["client_dns_queries"] = len(state.scenario_dns.log)
    return info


def _replay_template(config: pytest.Config, state: RunState) -> str:
    template = config.getoption("adck_replay")
    if template:
        return template
    assert state.profile and state.target
    # the revisions judged, named: the replay judges the same text when a newer one becomes the default
    names = ",".join(p.revision for p in state.judged)
    draft = [f"{state.profile.short}@{names}"] if names else []
    parts = ["pytest", "--pyargs", state.profile.suite, *(["--adck-draft", *draft] if draft else []),
             "--adck-target", state.target.spec]
    if config.getoption("adck_ca_bundle"):
        parts += ["--adck-ca-bundle", config.getoption("adck_ca_bundle")]
    for c in config.getoption("adck_connect_to"):
        parts += ["--adck-connect-to", c]
    for n in config.getoption("adck_nameserver"):
        parts += ["--adck-nameserver", n]
    for a in config.getoption("adck_dnssec_anchor"):
        parts += ["--adck-dnssec-anchor", a]
    from conformance.credentials import replay_flags

    # the credentials' options without their values (an env var named, a -H value a placeholder)
    parts += replay_flags(config.getoption("adck_header"), config.getoption("adck_header_env"),
                          config.getoption("adck_header_origin"), pytest_route=True)
    for d in config.getoption("adck_declare"):
        parts += ["--adck-declare", d]
    parts += ["--adck-seed", str(state.seed)]
    return shlex.join(parts) + " --adck-clause {clause}"


#: Where the replay template takes the clause id: its end (``… --clause {clause}``).
_CLAUSE_SLOT = "{clause}"


def _replay_for(template: str, clause: str | None) -> str:
    """The replay command of one clause (or, with None, of the whole run). Only the slot at the
    template's end is filled: braces anywhere else (``--binding 'agent=/agents/{id}'``, a
    ``cmd:`` target) are the user's data, never a format field."""
    head = template.removesuffix(_CLAUSE_SLOT)
    if head == template:  # a template without the slot replays the run as given
        return template
    if clause is None:
        return head.rstrip().removesuffix("--adck-clause").removesuffix("--clause").rstrip()
    return head + shlex.quote(clause)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    state = config.stash.get(STATE, None)
    if state is None or state.profile is None or state.target is None:
        return
    # a run pytest could not finish (internal error, interrupt) is reported, but never as conformant
    completed = exitstatus not in (pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.INTERRUPTED)
    if not completed:
        state.target.notes.append(f"the run did not complete (pytest exit status {int(exitstatus)}): "
                                  "this report is partial and is no verdict of conformance")
    state.finished = True
    if state.watchdog is not None:
        state.watchdog.cancel()
    if state.past_deadline:
        state.partial_reasons.append(
            f"the run's deadline ({state.run_timeout:g} s, --run-timeout) passed: {state.past_deadline} clause "
            f"test{'s' if state.past_deadline != 1 else ''} did not start (each is untestable, named in the results)")
    elif not completed and state.deadline is not None and time.time() > state.deadline:
        state.partial_reasons.append(f"the run's deadline ({state.run_timeout:g} s, --run-timeout) passed while a "
                                     "clause was being checked: the kit interrupted the run")
    not_run = state.expected - state.outcomes.keys()
    if not_run and completed:
        state.partial_reasons.append(f"{len(not_run)} clause test{'s' if len(not_run) != 1 else ''} did not run "
                                     "(the run stopped early: -x, --maxfail or an interrupt)")
    try:
        template = _replay_template(config, state)
        outcomes = list(state.outcomes.values())
        replay = {o.clause: _replay_for(template, o.clause) for o in outcomes}
        # state.judged is set with state.profile (_judged_revisions): one profile per revision named
        verdicts = [_judge(config, state, p, outcomes, replay, completed) for p in state.judged]
        newest, (results, summary, levels, baseline_section) = state.judged[-1], verdicts[-1]
        coverage = newest.coverage()
        in_roles = [c for c in coverage.values() if c.clause.role in state.roles]
        report = model.Report(
            kit={"name": "adck", "version": __version__},
            draft={"short": newest.short, "id": newest.draft, "title": newest.title,
                   "revision": newest.revision, "label": newest.label},
            target=_target_info(state),
            roles=list(state.roles),
            seed=state.seed,
            requests_sent=state.fetcher.requests_sent if state.fetcher else 0,
            started_at=_dt.datetime.fromtimestamp(state.started, _dt.timezone.utc).isoformat(timespec="seconds"),
            duration_s=round(time.time() - state.started, 3),
            command=_replay_for(template, None),
            summary=summary,
            results=model.not_offered(results, summary.draft_levels, levels),
            coverage={s: sum(1 for c in in_roles if c.status == s)
                      for s in ("tested", "untestable", "optional", "untested")},
            ambiguities=[{"id": a.id, "title": a.title, "interpretation": a.interpretation,
                          "clauses": list(a.clauses)} for a in newest.ambiguities],
            baseline=baseline_section,
            revisions=model.revision_verdicts(state.judged, verdicts) if len(state.judged) > 1 else [],
        )
        # every string may come from the target: valid, controls stripped, redacted, capped
        from conformance.reports.safe import sanitize

        state.report = sanitize(report)
        formats = [f.strip() for f in config.getoption("adck_format").split(",") if f.strip()]
        if formats:
            from conformance.reports import render

            state.written = render.write(state.report, Path(config.getoption("adck_report_dir")), formats)
    finally:
        if state.fetcher:
            state.fetcher.close()
        state.target.close()


def _untested(state: RunState, profile: catalog.Profile) -> list[str]:
    """Why a revision whose suite is not complete yet cannot be judged whole: its MUST and SHOULD
    clauses of the checked roles that no test of the kit checks (catalogued, not untestable).
    Such a clause is never counted as met: the run is partial, never conformant for lack of a test."""
    missing = [cid for cid, cov in profile.coverage().items()
               if cov.status == "untested" and cov.clause.level in ("MUST", "SHOULD")
               and cov.clause.role in state.roles and (not state.selected or cid in state.selected)]
    if not missing:
        return []
    return [f"{len(missing)} MUST or SHOULD clause{'s' if len(missing) != 1 else ''} of {profile.label} in the "
            f"roles checked {'have' if len(missing) != 1 else 'has'} no test in this kit yet "
            f"({', '.join(missing[:5])}{', …' if len(missing) > 5 else ''}): not judged, never counted as met"]


def _judge(config: pytest.Config, state: RunState, profile: catalog.Profile, outcomes: list, replay: dict[str, str],
           completed: bool) -> tuple[list, model.Summary, tuple, dict | None]:
    """One revision's verdict from the run's outcomes: its results (its own clauses, sections and
    readings), summary, draft levels and baseline section."""
    results = model.build_results(profile, state.roles, outcomes, replay, state.selected or None)
    waived, baseline_section = set(), None
    if state.baseline is not None:
        from conformance.reports import baseline

        today = _dt.datetime.fromtimestamp(state.started, _dt.UTC).date()
        waived, baseline_section = baseline.apply(state.baseline, results, today)
    levels = profile.server_draft_levels()
    # the level rows a --clause selection ran beside it, unreported (a whole run reports them)
    rows = set(profile.draft_levels_offered_by.values()) - state.selected if state.selected else set()
    witnessed = [r for r in model.build_results(profile, state.roles, [o for o in outcomes if o.clause in rows], {}, None)
                 if r.clause in rows]
    summary = model.summarize(results, completed=completed, partial_reasons=state.partial_reasons + _untested(state, profile),
                              draft_levels=levels, offered_by=profile.draft_levels_offered_by, witnessed=witnessed,
                              declared_level=config.getoption("adck_level"),
                              fail_on=config.getoption("adck_fail_on"), waived=waived)
    return results, summary, levels, baseline_section


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(STATE, None)
    if state is None or state.report is None or config.getoption("adck_replay"):
        return  # the adck CLI prints its own summary
    from conformance.reports import terminal

    # the same words as `adck run` ends with (the failures are in pytest's FAILURES block above)
    report = state.report
    tr = terminalreporter
    tr.section("adck verdict")
    tr.write_line(f"target: {terminal.line(report.target['description'])}")
    if terminal.declared(report):
        tr.write_line(terminal.line(terminal.declared(report)))
    if report.summary.partial or report.revisions:
        tr.write_line(terminal.line(terminal.headline(report)))
    tr.write_line(terminal.line(terminal.verdict_line(report)))
    for note in terminal.notes(report):
        tr.write_line(note)
    from conformance.reports import baseline

    for line in baseline.lines(report):
        tr.write_line(terminal.line(line))
    for path in state.written:
        tr.write_line(f"report: {terminal.line(path)}")
