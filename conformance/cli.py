"""``adck``: the command line, a thin layer over :mod:`conformance.api` (and so over pytest).

    adck run DRAFT --target TARGET [options]   check a target, write reports, exit 0/1/2
    adck clauses DRAFT [--json]                 the clause catalog with each entry's status
    adck ambiguities DRAFT [--json]             the draft's ambiguities, the kit's reading, the clauses
    adck targets DRAFT [--json]                 the target kinds and the built-in variants
    adck completion bash|zsh|fish               the shell's completion script (argcomplete)

Exit status 2 (with one line on stderr) whenever the mistake is not the target's: a bad
option, an unknown draft, target or variant, an unreadable CA bundle or report folder, or a
client adapter that broke the harness protocol (then the kit could not judge the client).
"""

from __future__ import annotations

import os
import sys


def _an_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C, or wraps it: Python 3.11 turns a KeyboardInterrupt raised while
    a class body is built (``__set_name__``, as ``functools.cached_property`` runs) into a
    RuntimeError caused by it."""
    seen: set[int] = set()
    at: BaseException | None = exc
    while at is not None and id(at) not in seen:
        if isinstance(at, KeyboardInterrupt):
            return True
        seen.add(id(at))
        at = at.__cause__ or at.__context__
    return False


try:  # `adck` spends its first ~0.4 s here: Ctrl-C then is one line too, never a traceback
    import argparse
    import json
    from collections.abc import Sequence
    from pathlib import Path

    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from conformance import __version__, api, catalog, cli_help
    from conformance.reports.render import FORMATS
except BaseException as exc:
    if not _an_interrupt(exc):
        raise
    if __name__ != "__main__" and os.path.basename(sys.argv[0]) not in ("adck", "adck.exe"):
        raise  # imported by a program of its own: its interrupt
    print("adck: interrupted: the run did not finish, so there is no verdict", file=sys.stderr)
    raise SystemExit(2) from None


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line on stderr (and exit 2), not the whole usage."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")

    def format_help(self) -> str:
        if callable(self.epilog):  # built from the registries only when help is asked for
            self.epilog = self.epilog()
        return super().format_help()


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="adck", description="Agent Discovery Conformance Kit: check servers, "
                                "documents and clients against AI agent discovery drafts.")
    p.add_argument("--version", action="version", version=f"adck {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    r = sub.add_parser("run", help="run a draft's suite against a target",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=cli_help.run_epilog,
                       description="Run a draft's conformance suite against a target and write reports.\n"
                       "Exit 0: every applicable MUST passed; 1: one did not; 2: the kit could not run.\n"
                       "Prints a summary grouped by the draft's sections (pytest's own output with -v).")
    r.add_argument("draft", help="the draft's short name (adck clauses --list): its newest revision the suite "
                                 "judges; DRAFT@REV for one revision (adck revisions), DRAFT@A,B or DRAFT@all for "
                                 "several, judged from one set of requests (the exit status follows the newest named)"
                   ).completer = cli_help.complete_draft  # type: ignore[attr-defined]
    r.add_argument("--target", required=True,
                   help="what to check: a built-in reference or variant, a live server, a document, a client "
                        "(python:, cmd:), a domain or a record; every kind is listed below"
                   ).completer = cli_help.complete_target  # type: ignore[attr-defined]
    r.add_argument("--role", action="append", default=[],
                   help="check only this role (repeatable); each draft's roles are listed below"
                   ).completer = cli_help.complete_role  # type: ignore[attr-defined]
    r.add_argument("--clause", action="append", default=[], help="check only this clause id (repeatable)")
    r.add_argument("--ca-bundle", help="PEM file of CA certificates to trust (TLS verification stays on)")
    r.add_argument("--connect-to", action="append", default=[], metavar="HOST1:PORT1:HOST2:PORT2",
                   help="reach HOST1:PORT1 at HOST2:PORT2, keeping the name for SNI and the certificate (as curl)")
    r.add_argument("--nameserver", action="append", default=[], metavar="HOST[:PORT]",
                   help="ask this DNS server for DNS-published targets (repeatable; default: the system's resolver)")
    r.add_argument("--dnssec-anchor", action="append", default=[], metavar="DS",
                   help="a DS record ('example.com. IN DS 12345 13 2 <hex>') anchoring DNSSEC validation "
                        "of its zone; without one a signed record is only 'unchecked'")
    r.add_argument("--timeout", type=_positive(float), default=None, help="seconds allowed per request (default 10)")
    r.add_argument("--max-body", type=_positive(int), default=None, help="body bytes read at most (default 1 MiB)")
    r.add_argument("--run-timeout", type=_positive(float), default=None, metavar="S",
                   help="seconds allowed for the whole run (default 900 for a client, 300 otherwise); past it "
                        "the clauses not yet checked are untestable and the run is partial")
    r.add_argument("--allow-private", action="store_true",
                   help="follow redirects to loopback or private addresses the target did not name (by default "
                        "such a redirect is reported as evidence, not fetched)")
    r.add_argument("--invoke", action="store_true",
                   help="invoke a live host's agents to check invocation clauses (off by default: an invocation "
                        "may cost money or change state; built-in targets are always invoked)")
    r.add_argument("--invoke-budget", "--request-budget", dest="invoke_budget", type=_positive(int), default=None,
                   metavar="N", help="send at most N requests that make the target work (invocations, searches) "
                                     "in the run (default 200, enough for one full run)")
    r.add_argument("--binding", action="append", default=[], metavar="NAME=PATH",
                   help="for a draft with no wire binding of its own (adp): the path of one operation under the "
                        "target's base, replacing the kit's default (repeatable; `adck targets adp` lists them)")
    r.add_argument("--level", default=None, metavar="LEVEL",
                   help="for a draft with conformance levels of its own (adp: D0, D1, D2): the level the target "
                        "claims; the verdict judges the clauses up to it (default: the highest level met)")
    r.add_argument("--declare", action="append", default=[], metavar="NAME[=VALUE]",
                   help="state a choice the draft leaves to the implementation (its local policy or documented "
                        "behaviour): adp strict-validation, aidre max-top-k=N, ... (repeatable; `adck targets DRAFT` "
                        "lists a draft's, with the sentence that allows each). The clauses it names then accept the "
                        "declared behaviour and check it; never a pass by itself"
                   ).completer = cli_help.complete_declare  # type: ignore[attr-defined]
    r.add_argument("-H", "--header", action="append", default=[], dest="header", metavar="'NAME: VALUE'",
                   help="send this header with every request to the target's origin (curl's -H form, e.g. "
                        "-H 'Authorization: Bearer TOKEN'; repeatable), and to no other origin (a redirect elsewhere, "
                        "a URL a document names) unless --header-origin names it; the value appears in no report. "
                        "Prefer --header-env, which keeps it out of argv and shell history too")
    r.add_argument("--header-env", action="append", default=[], metavar="NAME=ENVVAR",
                   help="send header NAME with the value of the environment variable ENVVAR, read when the run "
                        "starts (repeatable; e.g. --header-env Authorization=API_TOKEN with API_TOKEN='Bearer ...')")
    r.add_argument("--header-origin", action="append", default=[], metavar="ORIGIN",
                   help="also send the -H/--header-env headers to this origin (https://HOST[:PORT]), for URLs the "
                        "target's documents name there (repeatable; default: the target's origin only)")
    r.add_argument("--fail-on", choices=("must", "should"), default="must",
                   help="which failures make the exit status 1 (and junit.xml <failure>): must (default) or should "
                        "(MUST and SHOULD); the verdict in the report is the same either way")
    r.add_argument("--baseline", metavar="FILE", default=None,
                   help="expected failures (TOML: clause, reason, optional expires; docs/baselines.md): a listed "
                        "failure does not fail the run but stays failed in the report, marked expected")
    r.add_argument("--report-dir", default="reports", help="where reports go (default: reports/)")
    r.add_argument("--format", default="json,junit,md",
                   help=f"comma-separated report formats: {', '.join(FORMATS)} (default json,junit,md)"
                   ).completer = cli_help.complete_format  # type: ignore[attr-defined]
    r.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: random; always recorded)")
    r.add_argument("--world", choices=("sockets", "respx"), default="sockets",
                   help="agent role: where the kit plays the server: loopback sockets (default) or, for Python "
                        "clients built on httpx, in-process through respx")
    r.add_argument("-v", "--verbose", action="store_true", help="show pytest's own output in full")

    c = sub.add_parser("clauses", help="print a draft's clause catalog")
    c.add_argument("draft", nargs="?", help="the draft's short name, or DRAFT@REV for one of its revisions")
    c.add_argument("--json", action="store_true", help="machine-readable, with each entry's status and tests")
    c.add_argument("--ambiguities", action="store_true", help="print the draft's recorded ambiguities instead")
    c.add_argument("--list", action="store_true", help="list the drafts that have a catalog")

    rv = sub.add_parser("revisions", help="list the revisions of a draft the kit knows (DRAFT@REV names one)",
                        description="Each revision of a draft the kit knows: its name (written after @, as in "
                        "aiendpoint@01), the draft's id, its date and where its text came from, and whether the suite "
                        "judges it yet. Without @, a draft means the newest revision the suite judges.")
    rv.add_argument("draft", nargs="?", help="the draft's short name (default: every draft)")
    rv.add_argument("--json", action="store_true", help="machine-readable")

    df = sub.add_parser("diff", help="what one revision of a draft changes relative to another",
                        description="Clauses added, removed and changed (with a word diff of the sentence and the "
                        "level), sections renumbered, ambiguities the newer text opens or resolves, and the suite's "
                        "tests each change touches. Markdown, or JSON with --json.")
    df.add_argument("old", metavar="DRAFT@A", help="the older revision (aiendpoint@00)")
    df.add_argument("new", metavar="DRAFT@B", help="the newer revision (aiendpoint@01)")
    df.add_argument("--json", action="store_true", help="machine-readable")
    df.add_argument("-o", "--output", default=None, metavar="FILE", help="write it to FILE (default: standard output)")

    t = sub.add_parser("targets", help="list target kinds and a draft's built-in variants")
    t.add_argument("draft", help="the draft's short name")
    t.add_argument("--json", action="store_true",
                   help="machine-readable: the target kinds, each built-in variant with its role, clause and "
                        "summary, and the conforming variants")

    co = sub.add_parser("completion", help="print the shell completion script (bash, zsh or fish)",
                        description="Print the script that makes the shell complete adck's commands, options, "
                        "drafts, roles, formats and targets. bash: eval \"$(adck completion bash)\" in ~/.bashrc; "
                        "zsh: eval \"$(adck completion zsh)\" in ~/.zshrc (after compinit); fish: "
                        "adck completion fish > ~/.config/fish/completions/adck.fish")
    co.add_argument("shell", choices=cli_help.SHELLS, help="the shell: %(choices)s")

    b = sub.add_parser("baseline", help="write a baseline (expected failures) from a report.json",
                       description="Write a baseline listing every failure of a report (and each clause a failed "
                       "prerequisite left unchecked), for `adck run --baseline FILE`. Each entry needs a reason: "
                       "the kit refuses the placeholder until you replace it (or pass --reason). docs/baselines.md")
    b.add_argument("--from", dest="source", required=True, metavar="REPORT", help="a report.json written by adck run")
    b.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="where to write the baseline (default: standard output); an existing file is kept "
                        "unless --force")
    b.add_argument("--reason", default=None, help="the reason given to every entry (default: a placeholder to edit)")
    b.add_argument("--force", action="store_true", help="overwrite FILE if it exists")

    a = sub.add_parser("ambiguities", help="the draft's ambiguities: the kit's reading and the clauses that rest on it",
                       description="Each place the draft is ambiguous, contradicts itself or lost text, with the "
                       "interpretation the kit applies and the clauses whose verdicts depend on it. Reports list "
                       "these ids beside each clause they touch.")
    a.add_argument("draft", help="the draft's short name")
    a.add_argument("--json", action="store_true", help="machine-readable")

    ck = sub.add_parser("check", help="check document files kept in a repository (the pre-commit hook)",
                        description="Check each FILE in its draft's document role; the draft comes from the file "
                        "name (.well-known/ai: aiendpoint, .well-known/ai-discovery: aidre, aid.json: aid, woa.json: "
                        "woa, agent-metadata.json or *.adp.json: adp) or from --draft. One line per failed clause "
                        "(FILE:LINE: ...). Exit 0: every MUST passed; 1: one did not; 2: a file's draft is unknown.")
    ck.add_argument("files", nargs="+", metavar="FILE", help="document files")
    ck.add_argument("--draft", default=None, help="the draft of every FILE (when the names do not tell)")
    ck.add_argument("--sarif", default=None, metavar="FILE", help="also write the failures as SARIF 2.1.0 (code scanning)")

    from conformance.scan import cli as scan_cli

    scan_cli.add_parsers(sub, _positive)

    cp = sub.add_parser("compare", help="compare report.json files side by side (Markdown and HTML matrix)",
                        description="Implementations in the columns, clauses in the rows, outcomes in the cells; "
                        "rows where implementations disagree highlighted, clauses resting on an ambiguity marked, "
                        "clauses nobody passes listed. Writes DIR/index.md and DIR/matrix.html.")
    cp.add_argument("reports", nargs="+", metavar="REPORT_JSON", help="report.json files (adck run --format json)")
    cp.add_argument("-o", "--output", default="compare", metavar="DIR", help="where to write (default: compare/)")
    return p


def _positive(kind):
    """An argparse type: a number greater than 0."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not value > 0:  # also NaN
            raise argparse.ArgumentTypeError(f"must be more than 0 (got {text})")
        return value

    parse.__name__ = kind.__name__
    return parse


def _revision_of(args: argparse.Namespace) -> int | None:
    """``DRAFT@REV`` where a command names a draft: ``args.draft`` becomes the draft's short name
    and ``args.revision`` the revision named (None without @). A command that judges (run, check,
    targets) takes one revision the suite judges; the catalog's commands (clauses, ambiguities)
    any one. Exit 2 with one line otherwise."""
    args.revision = None
    if "@" not in args.draft:
        return None
    if args.command == "run":  # one revision or several, judged from one set of exchanges
        from conformance import revisions

        try:
            short, _ = revisions.judgeable(args.draft)
        except catalog.CatalogError as exc:
            _fail(str(exc))
            return api.EXIT_USAGE
        args.run_draft, args.draft = args.draft, short
        return None
    found = _one_revision(args.draft, judging=args.command in ("check", "targets"),
                          several="one revision at a time here (`adck run` judges several in one run)")
    if found is None:
        return api.EXIT_USAGE
    args.draft, args.revision = found
    return None


def _one_revision(spec: str, judging: bool, several: str):
    """(draft, revision) that ``spec`` (``DRAFT@REV``) names, or None after one error line: a
    revision the kit does not know, several (``several`` says why not), or, when ``judging``,
    one the suite does not judge yet."""
    from conformance import revisions

    try:
        short, chosen = (revisions.judgeable if judging else revisions.parse)(spec)
    except catalog.CatalogError as exc:
        _fail(str(exc))
        return None
    if len(chosen) != 1:
        _fail(f"{spec}: {several}")
        return None
    return short, chosen[0]


def _load(draft: str) -> catalog.Profile:
    """The draft's profile, or exit 2 with one line naming the drafts there are."""
    try:
        return catalog.load(draft)
    except catalog.CatalogError as exc:
        _fail(str(exc))
        raise SystemExit(api.EXIT_USAGE) from None


def _line(value: str) -> str:
    from conformance.reports.safe import line

    return line(value)


def _fail(message: str) -> None:
    """One error line; what it quotes (file and folder names, a report's text) has its control
    characters escaped (``conformance.reports.safe.line``)."""
    print(f"adck: {_line(str(message))}", file=sys.stderr)


def _cmd_run(args: argparse.Namespace, console: Console) -> int:
    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    bad = set(formats) - set(FORMATS)
    if bad:
        _fail(f"unknown report format(s) {', '.join(sorted(bad))}; choose from {', '.join(FORMATS)}")
        _pointer(console, "the run could not start")
        return api.EXIT_USAGE
    try:
        profile = _load(args.draft)
    except SystemExit:
        _pointer(console, "the run could not start")
        raise
    if not profile.roles_implemented:
        _fail(f"the {profile.short} suite is being built: its clause catalog is ready (`adck clauses {profile.short}`, "
              f"`adck ambiguities {profile.short}`), its tests are not yet, so there is nothing to run")
        _pointer(console, "the run could not start")
        return api.EXIT_USAGE
    unknown = [role for role in args.role if role not in profile.roles]
    if unknown:
        _fail(f"--role {unknown[0]}: {unknown[0]!r} is not a role of {profile.short} (its roles: "
              f"{', '.join(profile.roles)}; `adck run --help` lists every draft's)")
        _pointer(console, "the run could not start")
        return api.EXIT_USAGE
    result = api.run(getattr(args, "run_draft", args.draft), args.target, roles=args.role, clauses=args.clause, ca_bundle=args.ca_bundle,
                     connect_to=args.connect_to, nameservers=args.nameserver, dnssec_anchors=args.dnssec_anchor, timeout=args.timeout, max_body=args.max_body,
                     report_dir=args.report_dir, formats=formats, seed=args.seed, world=args.world,
                     quiet=not args.verbose, run_timeout=args.run_timeout, allow_private=args.allow_private,
                     invoke=args.invoke, invoke_budget=args.invoke_budget, level=args.level,
                     binding=args.binding, fail_on=args.fail_on, baseline=args.baseline, declare=args.declare,
                     headers=args.header, header_env=args.header_env, header_origins=args.header_origin)
    if result.report is None:
        _fail(result.error or "the run did not produce a report; nothing was judged")
        started = result.pytest_exit != 4  # pytest's usage error: the run never started
        _pointer(console, "the run did not finish" if started else "the run could not start")
        return api.EXIT_USAGE
    _print_summary(result.report, console)
    _step_summary(result.report)
    _print_baseline(result.report, console)
    for path in result.written:
        console.print(f"report: {escape(_line(str(path)))}")
    if result.error:
        _fail(result.error)
        judged = result.report.summary.level != "not-judged"
        _pointer(console, "the run did not finish" if judged else "the kit could not judge the target")
    return result.exit_code


def _pointer(console: Console, what: str) -> None:
    """The one line stdout gets when the run ends without a verdict: what happened, and that
    the reason is on stderr (which a CI log or a pipe may keep somewhere else)."""
    console.print(f"adck: no verdict: {what} (exit status 2); the reason is on stderr", style="bold magenta")


def _print_summary(report, console: Console) -> None:
    """The run in one summary, grouped by the draft's sections (:mod:`conformance.reports.terminal`)."""
    from conformance.reports import terminal

    terminal.print_summary(report, console)


def _print_baseline(report, console: Console) -> None:
    """What the baseline waived, what expired, what is stale (``conformance.reports.baseline``)."""
    from conformance.reports import baseline

    style = {"expired": "bold red", "stale": "yellow", "expected": "cyan"}
    for line in baseline.lines(report):
        kind = line.split(":", 1)[0]
        console.print(f"[{style[kind]}]{escape(line)}[/]" if kind in style else escape(line))


def _cmd_baseline(args: argparse.Namespace, console: Console) -> int:
    from conformance.reports import baseline, inputs

    label = f"--from {args.source}"
    try:  # checked before use: size, nesting, report.schema.json (conformance.reports.inputs)
        data = inputs.load_report(args.source, label)
        text = baseline.from_report(data, reason=(args.reason or "").strip() or None)
    except (inputs.InputError, baseline.BaselineError) as exc:
        message = str(exc) if str(exc).startswith(label) else f"{label}: {exc}"
        _fail(message if "report.json" in message else f"{message}; pass the report.json that adck run wrote")
        return api.EXIT_USAGE
    if args.output is None:
        sys.stdout.write(text)
        return 0
    out = Path(args.output)
    if out.exists() and not args.force:
        _fail(f"-o {out}: exists (its reasons would be lost); pass --force to overwrite it, or another name")
        return api.EXIT_USAGE
    try:
        from conformance.reports.render import write_file

        write_file(out, text)
    except OSError as exc:
        _fail(f"-o {out}: cannot write it ({exc.strerror})")
        return api.EXIT_USAGE
    import tomllib

    entries = len(tomllib.loads(text).get("expected", []))
    print(f"wrote {_line(str(out))}: {entries} entr{'y' if entries == 1 else 'ies'}"
          + (f"; replace each reason {baseline.PLACEHOLDER!r} before using it" if not args.reason and entries else ""))
    return 0


def _revision_profile(draft: str, revision=None) -> catalog.Profile:
    """The profile of ``revision`` (``DRAFT@REV``'s), or of the one the suite judges without @."""
    from conformance import revisions

    _load(draft)
    return revisions.profile_of(draft, revision.name if revision is not None else revisions.judged(draft).name)


def _cmd_clauses(args: argparse.Namespace, console: Console) -> int:
    if args.list or not args.draft:
        for short in catalog.available():
            p = _revision_profile(short)
            console.print(f"{p.label}\t{p.draft}\t{len(p.clauses)} clauses")
        return 0
    profile = _revision_profile(args.draft, args.revision)
    if args.ambiguities:
        return _print_ambiguities(profile, args.json, console)
    from conformance import revisions

    cat = revisions.catalog_of(profile.short, profile.revision)
    judged = next(r for r in revisions.revisions(profile.short) if r.name == profile.revision).judged
    coverage = profile.coverage()
    if args.json:
        from conformance import proofs
        from conformance.reports.model import ambiguities_of

        proven, readings = proofs.proofs(profile), ambiguities_of(profile)
        out = {
            "draft": profile.draft, "short": profile.short, "revision": profile.revision, "label": profile.label,
            "judged": judged, "roles_implemented": list(profile.roles_implemented),
            "mutant_floor": proofs.FLOOR,
            "clauses": [{"id": c.clause.id, "section": c.clause.section, "keyword": c.clause.keyword,
                         "level": c.clause.level, "role": c.clause.role, "text": c.clause.text,
                         "status": c.status, "tests": list(c.tests), "untestable": c.clause.untestable,
                         "note": c.clause.note,
                         # the clause of the revision before whose sentence this one changes
                         "replaces": cat.replaces.get(c.clause.id),
                         # the distinct broken variants its tests are proven to fail on (adck.proofs)
                         "mutants": len(set(proven.get(c.clause.id, ()))),
                         "proven_by": list(proven.get(c.clause.id, ())),
                         "one_way": proofs.one_way(profile).get(c.clause.id),
                         "exempt": proofs.exempt(profile).get(c.clause.id),
                         "ambiguities": readings.get(c.clause.id, [])} for c in coverage.values()],
            # the clauses of earlier revisions this one no longer holds, and what became of each
            "removed": cat.removed,
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    table = Table(title=f"{profile.label}: {profile.draft}" + ("" if judged else
                                                                " (catalogued, not judged yet)"))
    for col in ("id", "§", "key word", "role", "status", "requirement"):
        table.add_column(col, overflow="fold")
    for c in coverage.values():
        table.add_row(c.clause.id, c.clause.section, c.clause.keyword, c.clause.role, c.status, c.clause.text)
    console.print(table)
    return 0


def _print_ambiguities(profile: catalog.Profile, as_json: bool, console: Console, **meta) -> int:
    """The ambiguities of a revision's profile (``meta`` adds to the JSON: the revision)."""
    items = profile.ambiguities
    if as_json:
        print(json.dumps({"draft": profile.draft, "short": profile.short, **meta, "ambiguities": [
            {"id": a.id, "title": a.title, "sections": list(a.sections), "text": a.text,
             "interpretation": a.interpretation, "clauses": list(a.clauses)} for a in items]},
            indent=2, ensure_ascii=False))
        return 0
    for a in items:
        console.print(f"[bold]{a.id}[/bold] {escape(a.title)} (§{', §'.join(a.sections)})\n  {escape(a.text)}\n"
                      f"  [green]the kit's reading:[/green] {escape(a.interpretation)}\n"
                      f"  [cyan]clauses judged by this reading:[/cyan] {', '.join(a.clauses) or 'none'}\n")
    return 0


def _cmd_ambiguities(args: argparse.Namespace, console: Console) -> int:
    profile = _revision_profile(args.draft, args.revision)
    return _print_ambiguities(profile, args.json, console, revision=profile.revision, label=profile.label)


def _cmd_revisions(args: argparse.Namespace, console: Console) -> int:
    from conformance import revisions

    drafts = [args.draft] if args.draft else catalog.available()
    rows = []
    for short in drafts:
        _load(short)
        rows += [(r, r == revisions.judged(short)) for r in revisions.revisions(short)]
    if args.json:
        print(json.dumps([{"draft": r.short, "revision": r.name, "label": r.label, "id": r.draft, "date": r.date,
                           "source": r.source, "judged": r.judged, "default": default} for r, default in rows],
                         indent=2, ensure_ascii=False))
        return 0
    for r, default in rows:
        state = "judged, the default" if default else "judged" if r.judged else "catalogued, not judged yet"
        console.print(f"{escape(r.label)}\t{escape(r.draft)}\t{r.date or 'undated'}\t{state}\n  source: {escape(r.source)}",
                      soft_wrap=True)
    return 0


def _cmd_diff(args: argparse.Namespace, console: Console) -> int:
    from conformance import revisions
    from conformance.reports import render

    picked = []
    for spec in (args.old, args.new):
        if "@" not in spec:
            _fail(f"{spec}: name a revision, as DRAFT@REV (adck revisions lists them)")
            return api.EXIT_USAGE
        found = _one_revision(spec, judging=False, several="name one revision on each side")
        if found is None:
            return api.EXIT_USAGE
        picked.append(found)
    if picked[0][0] != picked[1][0]:
        _fail(f"{args.old} and {args.new} are revisions of two drafts; diff compares two revisions of one")
        return api.EXIT_USAGE
    d = revisions.diff(picked[0][0], picked[0][1].name, picked[1][1].name)
    text = json.dumps(revisions.to_json(d), indent=2, ensure_ascii=False) + "\n" if args.json else revisions.to_markdown(d)
    if args.output:
        try:
            render.write_file(Path(args.output), text)
        except OSError as exc:
            _fail(f"-o {args.output}: cannot write it ({exc.strerror})")
            return api.EXIT_USAGE
        print(_line(f"written: {args.output}"))
    else:
        sys.stdout.write(text)
    return 0


def _expected(expect: str | dict | None) -> str:
    """A conforming variant's level: ``full``, or per revision ``00 full, 01 conformant``."""
    if isinstance(expect, dict):
        return ", ".join(f"{name} {level}" for name, level in expect.items())
    return expect or ""


def _cmd_targets(args: argparse.Namespace, console: Console) -> int:
    """The target kinds a draft takes and its built-in variants. A variant's name (and every id)
    is never broken: in a terminal the tables keep names and clauses whole however narrow it is;
    piped (a file, grep, a CI log) each variant is one plain line. ``--json`` for programs."""
    from conformance.world.site import load_mutants

    profile = _load(args.draft)
    kinds = [(syntax, what) for syntax, what, drafts in cli_help.target_kinds()
             if not drafts or args.draft in drafts]  # txt: and DOMAIN are AID's
    try:
        mutants = load_mutants(args.draft)
    except FileNotFoundError:
        mutants = {}
    client = profile.client
    agents = load_mutants(args.draft, file=client.mutants) if client else {}
    conforming = load_mutants(args.draft, "conforming") if mutants else {}

    from conformance import revisions

    every = revisions.judged_profile(args.draft)
    judged_as = {m.name: m.judged_as(args.draft) for m in (*mutants.values(), *agents.values())}

    def role_of(cid: str | None) -> str | None:
        return every.clauses[cid].role if cid in every.clauses else None

    declared = {m.name: list(m.declare) for m in (*mutants.values(), *conforming.values()) if m.declare}

    def said(name: str, summary: str) -> str:
        """A variant's summary, with what it declares of itself (its runs apply it)."""
        return f"{summary} [declares {', '.join(declared[name])}]" if name in declared else summary

    groups = []  # (title, kind, [(name, clause or expect, summary, driven)], role option)
    if mutants:
        groups.append((f"built-in broken variants of {args.draft} (--target builtin:NAME)", "broken",
                       [(m.name, m.clause or "", m.summary, None) for m in mutants.values()], None))
    if agents:
        assert client is not None
        groups.append((f"built-in broken {client.role}s of {args.draft} (--role {client.role} --target builtin:NAME)",
                       "broken", [(m.name, m.clause or "", m.summary, m.via) for m in agents.values()], client.role))
    if conforming:
        groups.append((f"built-in conforming variants of {args.draft} (edge cases that must pass)", "conforming",
                       [(m.name, _expected(m.expect), m.summary, None) for m in conforming.values()], None))
    if args.json:
        def variant(kind: str, name: str, ref: str, summary: str, driven: str | None, role: str | None) -> dict:
            out: dict = {"name": name, "target": f"builtin:{name}", "summary": summary}
            if name in declared and not role:
                out["declare"] = declared[name]  # applied to every run of it
            if kind == "broken":
                out.update(clause=ref or None, role=role or role_of(ref))
            else:
                out["must_reach"] = ref or None
            if role:
                out["run_role"] = role  # the --role a run of it needs
            if driven:
                out["driven"] = driven
            # a broken variant is run under the revision whose sentence it breaks; a conforming one under all
            spec = judged_as.get(name, args.draft) if kind == "broken" else \
                (f"{args.draft}@all" if len(revisions.revisions(args.draft)) > 1 else args.draft)
            out["command"] = f"adck run {spec}{f' --role {role}' if role else ''} --target builtin:{name}"
            return out

        print(json.dumps({
            "draft": profile.draft, "short": profile.short, "roles": list(profile.roles),
            "kinds": [{"syntax": syntax, "description": what} for syntax, what in kinds],
            "note": profile.target_note or None,
            "declarations": [{"name": d.name, "usage": f"--declare {d.usage()}", "type": d.type,
                              "values": list(d.values) or None, "min": d.minimum, "max": d.maximum,
                              "role": d.role, "section": d.section, "quote": d.quote,
                              "clauses": list(d.clauses), "help": d.help} for d in profile.declarations.values()],
            "broken": [variant(kind, *row, role) for _, kind, rows, role in groups if kind == "broken" for row in rows],
            "conforming": [variant(kind, *row, role) for _, kind, rows, role in groups if kind == "conforming"
                           for row in rows],
        }, indent=2, ensure_ascii=False))
        return 0
    for syntax, what in kinds:
        console.print(f"{syntax}  {what}", markup=False)
    if profile.target_note:
        console.print(escape(profile.target_note))
    if profile.declarations:
        console.print(f"declarations of {args.draft} (--declare NAME[=VALUE], repeatable): choices the draft leaves to "
                      "the implementation; the clauses named then accept the declared behaviour and check it", markup=False)
        for d in profile.declarations.values():
            console.print(f"  --declare {d.usage()}  ({d.role}; {', '.join(d.clauses)}) {d.help}", markup=False,
                          highlight=False)
            console.print(f'      §{d.section}: "{d.quote}"', markup=False, highlight=False)
    for title, kind, rows, role in groups:
        heads = ("name", "breaks" if kind == "broken" else "must reach", "how") + (("driven",) if role else ())
        width = max(len(name) for name, *_ in rows)
        ref_width = max(len(ref) for _, ref, *_ in rows)
        # a table needs its name and id columns whole, borders, and room for the prose
        room = width + ref_width + (len("driven") if role else 0) + 3 * len(heads) + 1 + 24
        if not console.is_terminal or console.width < room:
            # piped or too narrow for a table: one line per variant, its name and clause whole
            console.print(title, markup=False)
            for name, ref, summary, driven in rows:
                tail = f"  ({driven})" if role and driven else ""
                summary = summary if role else said(name, summary)
                console.print(f"  {name.ljust(width)}  {ref.ljust(ref_width)}  {summary}{tail}", markup=False,
                              highlight=False)
            continue
        table = Table(title=title)
        for col in heads:  # names and ids are never folded; only the prose wraps
            table.add_column(col, no_wrap=col != "how", overflow="fold")
        for name, ref, summary, driven in rows:
            table.add_row(name, ref, said(name, summary) if not role else summary, *((driven or "",) if role else ()))
        console.print(table)
    return 0


def _cmd_completion(args: argparse.Namespace, console: Console) -> int:
    sys.stdout.write(cli_help.completion_script(args.shell))
    return 0


def _step_summary(report) -> None:
    """In GitHub Actions ($GITHUB_STEP_SUMMARY set): append the run's summary to the job summary."""
    from conformance.reports import github

    try:
        github.append_step_summary(report)
    except OSError as exc:
        _fail(f"$GITHUB_STEP_SUMMARY: cannot append the job summary ({exc.strerror}); the reports are written")


def _cmd_check(args: argparse.Namespace, console: Console) -> int:
    from conformance import check

    if args.draft:
        _load(args.draft)
    draft = args.revision.label if args.revision is not None else args.draft  # --draft aiendpoint@00
    return check.check(args.files, draft=draft, sarif_path=args.sarif)


def _cmd_compare(args: argparse.Namespace, console: Console) -> int:
    from conformance import preflight
    from conformance.reports import compare

    out = Path(args.output)
    if out.exists() and not out.is_dir():
        _fail(f"-o {out}: is a file; compare writes a folder (index.md, matrix.html): name a folder")
        return api.EXIT_USAGE
    try:
        preflight.check_report_dir(out, "-o")
    except preflight.Refused as exc:
        _fail(str(exc))
        return api.EXIT_USAGE
    try:
        written = compare.compare(args.reports, args.output)
    except (compare.CompareError, OSError) as exc:
        _fail(str(exc))
        return api.EXIT_USAGE
    for path in written:
        console.print(f"written: {escape(_line(str(path)))}")
    return 0


def _cmd_scan(args: argparse.Namespace, console: Console) -> int:
    from conformance.scan import cli as scan_cli

    return scan_cli.cmd_scan(args, console)


def _cmd_judge(args: argparse.Namespace, console: Console) -> int:
    from conformance.scan import cli as scan_cli

    return scan_cli.cmd_judge(args, console)


def _interrupt_on_sigterm() -> None:
    """SIGTERM ends a run as Ctrl-C does: pytest stops, the partial report is written, every
    adapter process group is ended."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        def handler(signum, frame):
            raise KeyboardInterrupt(f"signal {signum}")

        signal.signal(signal.SIGTERM, handler)


def main(argv: Sequence[str] | None = None) -> int:
    """``adck``; Ctrl-C (or SIGTERM under ``adck run``) at any time is exit 2 and one line."""
    try:
        return _main(argv)
    except BaseException as exc:
        if not _an_interrupt(exc):
            raise
        # outside pytest's session, which ends with a partial report and says so itself: before
        # the run started, or while its summary was printed
        _fail("interrupted: the run did not finish, so there is no verdict")
        return api.EXIT_USAGE


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    if "_ARGCOMPLETE" in os.environ:  # the shell asks for completions (`adck completion SHELL`)
        import argcomplete

        argcomplete.autocomplete(parser, exit_method=sys.exit)
    args = parser.parse_args(argv)
    if args.command == "run":
        _interrupt_on_sigterm()
    # never wraps: a URL or the verdict stays one line in a pipe or a CI log; no emoji codes read
    console = Console(stderr=False, highlight=False, soft_wrap=True, emoji=False)
    args.revision = None
    if getattr(args, "draft", None):
        code = _revision_of(args)
        if code is not None:
            return code
    handler = {"run": _cmd_run, "clauses": _cmd_clauses, "targets": _cmd_targets, "revisions": _cmd_revisions,
               "diff": _cmd_diff,
               "ambiguities": _cmd_ambiguities, "check": _cmd_check, "compare": _cmd_compare, "baseline": _cmd_baseline,
               "completion": _cmd_completion, "scan": _cmd_scan, "judge": _cmd_judge}[args.command]
    try:
        return handler(args, console)
    except SystemExit as exc:
        return int(exc.code or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
