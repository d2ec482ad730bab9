"""AID v1.2 Appendix E: the .well-known fallback, where a provider offers it (provider role:
its place; document role: its JSON)."""

from __future__ import annotations

import json
from urllib.parse import urljoin, urlsplit

import pytest

from conformance.aid import versioned
from conformance.aid.conftest import NO_ANSWER
from conformance.fetch import REDIRECT_STATUSES, Fetch, Fetcher
from conformance.invoke import refused
from conformance.outcomes import clause, not_applicable, untestable, violation
from conformance.targets import Target

PATH = "/.well-known/agent"
#: Where a fallback is commonly misplaced: the kit asks these only when PATH serves none.
NEAR_MISSES = ("/.well-known/agent.json", "/.well-known/agent/", "/.well-known/aid", "/.well-known/agents")


def _url(target: Target, path: str) -> str:
    if target.domain is None or target.record is not None:
        not_applicable("the target is a record on its own: no host serves a fallback")
    return f"https://{target.domain}{path}"


@pytest.fixture(scope="session")
def fallback(adck_target: Target, adck_fetcher: Fetcher) -> Fetch:
    """GET https://<domain>/.well-known/agent, once per run."""
    if adck_target.document_path is not None:
        not_applicable("the target is a document on its own: no host serves a fallback")
    return adck_fetcher.get(_url(adck_target, PATH))


def _served(fetch: Fetch) -> bool:
    final = fetch.final
    return final is not None and final.status is not None and 200 <= final.status < 300 and not fetch.error


def _looks_like_fallback(fetch: Fetch) -> bool:
    """A 2xx JSON object holding a version key and a uri or proto (long or short, any case)."""
    if not _served(fetch):
        return False
    try:
        body = json.loads(fetch.final.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    keys = {str(k).strip().lower() for k in body} if isinstance(body, dict) else set()
    return bool(keys & {"v", "version"}) and bool(keys & {"u", "uri", "p", "proto"})


def _origin(url: str) -> tuple[str, int | None]:
    parts = urlsplit(url)
    return (parts.hostname or "").lower(), parts.port or (443 if parts.scheme == "https" else 80)


@clause("AID-E-01")
def test_E_fallback_at_well_known_agent(adck_target: Target, adck_fetcher: Fetcher, fallback: Fetch) -> None:
    """- Path: `GET https://<domain>/.well-known/agent`

    A provider offering the fallback serves it at https://<host>/.well-known/agent of the exact
    host (2.3 step 2: 'a `.well-known` fallback on the same exact host'): not through a redirect
    to another host or port, and not at another path while that one serves nothing. The fallback
    is optional (a MAY of 2.3): where neither it nor a misplaced one is served, not applicable."""
    refused(fallback)
    origin = _origin(fallback.url)
    for ex in fallback.exchanges:
        location = ex.header("location") if ex.status in REDIRECT_STATUSES else None
        if location and _origin(urljoin(ex.url, location)) != origin:
            violation(f"expected the fallback at {fallback.url} of the exact host; saw {ex.url} answer {ex.status} "
                      f"to {urljoin(ex.url, location)!r}, another host or port", readings=("AMB-66",))
    if fallback.error_kind in NO_ANSWER:
        untestable(f"GET {fallback.url}: {fallback.describe_error()}")
    if _served(fallback):
        return
    misplaced = [adck_fetcher.get(_url(adck_target, p)) for p in NEAR_MISSES]
    found = [f for f in misplaced if _looks_like_fallback(f)]
    if found:
        violation(f"expected the fallback at {fallback.url}; saw {fallback.final.status if fallback.final else 'no answer'} "
                  "there, and an AID record's JSON at " + ", ".join(f.url for f in found), readings=("AMB-66",))
    not_applicable(f"{fallback.url} answers {fallback.final.status if fallback.final else fallback.describe_error()}: "
                   "the provider offers no .well-known fallback (optional)")


def fallback_problems(body: bytes) -> list[str]:
    """What keeps ``body`` from being 'JSON that mirrors TXT keys, including aliases' of a v1.2
    record (AMB-52: one object, the record's keys long or single-letter, string values, held to
    the record's rules), each with the clause of the rule; [] when it is one."""
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return [f"the body is not UTF-8 ({exc.reason})"]
    except ValueError as exc:
        return [f"the body is not JSON ({exc})"]
    if not isinstance(data, dict):
        return [f"the body is a JSON {type(data).__name__}, not an object of the record's keys"]
    out = [f"member {k!r} is a JSON {type(v).__name__}, not a string as a TXT value"
           for k, v in data.items() if not isinstance(v, str)]
    reading = versioned.Reading(text=json.dumps(data)[:200])
    for k, v in data.items():
        written, key = str(k).strip(), str(k).strip().lower()
        long = {a: l for l, a in versioned.ALIASES.items()}.get(key, key)
        reading.written.append(written)
        reading.order.append(long)
        if isinstance(v, str):
            reading.fields.setdefault(long, v.strip())
    for key, alias in versioned.ALIASES.items():
        lower = [w.lower() for w in reading.written]
        if key in lower and alias in lower:
            out.append(f"both {key!r} and its alias {alias!r} (AID-2.1-31)")
    version = reading.fields.get("version")
    if version is None:
        out.append("no v (version) member (AID-2.1-33)")
        return out
    if version != "aid1":
        out.append(f"v={version!r}, not aid1 (AID-2.1-34)")
        return out
    versioned._check(reading, "v1.2")
    out += [f"{p.message} ({p.clause})" for p in reading.problems]
    return out


@clause("AID-E-02")
def test_E_fallback_mirrors_txt_keys(fallback: Fetch) -> None:
    """- Format: JSON that mirrors TXT keys, including aliases.

    What https://<domain>/.well-known/agent serves (2xx) is one JSON object whose members are the
    record's keys, full or single-letter, each with a string value, held to the rules of a v1.2
    record: v aid1, a non-empty u and p, no key beside its alias, every value in its table's form
    (AMB-52). A v=aid2 object is v2.1's fallback, not judged here."""
    refused(fallback)
    if not _served(fallback):
        not_applicable(f"{fallback.url} serves no fallback ("
                       f"{fallback.final.status if fallback.final else fallback.describe_error()})")
    try:
        data = json.loads(fallback.final.body.decode("utf-8"))
        if isinstance(data, dict) and str(data.get("v", data.get("version", ""))).strip() == "aid2":
            not_applicable(f"{fallback.url} serves a v=aid2 fallback: v2.1's")
    except (UnicodeDecodeError, ValueError):
        pass
    problems = fallback_problems(fallback.final.body)
    if problems:
        media = fallback.final.header("content-type") or "no Content-Type"
        violation(f"expected at {fallback.url} a JSON object mirroring a v1.2 record's keys (string values, "
                  f"v=aid1, u, p); saw ({media}) " + "; ".join(problems), readings=("AMB-52", "AMB-66"))
