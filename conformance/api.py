"""The public API: run a draft's suite against a target and get the report back.

>>> from conformance.api import run
>>> result = run("aiendpoint", "builtin")
>>> result.report.summary.level
'full'
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import sys
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import pytest

from conformance import catalog, revisions
from conformance.plugin import STATE
from conformance.recording import Carrier, Recording
from conformance.reports.model import Report

_SUITE_INI = Path(__file__).with_name("_suite.ini")

#: Exit statuses of ``adck run``.
EXIT_CONFORMANT, EXIT_NONCONFORMANT, EXIT_USAGE = 0, 1, 2


@dataclass
class RunResult:
    report: Report | None
    exit_code: int
    written: list[Path] = field(default_factory=list)
    pytest_exit: int = 0
    #: Why the kit could not run or judge (exit 2), in one line for the user.
    error: str | None = None


class _Grab:
    """Catches the report the plugin built, before pytest tears the session down."""

    def __init__(self) -> None:
        self.report: Report | None = None
        self.written: list[Path] = []

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        state = session.config.stash.get(STATE, None)
        if state is not None:
            self.report, self.written = state.report, state.written


def replay_command(draft: str, target: str, *, ca_bundle: str | None = None, connect_to: Sequence[str] = (),
                   nameservers: Sequence[str] = (), dnssec_anchors: Sequence[str] = (),
                   timeout: float | None = None, seed: int | None = None, roles: Sequence[str] = (),
                   world: str = "sockets", invoke: bool = False, invoke_budget: int | None = None,
                   level: str | None = None, binding: Sequence[str] = (), fail_on: str = "must",
                   declare: Sequence[str] = (), headers: Sequence[str] = (), header_env: Sequence[str] = (),
                   header_origins: Sequence[str] = ()) -> str:
    """The ``adck run`` command line that reproduces a run (``--clause {clause}`` appended).

    Credentials appear without their values: ``--header-env NAME=VAR`` as given (the variable
    is named, never read), a ``-H`` value as a placeholder to give again
    (:func:`conformance.credentials.replay_flags`).

    ``--fail-on should`` is kept (replaying a SHOULD failure then exits 1 as the run did); a
    baseline is not: a replay is for seeing the failure again, which a baseline would waive."""
    parts = ["adck", "run", draft, "--target", target]
    for role in roles:
        parts += ["--role", role]
    if ca_bundle:
        parts += ["--ca-bundle", ca_bundle]
    for c in connect_to:
        parts += ["--connect-to", c]
    for n in nameservers:
        parts += ["--nameserver", n]
    for a in dnssec_anchors:
        parts += ["--dnssec-anchor", a]
    if timeout is not None:
        parts += ["--timeout", f"{timeout:g}"]
    if world != "sockets":
        parts += ["--world", world]
    if invoke:
        parts += ["--invoke"]
    if invoke_budget is not None:
        parts += ["--invoke-budget", str(invoke_budget)]
    if level is not None:
        parts += ["--level", level]
    for b in binding:
        parts += ["--binding", b]
    for d in declare:
        parts += ["--declare", d]
    from conformance.credentials import replay_flags

    parts += replay_flags(headers, header_env, header_origins)
    if fail_on != "must":
        parts += ["--fail-on", fail_on]
    if seed is not None:
        parts += ["--seed", str(seed)]
    return shlex.join(parts)


def run(draft: str, target: str, *, roles: Sequence[str] = (), clauses: Sequence[str] = (),
        ca_bundle: str | None = None, connect_to: Sequence[str] = (), timeout: float | None = None,
        nameservers: Sequence[str] = (), dnssec_anchors: Sequence[str] = (), max_body: int | None = None, report_dir: str | Path | None = None,
        formats: Sequence[str] = ("json", "junit", "md"), seed: int | None = None,
        world: str = "sockets", quiet: bool = True, extra_args: Sequence[str] = (),
        run_timeout: float | None = None, allow_private: bool = False, invoke: bool = False,
        invoke_budget: int | None = None, level: str | None = None, binding: Sequence[str] = (),
        fail_on: str = "must", baseline: str | Path | None = None, declare: Sequence[str] = (),
        headers: Sequence[str] = (), header_env: Sequence[str] = (), header_origins: Sequence[str] = (),
        recording: Recording | None = None) -> RunResult:
    """Run ``draft``'s suite against ``target``; the report is in the result.

    ``draft`` may name revisions (``aiendpoint@00``, ``aiendpoint@00,01``, ``aiendpoint@all``;
    :func:`conformance.revisions.parse`): without ``@``, the newest the suite judges. Several
    revisions are judged from one set of exchanges; the report is the newest one's, with each
    one's verdict in ``Report.revisions``.

    ``report_dir=None`` writes no files. The exit code is 0 when every applicable MUST that was
    checked passed (a partial run says so in its report), 1 when one did not, 2 when the kit
    could not run or judge (``RunResult.error`` says why). ``fail_on="should"`` makes an unmet
    SHOULD exit 1 too; ``baseline`` (a file, ``docs/baselines.md``) lists expected failures,
    which then do not fail the run. The rule is :func:`conformance.reports.model.exit_rule`.
    ``declare`` states choices the draft leaves to the implementation (``"strict-validation"``,
    ``"max-top-k=50"``: ``[declarations]`` of the draft's profile), as ``--declare`` does.
    ``headers`` (``"Name: value"``, as ``-H``), ``header_env`` (``"Name=ENVVAR"``, read from the
    environment when the run starts) and ``header_origins`` give the run credentials, sent to the
    target's origin (and those origins) only and masked in every report (:mod:`conformance.credentials`).
    ``recording`` (:mod:`conformance.recording`) is the recorded world the run keeps (a live one:
    ``adck scan``) or answers from (an offline one: ``adck judge``).
    """
    profile = catalog.load(draft.partition("@")[0])
    seed = random.randrange(2**32) if seed is None else seed
    args = ["--pyargs", profile.suite, "-c", str(_SUITE_INI), "--rootdir", str(_SUITE_INI.parent),
            "-p", "no:cacheprovider", "--adck-draft", draft, "--adck-target", target, "--adck-seed", str(seed),
            "--adck-format", ",".join(formats) if report_dir is not None else ""]
    if report_dir is not None:
        args += ["--adck-report-dir", str(report_dir)]
    for role in roles:
        args += ["--adck-role", role]
    for c in clauses:
        args += ["--adck-clause", c]
    if ca_bundle:
        args += ["--adck-ca-bundle", ca_bundle]
    for c in connect_to:
        args += ["--adck-connect-to", c]
    for n in nameservers:
        args += ["--adck-nameserver", n]
    for a in dnssec_anchors:
        args += ["--adck-dnssec-anchor", a]
    if timeout is not None:
        args += ["--adck-timeout", str(timeout)]
    if max_body is not None:
        args += ["--adck-max-body", str(max_body)]
    if run_timeout is not None:
        args += ["--adck-run-timeout", str(run_timeout)]
    if allow_private:
        args += ["--adck-allow-private"]
    if invoke:
        args += ["--adck-invoke"]
    if invoke_budget is not None:
        args += ["--adck-invoke-budget", str(invoke_budget)]
    if level is not None:
        args += ["--adck-level", level]
    for b in binding:
        args += ["--adck-binding", b]
    for d in declare:
        args += ["--adck-declare", d]
    for h in headers:
        args += ["--adck-header", h]
    for h in header_env:
        args += ["--adck-header-env", h]
    for o in header_origins:
        args += ["--adck-header-origin", o]
    if fail_on != "must":
        args += ["--adck-fail-on", fail_on]
    if baseline is not None:
        args += ["--adck-baseline", str(baseline)]
    if world != "sockets":
        args += ["--adck-world", world]
    # the replay names the revision judged: it judges the same text when a newer one becomes the default
    pinned = draft if "@" in draft else f"{draft}@{revisions.judged(draft).name}"
    template = replay_command(pinned, _public_target(target), ca_bundle=ca_bundle, connect_to=connect_to,
                              nameservers=nameservers, dnssec_anchors=dnssec_anchors,
                              timeout=timeout, seed=seed, roles=roles, world=world, invoke=invoke,
                              invoke_budget=invoke_budget, level=level, binding=binding,
                              fail_on=fail_on, declare=declare, headers=headers, header_env=header_env,
                              header_origins=header_origins) + " --clause {clause}"
    args += ["--adck-replay", template]
    args += ["-W", "ignore::pytest.PytestAssertRewriteWarning"]
    # A run judges the target, not Python's unraisable exceptions; those plugins end every
    # session with a full gc.collect(), 0.1-0.2 s per run in a large process (the self-tests).
    args += ["-p", "no:unraisableexception", "-p", "no:threadexception"]
    # quiet: the adck CLI prints its own summary; pytest's terminal output is for -v
    args += ["-p", "no:randomly", "-p", "no:terminal"] if quiet else []
    args += list(extra_args)
    grab = _Grab()
    errors = io.StringIO()
    from conformance.harness.adapters import end_all_adapters
    from conformance.harness.reaper import run_processes

    # pytest writes a usage error as "ERROR: ..." to stderr; in quiet runs the kit says it in one line
    # no process an adapter started outlives the run, setsid() daemons included (reaper.py)
    with run_processes():
        try:
            with contextlib.redirect_stderr(errors) if quiet else contextlib.nullcontext():
                carried = [Carrier(recording)] if recording is not None else []
                code = int(pytest.main(args, plugins=[grab, *carried]))
        finally:
            end_all_adapters()  # no adapter (nor a child it forked) outlives the run, whatever happened
    said = _masked(errors.getvalue(), headers, header_env)
    if code == pytest.ExitCode.USAGE_ERROR:
        lines = [ln.removeprefix("ERROR: ").strip() for ln in said.splitlines() if ln.strip()]
        return RunResult(report=None, exit_code=EXIT_USAGE, pytest_exit=code,
                         error="; ".join(lines) or "the run could not start (pytest usage error)")
    if said:
        sys.stderr.write(said)
    if code == pytest.ExitCode.INTERRUPTED:  # Ctrl-C, SIGTERM, or the run's deadline passed long ago
        partial = "the partial report says what was checked" if grab.written else "no report was written"
        return RunResult(report=grab.report, exit_code=EXIT_USAGE, written=grab.written, pytest_exit=code,
                         error=f"interrupted: the run did not finish, so there is no verdict; {partial}")
    if grab.report is None or code == pytest.ExitCode.INTERNAL_ERROR:
        # the kit could not finish the run: whatever it gathered is no verdict
        return RunResult(report=grab.report, exit_code=EXIT_USAGE, written=grab.written, pytest_exit=code,
                         error=f"the run did not finish (pytest exit status {code}); nothing was judged")
    summary = grab.report.summary
    if summary.level == "not-judged":
        return RunResult(report=grab.report, exit_code=EXIT_USAGE, written=grab.written, pytest_exit=code,
                         error=summary.not_judged)
    # the exit rule lives in one place (model.exit_rule); the report records its result
    return RunResult(report=grab.report, exit_code=summary.exit_status, written=grab.written, pytest_exit=code)


def _masked(text: str, headers: Sequence[str], header_env: Sequence[str]) -> str:
    """``text`` (what pytest wrote to stderr) without the values of the run's credentials."""
    if not text or not (headers or header_env):
        return text
    import os

    from conformance.credentials import secret_forms
    from conformance.redact import REDACTED

    values = [h.partition(":")[2].strip(" \t") for h in headers]
    values += [os.environ.get(h.partition("=")[2].strip(), "").strip(" \t") for h in header_env]
    for secret in secret_forms(v for v in values if v):
        text = text.replace(secret, REDACTED)
    return text


def _public_target(target: str) -> str:
    """The target as it may appear in a report: no credentials in a URL."""
    return re.sub(r"^(https?://)[^/@]*@", r"\1", target)
