"""Appendix C `.well-known` Fallback (AID v2.1), document role: the JSON a domain serves at
https://<domain>/.well-known/agent, judged only when it serves one."""

from __future__ import annotations

import json

import pytest

from conformance.aid import versioned
from conformance.fetch import Fetch, Fetcher
from conformance.invoke import refused
from conformance.outcomes import clause, not_applicable, violation
from conformance.targets import Target

PATH = "/.well-known/agent"


@pytest.fixture(scope="session")
def fallback_fetch(adck_target: Target, adck_fetcher: Fetcher) -> Fetch:
    """GET https://<domain>/.well-known/agent, once per run (domain targets only)."""
    if adck_target.domain is None or adck_target.record is not None or adck_target.document_path is not None:
        not_applicable("the target is not a domain: no .well-known fallback is fetched")
    return adck_fetcher.get(f"https://{adck_target.domain}{PATH}")


def _record_text(members: dict[str, str]) -> str:
    """The members as the TXT record they mirror (a ';' inside a value, which JSON allows and
    TXT cannot hold, read as ',' so it does not split the value)."""
    return ";".join(f"{k}={v.replace(';', ',')}" for k, v in members.items())


def findings(body: bytes) -> list[str]:
    """What keeps ``body`` from being JSON mirroring an aid2 record's keys (AMB-52's reading:
    one object whose members are the record's keys, long or single-letter, with string values,
    held to the record's rules)."""
    try:
        pairs_seen: list[list[tuple[str, object]]] = []
        data = json.loads(body.decode("utf-8"), object_pairs_hook=lambda p: pairs_seen.append(p) or dict(p))
    except (UnicodeDecodeError, ValueError) as exc:
        return [f"the body is not JSON ({str(exc)[:80]})"]
    if not isinstance(data, dict):
        return [f"the body is a JSON {type(data).__name__.replace('dict', 'object').replace('list', 'array')}, not an object"]
    found = []
    top = pairs_seen[-1]
    names = [k.lower() for k, _ in top]
    twice = sorted({k for k in names if names.count(k) > 1})
    if twice:
        found.append(f"members named twice: {', '.join(twice)}")
    odd = [k for k, v in data.items() if not isinstance(v, str)]
    if odd:
        found.append(f"members that are not strings: {', '.join(f'{k} ({type(data[k]).__name__})' for k in odd)}")
    reading = versioned.read(_record_text({k: v for k, v in data.items() if isinstance(v, str)}))
    if reading.version != "aid2":
        found.append(f"v (version) is {reading.version!r}, not aid2: not an aid2 record's keys")
    else:
        found += [f"{p.message} ({p.clause})" for p in reading.problems]
    return found


@clause("AID-C-07")
def test_C_fallback_is_json_mirroring_v2_record_keys(fallback_fetch: Fetch) -> None:
    """Format: JSON mirroring v2 record keys.

    When https://<domain>/.well-known/agent answers 2xx, its body is one JSON object whose
    members are an aid2 record's keys (long or single-letter: version/v, uri/u, proto/p, ...)
    with string values, and that record is valid by v2.1's rules: v=aid2, u and p present,
    no kid or i, a well-formed k, tokens of the registries, and the rest (AMB-52). A domain
    that serves no fallback (no answer, 404, any status but 2xx) is not judged."""
    refused(fallback_fetch)
    final = fallback_fetch.final
    if final is None or not 200 <= final.status < 300:
        why = fallback_fetch.describe_error() if fallback_fetch.error else f"{final.status} {final.reason}" if final else "no answer"
        not_applicable(f"{fallback_fetch.url} serves no fallback ({why})")
    found = findings(final.body or b"")
    if found:
        violation(f"GET {fallback_fetch.url} answered {final.status}: " + "; ".join(found)
                  + "; expected a JSON object of an aid2 record's keys with string values, valid as that record",
                  readings=("AMB-52",))
