"""Issue #21 point 2: the kit's ways onto the network are few, known, and each is guarded.

A static enumeration of every place in the checking code (the suites, the core, the reports)
that can open a connection: an HTTP client, a socket, a resolver, a URL opener. Each must be
one of the places listed in :data:`EXITS`, which say why they are guarded:

* ``conformance/fetch.py``: the one HTTP fetcher, whose backend applies
  :func:`conformance.fetch.public_address` to every host the user did not name, counts every
  request (redirect hops included) and gives credentials only to origins the user named;
* ``conformance/woa/_mcp_fixtures.py``: the MCP SDK's HTTP client (the SDK needs an
  ``httpx2.AsyncClient``), whose backend applies the same :func:`public_address`, counts each
  request in the fetcher's ``requests_sent`` and gives credentials by the same rule;
* ``conformance/dns.py``: the one DNS resolver, which asks only the nameservers the user
  named (``--nameserver``) or the system's, never one a document names.

A new fetch that opens its own connection (say ``httpx.get(url)`` in a suite) makes this test
fail, naming the file and line: route it through ``adck_fetcher``/``adck_invoker``. The
runtime half of the proof (every URL field of every draft's document, at a private address,
reaches nothing) is in ``test_budgets_and_guard.py`` and ``test_guard_aid_adp.py``.

Not scanned, because they are not the checker: each draft's reference server and client, its
adapter and broken variants (``conformance/<draft>/reference_*.py``, ``adapter.py``,
``variants/``, AIDRE's ``scenario_server.py``), the mock world the kit serves
(``conformance/world``), the harness and the adapters that run a vendor's client.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "conformance"

#: Modules that speak to the network, and the names in them that open a connection.
NETWORK = {
    "httpx": {"Client", "AsyncClient", "HTTPTransport", "AsyncHTTPTransport", "get", "post", "put", "patch",
              "delete", "head", "options", "request", "stream"},
    "httpx2": {"Client", "AsyncClient", "HTTPTransport", "AsyncHTTPTransport", "get", "post", "put", "patch",
               "delete", "head", "options", "request", "stream"},
    "httpcore": {"ConnectionPool", "AsyncConnectionPool", "SyncBackend", "AnyIOBackend", "request", "stream"},
    "httpcore2": {"ConnectionPool", "AsyncConnectionPool", "SyncBackend", "AnyIOBackend", "request", "stream"},
    "socket": {"socket", "create_connection", "create_server", "socketpair", "fromfd"},
    "ssl": {"wrap_socket"},
    "anyio": {"connect_tcp", "connect_unix", "create_tcp_listener", "create_udp_socket"},
    "asyncio": {"open_connection", "open_unix_connection", "start_server"},
    "dns.resolver": {"Resolver", "resolve", "query", "resolve_address"},
    "dns.query": {"udp", "tcp", "https", "tls", "quic", "udp_with_fallback", "xfr", "inbound_xfr"},
}
#: Modules the checker never imports: a second HTTP stack beside the fetcher.
FORBIDDEN = {"requests", "aiohttp", "urllib3", "urllib.request", "http.client", "pycurl", "websockets", "ftplib",
             "smtplib", "telnetlib", "xmlrpc.client"}

#: The known exits: (file under conformance/, name opened) -> why it is guarded.
EXITS = {
    ("fetch.py", "httpcore.SyncBackend"): "the fetcher's backend: public_address for hosts the user did not name",
    ("fetch.py", "httpcore.ConnectionPool"): "the fetcher's pool, on that backend",
    ("woa/_mcp_fixtures.py", "httpcore2.AnyIOBackend"): "the MCP client's backend: the same public_address",
    ("woa/_mcp_fixtures.py", "httpcore2.AsyncConnectionPool"): "the MCP client's pool, on that backend",
    ("woa/_mcp_fixtures.py", "httpx2.AsyncClient"): "the MCP SDK's client, on that pool (its transport)",
    ("dns.py", "dns.resolver.Resolver"): "the one resolver: the user's --nameserver or the system's",
}

#: Not the checker (see the module docstring).
NOT_SCANNED = ("world/", "adapters/", "harness/")


def _checker_files() -> list[Path]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        parts = rel.split("/")
        if rel.startswith(NOT_SCANNED) or "variants" in parts[:-1] or parts[-1].startswith("reference_") \
                or parts[-1] in ("adapter.py", "scenario_server.py"):
            continue
        out.append(path)
    return out


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def exits_in(source: str) -> list[tuple[int, str]]:
    """(line, ``module.name``) of every network-opening call or forbidden import in ``source``."""
    tree = ast.parse(source)
    aliases: dict[str, str] = {}  # local name -> dotted origin ("h" -> "httpx", "Client" -> "httpx.Client")
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                aliases[(a.asname or a.name).split(".")[0] if not a.asname else a.asname] = \
                    a.name if a.asname else a.name.split(".")[0]
                if a.name in FORBIDDEN or a.name.split(".")[0] in FORBIDDEN:
                    found.append((node.lineno, f"import {a.name}"))
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                aliases[a.asname or a.name] = f"{node.module}.{a.name}"
                full = f"{node.module}.{a.name}"
                if node.module in FORBIDDEN or full in FORBIDDEN or node.module.split(".")[0] in FORBIDDEN:
                    found.append((node.lineno, f"import {full}"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        if name is None:
            continue
        head, _, rest = name.partition(".")
        full = aliases.get(head, head) + ("." + rest if rest else "")
        module, _, attr = full.rpartition(".")
        if attr in NETWORK.get(module, ()):
            found.append((node.lineno, full))
    return found


def test_the_scan_sees_what_it_looks_for() -> None:
    """The enumeration itself can fail: each way of opening a connection is found."""
    code = '''
import httpx, socket
import httpx as h
from httpx import Client
from dns import resolver
import urllib.request
def f(url):
    httpx.get(url); h.Client(); Client(); socket.create_connection(("a", 1)); resolver.Resolver()
'''
    seen = {name for _, name in exits_in(code)}
    assert seen == {"httpx.get", "httpx.Client", "socket.create_connection", "dns.resolver.Resolver",
                    "import urllib.request"}, seen
    assert exits_in("import httpx\nhttpx.URL('https://a')\n") == []


def test_every_network_exit_of_the_checker_is_a_guarded_one() -> None:
    unknown = []
    met = set()
    for path in _checker_files():
        rel = path.relative_to(ROOT).as_posix()
        for line, name in exits_in(path.read_text("utf-8")):
            if (rel, name) in EXITS:
                met.add((rel, name))
            else:
                unknown.append(f"conformance/{rel}:{line}: {name}")
    assert not unknown, ("a way onto the network that is not the guarded fetcher, MCP client or resolver "
                         "(route it through adck_fetcher / adck_invoker):\n" + "\n".join(unknown))
    stale = set(EXITS) - met
    assert not stale, f"EXITS names places that no longer exist (update the list): {sorted(stale)}"


@pytest.mark.parametrize("host, addresses", [("127.0.0.1", []), ("::1", []), ("evil.test", ["10.0.0.1"]),
                                             ("evil.test", ["93.184.216.34", "192.168.1.1"]),
                                             ("evil.test", ["::ffff:127.0.0.1"]), ("evil.test", [])])
def test_the_one_rule_refuses_private_and_empty_answers(host: str, addresses: list[str]) -> None:
    from conformance.fetch import PrivateRedirect, public_address

    with pytest.raises(PrivateRedirect):
        public_address(host, addresses)
    assert public_address("example.test", ["93.184.216.34"]) == "93.184.216.34"
