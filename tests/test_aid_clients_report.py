"""docs/aid-clients-report.md (conformance.adapters.aid_clients_report): the page is what the two
real AID client libraries do today, under AID v1, v1.2 and v2.1, and every one of its claims holds.

Each library is run once per revision (module fixtures; the runs are shared by every check):

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


@pytest.fixture(scope="module")
def aid_py_runs():
    pytest.importorskip("aid_py", reason="aid-discovery is not installed: pip install 'adck[aid-py]'")
    return page.run_library("aid-py")


@pytest.fixture(scope="module")
def npm_runs(tmp_path_factory: pytest.TempPathFactory):
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


@pytest.fixture(params=["aid-py", "aid-npm"])
def runs(request: pytest.FixtureRequest):
    return request.param, request.getfixturevalue("aid_py_runs" if request.param == "aid-py" else "npm_runs")


def test_the_page_exists_with_its_header() -> None:
    assert PAGE_TEXT.startswith(page.HEADER), f"{page.PAGE} is missing or its header is old; run: {page.REGENERATE}"


def test_the_library_section_is_current(runs) -> None:
    key, got = runs
    fresh = page.render_library(key, got, page.findings())
    # every claim: verdicts, counts, what the adapter claims and changes, each failing clause, its
    # class and reason (the evidence cell may differ where a library picks among equal answers)
    assert page.claims(page.section(PAGE_TEXT, key) or "") == page.claims(fresh), (
        f"the {key} section of {page.PAGE.name} is out of date; run: {page.REGENERATE} --library {key}")


def test_every_failure_is_classified_and_no_class_is_stale(runs) -> None:
    key, got = runs
    assert page.problems(got, page.findings()) == []
    assert page.UNCLASSIFIED not in (page.section(PAGE_TEXT, key) or "")


def test_each_revision_was_judged_with_the_adapter_told_it(runs) -> None:
    key, got = runs
    from conformance.harness.adapters import schema

    assert [r.revision for r in got] == list(page.REVISIONS)
    for r in got:
        assert list(schema("hello").iter_errors(r.hello)) == []
        features = set(r.hello.get("features") or [])
        description = str(r.hello.get("description") or "")
        assert f"judged as AID {r.revision}" in description
        if r.revision == "v1":
            assert features == set() and ".well-known fallback off" in description
            assert r.requests == 0  # no fallback, no PKA: no HTTPS from the library
        else:
            assert "aid.pka" in features and "aid.policy" not in features and "aid.local" not in features
            assert ("aid.well-known" in features) == page.FALLBACK[r.revision]
            assert f".well-known fallback {'on' if page.FALLBACK[r.revision] else 'off'}" in description
            # the library's HTTPS (PKA handshakes, fallbacks) reached the kit's world: the kit counted it
            assert r.requests > 0, r


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
