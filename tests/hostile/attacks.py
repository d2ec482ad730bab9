"""The catalogue of attacks the kit must survive: hostile publishers, DNS servers, adapters
and documents, all on loopback.

Each attack is a context manager that starts what it needs (a raw-socket server, a mock DNS
zone, an adapter script) and yields a :class:`Setup`: the ``adck run`` arguments that point
the kit at it, the secrets no output may contain, and the files where forked processes
leave their pids. ``scale="full"`` gives the sizes of the measurements in the issue (the
benchmark, ``benchmarks/hostile.py``); ``scale="test"`` smaller ones with the same shape (the
self-tests, ``tests/hostile/test_attacks.py``).

Run one attack as the benchmark does, in a fresh process::

    python -m tests.hostile.attacks ATTACK REPORT_DIR [full|test]
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import resource
import socket
import sys
import tempfile
import zlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Callable, Iterator

from conformance.world import tls

from tests.hostile import OK_HEAD, Canned, Flood, Garbage, HostileServer, Trickle, adapter_command

HOST = "hostile.adck.test"
SECRET = "adck-hostile-secret-7f3a9c"
GHP = "ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2
#: Target text meant to render, move the cursor, write the clipboard, or parse as markup.
MARKUP = ("<img src=x onerror=alert(1)> <script>alert(1)</script> ![p](https://evil.test/p.png) "
          "[x](javascript:alert(1)) # H @octocat ``` \x1b]52;c;ZXZpbA==\x07 \x1b[2J "
          "\x1b]8;;https://evil.test\x1b\\l\x1b]8;;\x1b\\ [/x] [bold]")


@dataclass
class Setup:
    argv: list[str]
    secrets: tuple[str, ...] = ()
    pidfiles: tuple[Path, ...] = ()
    #: The exit statuses that are a clean end for this attack.
    exits: tuple[int, ...] = (1,)
    #: For an attack that only one of the kit's limits ends (a deadline, the body cap): the
    #: kit's own account of why it stopped, which report.json must hold. How long the run takes
    #: is measured by the benchmark, not asserted.
    stopped_by: str = ""
    notes: list[str] = field(default_factory=list)


Attack = Callable[[str], "contextlib.AbstractContextManager[Setup]"]
ATTACKS: dict[str, Attack] = {}


def attack(fn: Callable[[str], Iterator[Setup]]) -> Attack:
    """Register ``fn`` (a generator of one Setup) under its name, dashes for underscores."""
    cm = contextlib.contextmanager(fn)
    ATTACKS[fn.__name__.replace("_", "-")] = cm
    return cm


# ------------------------------------------------------------------ publishers (HTTPS on loopback)
#: How a publisher run reports a fetch that its --timeout ended (AIE-2.1-01's message).
FETCH_TIMEOUT = "did not reach a document: timeout: "


def _publisher(server: HostileServer, *extra: str) -> list[str]:
    return ["aiendpoint", "--target", f"https://{HOST}", "--connect-to", f"{HOST}:443:127.0.0.1:{server.port}",
            "--ca-bundle", str(_ca()), "--timeout", "2", *extra]


@cache
def _ca() -> Path:
    return tls.ca_bundle()


def _tls() -> "object":
    return tls.server_context(HOST)


def _head(*headers: str, length: int | None = None) -> bytes:
    out = OK_HEAD + "".join(h + "\r\n" for h in headers).encode("latin-1")
    if length is not None:
        out += f"Content-Length: {length}\r\n".encode()
    return out + b"\r\n"


@cache
def _zeros_gzip(size: int) -> bytes:
    """gzip of ``size`` zero bytes, made in pieces (a 2 GB body never sits in memory)."""
    z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1 << 20)
    parts = [z.compress(block) for _ in range(size >> 20)]
    return b"".join(parts) + z.flush()


@attack
def gzip_gzip_bomb(scale: str) -> Iterator[Setup]:
    """``Content-Encoding: gzip, gzip``: a few KB that expand to 2 GB."""
    bomb = gzip.compress(_zeros_gzip((2048 if scale == "full" else 64) << 20), 9)
    with Canned(_head("Content-Encoding: gzip, gzip", length=len(bomb)) + bomb, _tls()) as server:
        yield Setup(_publisher(server))


@attack
def triple_gzip(scale: str) -> Iterator[Setup]:
    """Three stacked gzip layers: more than the kit decodes; refused, not expanded."""
    bomb = gzip.compress(gzip.compress(_zeros_gzip((512 if scale == "full" else 16) << 20), 9), 9)
    with Canned(_head("Content-Encoding: gzip, gzip, gzip", length=len(bomb)) + bomb, _tls()) as server:
        yield Setup(_publisher(server))


@attack
def trickled_body(scale: str) -> Iterator[Setup]:
    with Trickle(_tls(), interval=0.2) as server:
        yield Setup(_publisher(server), stopped_by=FETCH_TIMEOUT)


@attack
def trickled_headers(scale: str) -> Iterator[Setup]:
    with Trickle(_tls(), interval=0.2, in_head=True) as server:
        yield Setup(_publisher(server), stopped_by=FETCH_TIMEOUT)


@attack
def endless_body(scale: str) -> Iterator[Setup]:
    with Flood(_tls()) as server:
        yield Setup(_publisher(server), stopped_by="the document is larger than the 1048576 bytes the kit reads")


class _BodyThenOpen(HostileServer):
    """The whole document, with no length and no close: the body never ends."""

    def handle(self, conn: socket.socket) -> None:
        self.read_head(conn)
        conn.sendall(OK_HEAD + b"\r\n" + json.dumps(_document()).encode())
        self._stopping.wait()


@attack
def body_then_connection_kept_open(scale: str) -> Iterator[Setup]:
    with _BodyThenOpen(_tls()) as server:
        yield Setup(_publisher(server), stopped_by=FETCH_TIMEOUT)


@attack
def redirect_loop(scale: str) -> Iterator[Setup]:
    with Canned(b"HTTP/1.1 302 Found\r\nLocation: /.well-known/ai\r\nContent-Length: 0\r\n\r\n", _tls()) as server:
        yield Setup(_publisher(server))


@attack
def redirect_to_an_internal_secret(scale: str) -> Iterator[Setup]:
    """The publisher redirects to another port on this machine that holds a secret."""
    secret_body = json.dumps({"internal": SECRET}).encode()
    with Canned(_head(length=len(secret_body)) + secret_body, tls.server_context("127.0.0.1")) as inside, \
         Canned(f"HTTP/1.1 302 Found\r\nLocation: https://127.0.0.1:{inside.port}/secret.json\r\n"
                "Content-Length: 0\r\n\r\n".encode(), _tls()) as server:
        yield Setup(_publisher(server), secrets=(SECRET,))
        assert inside.connections == 0, "the kit fetched the internal address"


@attack
def garbage_bytes(scale: str) -> Iterator[Setup]:
    with Garbage(_tls()) as server:
        yield Setup(_publisher(server))


def _document(**service: object) -> dict:
    return {"aiendpoint": "1.0",
            "service": {"name": "Hostile", "description": "A publisher that tries things.", "category": ["other"],
                        **service},
            "capabilities": [{"id": "search", "description": "Search.", "endpoint": "/search", "method": "GET"}]}


def _serve_json(text: str | bytes, *headers: str) -> Canned:
    body = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return Canned(_head("Content-Type: application/json; charset=utf-8", *headers, length=len(body)) + body, _tls())


@attack
def deep_json(scale: str) -> Iterator[Setup]:
    depth = 1_000_000 if scale == "full" else 100_000
    with _serve_json("[" * depth + "]" * depth) as server:
        yield Setup(_publisher(server, "--max-body", str(4 * depth)))


@attack
def lone_surrogate(scale: str) -> Iterator[Setup]:
    text = json.dumps(_document(name="\ud800 broken")).replace("\\ud800", "\\ud800")
    with _serve_json(text) as server:
        yield Setup(_publisher(server))


@attack
def markup_and_escapes_in_the_document(scale: str) -> Iterator[Setup]:
    with _serve_json(json.dumps(_document(name=MARKUP[:100], description=MARKUP, category=[MARKUP]))) as server:
        yield Setup(_publisher(server))


@attack
def non_finite_and_huge_numbers(scale: str) -> Iterator[Setup]:
    text = json.dumps(_document()).replace('"aiendpoint": "1.0"', '"aiendpoint": 1e999999, "n": ' + "9" * 5000)
    with _serve_json(text) as server:
        yield Setup(_publisher(server))


@attack
def secrets_in_headers_and_redirects(scale: str) -> Iterator[Setup]:
    """A token in a custom header, credentials in a redirect's userinfo and query."""
    doc = json.dumps(_document()).encode()

    def respond(head: bytes) -> bytes:
        if b"/final" in head.split(b"\r\n")[0]:
            return _head("Content-Type: application/json", f"X-Upstream-Token: {SECRET}", length=len(doc)) + doc
        return (f"HTTP/1.1 302 Found\r\nLocation: https://user:{SECRET}@{HOST}/final?token={SECRET}\r\n"
                f"X-Upstream-Token: {SECRET}\r\nContent-Length: 0\r\n\r\n").encode()

    with Canned(respond, _tls()) as server:
        yield Setup(_publisher(server), secrets=(SECRET,))


@attack
def secret_in_the_target_url(scale: str) -> Iterator[Setup]:
    doc = json.dumps(_document()).encode()
    with Canned(_head("Content-Type: application/json", length=len(doc)) + doc, _tls()) as server:
        argv = _publisher(server)
        argv[2] = f"https://me:{SECRET}@{HOST}/?api_key={SECRET}"
        yield Setup(argv, secrets=(SECRET,), exits=(0, 1))


@attack
def tls_certificate_for_another_name(scale: str) -> Iterator[Setup]:
    doc = json.dumps(_document()).encode()
    with Canned(_head("Content-Type: application/json", length=len(doc)) + doc,
                tls.server_context("someone-else.adck.test")) as server:
        yield Setup(_publisher(server))


@attack
def tls_handshake_answered_with_garbage(scale: str) -> Iterator[Setup]:
    with Garbage() as server:  # no TLS at all: the ClientHello gets bytes that are not TLS
        yield Setup(_publisher(server))


# ------------------------------------------------------------------ client adapters (agent role)
@contextlib.contextmanager
def _adapter(body: str, run_timeout: float = 60) -> Iterator[tuple[list[str], Path]]:
    with tempfile.TemporaryDirectory(prefix="adck-hostile-") as folder:
        yield (["aiendpoint", "--role", "agent", "--target", adapter_command(folder, body),
                "--run-timeout", str(run_timeout)], Path(folder))


@attack
def adapter_reply_line_of_100_mb(scale: str) -> Iterator[Setup]:
    size = (100 if scale == "full" else 8) << 20
    with _adapter(f'''
        m = json.loads(sys.stdin.readline())
        sys.stdout.write('{{"type": "result", "id": "' + m["id"] + '", "outcome": "none", "x": "' + "x" * {size} + '"}}\\n')
        sys.stdout.flush()
        time.sleep(600)
    ''') as (argv, _):
        yield Setup(argv, exits=(2,))


@attack
def adapter_stdout_flood_without_newline(scale: str) -> Iterator[Setup]:
    total = (3 << 30) if scale == "full" else (64 << 20)
    with _adapter(f'''
        sys.stdin.readline()
        chunk = "x" * 65536
        for _ in range({total} // 65536):
            sys.stdout.write(chunk)
        sys.stdout.flush()
        time.sleep(600)
    ''') as (argv, _):
        yield Setup(argv, exits=(2,))


@attack
def adapter_stderr_flood(scale: str) -> Iterator[Setup]:
    total = (1536 << 20) if scale == "full" else (64 << 20)
    with _adapter(f'''
        chunk = "e" * 65536
        for _ in range({total} // 65536):
            sys.stderr.write(chunk)
        sys.stderr.write("\\nBearer {SECRET} and {GHP}\\n")
        sys.stderr.flush()
        sys.exit(3)
    ''') as (argv, _):
        yield Setup(argv, secrets=(SECRET, GHP), exits=(2,))


@attack
def adapter_forks_a_child_holding_stdout(scale: str) -> Iterator[Setup]:
    with _adapter('''
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open(os.path.join(os.path.dirname(__file__), "child.pid"), "w").write(str(child.pid))
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "stop":
                os._exit(0)
            print(json.dumps({"type": "result", "id": m["id"], "outcome": "none"}), flush=True)
    ''') as (argv, folder):
        yield Setup(argv, pidfiles=(folder / "child.pid",), exits=(1,))


@attack
def adapter_silent_after_hello(scale: str) -> Iterator[Setup]:
    with _adapter('''
        time.sleep(600)
    ''', run_timeout=3) as (argv, _):
        yield Setup(argv, exits=(2,), stopped_by="the run's deadline (3 s, --run-timeout) passed")


@attack
def adapter_reply_with_infinity_and_markup(scale: str) -> Iterator[Setup]:
    markup = json.dumps(MARKUP)
    with _adapter(f'''
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "stop":
                break
            sys.stdout.write('{{"type": "result", "id": "' + m["id"] + '", "outcome": "none", '
                             '"messages": [' + {markup!r} + '], "n": 1e999999}}\\n')
            sys.stdout.flush()
    ''') as (argv, _):
        yield Setup(argv, exits=(1, 2))


# ------------------------------------------------------------------ DNS (AID provider)
@contextlib.contextmanager
def _zone(text: str, fault: str | None = None) -> Iterator[list[str]]:
    from conformance.world.dns import MockDNS

    server = MockDNS()
    try:
        server.add_zone("hostile.test", text)
        if fault:
            server.fault("_agent.hostile.test", fault)  # type: ignore[arg-type]
        yield ["aid", "--target", "hostile.test", "--nameserver", f"127.0.0.1:{server.port}", "--timeout", "2"]
    finally:
        server.stop()


@attack
def dns_truncated_forever(scale: str) -> Iterator[Setup]:
    with _zone('_agent 300 IN TXT "v=aid1;uri=https://api.hostile.test/mcp;proto=mcp"', "truncate-always") as argv:
        yield Setup(argv)


@attack
def dns_cname_loop(scale: str) -> Iterator[Setup]:
    with _zone("_agent 300 IN CNAME loop\nloop 300 IN CNAME _agent") as argv:
        yield Setup(argv)


class _PointerLoopDNS:
    """A UDP DNS server whose every answer names its record with a compression pointer that
    points at itself."""

    def __init__(self) -> None:
        import threading

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                query, peer = self.sock.recvfrom(4096)
            except (socket.timeout, OSError):
                continue
            # header: same id, QR+AA, 1 question, 1 answer; the question name is a pointer to itself
            answer = (query[:2] + b"\x84\x00\x00\x01\x00\x01\x00\x00\x00\x00" + b"\xc0\x0c\x00\x10\x00\x01"
                      + b"\xc0\x0c\x00\x10\x00\x01\x00\x00\x01\x2c\x00\x05\x04loop")
            try:
                self.sock.sendto(answer, peer)
            except OSError:
                pass

    def __enter__(self) -> "_PointerLoopDNS":
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.sock.close()


@attack
def dns_compression_pointer_loop(scale: str) -> Iterator[Setup]:
    with _PointerLoopDNS() as server:
        yield Setup(["aid", "--target", "hostile.test", "--nameserver", f"127.0.0.1:{server.port}", "--timeout", "2"])


@attack
def dns_record_with_markup(scale: str) -> Iterator[Setup]:
    value = "v=aid1;uri=https://api.hostile.test/mcp;proto=mcp;desc=" + MARKUP.replace('"', "'")[:60]
    escaped = "".join(c if 0x20 <= ord(c) < 0x7f else f"\\{ord(c):03d}" for c in value)
    with _zone(f'_agent 300 IN TXT "{escaped}"') as argv:
        yield Setup(argv, exits=(0, 1))


def run_one(name: str, report_dir: str, scale: str = "test") -> int:
    """Run one attack through the CLI (the benchmark runs this in a fresh process)."""
    from conformance import cli

    with ATTACKS[name](scale) as setup:
        code = cli.main(["run", *setup.argv, "--report-dir", report_dir, "--format", "json,junit,md,html,badge"])
    rss_file = os.environ.get("ADCK_BENCH_RSS_FILE")
    if rss_file:  # the kit's own peak, without the adapter processes it started and waited for
        Path(rss_file).write_text(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
    return code


if __name__ == "__main__":
    sys.exit(run_one(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "test"))
