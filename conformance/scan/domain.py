"""One domain, scanned or judged again: each draft's entry point asked, each document found judged.

For every draft scanned, the entry point its profile names (``[scan]``: a path at
``https://DOMAIN``, or a TXT record such as ``_agent.DOMAIN``) is asked once, and what came back
is classed:

=============  ==================================================================================
found          a TXT record; or a 200 whose body is not an HTML page (broken documents included)
not-found      404 or 410; NXDOMAIN or no TXT record
soft-404       a 200 (after redirects) whose body is an HTML page: a site's "not found" page
unreachable    no answer: DNS failure, connection refused or reset, TLS failure, timeout
error          any other answer (401, 403, 5xx, 421, …) or a redirect the scan does not follow
=============  ==================================================================================

A document found is judged by the draft's own suite, in the roles ``[scan]`` names, through the
same recording: its clauses' requests are answered from what the scan already asked, or sent and
kept (a live scan), or refused (``adck judge``, offline). Read-only: only GET and HEAD, only the
paths ``[scan]`` lists at the domain's own names (``conformance.recording``).
"""

from __future__ import annotations

import functools
import json
import threading
import time
from dataclasses import asdict, dataclass, field, replace

from conformance import __version__, api, catalog, revisions
from conformance.dns import DnsConfig, Resolver, a_label
from conformance.fetch import ConnectTo, Fetcher, HttpConfig, Limits
from conformance.recording import Addresses, Recording

STATUSES = ("found", "not-found", "soft-404", "unreachable", "error")
#: What a scan's requests say they are: the kit, that it only reads, and where to read about it.
USER_AGENT = (f"adck-scan/{__version__} (Agent Discovery Conformance Kit; read-only scan of agent-discovery "
              "entry points; see docs/scan.md of the adck project)")
_UNREACHABLE = {"connect", "timeout", "tls", "transport", "protocol", "private-address"}


@dataclass(frozen=True)
class ScanOptions:
    """How a scan reaches domains and what it judges (the ``adck scan`` options)."""

    #: Draft specs, each with the revision judged (``aid``, ``aid@v1.2``); default: every draft
    #: whose profile has ``[scan]``, at its newest revision.
    drafts: tuple[str, ...] = ()
    ca_bundle: str | None = None
    connect_to: tuple[str, ...] = ()
    nameservers: tuple[str, ...] = ()
    #: Seconds for one request (connect and whole answer), as ``adck run --timeout``.
    timeout: float = 10.0
    max_body: int | None = None
    allow_private: bool = False
    #: The hypothesis seed of every judging run (a scan is reproducible).
    seed: int = 0
    #: Appended to the User-Agent: how a site owner reaches whoever runs the scan.
    contact: str = ""

    def draft_specs(self) -> tuple[str, ...]:
        if self.drafts:
            return self.drafts
        return tuple(d for d in catalog.available() if catalog.load(d).scan is not None)

    def cli_args(self) -> list[str]:
        """These options as ``adck scan`` flags (a Dask task runs ``adck scan`` with them)."""
        args = [f"--draft={d}" for d in self.draft_specs()] + [f"--connect-to={c}" for c in self.connect_to]
        args += [f"--nameserver={n}" for n in self.nameservers] + ["--timeout", str(self.timeout), "--seed", str(self.seed)]
        args += (["--ca-bundle", self.ca_bundle] if self.ca_bundle else []) + (["--max-body", str(self.max_body)] if self.max_body else [])
        args += (["--allow-private"] if self.allow_private else []) + ([f"--contact={self.contact}"] if self.contact else [])
        return args

    def user_agent(self) -> str:
        return f"{USER_AGENT[:-1]}; contact: {self.contact})" if self.contact else USER_AGENT

    def http(self) -> HttpConfig:
        from pathlib import Path

        return HttpConfig(ca_bundle=Path(self.ca_bundle) if self.ca_bundle else None,
                          connect_to=tuple(ConnectTo.parse(c) for c in self.connect_to),
                          limits=Limits(total_timeout=self.timeout, connect_timeout=min(Limits.connect_timeout, self.timeout),
                                        max_body_bytes=self.max_body or Limits.max_body_bytes),
                          allow_private=self.allow_private)

    def dns(self) -> DnsConfig:
        return DnsConfig(nameservers=tuple(DnsConfig.parse_nameserver(n) for n in self.nameservers))


@dataclass
class DraftResult:
    """One line of a scan's results: one domain, one draft."""

    domain: str
    draft: str
    revision: str
    status: str
    #: What was seen at the entry point, in a few words (the status's reason).
    detail: str = ""
    #: The verdict of the judged document (found only): full, conformant, non-conformant, partial.
    level: str | None = None
    #: MUST and SHOULD clauses failed (or errored), by level.
    failed_must: list[str] = field(default_factory=list)
    failed_should: list[str] = field(default_factory=list)
    #: MUST and SHOULD clauses not checked (untestable): a probe the scan did not or could not
    #: send (read-only, scope, no invocation ever), or a prerequisite that failed.
    not_checked: list[str] = field(default_factory=list)
    #: The command that judges this line again from the scan's WARC.
    replay: str = ""

    def to_json(self) -> str:
        """The line, its one string from the target (``detail``: a URL, a header) made safe as every
        report's strings are: no control characters, secrets redacted, capped."""
        from conformance.reports.safe import text

        return json.dumps({**asdict(self), "detail": text(self.detail)}, sort_keys=True)


class Pacer:
    """At most ``rate`` requests a second to one IP address (a name's lowest A address in DNS, or
    AAAA when it has no A; a name without one is paced on its own). Thread-safe; waits in the
    calling thread."""

    def __init__(self, rate: float, resolver: Resolver) -> None:
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.resolver = resolver
        self._next: dict[str, float] = {}
        self._addresses: dict[str, str] = {}
        self._lock = threading.Lock()

    def __call__(self, host: str, recording: Recording | None = None) -> None:
        wait = self.delay(host, recording)
        if wait > 0:
            time.sleep(wait)

    def delay(self, host: str, recording: Recording | None = None) -> float:
        """Seconds to wait before a request to ``host`` may go: its slot, taken now. A lookup of
        the host's addresses made for it is kept in ``recording`` (the WARC holds every lookup)."""
        if not self.interval:
            return 0.0
        return self._reserve(self._address(host.lower(), recording))

    def _reserve(self, address: str) -> float:
        with self._lock:
            now = time.monotonic()
            at = max(now, self._next.get(address, 0.0))
            self._next[address] = at + self.interval
        return at - now

    def _address(self, host: str, recording: Recording | None = None) -> str:
        with self._lock:
            if host in self._addresses:
                return self._addresses[host]
        found, asked = self.resolver.addresses(host)
        if recording is not None:
            recording.keep_addresses(Addresses(host, tuple(found), asked))
        address = sorted(found)[0] if found else f"name:{host}"
        with self._lock:
            self._addresses[host] = address
        return address


def scope(domain: str, profiles: list[catalog.Profile]) -> tuple[str, ...]:
    """The URL prefixes a scan of ``domain`` may ask: each draft's paths at the domain, https and
    http. The host is written as a request's URL writes it: an internationalized name by its
    A-label (``bücher.example`` -> ``xn--bcher-kva.example``), or every request would be out of scope."""
    try:
        host = a_label(domain)
    except Exception:  # noqa: BLE001 - a name IDNA refuses: kept as given (its requests fail to connect)
        host = domain
    paths = sorted({p for profile in profiles if profile.scan for p in (*profile.scan.paths,
                    *([profile.scan.entry] if not profile.scan.dns_label else []))})
    return tuple(f"{scheme}://{host}{path}" for scheme in ("https", "http") for path in paths)


def live_recording(domain: str, options: ScanOptions, profiles: list[catalog.Profile],
                   pace: "Pacer | None" = None) -> Recording:
    """The recording a scan of ``domain`` keeps: read-only, within the drafts' entry points,
    paced, saying it is a scan."""
    return Recording(live=True, read_only=True, scope=scope(domain, profiles), pace=pace,
                     user_agent=options.user_agent(), public_only=not options.allow_private)


def scan_domain(domain: str, options: ScanOptions, recording: Recording, *, warc_name: str = "SCAN.warc.gz",
                judge: bool = True) -> list[DraftResult]:
    """Each draft's entry point at ``domain`` asked through ``recording`` (live: sent and kept;
    offline: answered from it), classed, and each document found judged (``judge``)."""
    http = replace(options.http(), recording=recording)
    dns = replace(options.dns(), recording=recording)
    results = []
    with Fetcher(http) as fetcher:
        resolver = Resolver(dns)
        for spec in options.draft_specs():
            short = spec.partition("@")[0]
            profile = _profile(short)
            entry = profile.scan
            revision = spec.partition("@")[2] or revisions.judged(short).name
            if entry is None:
                results.append(DraftResult(domain, short, revision, "error", f"{short} has no [scan] entry point"))
                continue
            status, detail = classify(domain, entry, fetcher, resolver)
            result = DraftResult(domain, short, revision, status, detail)
            if status == "found" and judge:
                _judge(result, spec, domain, entry, options, recording, profile, warc_name)
            results.append(result)
    return results


@functools.lru_cache(maxsize=None)
def _profile(short: str) -> catalog.Profile:
    """A draft's profile, read once per process (a scan asks for it for every domain)."""
    return catalog.load(short)


def classify(domain: str, entry: catalog.ScanEntry, fetcher: Fetcher, resolver: Resolver) -> tuple[str, str]:
    """(status, what was seen) for a draft's entry point at ``domain`` (the table above)."""
    label = entry.dns_label
    if label is not None:
        answer = resolver.txt(f"{label}.{a_label(domain)}")
        if answer.status == "ok" and answer.records:
            return "found", f"{len(answer.records)} TXT record{'s' if len(answer.records) != 1 else ''} at {answer.name}"
        if answer.status in ("nxdomain", "nodata", "ok"):
            return "not-found", f"{answer.name}: {answer.status}"
        if answer.detail.startswith("not-recorded"):
            return "error", answer.detail
        return "unreachable", f"{answer.name}: {answer.status} ({answer.detail})"
    fetch = fetcher.get(f"https://{domain}{entry.entry}")
    final = fetch.final
    if final is None:
        kind = fetch.error_kind or "transport"
        return ("unreachable" if kind in _UNREACHABLE else "error"), fetch.describe_error()
    if fetch.error and fetch.error_kind not in ("too-large",):
        return "error", f"HTTP {final.status}, then {fetch.describe_error()}"
    if final.status in (404, 410):
        return "not-found", f"HTTP {final.status}"
    if final.status != 200:
        return "error", f"HTTP {final.status}" + (f" (from {final.url})" if fetch.redirects else "")
    if _html(final):
        return "soft-404", f"HTTP 200 with an HTML page ({final.header('content-type') or 'no Content-Type'})"
    return "found", f"HTTP 200, {len(final.body)} bytes" + (f" (from {final.url})" if fetch.redirects else "")


def _html(exchange) -> bool:  # noqa: ANN001 - a fetch Exchange
    kind = (exchange.header("content-type") or "").split(";")[0].strip().lower()
    head = exchange.body[:512].lstrip().lower()
    return kind in ("text/html", "application/xhtml+xml") or head.startswith((b"<!doctype html", b"<html"))


def _judge(result: DraftResult, spec: str, domain: str, entry: catalog.ScanEntry, options: ScanOptions,
           recording: Recording, profile: catalog.Profile, warc_name: str) -> None:
    published_in_dns = profile.bare_target == "domain"
    target = domain if published_in_dns else f"https://{domain}"
    run = api.run(f"{profile.short}@{result.revision}", target, roles=entry.roles,
                  ca_bundle=options.ca_bundle, connect_to=options.connect_to,
                  nameservers=options.nameservers if published_in_dns else (),
                  timeout=options.timeout, max_body=options.max_body, allow_private=options.allow_private,
                  seed=options.seed, report_dir=None, recording=recording)
    result.replay = (f"adck run {profile.short}@{result.revision} --target warc:{warc_name}#{domain} "
                     f"--role {' --role '.join(entry.roles)} --seed {options.seed}")
    if run.report is None:
        result.status, result.detail = "error", f"the kit could not judge it: {run.error}"
        return
    result.level = run.report.summary.level
    for r in run.report.results:
        if r.level not in ("MUST", "SHOULD"):
            continue
        if r.outcome in ("fail", "error"):
            (result.failed_must if r.level == "MUST" else result.failed_should).append(r.clause)
        elif r.outcome == "untestable":  # what keeps a level "partial": named, never counted as passed
            result.not_checked.append(r.clause)
