"""Appendix C: Revocation Endpoint Contract (provider: what each revocationURL answers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest

from conformance.document import Document, TooDeep, kind_name, loads
from conformance.fetch import PRIVATE_ADDRESS, Exchange, Fetch, Fetcher
from conformance.aid.conftest import NO_ANSWER
from conformance.outcomes import clause, not_applicable, untestable, violation


@dataclass
class Revocation:
    """The manifest's revocationURLs (JSON path, URL) and one GET of each https one."""

    urls: list[tuple[str, str]] = field(default_factory=list)
    fetches: dict[str, Fetch] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    def evidence(self) -> list[Exchange]:
        return [ex for f in self.fetches.values() for ex in f.exchanges]


@pytest.fixture(scope="module")
def revocation(manifest: Document, adck_fetcher: Fetcher) -> Revocation:
    rev = Revocation()
    top = manifest.top()
    metadata = top.get("metadata")
    if isinstance(metadata, dict) and "revocationURL" in metadata:
        rev.urls.append(("metadata.revocationURL", metadata["revocationURL"]))
    impls = top.get("implementations")
    for i, impl in enumerate(impls if isinstance(impls, list) else []):
        if isinstance(impl, dict) and "revocationURL" in impl:
            rev.urls.append((f"implementations[{i}].revocationURL", impl["revocationURL"]))
    if not rev.urls:
        not_applicable("the manifest has no revocationURL")
    for path, url in rev.urls:
        if not isinstance(url, str) or urlsplit(url).scheme.lower() != "https" or not urlsplit(url).netloc:
            rev.skipped.append(f"{path} is not an absolute https URL (see AID-2.2.1-09, AID-2.2.2-15)")
        elif url not in rev.fetches:
            rev.fetches[url] = adck_fetcher.get(url)  # once per URL: the fetcher shares it with every test
    if not rev.fetches:
        untestable("; ".join(rev.skipped))
    return rev


def _json(fetch: Fetch) -> tuple[object | None, str | None]:
    final = fetch.final
    assert final is not None
    if final.body_truncated:
        return None, f"the body is larger than the {len(final.body)} bytes the kit reads"
    try:
        return loads(final.body.decode("utf-8")), None
    except TooDeep as exc:
        return None, str(exc)
    except (UnicodeDecodeError, ValueError) as exc:
        return None, f"the body is not JSON ({exc})"


def _paths(rev: Revocation, url: str) -> str:
    return ", ".join(p for p, u in rev.urls if u == url)


@clause("AID-C-02")
def test_C_revocation_answers_200_json(revocation: Revocation) -> None:
    """The endpoint **MUST** return a `200 OK` status with a JSON body."""
    problems, unjudged = [], []
    for url, fetch in revocation.fetches.items():
        final = fetch.final
        where = f"GET {url} ({_paths(revocation, url)})"
        if fetch.error_kind == PRIVATE_ADDRESS:
            # the private-address guard kept the request in: it says nothing of the provider
            unjudged.append(f"{where}: not fetched: {fetch.error[1]}")  # type: ignore[index]
        elif final is None and fetch.error_kind in NO_ANSWER:
            unjudged.append(f"{where}: no answer ({fetch.describe_error()}): down, or out of the kit's reach")
        elif final is None or (fetch.error and fetch.error_kind != "too-large"):
            problems.append(f"{where}: {fetch.describe_error() if fetch.error else 'no answer'}")
        elif final.status != 200:
            problems.append(f"{where} answered {final.status} {final.reason}")
        else:
            _value, why = _json(fetch)
            if why and final.body_truncated or isinstance(why, str) and why.startswith("the JSON is nested"):
                unjudged.append(f"{where}: {why}")
            elif why:
                problems.append(f"{where}: {why}")
    if problems:
        violation("; ".join(problems))
    if unjudged:
        untestable("; ".join(unjudged))


@clause("AID-C-03")
def test_C_revocation_status_valid_or_revoked(revocation: Revocation) -> None:
    """| **`{"status":"valid"}`** | The implementation is active and can be used. |
    (and `{"status":"revoked"}`: the two bodies of the table)"""
    problems, blocked, checked = [], [], 0
    for url, fetch in revocation.fetches.items():
        where = f"GET {url} ({_paths(revocation, url)})"
        final = fetch.final
        if fetch.error_kind == PRIVATE_ADDRESS:
            blocked.append(f"{where}: not fetched: {fetch.error[1]}")  # type: ignore[index]
            continue
        if final is None or final.status != 200:
            blocked.append(f"{where} did not answer 200 (see AID-C-02)")
            continue
        value, why = _json(fetch)
        if why:
            blocked.append(f"{where}: {why} (see AID-C-02)")
            continue
        checked += 1
        if not isinstance(value, dict):
            problems.append(f"{where}: the body is a JSON {kind_name(value)}, not an object")
        elif "status" not in value:
            problems.append(f"{where}: the body has no status")
        elif value["status"] not in ("valid", "revoked"):
            shown = value["status"] if isinstance(value["status"], str) else kind_name(value["status"])
            problems.append(f"{where}: status is {shown!r}, not \"valid\" or \"revoked\"")
    if problems:
        violation("; ".join(problems))
    if not checked:
        untestable("; ".join(blocked))
