"""docs/aid-clients-report.md (conformance.adapters.aid_clients_report): the page is what the two
real AID client libraries do today, under AID v1, v1.2 and v2.1, and every one of its claims holds.

Each library is run once per revision, in one test per library (so that pytest-xdist never runs
it twice), which checks:

- its section of the page is exactly what the runs give (refresh it with
  ``python -m conformance.adapters.aid_clients_report``);
- every failing clause is classed in profiles/aid/client-findings.toml, and every class there
  still matches a failure (no stale entry);
- what the page says each adapter claims and changes holds: the hello's features follow the
  revision and the fallback switch, the fallback is off under v1, and the HTTPS the library sends
  (PKA, fallback) reached the kit's world under v1.2/v2.1 through connect_to and the step's CA.

aid-discovery: skipped when aid_py is not installed. The npm library: installed with the adapter's
helper (into a temporary prefix, or $ADCK_NPM_CACHE's) when node and npm are there; skipped
saying why otherwise, and failed under CI (``CI`` set), as tests/test_aid_npm_adapter.py does.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys

import pytest

from conformance.adapters import aid_clients_report as page

PAGE_TEXT = page.PAGE.read_text(encoding="utf-8") if page.PAGE.exists() else ""


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _aid_py_runs():
    pytest.importorskip("aid_py", reason="aid-discovery is not installed: pip install 'adck[aid-py]'")
    return page.run_library("aid-py")


def _npm_runs(tmp_path_factory: pytest.TempPathFactory):
    from conformance.adapters import aid_npm

    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        _unavailable(f"{' and '.join(missing)} not on PATH: the aid_npm adapter needs Node >= 20.6 and npm")
    where = aid_npm.default_prefix() if os.environ.get("ADCK_NPM_CACHE") else tmp_path_factory.mktemp("npm")
    page.NPM_PREFIX[0] = where
    try:
        return page.run_library("aid-npm")
    except page.Unavailable as exc:
        _unavailable(f"could not run {aid_npm.PACKAGE}@{aid_npm.VERSION}: {exc}")
    finally:
        page.NPM_PREFIX[0] = None


def test_the_page_exists_with_its_header() -> None:
    assert PAGE_TEXT.startswith(page.HEADER), f"{page.PAGE} is missing or its header is old; run: {page.REGENERATE}"


def _section_is_current(key: str, got: list) -> list[str]:
    """Every claim of the library's section: verdicts, counts, what the adapter claims and
    changes, each failing clause, its class and reason, the MUST clauses not verified (the
    evidence cell and the step counts may differ where a library picks among equal answers)."""
    import difflib

    fresh = page.render_library(key, got, page.findings())
    old, new = page.claims(page.section(PAGE_TEXT, key) or ""), page.claims(fresh)
    if old != new:
        diff = [line[:300] for line in difflib.unified_diff(old, new, "page", "now", lineterm="", n=0)][2:12]
        return [f"the {key} section of {page.PAGE.name} is out of date; run: {page.REGENERATE}", *diff]
    return []


def _classified(key: str, got: list) -> list[str]:
    """Every failure classed, no class without its failure, no 'unclassified' on the page."""
    out = page.problems(got, page.findings())
    if page.UNCLASSIFIED in (page.section(PAGE_TEXT, key) or ""):
        out.append(f"the {key} section of {page.PAGE.name} shows an unclassified failure")
    return out


def _adapter_claims(key: str, got: list) -> list[str]:
    """The adapter was told each revision, claims what the page says, and under v1.2/v2.1 the
    library's HTTPS (PKA handshakes, fallbacks) reached the kit's world (the kit counted it)."""
    from conformance.harness.adapters import schema

    out = []
    if [r.revision for r in got] != list(page.REVISIONS):
        out.append(f"{key}: revisions run {[r.revision for r in got]}")
    for r in got:
        where = f"{key} under {r.revision}"
        features = set(r.hello.get("features") or [])
        description = str(r.hello.get("description") or "")
        out += [f"{where}: hello: {e.message}" for e in schema("hello").iter_errors(r.hello)]
        if f"judged as AID {r.revision}" not in description:
            out.append(f"{where}: the hello's description does not name the revision: {description!r}")
        if r.revision == "v1":
            if features or ".well-known fallback off" not in description or r.requests != 0:
                out.append(f"{where}: v1 claims no feature, has no fallback and sends no HTTPS: {features}, "
                           f"{description!r}, {r.requests} requests")
            continue
        if "aid.pka" not in features or features & {"aid.policy", "aid.local", "aid.manifest"}:
            out.append(f"{where}: claims {sorted(features)}")
        if ("aid.well-known" in features) != page.FALLBACK[r.revision] or \
                f".well-known fallback {'on' if page.FALLBACK[r.revision] else 'off'}" not in description:
            out.append(f"{where}: the fallback claimed {sorted(features)} / described {description!r}")
        if r.requests <= 0:
            out.append(f"{where}: no HTTPS request of the library reached the kit's world")
    return out


def test_aid_py_page_and_claims() -> None:
    """aid-discovery, run once per revision (one test, so that no two workers run it)."""
    got = _aid_py_runs()
    assert _section_is_current("aid-py", got) + _classified("aid-py", got) + _adapter_claims("aid-py", got) == []


def test_npm_page_and_claims(tmp_path_factory: pytest.TempPathFactory) -> None:
    """@agentcommunity/aid, installed with the adapter's helper, run once per revision."""
    got = _npm_runs(tmp_path_factory)
    assert _section_is_current("aid-npm", got) + _classified("aid-npm", got) + _adapter_claims("aid-npm", got) == []


def test_the_findings_name_known_classes_once() -> None:
    found = page.findings()
    assert found and {f.cls for f in found.values()} <= set(page.CLASSES)
    assert all(f.reason and f.revision in page.REVISIONS and f.library in page.LIBRARIES for f in found.values())


def test_aid_py_https_goes_only_where_connect_to_says() -> None:
    """The aid_py adapter's scoped network: a mapped host goes to its loopback target, any other
    host off loopback is refused, other threads are untouched, and all is put back after."""
    pytest.importorskip("aid_py")
    from conformance.adapters import aid_py

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        log: list[str] = []
        real = socket.create_connection
        with aid_py.scoped_network({"connect_to": [f"x.adck.test:443:127.0.0.1:{port}"]}, log):
            socket.create_connection(("x.adck.test", 443), timeout=5).close()
            with pytest.raises(aid_py.Refused):
                socket.create_connection(("example.com", 443), timeout=5)
        assert socket.create_connection is real
    assert log[0] == f"connect x.adck.test:443 -> 127.0.0.1:{port}" and "refused" in log[1]


def test_the_page_refreshes_with_one_command() -> None:
    done = subprocess.run([sys.executable, "-m", "conformance.adapters.aid_clients_report", "--help"],
                          cwd=page.ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--check" in done.stdout


@pytest.mark.parametrize("revision", page.REVISIONS)
def test_aid_py_as_a_process_says_the_same_hello(revision: str) -> None:
    """``cmd:python -m conformance.adapters.aid_py --revision REV [--fallback]`` claims what the
    page's in-process handler claims."""
    pytest.importorskip("aid_py")
    import json

    argv = [sys.executable, "-m", "conformance.adapters.aid_py", "--revision", revision,
            *(["--fallback"] if page.FALLBACK[revision] else [])]
    done = subprocess.run(argv, cwd=page.ROOT, capture_output=True, text=True, timeout=60,
                          input='{"type": "hello", "protocol": "adck-harness/1", "kit": "t"}\n{"type": "stop"}\n')
    assert json.loads(done.stdout.splitlines()[0]) == page.LIBRARIES["aid-py"].hello(revision)


def test_aid_py_refuses_a_fallback_under_v1() -> None:
    pytest.importorskip("aid_py")
    from conformance.adapters import aid_py

    with pytest.raises(ValueError, match="v1 has no .well-known fallback"):
        aid_py.make_handler("v1", fallback=True)
