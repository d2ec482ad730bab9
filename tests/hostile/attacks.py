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
    #: What attacks: a ``target`` (``argv`` follows ``adck run``; the kit writes every report
    #: format) or a ``file`` others made that the kit reads back (``compare``, ``baseline
    #: --from``, ``check``, ``run --baseline``: ``argv`` is the whole ``adck`` command line).
    kind: str = "target"
    #: For a file attack: the folder the command writes to (every file there is checked like a
    #: report: no secret, no escape sequence, nothing of the attacker rendered).
    outputs: Path | None = None


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


# ================================================================== round two (issue #21)
# The newer surfaces: a target's regular expressions, document-given URLs, budgets, MCP,
# adapters' daemons, and every file the kit reads back for others (report.json for compare
# and baseline --from, baselines, adck check's documents).

def _max_body() -> int:
    """The --max-body of the run: the default, or the one the benchmark's series passes
    (``ADCK_BENCH_EXTRA``), for an attack that sizes itself just under it."""
    from conformance.fetch import Limits

    extra = json.loads(os.environ.get("ADCK_BENCH_EXTRA", "[]"))
    return int(extra[extra.index("--max-body") + 1]) if "--max-body" in extra else Limits().max_body_bytes


@contextlib.contextmanager
def _woa_live(site, *, mcp: bool = False) -> Iterator[list[str]]:
    """A WoA host (a ``conformance.world`` site) served as a live one: the ``adck run`` argv."""
    from conformance.world import https
    from conformance.woa import reference_mcp_server as mcp_server

    with contextlib.ExitStack() as stack:
        origin = stack.enter_context(https.serve(site))
        argv = ["woa", "--target", "https://host.adck.test", "--ca-bundle", str(_ca()), "--seed", "3",
                "--connect-to", f"host.adck.test:443:127.0.0.1:{origin.port}"]
        if mcp:
            server = stack.enter_context(mcp_server.serve(site.document, site.mcp))
            argv += ["--connect-to", f"mcp.adck.test:443:127.0.0.1:{server.port}"]
        yield argv


@attack
def woa_schema_with_a_catastrophic_pattern(scale: str) -> Iterator[Setup]:
    """``^(a+)+$`` in a WoA agent's inputs and outputs schemas, beside a long "aaaa…!" default
    and example, without --invoke: judged by RE2 in linear time (point 1)."""
    from tests.hostile.test_regex import EVIL, _evil_host

    with _woa_live(_evil_host(EVIL, outputs=True)) as argv:
        yield Setup(argv, exits=(0, 1))


@attack
def woa_schema_with_a_lookahead_and_invoke(scale: str) -> Iterator[Setup]:
    """``^(?=a)(a+)+$`` (a pattern RE2 cannot run) with --invoke: reported not checked, never
    run by Python's backtracking ``re``."""
    from tests.hostile.test_regex import _evil_host

    with _woa_live(_evil_host(r"^(?=a)(a+)+$")) as argv:
        yield Setup([*argv, "--invoke"], exits=(0, 1), stopped_by="only in linear time: not checked")


def _recorders() -> list:
    from tests.hostile.test_budgets_and_guard import Recorder, _ipv6

    return [Recorder(), *([Recorder(socket.AF_INET6)] if _ipv6() else [])]


def _aidre_argv(server: "object") -> list[str]:
    return ["aidre", "--target", f"https://{HOST}", "--connect-to", f"{HOST}:443:127.0.0.1:{server.port}",  # type: ignore[attr-defined]
            "--ca-bundle", str(_ca()), "--timeout", "3"]


@attack
def aidre_document_naming_private_endpoints(scale: str) -> Iterator[Setup]:
    """An AIDRE discovery document whose search, collections and chunk endpoints are on
    127.0.0.1 and [::1] ports the user did not name: nothing connects there (point 2)."""
    from tests.hostile.test_budgets_and_guard import Aidre, _document

    insiders = _recorders()
    v4, v6 = insiders[0], insiders[-1]
    six = f"[::1]:{v6.port}" if v6 is not v4 else f"127.0.0.1:{v4.port}"
    try:
        with Aidre(_document(search=f"https://127.0.0.1:{v4.port}/search", collections=f"https://{six}/collections",
                             chunk=f"https://{six}/chunks/{{id}}")) as server:
            yield Setup(_aidre_argv(server), exits=(0, 1), stopped_by="not the host the user named")
        assert [r.connections for r in insiders] == [0] * len(insiders), "the kit connected to a private address"
    finally:
        for r in insiders:
            r.close()


@attack
def post_answered_by_a_redirect_to_itself(scale: str) -> Iterator[Setup]:
    """Every POST answered 307 to itself, under ``--request-budget 3``: at most 3 POSTs are
    sent, redirect hops included (point 3)."""
    from tests.hostile.test_budgets_and_guard import Aidre, _document

    with Aidre(_document(), loop=True) as server:
        yield Setup([*_aidre_argv(server), "--request-budget", "3"], exits=(0, 1), stopped_by="redirect hops included")
    assert server.posts <= 3, f"{server.posts} POSTs with --request-budget 3"


class PagedMcp(HostileServer):
    """A raw MCP server (Streamable HTTP, one JSON answer per POST, a new connection each) whose
    tools/list runs to ``pages`` pages of about ``page_bytes`` each (filler tools of no agent;
    the document's agents' tools on the last page). Its pages are one pre-serialized filler, so
    the attacker itself holds about one page in memory."""

    def __init__(self, document: dict, pages: int, page_bytes: int) -> None:
        from conformance.woa import reference_mcp_server as mcp_server

        self.pages = pages
        tool = {"name": "adck-filler", "description": "a tool of no WoA agent " + "x" * 100,
                "inputSchema": {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "filler"}
                                                                 for i in range(8)}}}
        one = json.dumps(tool).encode()
        self.filler = b",".join([one] * max(page_bytes // (len(one) + 1), 1))
        agents = mcp_server.tools_of(document, mcp_server.McpOptions())
        self.agents = json.dumps([{"name": t.name, "description": f"WoA agent {t.agent}",
                                   "inputSchema": t.inputs if isinstance(t.inputs, dict) else {"type": "object"}}
                                  for t in agents.values()]).encode()
        self.listed = 0
        super().__init__(tls.server_context("mcp.adck.test"))

    def handle(self, conn: socket.socket) -> None:
        head, body = self.read_request(conn)
        if not head.startswith(b"POST "):
            conn.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        try:
            message = json.loads(body)
        except ValueError:
            message = {}
        if not isinstance(message, dict) or "id" not in message:  # a notification
            conn.sendall(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        ident = json.dumps(message["id"]).encode()
        method, params = message.get("method"), message.get("params") or {}
        if method == "initialize":
            result = json.dumps({"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                                 "capabilities": {"tools": {}},
                                 "serverInfo": {"name": "paged-hostile", "version": "1"}}).encode()
        elif method == "tools/list":
            cursor = str(params.get("cursor") or "page-1")
            page = int(cursor.removeprefix("page-")) if cursor.removeprefix("page-").isdigit() else 1
            with self._lock:
                self.listed += 1
            if page < self.pages:
                result = b'{"tools": [' + self.filler + b'], "nextCursor": "page-' + str(page + 1).encode() + b'"}'
            else:
                result = b'{"tools": ' + self.agents + b"}"
        elif method == "tools/call":
            result = b'{"content": [{"type": "text", "text": "not today"}], "isError": true}'
        else:
            result = None
        answer = (b'{"jsonrpc": "2.0", "id": ' + ident + b', "result": ' + result + b"}" if result is not None else
                  b'{"jsonrpc": "2.0", "id": ' + ident + b', "error": {"code": -32601, "message": "no such method"}}')
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                     + f"Content-Length: {len(answer)}\r\n\r\n".encode() + answer)


@attack
def mcp_tools_list_of_full_pages(scale: str) -> Iterator[Setup]:
    """A WoA host's MCP server whose tools/list runs to 20 pages, each just under the
    per-response cap (--max-body): the listing's total is capped, not only each page (point 6)."""
    from conformance.world.site import load_reference

    pages, size = (20, _max_body() - 48_000) if scale == "full" else (4, 60_000)
    site = load_reference("woa")
    with PagedMcp(site.document, pages, size) as server, _woa_live(site) as argv:
        yield Setup([*argv, "--connect-to", f"mcp.adck.test:443:127.0.0.1:{server.port}", "--invoke",
                     "--invoke-budget", "2"], exits=(0, 1))


@attack
def adapter_double_forks_a_setsid_daemon(scale: str) -> Iterator[Setup]:
    """The adapter double-forks a ``setsid()`` daemon with its stdio let go, then hangs: the run
    ends it at its deadline and leaves nothing behind (point 5)."""
    from tests.hostile.test_processes import HANGS, _daemon_then

    with tempfile.TemporaryDirectory(prefix="adck-hostile-") as folder:
        pidfile = Path(folder) / "daemon.pid"
        target = adapter_command(folder, _daemon_then(pidfile, HANGS))
        yield Setup(["aiendpoint", "--role", "agent", "--target", target, "--run-timeout", "3"], exits=(2,),
                    pidfiles=(pidfile,), stopped_by="the run's deadline (3 s, --run-timeout) passed")


# ------------------------------------------------------------------ files others made

@cache
def _real_report() -> dict:
    """A real report.json of a run that fails a MUST (the base of the crafted ones)."""
    from conformance import api

    with tempfile.TemporaryDirectory(prefix="adck-hostile-") as folder, \
         contextlib.redirect_stdout(open(os.devnull, "w")), contextlib.redirect_stderr(open(os.devnull, "w")):
        api.run("aiendpoint", "builtin:status-203", report_dir=folder, formats=["json"], seed=3)
        return json.loads((Path(folder) / "report.json").read_text("utf-8"))


@contextlib.contextmanager
def _files(*named: tuple[str, "str | bytes"]) -> Iterator[Path]:
    """A temporary folder holding the attacker's files, and ``out/`` for what the kit writes."""
    with tempfile.TemporaryDirectory(prefix="adck-hostile-") as folder:
        root = Path(folder)
        for name, content in named:
            (root / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        yield root


PLANT = "x\n[[expected]]\nclause = \"AIE-PLANTED\"\nreason = \"planted\"\n"


@attack
def report_planting_waivers_in_a_baseline(scale: str) -> Iterator[Setup]:
    """``adck baseline --from`` a report.json whose target holds a newline and whose messages
    hold ``'''``: the TOML serializer writes no entry the report never had (point 4)."""
    import copy

    rep = copy.deepcopy(_real_report())
    rep["target"]["spec"] = rep["started_at"] = PLANT
    for r in rep["results"]:
        if r["outcome"] in ("fail", "error"):
            r["message"] = "'''\n" + PLANT + "'''\n\"\"\"" + PLANT + MARKUP
    with _files(("report.json", json.dumps(rep))) as root:
        (root / "out").mkdir()
        out = root / "out" / "baseline.toml"
        yield Setup(["baseline", "--from", str(root / "report.json"), "-o", str(out), "--reason", "because"],
                    kind="file", exits=(0,), outputs=root / "out")
        import tomllib

        planted = [e for e in tomllib.loads(out.read_text("utf-8"))["expected"] if e["clause"] == "AIE-PLANTED"]
        assert not planted, "the crafted report planted a waiver in the baseline"


def _deep(depth: int) -> str:
    return '{"draft": {"short": "aiendpoint"}, "results": ' + "[" * depth + "]" * depth + "}"


@attack
def report_nested_too_deep_for_compare(scale: str) -> Iterator[Setup]:
    """A report.json nested 200,000 (full: 400,000) deep, given to ``adck compare``: exit 2
    and one line, no RecursionError (point 4)."""
    depth = 400_000 if scale == "full" else 200_000  # under the value limit: the depth check refuses it
    with _files(("report.json", _deep(depth))) as root:
        yield Setup(["compare", str(root / "report.json"), "-o", str(root / "out")], kind="file", exits=(2,),
                    outputs=root / "out")


@attack
def baseline_nested_too_deep(scale: str) -> Iterator[Setup]:
    """A baseline file nested 200,000 deep, given to ``adck run --baseline``: exit 2, one line."""
    with _files(("deep.toml", "x = " + "[" * 200_000 + "]" * 200_000 + "\n")) as root:
        yield Setup(["run", "aiendpoint", "--target", "builtin:status-203", "--baseline", str(root / "deep.toml"),
                     "--report-dir", str(root / "out")], kind="file", exits=(2,), outputs=root / "out")


def _write_padded_report(path: Path, total: int, values: int) -> None:
    """A real report.json grown to about ``values`` JSON values (results of many small ones,
    the shape that costs a decoder the most memory per byte) and ``total`` bytes (the rest a
    message of text with one character outside the BMP, which makes the whole decoded text
    four bytes a character). Written in pieces: the attacker's own memory stays small."""
    from conformance.reports import inputs

    rep = _real_report()
    one = dict(rep["results"][0], ambiguities=["AMB-01"] * 8, evidence=[{}] * 16)
    item = json.dumps(one).encode()
    count = max(values // inputs.count_values(item), 1)
    head = (json.dumps({k: v for k, v in rep.items() if k != "results"})[:-1] + ', "results": [').encode()
    before, _, after = json.dumps(dict(rep["results"][0], message="@")).encode().partition(b'"@"')
    pad = max(total - len(head) - count * (len(item) + 1) - len(before) - len(after) - 64, 0)
    with open(path, "wb") as fh:
        fh.write(head + before + b'"\\ud83d\\ude00')
        for _ in range(pad >> 20):
            fh.write(b"x" * (1 << 20))
        fh.write(b"x" * (pad & ((1 << 20) - 1)) + b'"' + after)
        for _ in range(count):
            fh.write(b"," + item)
        fh.write(b"]}")


@attack
def report_just_under_the_size_limit_for_compare(scale: str) -> Iterator[Setup]:
    """Three report.json files each just under the size and value limits of a file the kit
    reads back, given to ``adck compare`` at once: memory is bounded by the totals across them
    (the third is refused, exit 2), not per file (point 6)."""
    from conformance.reports import inputs

    size, values = (inputs.MAX_BYTES - 4096, inputs.MAX_VALUES - 1000) if scale == "full" else (2 << 20, 20_000)
    with _files() as root:
        for name in ("a.json", "b.json", "c.json"):
            _write_padded_report(root / name, size, values)
        yield Setup(["compare", str(root / "a.json"), str(root / "b.json"), str(root / "c.json"), "-o",
                     str(root / "out")], kind="file", exits=(0, 2), outputs=root / "out")


@attack
def baseline_just_under_the_size_limit(scale: str) -> Iterator[Setup]:
    """A baseline of the most entries the size limit lets in, given to ``adck run --baseline``."""
    from conformance.reports import baseline as bl

    size = bl.MAX_BYTES - 4096 if scale == "full" else 1 << 20
    entry = '[[expected]]\nclause = "AIE-2.2-09"\nreason = "x"\n'
    with _files(("big.toml", 'version = 1\ndraft = "aiendpoint"\n' + entry * ((size - 40) // len(entry)))) as root:
        yield Setup(["run", "aiendpoint", "--target", "builtin:status-203", "--baseline", str(root / "big.toml"),
                     "--report-dir", str(root / "out")], kind="file", exits=(1, 2), outputs=root / "out")


@attack
def report_with_markup_for_compare(scale: str) -> Iterator[Setup]:
    """Two report.json files whose every string holds HTML, an image, a heading and a
    ``javascript:`` link: ``adck compare``'s index.md and matrix.html render none (point 7)."""
    import copy

    rep = copy.deepcopy(_real_report())
    rep["target"]["spec"] = rep["target"]["description"] = MARKUP + "\n# Heading\n"
    for r in rep["results"]:
        r["text"] = f"{r['text']} {MARKUP}"
        r["message"] = f"{r['message']} {MARKUP}"
        r["ambiguities"] = [MARKUP]
    for r in rep["results"][:2]:
        r["replay"], r["untestable_reason"] = f"adck run {MARKUP}", None
    rep["results"][0]["outcome"], rep["results"][1]["outcome"] = "pass", "fail"
    other = copy.deepcopy(rep)
    other["results"][0]["outcome"], other["results"][1]["outcome"] = "fail", "pass"  # a disagreement
    with _files(("a.json", json.dumps(rep)), ("b.json", json.dumps(other))) as root:
        yield Setup(["compare", str(root / "a.json"), str(root / "b.json"), "-o", str(root / "out")],
                    kind="file", exits=(0,), outputs=root / "out")


@attack
def check_of_a_file_named_with_escapes(scale: str) -> Iterator[Setup]:
    """``adck check`` of a file whose name holds ESC and BEL (in a pre-commit hook, file names
    come from the repository): the terminal gets them escaped (point 7)."""
    with _files() as root:
        (root / ".well-known").mkdir()
        hostile = root / ".well-known" / "\x1b]52;c;ZXZpbA==\x07\x1b[2J.adp.json"
        hostile.write_text("{}", "utf-8")
        yield Setup(["check", str(hostile)], kind="file", exits=(1, 2))



# ------------------------------------------------------------------ my own: a surface #21 does not list

class HeaderFlood(HostileServer):
    """A status line, then header lines as fast as the socket takes them, never the blank line
    that ends them (each line short and well-formed: no single header is "too long")."""

    def handle(self, conn: socket.socket) -> None:
        self.read_head(conn)
        conn.sendall(b"HTTP/1.1 200 OK\r\n")
        lines = b"".join(b"X-Flood-%d: %s\r\n" % (i, b"a" * 64) for i in range(700))
        while not self._stopping.is_set():
            conn.sendall(lines)


@attack
def response_headers_without_end(scale: str) -> Iterator[Setup]:
    """Response headers that never end, each line short and well-formed: the HTTP parser's
    limit on a response head, not the body cap or the deadline, must end it (the response
    head is a surface the issue does not list: every draft's fetch and the MCP client)."""
    with HeaderFlood(_tls()) as server:
        yield Setup(_publisher(server), stopped_by="bytes the kit reads, or never ends")


def argv_of(setup: Setup, report_dir: str, formats: str = "json,junit,md,html,badge") -> list[str]:
    """The whole ``adck`` command line of an attack."""
    if setup.kind == "target":
        return ["run", *setup.argv, "--report-dir", report_dir, "--format", formats]
    return list(setup.argv)


def run_one(name: str, report_dir: str, scale: str = "test") -> int:
    """Run one attack through the CLI (the benchmark runs this in a fresh process)."""
    from conformance import cli

    with ATTACKS[name](scale) as setup:
        extra = json.loads(os.environ.get("ADCK_BENCH_EXTRA", "[]"))  # the benchmark's --max-body series
        code = cli.main(argv_of(setup, report_dir) + (extra if setup.kind == "target" else []))
    rss_file = os.environ.get("ADCK_BENCH_RSS_FILE")
    if rss_file:  # the kit's own peak, without the adapter processes it started and waited for
        Path(rss_file).write_text(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
    return code


if __name__ == "__main__":
    sys.exit(run_one(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "test"))
