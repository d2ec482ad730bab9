"""Shared fixtures of the kit's own tests (the self-tests)."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the properties with a fixed derandomized seed (a red build is then always a change in
# the code, never a new corner found by chance); a developer's run explores with random seeds.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

from conformance import api, resources


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--mutants", action="store_true",
        help="run the whole variant matrix: every built-in broken variant against its clause, every "
             "conforming variant, every named generated break (CI does; without it, the first case of "
             "each such test runs, so every role's variant machinery is still exercised)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ``--mutants``, keep the first case of each test marked ``mutants`` and deselect
    the others. The matrix (about 1,500 runs of a suite) is the proof that each clause test can
    fail; it takes most of the self-tests' time, so the everyday loop samples it and CI runs it
    whole (``.ci/run``). Deselected, not skipped: a skip would read as a test that did not hold."""
    if config.getoption("--mutants"):
        return
    seen: set[tuple[str, str]] = set()
    keep, drop = [], []
    for item in items:
        key = (str(item.path), getattr(item, "originalname", item.name))
        if item.get_closest_marker("mutants") is not None and key in seen:
            drop.append(item)
        else:
            keep.append(item)
        seen.add(key)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


#: Words every skip for a missing input carries (:func:`absent`): the session's last lines count them.
ABSENT = "not on this machine: "


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Where the self-tests found the inputs the project does not carry (or that they are missing)."""
    found = {"drafts ($ADCK_SPECS)": resources.specs_dir(), "corpora ($ADCK_CORPORA)": resources.corpora_dir(),
             "wheelhouse ($ADCK_WHEELHOUSE)": os.environ.get("ADCK_WHEELHOUSE")}
    return ["adck inputs: " + "; ".join(f"{k}: {v or 'MISSING'}" for k, v in found.items())]


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Self-tests skipped because an input is missing are never silent: their count and the
    reason (with the fix) close the session, in a section of its own."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        text = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if ABSENT in text:
            why = text.split(ABSENT, 1)[1]
            reasons[why] = reasons.get(why, 0) + 1
    if reasons:
        total = sum(reasons.values())
        terminalreporter.section(f"{total} self-test{'s' if total != 1 else ''} did not run: inputs are missing",
                                 sep="!", yellow=True, bold=True)
        for why, count in reasons.items():
            terminalreporter.write_line(f"{count} skipped: {why}", yellow=True)


def absent(what: str) -> None:
    """Skip a self-test whose input is not on this machine; under CI (``$CI`` set), fail instead:
    a CI run that silently skipped the catalog or corpus checks would pass for the wrong reason."""
    __tracebackhide__ = True
    if os.environ.get("CI"):
        pytest.fail(f"{what} (CI is set, so this fails instead of skipping: set $ADCK_SPECS and "
                    "$ADCK_CORPORA, or put shared/ beside the checkout)", pytrace=False)
    pytest.skip(ABSENT + what)


@pytest.fixture(scope="session")
def specs_dir() -> Path:
    """The drafts' texts (../shared/specs or $ADCK_SPECS)."""
    folder = resources.specs_dir()
    if folder is None:
        absent("the drafts' texts (../shared/specs or $ADCK_SPECS) are not here")
    return folder


@pytest.fixture(scope="session")
def corpora_dir() -> Path:
    """The authors' real documents (../shared/corpora or $ADCK_CORPORA)."""
    folder = resources.corpora_dir()
    if folder is None:
        absent("the authors' corpora (../shared/corpora or $ADCK_CORPORA) are not here")
    return folder


#: The environment variable the self-tests give the built-in variants' token in (``ADCK_TEST_TOKEN
#: = "Bearer <conformance.world.site.TEST_TOKEN>"``), named with ``--header-env``.
TOKEN_ENV = "ADCK_TEST_TOKEN"


def wants_token(draft: str, target: str) -> bool:
    """Is ``target`` a built-in variant that requires the kit's test token (``credentials = true``
    in its fixture file: its variant matrix runs it with the token)?"""
    return token_origins(draft, target) is not None


def token_origins(draft: str, target: str) -> tuple[str, ...] | None:
    """The other origins the test token goes to for ``target`` (its ``header_origins``: the
    self-tests pass them with ``--header-origin``), or None when it requires no token."""
    if not target.startswith("builtin:"):
        return None
    from conformance.world.site import load_mutants

    name, draft = target.partition(":")[2], draft.partition("@")[0]
    variant = load_mutants(draft).get(name) or load_mutants(draft, "conforming").get(name)
    return variant.header_origins if variant and variant.credentials else None


@contextlib.contextmanager
def token_in_env(value: str | None = None):
    """``$ADCK_TEST_TOKEN`` set to ``Bearer <the built-in variants' token>`` (or ``value``) for the block."""
    from conformance.world.site import TEST_TOKEN

    before = os.environ.get(TOKEN_ENV)
    os.environ[TOKEN_ENV] = value if value is not None else f"Bearer {TEST_TOKEN}"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(TOKEN_ENV, None)
        else:
            os.environ[TOKEN_ENV] = before


def quiet_run(*args, credentials: bool | None = None, **kwargs) -> api.RunResult:
    """Run a suite in-process with its pytest output swallowed. A built-in variant that requires
    the kit's test token (:func:`wants_token`) is given it, as a user would, with
    ``--header-env Authorization=ADCK_TEST_TOKEN``, unless ``credentials=False`` (or the call
    gives headers of its own)."""
    kwargs.setdefault("report_dir", None)
    if credentials is None:
        credentials = len(args) >= 2 and wants_token(args[0], args[1])
    env = contextlib.nullcontext()
    if credentials and not kwargs.get("headers") and not kwargs.get("header_env"):
        kwargs["header_env"] = [f"Authorization={TOKEN_ENV}"]
        kwargs.setdefault("header_origins", list((token_origins(args[0], args[1]) if len(args) >= 2 else None) or ()))
        env = token_in_env()
    with env, contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return api.run(*args, **kwargs)


def failing(report) -> set[str]:
    """The clauses a report failed or could not evaluate (``Report.failing()``), by id."""
    return {r.clause for r in report.failing()}


def outcomes(report) -> dict[str, str]:
    """Clause id -> outcome of a report."""
    return {r.clause: r.outcome for r in report.results}


def every_revision(draft: str):
    """The draft's profile widened to the clauses of every revision the suite judges: what a
    variant of the draft may name (each is run under the revision of its clause, ``judged_as``)."""
    from conformance import revisions

    return revisions.judged_profile(draft)


def assert_broken_client_fails_exactly_its_clause(draft: str, name: str, role: str) -> None:
    """``builtin:NAME`` in the client role fails its clause (and its declared also_fails) and
    nothing else, exits as its clause's level says, and shows the harness step that failed."""
    __tracebackhide__ = True
    from conformance import catalog
    from conformance.world.site import load_mutants

    profile = every_revision(draft)
    assert profile.client is not None
    # the draft's file of broken clients, split by topic (client-mutants-*.toml): every revision's
    mutant = load_mutants(draft, file=catalog.load(draft).client.mutants)[name]
    result = quiet_run(mutant.judged_as(draft), f"builtin:{name}", roles=[role])
    report = result.report
    assert failing(report) == {mutant.clause} | set(mutant.also_fails), (
        f"{name}: " + "; ".join(f"{r.clause} {r.outcome}: {r.message}" for r in report.results
                                if r.outcome in ("fail", "error")))
    # a SHOULD exits 0, unless a MUST it is a prerequisite of was left unverified (never counted as met)
    unverified = bool(report.summary.must_unverified)
    assert result.exit_code == (1 if profile.clause(mutant.clause).level == "MUST" or unverified else 0)
    failed = next(r for r in report.results if r.clause == mutant.clause)
    kinds = {next(iter(ev)) for ev in failed.evidence}
    assert "harness" in kinds, "a failing client clause shows the step the kit sent and the reply"


@functools.cache
def schema_validator(path: Path):
    """A profile's JSON Schema, itself checked against the 2020-12 metaschema first."""
    import json

    import jsonschema

    schema = json.loads(path.read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def named_ways(table: dict) -> list[tuple[str, str]]:
    """The (clause, way) pairs of a table of named breaks, in a stable order, for parametrize."""
    return [(cid, name) for cid in sorted(table) for name in table[cid]]


def ends(fn, *args, within: float = 120.0, **kwargs):
    """``fn(*args, **kwargs)``, whose value it returns; the test fails if the call has not
    returned after ``within`` seconds. A hang detector for the tests of the kit's deadlines (a
    hanging server, a silent adapter, a trickling body must end at the kit's timeout), not a
    speed claim: ``within`` is far above any real duration, so only a deadline that is gone
    trips it. Speed is measured in ``benchmarks/``, never asserted here.

    The call stays on the calling thread, the main one (pytest runs tests there, under xdist
    too), where an in-process run's own deadline delivers its interrupt. At ``within`` a SIGALRM
    interrupts the call with KeyboardInterrupt (an in-process run then ends as on Ctrl-C), and
    again every second until it returns."""
    __tracebackhide__ = True
    state = {"running": True, "expired": False}

    def alarm(signum, frame):
        if state["running"]:
            state["expired"] = True
            raise KeyboardInterrupt(f"tests.conftest.ends: no return within {within:g} s")

    previous = signal.signal(signal.SIGALRM, alarm)  # ValueError off the main thread
    signal.setitimer(signal.ITIMER_REAL, within, 1.0)
    try:
        result = fn(*args, **kwargs)
        state["running"] = False
    except KeyboardInterrupt:
        state["running"] = False
        if not state["expired"]:
            raise  # a real Ctrl-C
        result = None
    finally:
        state["running"] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if state["expired"]:
        pytest.fail(f"{getattr(fn, '__qualname__', fn)!s} did not end within {within:g} s: the deadline is not "
                    "enforced", pytrace=False)
    return result
