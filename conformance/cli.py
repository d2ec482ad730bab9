"""``adck``: the command line, a thin layer over :mod:`conformance.api` (and so over pytest).

    adck run DRAFT --target TARGET [options]   check a target, write reports, exit 0/1/2
    adck clauses DRAFT [--json]                 the clause catalog with each entry's status
    adck ambiguities DRAFT [--json]             the draft's ambiguities, the kit's reading, the clauses
    adck targets DRAFT                          the target kinds and the built-in variants

Exit status 2 (with one line on stderr) whenever the mistake is not the target's: a bad
option, an unknown draft, target or variant, an unreadable CA bundle or report folder, or a
client adapter that broke the harness protocol (then the kit could not judge the client).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from conformance import __version__, api, catalog
from conformance.reports import render
from conformance.reports.render import FORMATS

_OUTCOME_STYLE = {"pass": "green", "fail": "bold red", "error": "bold magenta",
                  "untestable": "yellow", "not-applicable": "dim"}


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line on stderr (and exit 2), not the whole usage."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="adck", description="Agent Discovery Conformance Kit: check servers, "
                                "documents and clients against AI agent discovery drafts.")
    p.add_argument("--version", action="version", version=f"adck {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    r = sub.add_parser("run", help="run a draft's suite against a target",
                       description="Run a draft's conformance suite against a target and write reports. "
                       "Exit 0: every applicable MUST passed; 1: one did not; 2: the kit could not run.")
    r.add_argument("draft", help="the draft's short name (adck clauses --list)")
    r.add_argument("--target", required=True,
                   help="builtin | builtin:MUTANT | https://HOST[:PORT] | PATH to a document")
    r.add_argument("--role", action="append", default=[], help="check only this role (repeatable)")
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
    r.add_argument("--report-dir", default="reports", help="where reports go (default: reports/)")
    r.add_argument("--format", default="json,junit,md",
                   help=f"comma-separated report formats: {', '.join(FORMATS)} (default json,junit,md)")
    r.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: random; always recorded)")
    r.add_argument("--world", choices=("sockets", "respx"), default="sockets",
                   help="agent role: where the kit plays the server: loopback sockets (default) or, for Python "
                        "clients built on httpx, in-process through respx")
    r.add_argument("-v", "--verbose", action="store_true", help="show pytest's own output in full")

    c = sub.add_parser("clauses", help="print a draft's clause catalog")
    c.add_argument("draft", nargs="?", help="the draft's short name")
    c.add_argument("--json", action="store_true", help="machine-readable, with each entry's status and tests")
    c.add_argument("--ambiguities", action="store_true", help="print the draft's recorded ambiguities instead")
    c.add_argument("--list", action="store_true", help="list the drafts that have a catalog")

    t = sub.add_parser("targets", help="list target kinds and a draft's built-in variants")
    t.add_argument("draft", help="the draft's short name")

    a = sub.add_parser("ambiguities", help="the draft's ambiguities: the kit's reading and the clauses that rest on it",
                       description="Each place the draft is ambiguous, contradicts itself or lost text, with the "
                       "interpretation the kit applies and the clauses whose verdicts depend on it. Reports list "
                       "these ids beside each clause they touch.")
    a.add_argument("draft", help="the draft's short name")
    a.add_argument("--json", action="store_true", help="machine-readable")
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


def _load(draft: str) -> catalog.Profile:
    """The draft's profile, or exit 2 with one line naming the drafts there are."""
    try:
        return catalog.load(draft)
    except catalog.CatalogError as exc:
        _fail(str(exc))
        raise SystemExit(api.EXIT_USAGE) from None


def _fail(message: str) -> None:
    print(f"adck: {message}", file=sys.stderr)


def _cmd_run(args: argparse.Namespace, console: Console) -> int:
    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    bad = set(formats) - set(FORMATS)
    if bad:
        _fail(f"unknown report format(s) {', '.join(sorted(bad))}; choose from {', '.join(FORMATS)}")
        return api.EXIT_USAGE
    profile = _load(args.draft)
    if not profile.roles_implemented:
        _fail(f"the {profile.short} suite is being built: its clause catalog is ready (`adck clauses {profile.short}`, "
              f"`adck ambiguities {profile.short}`), its tests are not yet, so there is nothing to run")
        return api.EXIT_USAGE
    result = api.run(args.draft, args.target, roles=args.role, clauses=args.clause, ca_bundle=args.ca_bundle,
                     connect_to=args.connect_to, nameservers=args.nameserver, dnssec_anchors=args.dnssec_anchor, timeout=args.timeout, max_body=args.max_body,
                     report_dir=args.report_dir, formats=formats, seed=args.seed, world=args.world,
                     quiet=not args.verbose, run_timeout=args.run_timeout, allow_private=args.allow_private,
                     invoke=args.invoke, invoke_budget=args.invoke_budget, level=args.level,
                     binding=args.binding)
    if result.report is None:
        _fail(result.error or "the run did not produce a report; nothing was judged")
        return api.EXIT_USAGE
    _print_summary(result.report, console)
    for path in result.written:
        console.print(f"report: {escape(str(path))}")
    if result.error:
        _fail(result.error)
    return result.exit_code


def _print_summary(report, console: Console) -> None:
    from conformance.reports.model import evidence_line

    readings = {a["id"]: a for a in report.ambiguities}
    for r in (r for r in report.results if r.outcome in ("fail", "error")):
        console.print(f"[{_OUTCOME_STYLE[r.outcome]}]{r.outcome.upper()}[/] {r.clause} "
                      f"(§{escape(r.section)}, {r.keyword}, {r.role})")
        console.print(f'  the draft: "{escape(r.text)}"')
        console.print(f"  observed:  {escape(render.cut(r.message, 600))}")
        for ev in r.evidence[-3:]:
            console.print(f"  evidence:  {escape(evidence_line(ev))}")
        for amb in r.ambiguities:
            if amb in readings:
                console.print(f"  the kit's reading ({amb}): {escape(render.cut(readings[amb]['interpretation'], 300))}")
        if r.replay:
            console.print(f"  replay:    {escape(r.replay)}")
    s = report.summary
    style = {"full": "bold green", "conformant": "green", "non-conformant": "bold red", "partial": "yellow",
             "not-judged": "bold magenta"}[s.level]
    c = s.counts
    if s.partial:
        console.print(f"[{style}]{escape(render.headline(report))}[/]")
    verdict = render.draft_level_line(report) if s.draft_levels and not s.partial else s.level
    console.print(f"[{style}]{report.draft['short']}: {escape(verdict)}[/] — MUST {c['MUST']['pass']} passed, "
                  f"{c['MUST']['fail']} failed, {len(s.must_unverified)} unverified; SHOULD {c['SHOULD']['pass']} "
                  f"passed, {c['SHOULD']['fail']} failed; {_traffic(report)}; seed {report.seed}")
    if s.partial and s.level != "non-conformant":
        console.print("[yellow]partial run: this speaks of the clauses checked only, not of the whole draft[/yellow]")
    if not any(r.outcome in ("pass", "fail") for r in report.results):
        console.print("[yellow]no clause of the checked roles applies to this target, so nothing was judged: "
                      "not a verdict of conformance[/yellow]")
    if s.must_unverified:
        console.print(f"[yellow]{len(s.must_unverified)} MUST clause(s) could not be checked because a prerequisite "
                      "failed; they do not count as passed (each names its prerequisite in the report).[/yellow]")


def _traffic(report) -> str:
    adapter = report.target.get("adapter")
    if "dns_queries" in report.target:
        return f"{report.target['dns_queries']} DNS queries, {report.requests_sent} HTTP requests"
    if adapter:
        dns = f", {adapter['client_dns_queries']} DNS queries" if "client_dns_queries" in adapter else ""
        return f"{adapter['steps']} harness steps, {adapter['client_requests']} requests from the client{dns}"
    return f"{report.requests_sent} requests"


def _cmd_clauses(args: argparse.Namespace, console: Console) -> int:
    if args.list or not args.draft:
        for short in catalog.available():
            p = catalog.load(short)
            console.print(f"{short}\t{p.draft}\t{len(p.clauses)} clauses")
        return 0
    profile = _load(args.draft)
    if args.ambiguities:
        return _print_ambiguities(profile, args.json, console)
    coverage = profile.coverage()
    if args.json:
        from conformance import proofs
        from conformance.reports.model import ambiguities_of

        proven, readings = proofs.proofs(profile), ambiguities_of(profile)
        out = {
            "draft": profile.draft, "short": profile.short, "roles_implemented": list(profile.roles_implemented),
            "mutant_floor": proofs.FLOOR,
            "clauses": [{"id": c.clause.id, "section": c.clause.section, "keyword": c.clause.keyword,
                         "level": c.clause.level, "role": c.clause.role, "text": c.clause.text,
                         "status": c.status, "tests": list(c.tests), "untestable": c.clause.untestable,
                         "note": c.clause.note,
                         # the distinct broken variants its tests are proven to fail on (adck.proofs)
                         "mutants": len(set(proven.get(c.clause.id, ()))),
                         "proven_by": list(proven.get(c.clause.id, ())),
                         "one_way": proofs.one_way(profile).get(c.clause.id),
                         "exempt": proofs.exempt(profile).get(c.clause.id),
                         "ambiguities": readings.get(c.clause.id, [])} for c in coverage.values()],
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    table = Table(title=f"{profile.short}: {profile.draft}")
    for col in ("id", "§", "key word", "role", "status", "requirement"):
        table.add_column(col, overflow="fold")
    for c in coverage.values():
        table.add_row(c.clause.id, c.clause.section, c.clause.keyword, c.clause.role, c.status, c.clause.text)
    console.print(table)
    return 0


def _print_ambiguities(profile: catalog.Profile, as_json: bool, console: Console) -> int:
    if as_json:
        print(json.dumps({"draft": profile.draft, "short": profile.short, "ambiguities": [
            {"id": a.id, "title": a.title, "sections": list(a.sections), "text": a.text,
             "interpretation": a.interpretation, "clauses": list(a.clauses)} for a in profile.ambiguities]},
            indent=2, ensure_ascii=False))
        return 0
    for a in profile.ambiguities:
        console.print(f"[bold]{a.id}[/bold] {escape(a.title)} (§{', §'.join(a.sections)})\n  {escape(a.text)}\n"
                      f"  [green]the kit's reading:[/green] {escape(a.interpretation)}\n"
                      f"  [cyan]clauses judged by this reading:[/cyan] {', '.join(a.clauses) or 'none'}\n")
    return 0


def _cmd_ambiguities(args: argparse.Namespace, console: Console) -> int:
    return _print_ambiguities(_load(args.draft), args.json, console)


def _cmd_targets(args: argparse.Namespace, console: Console) -> int:
    from conformance.targets import kinds
    from conformance.world.site import load_mutants

    _load(args.draft)
    for name, kind in sorted(kinds().items()):
        drafts = getattr(kind, "drafts", None)
        if drafts and args.draft not in drafts:
            continue  # a kind of another draft (txt: is AID's)
        console.print(f"{name}: {kind.help}")
    note = _load(args.draft).target_note
    if note:
        console.print(escape(note))
    try:
        mutants = load_mutants(args.draft)
    except FileNotFoundError:
        mutants = {}
    if mutants:
        table = Table(title=f"built-in broken variants of {args.draft} (--target builtin:NAME)")
        for col in ("name", "breaks", "how"):
            table.add_column(col, overflow="fold")
        for m in mutants.values():
            table.add_row(m.name, m.clause, m.summary)
        console.print(table)
    from conformance import catalog

    client = catalog.load(args.draft).client
    agents = load_mutants(args.draft, file=client.mutants) if client else {}
    if agents:
        assert client is not None
        table = Table(title=f"built-in broken {client.role}s of {args.draft} (--role {client.role} --target builtin:NAME)")
        for col in ("name", "breaks", "how", "driven"):
            table.add_column(col, overflow="fold")
        for m in agents.values():
            table.add_row(m.name, m.clause, m.summary, m.via)
        console.print(table)
    conforming = load_mutants(args.draft, "conforming") if mutants else {}
    if conforming:
        table = Table(title=f"built-in conforming variants of {args.draft} (edge cases that must pass)")
        for col in ("name", "must reach", "how"):
            table.add_column(col, overflow="fold")
        for m in conforming.values():
            table.add_row(m.name, m.expect or "", m.summary)
        console.print(table)
    return 0


def _interrupt_on_sigterm() -> None:
    """SIGTERM ends a run as Ctrl-C does: pytest stops, the partial report is written, every
    adapter process group is ended."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        def handler(signum, frame):  # noqa: ARG001
            raise KeyboardInterrupt(f"signal {signum}")

        signal.signal(signal.SIGTERM, handler)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "run":
        _interrupt_on_sigterm()
    console = Console(stderr=False, highlight=False, soft_wrap=True)
    handler = {"run": _cmd_run, "clauses": _cmd_clauses, "targets": _cmd_targets,
               "ambiguities": _cmd_ambiguities}[args.command]
    try:
        return handler(args, console)
    except SystemExit as exc:
        return int(exc.code or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
