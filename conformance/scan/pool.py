"""Judging on every core: the documents a scan found, judged in worker processes.

A judging run is a pytest session (about half a second of CPU for one document) and wants a
main thread, so a scan that judges on its own thread judges one document at a time, on one
core. With ``judges`` > 0 (``adck scan --judges N``; default: one per core) a domain where
something was found is handed, with its recording, to a pool of worker processes, each judging
on its own main thread by the same code (:func:`conformance.scan.domain.scan_domain`), as
``adck run`` would; the recording comes back with whatever the judging run sent, for the WARC.

Politeness holds across the pool: the scan's one :class:`Pacer` lives in a manager process that
the scan's threads and every worker ask for a slot (:class:`SharedPace`). The workers start
fresh (``spawn``: no copy of the scan's threads and sockets), ignore Ctrl-C (an interruption is
the scan's to handle: a domain being judged is not written, and is scanned again on resume), and
end when the scan's process does, even when it is killed.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from multiprocessing.managers import BaseManager
from typing import TYPE_CHECKING

from conformance.dns import DnsConfig, Resolver
from conformance.scan.domain import DraftResult, Pacer, ScanOptions, scan_domain

if TYPE_CHECKING:
    from conformance.recording import Recording


class SharedPace:
    """A recording's pacing through the scan's one pacer (a manager's proxy): the same per-IP
    budget in every process. Travels with a recording to a worker (``portable``)."""

    portable = True

    def __init__(self, pacer) -> None:  # noqa: ANN001 - a proxy of Pacer
        self.pacer = pacer

    def __call__(self, host: str) -> None:
        wait = self.pacer.delay(host)
        if wait > 0:
            time.sleep(wait)


def _pacer(rate: float, dns: DnsConfig) -> Pacer:
    return Pacer(rate, Resolver(dns))


class _Pacing(BaseManager):
    pass


_Pacing.register("Pacer", _pacer, exposed=("delay",))


def _end_with_parent(parent: int) -> None:
    """In a worker or the manager: exit when the scan's process is gone (a SIGKILL runs no
    clean-up there, and an orphan would wait on its queue for ever)."""
    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="adck-scan-orphan-guard", daemon=True).start()


def _manager_start(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_parent(parent)


def _worker_start(parent: int) -> None:
    _manager_start(parent)
    import conformance.api  # noqa: F401 - imported once, before the first document


def judge(domain: str, options: ScanOptions, recording: "Recording", warc_name: str
          ) -> tuple["Recording", list[DraftResult]]:
    """In a worker: ``domain`` classed again from its recording and each document found judged;
    the recording (with what the judging sent) and the result lines."""
    return recording, scan_domain(domain, options, recording, warc_name=warc_name)


class JudgingPool:
    """``judges`` worker processes, started at the first document found, and the shared pacer."""

    def __init__(self, judges: int, rate: float, options: ScanOptions) -> None:
        self.judges = judges
        self._context = multiprocessing.get_context("spawn")
        self._manager = _Pacing(ctx=self._context)
        self._manager.start(_manager_start, (os.getpid(),))
        self.pace = SharedPace(self._manager.Pacer(rate, options.dns()))  # type: ignore[attr-defined]
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def executor(self) -> Executor:
        with self._lock:
            if self._executor is None or getattr(self._executor, "_broken", False):
                if self._executor is not None:  # a worker died (killed, out of memory): a new pool
                    self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = ProcessPoolExecutor(self.judges, mp_context=self._context,
                                                     initializer=_worker_start, initargs=(os.getpid(),))
            return self._executor

    def close(self) -> None:
        """Wait for the documents being judged (a second or so), then end the workers and the manager."""
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=True, cancel_futures=True)
                self._executor = None
        self._manager.shutdown()
