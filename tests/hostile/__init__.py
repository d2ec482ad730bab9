"""Small raw-socket servers that misbehave, for the fetcher's self-tests.

Each listens on 127.0.0.1 on a free port, serves from a daemon thread (one more daemon
thread per connection) and is a context manager that stops itself: the listening socket is
closed, open connections are shut down, and the threads are joined with a timeout. Each
counts the TCP connections it accepted (``.connections``), before any TLS handshake.

With ``ssl_context`` (e.g. ``conformance.world.tls.server_context("hang.adck.test")``) a
server sits behind TLS with the mock CA: the handshake completes, then it misbehaves.

    with Hang() as server:
        fetcher.fetch(f"http://127.0.0.1:{server.port}/")
"""

from __future__ import annotations

import socket
import ssl
import threading
from typing import Callable

#: Response heads the servers use.
OK_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"


class HostileServer:
    """Accepts connections and hands each to :meth:`handle` in its own thread."""

    #: Seconds a server-side socket operation may block (so no thread outlives the test).
    io_timeout = 5.0

    def __init__(self, ssl_context: ssl.SSLContext | None = None) -> None:
        self.ssl_context = ssl_context
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.05)
        self.port: int = self._listener.getsockname()[1]
        self.connections = 0
        self.requests: list[bytes] = []  # the request heads read, in order
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._workers: list[threading.Thread] = []
        self._thread = threading.Thread(target=self._accept_loop, name=f"{type(self).__name__}:{self.port}",
                                        daemon=True)
        self._thread.start()

    # -- lifecycle -----------------------------------------------------------------------
    @property
    def url(self) -> str:
        scheme = "https" if self.ssl_context else "http"
        return f"{scheme}://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self._stopping.set()
        try:
            self._listener.close()
        except OSError:  # pragma: no cover
            pass
        self._thread.join(timeout=2)
        with self._lock:
            conns, workers = list(self._open), list(self._workers)
        for conn in conns:
            for op in (lambda: conn.shutdown(socket.SHUT_RDWR), conn.close):
                try:
                    op()
                except OSError:
                    pass
        for worker in workers:
            worker.join(timeout=2)

    def __enter__(self) -> "HostileServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- serving -------------------------------------------------------------------------
    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                conn, _ = self._listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return  # the listener was closed
            with self._lock:
                self.connections += 1
                self._open.append(conn)
            worker = threading.Thread(target=self._serve_one, args=(conn,), daemon=True)
            with self._lock:
                self._workers.append(worker)
            worker.start()

    def _serve_one(self, conn: socket.socket) -> None:
        conn.settimeout(self.io_timeout)
        try:
            if self.ssl_context is not None:
                conn = self.ssl_context.wrap_socket(conn, server_side=True)
                with self._lock:
                    self._open.append(conn)
            self.handle(conn)
        except (OSError, ssl.SSLError):
            pass  # the client went away, refused our certificate, or the server is stopping
        finally:
            try:
                conn.close()
            except OSError:  # pragma: no cover
                pass

    def read_head(self, conn: socket.socket) -> bytes:
        """Read the request head (up to the blank line); record it."""
        data = b""
        while b"\r\n\r\n" not in data and len(data) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
        head = data.split(b"\r\n\r\n", 1)[0]
        with self._lock:
            self.requests.append(head)
        return head

    def read_request(self, conn: socket.socket, max_body: int = 1 << 20) -> tuple[bytes, bytes]:
        """Read a whole request: its head (recorded, as :meth:`read_head` does) and its body (by
        Content-Length, at most ``max_body`` bytes); what came short is returned as it is."""
        data = b""
        while b"\r\n\r\n" not in data and len(data) < 65536:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        with self._lock:
            self.requests.append(head)
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length" and value.strip().isdigit():
                length = int(value.strip())
        while len(body) < min(length, max_body):
            chunk = conn.recv(65536)
            if not chunk:
                break
            body += chunk
        return head, body

    def wait(self, seconds: float) -> bool:
        """Sleep ``seconds`` on the server side; True when the server is stopping."""
        return self._stopping.wait(seconds)

    def handle(self, conn: socket.socket) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


class Hang(HostileServer):
    """Accepts (and completes TLS), reads nothing, answers nothing, until stopped."""

    def handle(self, conn: socket.socket) -> None:
        self._stopping.wait()


class Trickle(HostileServer):
    """A valid status line and headers, then the body one byte every ``interval`` seconds,
    forever. With ``in_head=True`` the trickle starts inside the headers instead."""

    def __init__(self, ssl_context: ssl.SSLContext | None = None, interval: float = 0.2,
                 in_head: bool = False) -> None:
        self.interval = interval
        self.in_head = in_head
        super().__init__(ssl_context)

    def handle(self, conn: socket.socket) -> None:
        self.read_head(conn)
        if self.in_head:
            conn.sendall(b"HTTP/1.1 200 OK\r\nX-Trickle: ")
            byte = b"a"
        else:
            conn.sendall(OK_HEAD + b"Content-Length: 1000000\r\n\r\n")
            byte = b" "
        while not self.wait(self.interval):
            conn.sendall(byte)


class Flood(HostileServer):
    """Headers, then an endless body (delimited by the connection's close, which never comes)
    repeating ``pattern``."""

    def __init__(self, ssl_context: ssl.SSLContext | None = None, pattern: bytes = b"x") -> None:
        self.chunk = (pattern * (65536 // len(pattern) + 1))[:65536]
        super().__init__(ssl_context)

    def handle(self, conn: socket.socket) -> None:
        self.read_head(conn)
        conn.sendall(OK_HEAD + b"Connection: close\r\n\r\n")
        while not self._stopping.is_set():
            conn.sendall(self.chunk)


class Garbage(HostileServer):
    """Answers a request with bytes that are not HTTP, then closes."""

    payload = b"\x00\xff\xfeSSH-2.0-not-http\r\n\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256)) + b"\r\n\r\n"

    def handle(self, conn: socket.socket) -> None:
        self.read_head(conn)
        conn.sendall(self.payload)


class BadLength(HostileServer):
    """Says ``Content-Length: <declared>`` and sends ``body`` (10 bytes), then closes."""

    def __init__(self, ssl_context: ssl.SSLContext | None = None, declared: str = "100",
                 body: bytes = b'{"a": 1}  ') -> None:
        self.declared = declared
        self.body = body
        super().__init__(ssl_context)

    def handle(self, conn: socket.socket) -> None:
        self.read_head(conn)
        conn.sendall(OK_HEAD + b"Content-Length: " + self.declared.encode("latin-1") + b"\r\n\r\n" + self.body)


class Canned(HostileServer):
    """Answers every request with the same raw bytes (``response``, or ``respond(head)``),
    then closes the connection."""

    def __init__(self, response: bytes | Callable[[bytes], bytes], ssl_context: ssl.SSLContext | None = None) -> None:
        self.respond = response if callable(response) else (lambda head: response)
        super().__init__(ssl_context)

    def handle(self, conn: socket.socket) -> None:
        head = self.read_head(conn)
        conn.sendall(self.respond(head))


def refused_port() -> tuple[socket.socket, int]:
    """A loopback port where nothing listens: a bound, non-listening socket holds it (so no
    other test takes it) and a connection to it is refused. Close the socket when done."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    return sock, sock.getsockname()[1]


# ------------------------------------------------------------------ hostile client adapters
#: The start of a ``cmd:`` adapter script: it answers the kit's hello (aiendpoint.discover),
#: then the body decides how it misbehaves (json, os, sys and time are imported).
ADAPTER_HELLO = '''
import json, os, sys, time
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol": "adck-harness/1", "client": {"name": "hostile"},
                  "operations": ["aiendpoint.discover"]}), flush=True)
'''


def adapter_command(folder, body: str) -> str:
    """Write an adapter script (hello, then ``body``) into ``folder``; the ``cmd:`` target."""
    import sys
    import textwrap
    from pathlib import Path

    script = Path(folder) / "adapter.py"
    script.write_text(ADAPTER_HELLO + textwrap.dedent(body), encoding="utf-8")
    return f"cmd:{sys.executable} {script}"


def alive(pid: int) -> bool:
    """Is the process running (a zombie is not)?"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False


def gone(pid: int, seconds: float = 5.0) -> bool:
    """Wait up to ``seconds`` for the process to end; True when it has."""
    import time

    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not alive(pid)
