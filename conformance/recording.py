"""The recorded world: what a scan sent and received, kept so that it can be judged again offline.

A :class:`Recording` rides on a run's :class:`~conformance.fetch.HttpConfig` and
:class:`~conformance.dns.DnsConfig`. The fetcher and the resolver ask it first: a request (or a
TXT lookup) it holds is answered from it, exactly as it was answered when it was recorded. A
request it does not hold is

* sent, and kept, when the recording is **live** (``adck scan``: each request once, whichever
  clause asks first), unless the scan's rules refuse it: a method other than GET or HEAD (a scan
  is read-only: no invocation, no search, no registration), or a URL outside the scan's scope
  (the entry points of the drafts at the domain's own names; a URL a document names elsewhere,
  such as an agent's endpoint, is not asked);
* refused when the recording is **offline** (``adck judge``): nothing leaves the machine.

A refused request is an exchange with an error whose kind is in :data:`REFUSALS`; the plugin
reports every clause that looked at one as *not checked* (untestable, ``narrowed``): the
recorded world cannot show it, which says nothing of the target. It is never a pass.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from conformance.dns import TxtAnswer
    from conformance.fetch import Exchange

#: Error kinds of a request the recorded world refused (never sent).
NOT_RECORDED, OUT_OF_SCOPE, READ_ONLY = "not-recorded", "out-of-scope", "read-only"
REFUSALS = frozenset({NOT_RECORDED, OUT_OF_SCOPE, READ_ONLY})
#: The methods a scan sends.
SAFE_METHODS = frozenset({"GET", "HEAD"})
#: Request headers left out of a request's key: the same request sent by another kit version,
#: or rebuilt by the HTTP library, is the same request.
_UNKEYED = frozenset({"user-agent", "host", "connection", "content-length", "accept-encoding"})


def request_key(method: str, url: str, headers: dict[str, str], body: bytes = b"") -> tuple:
    """What identifies a request in a recording: method, URL, the headers the kit chose, body."""
    chosen = tuple(sorted((k.lower(), v) for k, v in headers.items() if k.lower() not in _UNKEYED))
    return method.upper(), url, chosen, bytes(body)


def _frozen(exchange: "Exchange") -> "Exchange":
    """A copy of ``exchange`` that later changes to either leave alone: its two mutable fields
    copied, the rest (strings, bytes, tuples) shared. (``copy.deepcopy`` did the same, at ten
    times the cost, for every request of a scan.)"""
    from dataclasses import replace

    return replace(exchange, request_headers=dict(exchange.request_headers),
                   response_headers=list(exchange.response_headers))


@dataclass(frozen=True)
class Addresses:
    """The addresses a scan looked up for a host, to pace its requests per address (empty: none,
    or the lookups failed), and the record types it asked: A, then AAAA when there was no A."""

    name: str
    found: tuple[str, ...]
    asked: tuple[str, ...] = ("A", "AAAA")


def refusal(item: Any) -> tuple[str, str] | None:
    """(kind, detail) when ``item`` (an exchange or a TXT answer) is a request the recorded world
    refused, else None."""
    error = getattr(item, "error", None)
    if isinstance(error, tuple) and len(error) == 2 and error[0] in REFUSALS:
        return error
    if getattr(item, "status", None) == "error":
        detail = str(getattr(item, "detail", ""))
        kind = detail.split(":", 1)[0]
        if kind in REFUSALS:
            return kind, detail
    return None


@dataclass
class Recording:
    """Exchanges and TXT answers of one domain (or one run), keyed by request; thread-safe."""

    #: True: a request not held is sent and kept (a scan); False: it is refused (a judge).
    live: bool = False
    #: The URL prefixes requests may go to (``https://example.com/.well-known/``); None: any.
    #: Only for a live recording.
    scope: tuple[str, ...] | None = None
    #: Refuse methods other than GET and HEAD (a live recording of a scan).
    read_only: bool = True
    #: A live recording's politeness: called with a request's host and this recording before the
    #: request is sent (it may wait, and keeps the lookup it made: :meth:`keep_addresses`).
    pace: "Callable[[str, Recording], None] | None" = field(default=None, repr=False, compare=False)
    #: The User-Agent a live recording's requests carry instead of the kit's (a scan says what it is).
    user_agent: str | None = None
    #: Connect to no loopback or private address, the domain's own included: a scan's user names
    #: domains by the thousand, not the addresses their DNS gives (``--allow-private`` lifts it).
    public_only: bool = False
    http: dict[tuple, "Exchange"] = field(default_factory=dict)
    dns: dict[str, "TxtAnswer"] = field(default_factory=dict)
    #: The address lookups a live scan made to pace a host per address (its host -> them).
    addresses: dict[str, "Addresses"] = field(default_factory=dict)
    #: The order requests were first made in: ("http", key), ("dns", name) or ("addresses", host).
    order: list[tuple[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    # ------------------------------------------------------------------ HTTP

    def answer(self, exchange: "Exchange") -> "Exchange | None":
        """The recorded exchange for this request (a copy), or None."""
        key = request_key(exchange.method, exchange.url, exchange.request_headers, exchange.request_body)
        with self._lock:
            held = self.http.get(key)
        return _frozen(held) if held is not None else None

    def refuse(self, exchange: "Exchange", redirected: bool = False) -> tuple[str, str] | None:
        """Why this request, not held, may not be sent (offline, read-only, out of scope), or None.
        A redirect hop is in scope anywhere on a host of the scope (a site moving its document
        to another path is followed; to another host, not)."""
        what = f"{exchange.method} {exchange.url}"
        if not self.live:
            return NOT_RECORDED, f"{NOT_RECORDED}: the recording holds no answer to {what} (a probe the scan did not send)"
        if self.read_only and exchange.method.upper() not in SAFE_METHODS:
            return READ_ONLY, f"{READ_ONLY}: a scan sends only GET and HEAD; {what} was not sent"
        url = exchange.url.lower()
        hosts = tuple({p.lower().split("/", 3)[2] for p in self.scope or ()})
        if redirected and any(url.split("/", 3)[2:3] == [h] for h in hosts):
            return None
        if self.scope is not None and not url.startswith(tuple(p.lower() for p in self.scope)):
            return OUT_OF_SCOPE, (f"{OUT_OF_SCOPE}: a scan asks only the drafts' entry points ("
                                  f"{', '.join(self.scope[:4])}{', …' if len(self.scope) > 4 else ''}); {what} was not sent")
        return None

    def keep(self, exchange: "Exchange") -> None:
        key = request_key(exchange.method, exchange.url, exchange.request_headers, exchange.request_body)
        with self._lock:
            if key not in self.http:
                self.http[key] = _frozen(exchange)
                self.order.append(("http", key))

    # ------------------------------------------------------------------ DNS

    def txt(self, name: str) -> "TxtAnswer | None":
        with self._lock:
            held = self.dns.get(name.lower().rstrip("."))
        return copy.deepcopy(held) if held is not None else None

    def refuse_txt(self, name: str) -> "TxtAnswer | None":
        """The answer standing for a TXT lookup the recording may not make (offline), or None."""
        if self.live:
            return None
        from conformance.dns import TxtAnswer

        return TxtAnswer(name=name, status="error",
                         detail=f"{NOT_RECORDED}: the recording holds no TXT answer for {name} (a lookup the scan did not make)")

    def keep_txt(self, answer: "TxtAnswer") -> None:
        name = answer.name.lower().rstrip(".")
        with self._lock:
            if name not in self.dns:
                self.dns[name] = copy.deepcopy(answer)
                self.order.append(("dns", name))

    def keep_addresses(self, found: "Addresses") -> None:
        """Keeps the addresses a scan looked up for a host (to pace it), so the WARC holds every
        lookup the scan made. Nothing is answered from them: a judged run never asks."""
        with self._lock:
            if found.name not in self.addresses:
                self.addresses[found.name] = found
                self.order.append(("addresses", found.name))

    # ------------------------------------------------------------------ as a whole

    def items(self) -> list[tuple[str, Any]]:
        """Every kept exchange and answer, in the order first made: ("http", Exchange),
        ("dns", TxtAnswer) or ("addresses", Addresses)."""
        with self._lock:
            held = {"http": self.http, "dns": self.dns, "addresses": self.addresses}
            return [(kind, held[kind][key]) for kind, key in self.order]

    def offline(self) -> "Recording":
        """The same exchanges, answered back with nothing sent (``adck judge``)."""
        with self._lock:
            return Recording(live=False, scope=self.scope, read_only=True, http=dict(self.http), dns=dict(self.dns),
                             addresses=dict(self.addresses), order=list(self.order))

    def __getstate__(self) -> dict:
        """To another process (a judging process of a scan): no lock; the pacing only when it
        is shared between processes (``portable``: a scan's pacer, its slots in shared memory)."""
        state = {k: v for k, v in self.__dict__.items() if k != "_lock"}
        if not getattr(self.pace, "portable", False):
            state["pace"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()


class Carrier:
    """Hands a run the recording it keeps or answers from: ``api.run(..., recording=)`` registers
    one as a pytest plugin, and the plugin gives its recording to the target's options."""

    def __init__(self, recording: Recording) -> None:
        self.recording = recording


def carried(plugins) -> Recording | None:  # noqa: ANN001 - a pytest PluginManager's plugins
    """The recording a run was handed, or None."""
    return next((p.recording for p in plugins if isinstance(p, Carrier)), None)
