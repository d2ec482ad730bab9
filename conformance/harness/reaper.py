"""No process an adapter starts outlives the run, double-forked ``setsid()`` daemons included.

An adapter runs in a process group of its own, which the kit kills at the end of the run; a
daemon that forks twice and calls ``setsid()`` leaves that group and, orphaned, would be
adopted by init. Around a run the kit therefore makes itself a *child subreaper* (Linux
``prctl(PR_SET_CHILD_SUBREAPER)``): orphans of its descendants are reparented to the kit
instead. At the end of the run it walks ``/proc`` for its descendants, ends those the run
started (SIGTERM, a grace period, SIGKILL) and reaps them.

Only processes started during the run are ended, and never one below a process that existed
before it: the self-tests run the kit inside a pytest worker, which may have processes of its
own. Every adapter gets ``ADCK_RUN`` (a token of the run) in its environment; a process that
carries another run's token belongs to that run and is left alone. Elsewhere than Linux the
kit falls back to ending the adapter's process group only.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import sys
import time
from typing import Iterator

ENV = "ADCK_RUN"
GRACE = 1.0
_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37

#: The token of the run in progress (None outside a run).
token: str | None = None


def child_env() -> dict[str, str] | None:
    """The environment for an adapter process: the kit's, plus the run's token."""
    if token is None:
        return None
    return {**os.environ, ENV: token}


def _prctl(option: int, value: int) -> int | None:
    """``prctl(option, value)``; for the GET option, the value read. None when unavailable."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if option == _PR_GET_CHILD_SUBREAPER:
            out = ctypes.c_int(0)
            if libc.prctl(option, ctypes.byref(out), 0, 0, 0) != 0:
                return None
            return out.value
        return None if libc.prctl(option, value, 0, 0, 0) != 0 else value
    except (OSError, AttributeError):
        return None


def process_stat(pid: int) -> tuple[int, str, int] | None:
    """(ppid, state, start time) of ``pid``, or None when it is gone (or there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return int(fields[1]), fields[0].decode(), int(fields[19])
    except (OSError, IndexError, ValueError):
        return None


def _descendants() -> dict[int, tuple[int, str, int]]:
    """Every descendant of the kit's process: pid -> (ppid, state, start time)."""
    table: dict[int, tuple[int, str, int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    for name in names:
        if name.isdigit() and (st := process_stat(int(name))) is not None:
            table[int(name)] = st
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: dict[int, tuple[int, str, int]] = {}
    todo = [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found[child] = table[child]
                todo.append(child)
    return found


def _run_token(pid: int) -> str | None:
    """The ``ADCK_RUN`` token in the process's environment ('' if none, None if unreadable)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read()
    except OSError:
        return None
    for entry in env.split(b"\0"):
        if entry.startswith(ENV.encode() + b"="):
            return entry.split(b"=", 1)[1].decode("ascii", "replace")
    return ""


def _started_by_run(before: set[tuple[int, int]], run: str) -> list[int]:
    """The kit's live descendants that this run started."""
    now = _descendants()
    old = {pid for pid, (_, _, start) in now.items() if (pid, start) in before}
    ours = []
    for pid, (ppid, state, start) in now.items():
        if pid in old:
            continue
        mark = _run_token(pid)
        if mark == run:
            ours.append(pid)
            continue
        if mark:  # another run's process: that run ends it
            continue
        # no token (a daemon that cleared its environment): the run's if it is new and not
        # below a process that existed before the run
        up, chain_ok = ppid, True
        while up != os.getpid() and up in now:
            if up in old:
                chain_ok = False
                break
            up = now[up][0]
        if chain_ok:
            ours.append(pid)
    return ours


def _reap(before: set[tuple[int, int]]) -> None:
    """Collect the zombies among the kit's children that the run started."""
    for pid, (ppid, state, start) in _descendants().items():
        if ppid == os.getpid() and state == "Z" and (pid, start) not in before:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, os.WNOHANG)


def _alive(pid: int) -> bool:
    st = process_stat(pid)
    return st is not None and st[1] != "Z"


def end_descendants(before: set[tuple[int, int]], run: str) -> None:
    """End (SIGTERM, grace, SIGKILL) and reap every process the run started."""
    for sig, grace in ((signal.SIGTERM, GRACE), (signal.SIGKILL, 2.0), (signal.SIGKILL, 2.0)):
        pids = _started_by_run(before, run)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        deadline = time.monotonic() + grace
        while True:
            _reap(before)
            if not any(map(_alive, pids)) or time.monotonic() >= deadline:
                break
            time.sleep(0.05)
    _reap(before)


@contextlib.contextmanager
def run_processes() -> Iterator[None]:
    """Around a run: adopt the orphans of the run's processes, and end them all at its end."""
    global token
    if token is not None or not os.path.isdir("/proc"):  # a nested run, or not Linux
        yield
        return
    run = token = secrets.token_hex(8)
    before = {(pid, start) for pid, (_, _, start) in _descendants().items()}
    was = _prctl(_PR_GET_CHILD_SUBREAPER, 0)
    if was == 0:
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    try:
        yield
    finally:
        try:
            end_descendants(before, run)
        finally:
            if was == 0:
                _prctl(_PR_SET_CHILD_SUBREAPER, 0)
            token = None
