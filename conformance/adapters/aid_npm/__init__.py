"""@agentcommunity/aid (npm), the AID authors' JavaScript client library, behind the harness protocol.

The adapter is a Node program, ``adapter.mjs`` in this folder; this module installs the pinned
package, finds ``node`` and builds the target string. Nothing of it is declared in pyproject:
``node`` (20.6 or later, for ``module.register``) and ``npm`` come from the system.

    python -m conformance.adapters.aid_npm --install           # npm install into the cache prefix
    adck run aid@v1 --role client --target "cmd:node conformance/adapters/aid_npm/adapter.mjs --prefix DIR"
    adck run aid@v1 --role client --target "cmd:python -m conformance.adapters.aid_npm"   # finds node, the cache

The npm prefix (a folder holding ``node_modules/@agentcommunity/aid``) is ``--prefix DIR``, else
``$ADCK_AID_NPM_PREFIX``, else ``$ADCK_NPM_CACHE/agentcommunity-aid-1.1.0``, else
``~/.cache/adck/npm/agentcommunity-aid-1.1.0`` (:func:`default_prefix`; adapter.mjs applies the
same rule).

What the adapter changes around the library (:data:`REDIRECTION`; README.md says it at length).
It is this constant, the hello's optional ``dns`` member (``asked_by: adapter``, its ``how``:
being added to the protocol at the time of writing; a kit without it ignores it), the adapter's
stderr banner, and one line of evidence in every reply's ``messages``:

- **DNS**: ``discover()`` calls ``query(q, {endpoints: ["1.1.1.1", "8.8.8.8"]})`` of the
  ``dns-query`` package: DNS-over-HTTPS to public resolvers, fixed in its code. An ESM loader
  hook (``hooks.mjs``, ``module.register``) gives the library, and only it, a ``dns-query``
  whose ``query`` replaces those endpoints by ``http://127.0.0.1:PORT/dns-query``, a DoH
  forwarder the adapter runs in its own process (``redirect.mjs``). The forwarder sends the
  library's DNS message unchanged to the step's ``network.nameservers`` (the kit's mock) over
  UDP, retries over TCP when the answer is truncated, and returns the answer. dns-query still
  encodes and decodes the messages. The wrapper refuses an endpoint that is not loopback, and a
  guard on ``net.Socket#connect`` refuses (and reports) every TCP connection off loopback.
  The installed package files are not modified.
- **Fallback**: ``wellKnownFallback: false`` (AID v1 has no ``.well-known`` fallback; the
  library's default is on). ``adapter.mjs --revision v1.2 --fallback`` (or v2.1) switches it on;
  refused under v1. ``--revision`` (v1, v1.2, v2.1) also sets what the hello claims and how a
  reply reads (README.md).
- **HTTPS** (the library's global ``fetch``: fallback and PKA handshake): Node's undici global
  dispatcher is replaced by an Agent whose ``connect`` goes where ``connect_to`` says, keeps the
  host name for SNI and the certificate check, and trusts exactly ``ca_file``. A host neither
  mapped nor loopback is refused, never resolved.
- **DNSSEC**: the library validates nothing (it sets no DO bit and reads no AD bit): it relies on
  its resolvers, 1.1.1.1 and 8.8.8.8, which validate and answer SERVFAIL for a bogus answer. By
  default the forwarder does not validate either (``dnssec_anchors`` unused).
  ``--validating-resolver`` makes it stand in for those resolvers (``dnssec.mjs``): with the
  step's anchors it asks again with the DO bit for the RRset, its RRSIGs and the zone's DNSKEYs
  (extra queries the kit sees), validates, and answers SERVFAIL for a bogus positive answer;
  negative answers pass unproven.
- **Timeout**: ``discover(domain, {timeout: 5000})``, the kit's reference client's lifetime of a lookup.

How a result becomes a reply (as the aid_py adapter): a record -> ``connect`` to its uri with its
proto; ``ERR_NO_RECORD`` and ``ERR_INVALID_TXT`` -> ``none``; any other ``AidError`` -> ``error``
with its code as ``error_kind``; any other exception -> ``error``, ``unhandled``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

PACKAGE = "@agentcommunity/aid"
#: The pinned version. 1.1.0 is also the newest on the registry (2026-11-27: versions ['1.1.0']).
VERSION = "1.1.0"
CLIENT_NAME = PACKAGE
HERE = Path(__file__).resolve().parent
ADAPTER = HERE / "adapter.mjs"
#: module.register (the loader hook) needs Node 20.6 or 18.19; AbortSignal.any needs 20.3.
MIN_NODE = (20, 6)

#: What the adapter changes around the library, for reports (see the module docstring).
REDIRECTION = {
    "dns": ("dns-query's query() gets the endpoint http://127.0.0.1:PORT/dns-query instead of the "
            "library's fixed [1.1.1.1, 8.8.8.8] (ESM loader hook on the library's import of dns-query; "
            "package files untouched); a DoH forwarder in the adapter process sends the query bytes to "
            "the step's nameservers over UDP, TCP on truncation"),
    "dns_guard": "endpoints that are not loopback are refused; every non-loopback TCP connect is refused and reported",
    "well_known_fallback": "off (wellKnownFallback: false; --revision v1.2|v2.1 --fallback turns it on; never under v1)",
    "https": ("Node's undici global dispatcher: connect per connect_to, SNI and certificate name of the "
              "original host, trust exactly ca_file"),
    "dnssec": ("not validated by the library; by default not by the forwarder either (--validating-resolver: "
               "the forwarder validates with the step's anchors and answers SERVFAIL for a bogus answer)"),
    "timeout_ms": 5000,
}


class NodeUnavailable(RuntimeError):
    """node or npm is missing, too old, or the install failed."""


def cache_root() -> Path:
    """``$ADCK_NPM_CACHE``, else ``~/.cache/adck/npm``."""
    env = os.environ.get("ADCK_NPM_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "adck" / "npm"


def default_prefix() -> Path:
    """Where the adapter looks for the package when given no ``--prefix``."""
    env = os.environ.get("ADCK_AID_NPM_PREFIX")
    return Path(env).expanduser() if env else cache_root() / f"agentcommunity-aid-{VERSION}"


def node() -> str:
    """The path of a ``node`` recent enough, or :class:`NodeUnavailable`."""
    found = shutil.which("node")
    if not found:
        raise NodeUnavailable("node is not on PATH (the aid_npm adapter is a Node program, Node >= 20.6)")
    out = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    m = re.match(r"v(\d+)\.(\d+)", out)
    if not m or (int(m[1]), int(m[2])) < MIN_NODE:
        raise NodeUnavailable(f"node {out or '?'} at {found} is too old: the aid_npm adapter needs >= "
                              f"{'.'.join(map(str, MIN_NODE))} (module.register)")
    return found


def npm() -> str:
    found = shutil.which("npm")
    if not found:
        raise NodeUnavailable("npm is not on PATH (needed to install @agentcommunity/aid)")
    return found


def package_dir(prefix: Path) -> Path:
    return Path(prefix) / "node_modules" / "@agentcommunity" / "aid"


def installed_version(prefix: Path) -> str | None:
    try:
        return json.loads((package_dir(prefix) / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return None


def install(prefix: Path | None = None, *, version: str = VERSION, timeout: float = 300) -> Path:
    """Install ``@agentcommunity/aid@version`` under the npm prefix (:func:`default_prefix` when
    None), unless that version is there already; returns the prefix. Lifecycle scripts are not
    run (``--ignore-scripts``): neither the package nor dns-query needs one."""
    target = Path(prefix) if prefix is not None else default_prefix()
    if installed_version(target) == version:
        return target
    target.mkdir(parents=True, exist_ok=True)
    argv = [npm(), "install", "--prefix", str(target), "--no-audit", "--no-fund", "--ignore-scripts",
            "--no-save", f"{PACKAGE}@{version}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0 or installed_version(target) != version:
        tail = (done.stdout + done.stderr)[-800:]
        raise NodeUnavailable(f"{shlex.join(argv)} failed (exit {done.returncode}): {tail}")
    return target


def target(prefix: Path | None = None, *, node_path: str | None = None, fallback: bool = False,
           validating_resolver: bool = False, revision: str = "v1") -> str:
    """The ``cmd:`` target running adapter.mjs with node on the given prefix (absolute paths);
    ``revision``: the AID revision the kit judges (v1, v1.2, v2.1: what the hello claims and how
    a reply reads, adapter.mjs's ``--revision``)."""
    argv = [node_path or "node", str(ADAPTER), "--prefix", str(Path(prefix or default_prefix()).resolve())]
    if revision != "v1":
        argv += ["--revision", revision]
    if fallback:
        argv.append("--fallback")
    if validating_resolver:
        argv.append("--validating-resolver")
    return "cmd:" + shlex.join(argv)
