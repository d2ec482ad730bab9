"""Judging on every core: the documents a scan found, judged in worker processes.

A judging run is a pytest session (about 0.13 s of CPU for one document, once warm) and wants a
main thread, so a scan that judges on its own thread judges one document at a time, on one
core. With ``judges`` > 0 (``adck scan --judges N``; default: one per core) a domain where
something was found is handed, with its recording, to a pool of worker processes, each judging
on its own main thread by the same code (:func:`conformance.scan.domain.scan_domain`), as
``adck run`` would; the recording comes back with whatever the judging run sent, for the WARC.

The workers are forked warm (:mod:`conformance.scan.warm`): the suites are loaded once a scan, in
the forkserver they are forked from, not once a worker.

Politeness holds across the pool: the scan's pacer keeps its per-address slots in shared memory
(:class:`SharedPacer`), which the scan's threads and every worker take slots from under one
lock, with no round trip to another process. The workers hold no copy of the scan's threads and
sockets (forked from the forkserver, not from the scan), ignore Ctrl-C (an interruption is the
scan's to handle: a domain being judged is not written, and is scanned again on resume), and end
when the scan's process does, even when it is killed.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import zlib
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

import httpx

from conformance.dns import DnsConfig, Resolver
from conformance.scan import warm
from conformance.scan.domain import DraftResult, Pacer, ScanOptions, scan_domain

if TYPE_CHECKING:
    from conformance.recording import Recording

#: The shared slot table of the scan that started this worker process (set at its start).
_TABLE: Any = None


class SharedPacer(Pacer):
    """The scan's :class:`Pacer`, its next free time per address in a table of shared memory
    (``multiprocessing.Array``, one lock), so that a judging worker's requests and the scan's
    own take slots from one budget. An address is a slot by its CRC-32: two addresses that share
    a slot are paced together (slower, never faster than ``rate``). Travels with a recording to
    a worker (``portable``), where it takes the table the worker was started with; the times are
    ``time.monotonic()``, one clock for every process of the machine (Linux's CLOCK_MONOTONIC)."""

    portable = True
    SLOTS = 4096

    def __init__(self, rate: float, dns: DnsConfig, table: Any) -> None:
        super().__init__(rate, Resolver(dns))
        self.dns = dns
        self.table = table

    def _reserve(self, address: str) -> float:
        index = zlib.crc32(address.encode()) % len(self.table)
        with self.table.get_lock():
            now = time.monotonic()
            at = max(now, self.table[index])
            self.table[index] = at + self.interval
        return at - now

    def knowing(self, domain: str) -> "SharedPacer":
        """This pacer, carrying the address it already found for ``domain``: a worker judging that
        domain then does not look it up again (the scan's recording already holds that lookup).
        Its key is the host as the fetcher paces it, ``httpx.URL.host``: an internationalized
        name in Unicode."""
        try:
            host = httpx.URL(f"https://{domain}/").host
        except Exception:  # noqa: BLE001 - a name httpx refuses: no request went to it either
            host = domain.lower()
        other = SharedPacer.__new__(SharedPacer)  # not copy.copy: that goes through __setstate__
        other.__dict__.update(self.__dict__)
        other._addresses = {host: self._addresses[host]} if host in self._addresses else {}
        other._lock = threading.Lock()
        return other

    def __getstate__(self) -> dict:
        return {"interval": self.interval, "dns": self.dns, "addresses": dict(self._addresses)}

    def __setstate__(self, state: dict) -> None:
        if _TABLE is None:
            raise RuntimeError("a SharedPacer travels only to a judging worker of its scan (conformance.scan.pool)")
        self.__init__(1.0, state["dns"], _TABLE)  # type: ignore[misc]
        self.interval = state["interval"]
        self._addresses.update(state["addresses"])


def _end_with_scan(scan: int) -> None:
    """In a worker: exit when the scan's process is gone (a SIGKILL runs no clean-up there, and
    an orphan would wait on its queue for ever). Its parent is no sign of that: a worker forked
    by the forkserver holds the forkserver open (as every client of it does), so the scan's
    process is watched itself."""
    def watch() -> None:
        while True:
            time.sleep(0.5)
            if _gone(scan):
                os._exit(0)

    threading.Thread(target=watch, name="adck-scan-orphan-guard", daemon=True).start()


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (exited, or a zombie its parent has not yet reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's: a pid reused long after the scan, not seen here
        return False
    from conformance.harness.reaper import process_stat

    st = process_stat(pid)  # None without /proc (not Linux): kill() said it is there
    return st is not None and st[1] == "Z"


def _worker_start(scan: int, table: Any) -> None:
    global _TABLE
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_scan(scan)
    _TABLE = table
    import conformance.api  # noqa: F401 - imported once, before the first document (forked warm: already)


def judge(domain: str, options: ScanOptions, recording: "Recording", warc_name: str
          ) -> tuple["Recording", list[DraftResult]]:
    """In a worker: ``domain`` classed again from its recording and each document found judged;
    the recording (with what the judging sent) and the result lines."""
    results = scan_domain(domain, options, recording, warc_name=warc_name)
    recording.pace = None  # the scan's pacer stays here: the scan's process has its own
    return recording, results


class JudgingPool:
    """``judges`` worker processes, started at the first document found, and the shared pacer."""

    def __init__(self, judges: int, rate: float, options: ScanOptions) -> None:
        self.judges = judges
        self._context = warm.context()
        self._table = self._context.Array("d", SharedPacer.SLOTS)
        self.pace = SharedPacer(rate, options.dns(), self._table)
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def executor(self) -> Executor:
        with self._lock:
            if self._executor is None or getattr(self._executor, "_broken", False):
                if self._executor is not None:  # a worker died (killed, out of memory): a new pool
                    self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = ProcessPoolExecutor(self.judges, mp_context=self._context, initializer=_worker_start,
                                                     initargs=(os.getpid(), self._table))
            return self._executor

    def close(self) -> None:
        """Wait for the documents being judged (a second or so), then end the workers."""
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=True, cancel_futures=True)
                self._executor = None
