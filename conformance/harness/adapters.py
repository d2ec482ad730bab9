"""Adapters: the two ways the kit reaches a client under test, behind one interface.

``python:MODULE:CALLABLE`` calls ``CALLABLE(message) -> reply`` in-process; ``cmd:COMMAND``
starts COMMAND and speaks JSON lines over its stdin/stdout. Both get the same messages and
both replies are validated against the same schemas, so a client gives the same verdicts
through either. A reply that breaks the protocol raises :class:`AdapterError`: the report
calls that an adapter error, never a failure of the client.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Callable

import jsonschema

from conformance import __version__
from conformance.harness import PROTOCOL, reaper

SCHEMAS = Path(__file__).with_name("schemas")
REPLY_TIMEOUT = 30.0


class AdapterError(Exception):
    """The adapter broke the harness protocol (no reply, not JSON, invalid reply)."""


@cache
def schema(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((SCHEMAS / f"{name}.json").read_text("utf-8")))


def _check_kit(message: dict) -> dict:
    """The kit's own request must follow the protocol; if not, that is a bug of the kit."""
    errors = list(schema("request").iter_errors(message))
    if errors:
        raise RuntimeError(f"adck bug: its own request breaks {PROTOCOL}: {errors[0].message}")
    return message


def _check(name: str, message: Any, what: str) -> dict:
    errors = sorted(schema(name).iter_errors(message), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        where = "/".join(map(str, e.path)) or "(top)"
        raise AdapterError(f"{what} does not follow {PROTOCOL} ({name}.json at {where}: {e.message})")
    return message


@dataclass
class Step:
    """One request sent and the reply it got: the adapter's part of a report's evidence."""

    request: dict
    reply: dict | None = None
    error: str | None = None


@dataclass
class Adapter:
    """A connected adapter: ``run()`` sends one step and returns the validated reply."""

    spec: str
    send: Callable[[dict], Any]
    closer: Callable[[], None] = lambda: None
    client: dict = field(default_factory=dict)
    operations: tuple[str, ...] = ()
    #: Optional abilities the client claims in its hello (``aid.manifest``, ``aid.local``).
    features: tuple[str, ...] = ()
    #: The agent protocols the client says it speaks (AID), if it said.
    protocols: tuple[str, ...] = ()
    #: How the client's DNS queries reach the kit's nameservers (the hello's optional ``dns``:
    #: ``asked_by`` client or adapter, ``adapter``, ``how``, ``client_transport``); empty: the
    #: client asks them itself.
    dns: dict = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    #: True when the client runs in the kit's own process (python:, builtin).
    in_process: bool = False
    #: When the run must end (time.time()): no step waits for a reply past it.
    deadline: float | None = None
    #: The adapter process of a ``cmd:`` adapter.
    process: "_Process | None" = None

    def start(self) -> "Adapter":
        hello = _check_kit({"type": "hello", "protocol": PROTOCOL, "kit": f"adck {__version__}"})
        reply = _check("hello", self.send(hello), "the adapter's hello")
        self.client, self.operations = reply["client"], tuple(reply["operations"])
        self.features, self.protocols = tuple(reply.get("features", ())), tuple(reply.get("protocols", ()))
        self.dns = dict(reply.get("dns") or {})
        return self

    def dns_asker(self) -> dict:
        """Who sent the client's DNS queries, for the DNS evidence (``dns_query_evidence``):
        ``asked_by`` ("client" or "adapter"), ``adapter`` (its name: the target as given unless
        the hello names it), ``how`` and ``client_transport`` where the hello says."""
        if not self.dns:
            return {"asked_by": "client"}
        return {"adapter": self.spec, **self.dns}

    def run(self, request: dict) -> dict:
        _check_kit(request)
        step = Step(request=request)
        self.steps.append(step)
        if self.process is not None:
            self.process.deadline = self.deadline
        try:
            reply = self.send(request)
            step.reply = reply if isinstance(reply, dict) else {"not-an-object": repr(reply)[:200]}
            _check("reply", reply, "the adapter's reply")
            if reply["id"] != request["id"]:
                raise AdapterError(f"the reply answers step {reply['id']!r}, not {request['id']!r}")
        except AdapterError as exc:
            step.error = str(exc)
            raise
        return reply

    def close(self) -> None:
        self.closer()


def python_adapter(spec: str) -> Adapter:
    """``python:MODULE:CALLABLE``: the callable takes a message dict and returns the reply."""
    target = spec.removeprefix("python:")
    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise ValueError(f"--target {spec!r}: expected python:MODULE:CALLABLE")
    try:
        fn = getattr(importlib.import_module(module_name), attr)
    except ImportError as exc:
        from conformance.preflight import install_hint, missing_module

        missing = missing_module(exc, wanted=module_name)
        if missing:  # the adapter is there, what it drives is not (an optional extra)
            raise ValueError(f"--target {spec!r}: {module_name} needs the Python package {missing!r}, which is "
                             f"not installed: {install_hint(missing)}") from None
        raise ValueError(f"--target {spec!r}: cannot import {target}: {exc}") from None
    except AttributeError as exc:
        raise ValueError(f"--target {spec!r}: cannot import {target}: {exc}") from None
    return callable_adapter(fn, spec)


def callable_adapter(fn: Callable[[dict], Any], spec: str) -> Adapter:
    """An in-process adapter around a message handler."""

    def send(message: dict) -> Any:
        try:
            reply = fn(message)
        except Exception as exc:  # noqa: BLE001 - the adapter's fault, reported as such
            raise AdapterError(f"the in-process adapter raised {type(exc).__name__}: {exc}") from None
        try:
            return json.loads(json.dumps(reply))  # the same bytes a subprocess would send
        except (TypeError, ValueError) as exc:
            raise AdapterError(f"the reply is not JSON: {exc}") from None

    def close() -> None:
        try:
            fn({"type": "stop"})
        except Exception:  # noqa: BLE001 - nothing to report at the end of a run
            pass

    return Adapter(spec=spec, send=send, closer=close, in_process=True).start()


#: The longest reply line the kit reads; a longer line (or a flood with no newline) is an
#: adapter error and ends the adapter.
MAX_REPLY_LINE = 4 * 1024 * 1024
#: How much of an adapter's stderr the kit keeps (the tail: where the error usually is).
STDERR_TAIL = 64 * 1024

#: Adapter processes still running, so that every exit path of the kit can end them.
_LIVE: "set[_Process]" = set()


def end_all_adapters() -> None:
    """Kill every adapter process group the kit started and that still runs (at exit, on a
    signal): no adapter, nor any child it forked, outlives the run."""
    for process in list(_LIVE):
        process.kill_group()


atexit.register(end_all_adapters)


class _TooLong:
    def __init__(self, size: int) -> None:
        self.size = size


class _Process:
    def __init__(self, argv: list[str], timeout: float) -> None:
        self.timeout = timeout
        #: The run's deadline (time.time()), set by the adapter: a step never waits past it.
        self.deadline: float | None = None
        self._stderr = bytearray()
        self._stderr_lock = threading.Lock()
        try:
            # its own process group (a new session), so that the kit can end it with its children
            # (and the run's token: a daemon it double-forks is still known as the run's, reaper.py)
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, start_new_session=True,
                                         env=reaper.child_env())
        except OSError as exc:
            raise ValueError(f"cannot start the adapter {shlex.join(argv)!r}: {exc}") from None
        _LIVE.add(self)
        self.lines: queue.Queue[bytes | _TooLong | None] = queue.Queue()
        #: Ids of steps whose reply did not come in time: a late reply to one of them is dropped.
        self.late: set[str] = set()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        """Split stdout into lines, never holding more than one capped line in memory."""
        stream = self.proc.stdout
        buffer = bytearray()
        try:
            while True:
                chunk = stream.read1(65536)  # type: ignore[union-attr]
                if not chunk:
                    break
                buffer += chunk
                while (end := buffer.find(b"\n")) >= 0:
                    self.lines.put(bytes(buffer[: end + 1]))
                    del buffer[: end + 1]
                if len(buffer) > MAX_REPLY_LINE:
                    self.lines.put(_TooLong(len(buffer)))
                    self.kill_group()  # the protocol cannot recover from an endless line
                    break
            if buffer and len(buffer) <= MAX_REPLY_LINE:
                self.lines.put(bytes(buffer))
        except (OSError, ValueError):
            pass
        finally:  # whatever happens, the kit learns that no more replies come
            self.lines.put(None)

    def _read_stderr(self) -> None:
        try:
            while chunk := self.proc.stderr.read1(65536):  # type: ignore[union-attr]
                with self._stderr_lock:
                    self._stderr += chunk
                    if len(self._stderr) > STDERR_TAIL:
                        del self._stderr[: len(self._stderr) - STDERR_TAIL]
        except (OSError, ValueError):
            pass

    def stderr_tail(self) -> str:
        with self._stderr_lock:
            tail = bytes(self._stderr[-600:])
        return tail.decode("utf-8", "replace").strip()

    def send(self, message: dict) -> Any:
        try:
            self.proc.stdin.write(json.dumps(message).encode("utf-8") + b"\n")  # type: ignore[union-attr]
            self.proc.stdin.flush()  # type: ignore[union-attr]
        except (BrokenPipeError, OSError, ValueError):
            raise AdapterError(f"the adapter closed its input (exit {self.proc.poll()}): {self.stderr_tail()}") from None
        # starting an adapter (an interpreter, a JVM) may take longer than answering a step
        timeout = max(self.timeout, REPLY_TIMEOUT) if message.get("type") == "hello" else self.timeout
        if self.deadline is not None:
            timeout = max(0.05, min(timeout, self.deadline - time.time()))
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                if "id" in message:
                    self.late.add(message["id"])
                raise AdapterError(f"no reply within {timeout:g} s") from None
            if line is None:
                self.lines.put(None)  # stays at the end for later steps
                try:
                    status = self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    status = "still running"
                raise AdapterError(f"the adapter exited (status {status}) without replying: {self.stderr_tail()}")
            if isinstance(line, _TooLong):
                raise AdapterError(f"a reply line of over {MAX_REPLY_LINE} bytes ({line.size} read with no "
                                   "newline): the kit ended the adapter")
            try:
                reply = json.loads(line.decode("utf-8"))
            except UnicodeDecodeError:
                raise AdapterError(f"the reply is not UTF-8: {line[:200]!r}") from None
            except (ValueError, RecursionError):
                raise AdapterError(f"the reply is not a JSON line: {line[:200]!r}") from None
            if isinstance(reply, dict) and reply.get("id") in self.late:
                self.late.discard(reply["id"])
                continue  # the late answer to a step already reported as timed out
            return reply

    def kill_group(self) -> None:
        """End the adapter and everything in its process group."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.proc.poll() is None:
            self.proc.kill()

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                try:
                    self.proc.stdin.write(json.dumps({"type": "stop"}).encode() + b"\n")  # type: ignore[union-attr]
                    self.proc.stdin.close()  # type: ignore[union-attr]
                    self.proc.wait(timeout=5)
                except Exception:  # noqa: BLE001
                    pass
        finally:
            # the adapter may have left children behind (holding its stdout open): end them all
            self.kill_group()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    stream.close()  # type: ignore[union-attr]
                except Exception:  # noqa: BLE001
                    pass
            _LIVE.discard(self)


def command_adapter(spec: str, timeout: float = REPLY_TIMEOUT) -> Adapter:
    """``cmd:COMMAND``: start COMMAND (split like a shell would, never run through one)."""
    argv = shlex.split(spec.removeprefix("cmd:"))
    if not argv:
        raise ValueError(f"--target {spec!r}: expected cmd:COMMAND [ARGS...]")
    process = _Process(argv, timeout)
    try:
        return Adapter(spec=spec, send=process.send, closer=process.close, process=process).start()
    except Exception:
        process.close()
        raise
