"""§8.1 HTTPS (host role): the document, the REST servers and the invocation endpoint."""

from __future__ import annotations

import ipaddress

import httpx
import pytest

from conformance.fetch import Fetch, Fetcher, is_private_address
from conformance.outcomes import NotApplicable, Untestable, clause, not_applicable, untestable, violation
from conformance.targets import Target
from conformance.woa._host_fixtures import WELL_KNOWN, RestServer, unreachable

#: Names that are not on the open Internet: special-use and local-network domains (RFC 6761,
#: RFC 6762, RFC 8375, and the private-use .internal). The kit's mock world names (.adck.test)
#: stand for public names (AMB-27).
_LOCAL_SUFFIXES = (".localhost", ".local", ".home.arpa", ".internal", ".lan", ".intranet", ".corp", ".private",
                   ".invalid")


def on_open_internet(host: str) -> bool:
    """Is ``host`` (as the user named it) a public name or address (AMB-13, AMB-27)?"""
    host = host.strip("[]").lower().rstrip(".")
    try:
        ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return "." in host and host != "localhost" and not host.endswith(_LOCAL_SUFFIXES)
    return not is_private_address(host)


def _tls_failure(fetch: Fetch) -> str | None:
    if fetch.error_kind == "tls":
        return f"the TLS handshake with {httpx.URL(fetch.final_url).host} failed: {fetch.error[1] if fetch.error else ''}"
    if fetch.error_kind == "insecure-redirect":
        return f"{fetch.error[1] if fetch.error else 'a redirect to plain HTTP'}"
    return None


def _invocation_calls(request: pytest.FixtureRequest) -> list:
    """The invocations the run sent (sending the valid ones if none was sent yet and the run
    may invoke); empty when there is no rest transport or invoking is not allowed."""
    try:
        invocations = request.getfixturevalue("invocations")
        if not invocations.calls:
            invocations.valid()
        return list(invocations.calls)
    except (NotApplicable, Untestable):
        return []


@clause("WOA-8.1-01")
def test_8_1_host_uses_https(woa_fetch: Fetch, request: pytest.FixtureRequest) -> None:
    """Hosts that serve WoA documents and implement REST transports MUST use HTTPS. (The
    document comes over HTTPS with a certificate valid for the host's name, through https
    redirects only; every REST base the document lists is https, and its server and the
    invocation endpoint complete a TLS handshake with a valid certificate: AMB-13.)"""
    problems: list[str] = []
    if httpx.URL(woa_fetch.url).scheme != "https" and woa_fetch.final is not None:
        problems.append(f"the document is served over plain HTTP at {woa_fetch.url}")
    failure = _tls_failure(woa_fetch)
    if failure:
        problems.append(f"fetching the document: {failure}")
    if problems:
        violation("; ".join(problems))
    servers: list[RestServer] = []
    try:
        servers = request.getfixturevalue("rest_servers")
    except NotApplicable:
        pass
    except Untestable:
        if woa_fetch.final is None or not 200 <= woa_fetch.final.status < 300:
            untestable(f"the document (and so its REST bases) could not be read: {woa_fetch.describe_error()} "
                       "(see WOA-3-01)")
    for server in servers:
        if server.scheme != "https":
            problems.append(f"the REST base {server.base!r} is not https")
        elif server.fetch is not None and _tls_failure(server.fetch):
            problems.append(f"the REST base {server.base}: {_tls_failure(server.fetch)}")
    for call in _invocation_calls(request):
        failure = _tls_failure(call.fetch)
        if failure:
            problems.append(f"{call.what}: {failure}")
            break
    if problems:
        violation("; ".join(problems))


@clause("WOA-8.1-02")
def test_8_1_host_tls_13(woa_fetch: Fetch) -> None:
    """The underlying TLS version SHOULD be TLS 1.3. (The kit offers TLS 1.2 and 1.3; the
    origin that serves the document negotiates 1.3 if it supports it. A server that also
    accepts 1.2 is not failed: AMB-23, AMB-30. The REST servers: WOA-4.3.1-04.)"""
    first = woa_fetch.exchanges[0] if woa_fetch.exchanges else None
    if httpx.URL(woa_fetch.url).scheme != "https":
        untestable(f"the document is fetched over plain HTTP ({woa_fetch.url}): no TLS (see WOA-8.1-01)")
    if first is None or first.tls_version is None:
        untestable(f"no TLS connection to {woa_fetch.url}: {woa_fetch.describe_error()} (see WOA-8.1-01)")
    if first.tls_version != "TLSv1.3":
        violation(f"{httpx.URL(woa_fetch.url).host} negotiated {first.tls_version} although the kit offered "
                  "TLS 1.3: it does not support TLS 1.3")


@clause("WOA-8.1-04")
def test_8_1_host_no_plain_http(woa_fetch: Fetch, adck_target: Target, adck_fetcher: Fetcher,
                                request: pytest.FixtureRequest) -> None:
    """Plain HTTP MUST NOT be used for WoA documents or REST invocations on the open
    Internet. (For a host named by a public name or address (as the user named it, whatever
    --connect-to maps it to: AMB-27): the document is not served over plain HTTP: neither at
    the URL the kit was given nor at http://HOST/.well-known/woa.json, nor at the end of
    plain-HTTP redirects from there (a redirect to https, a refusal, an error, or a page that
    is not the document passes: AMB-35), and no REST base is http. Hosts named by a private
    address or a local-network name are not on the open Internet: AMB-13.)"""
    origin = httpx.URL(woa_fetch.url)
    if not on_open_internet(origin.host):
        not_applicable(f"{origin.host} is not on the open Internet (a private address or a local-network name: "
                       "AMB-13)")
    final = woa_fetch.final
    if origin.scheme == "http" and final is not None and 200 <= final.status < 300 \
            and not any(httpx.URL(e.url).scheme == "https" for e in woa_fetch.exchanges):
        violation(f"the document is served over plain HTTP at {woa_fetch.url} ({final.status})")
    problems: list[str] = []
    try:
        for server in request.getfixturevalue("rest_servers"):
            if server.scheme == "http":
                problems.append(f"the REST base {server.base!r} sends invocations over plain HTTP")
    except (NotApplicable, Untestable):
        pass
    if origin.scheme == "https":
        probe = f"http://{origin.host}{WELL_KNOWN}"
        why = unreachable(adck_target, probe)
        if why:
            print(f"{probe} not probed: {why}")
        else:
            fetch = adck_fetcher.get(probe, headers={"Accept": "application/woa+json, application/json"})
            served = next((e for e in fetch.exchanges if httpx.URL(e.url).scheme == "http" and e.status is not None
                           and 200 <= e.status < 300 and is_woa_document(e.body, final.body if final else None)), None)
            if served is not None:
                hops = f" (after {len(fetch.exchanges) - 1} plain-HTTP redirect(s))" if served is not fetch.exchanges[0] else ""
                problems.append(f"GET {probe} answered {served.status} with the WoA document over plain HTTP{hops}, "
                                "not a redirect to https or a refusal (AMB-35)")
            else:
                said = fetch.exchanges[0].status if fetch.exchanges else fetch.describe_error()
                print(f"GET {probe}: {said}; no WoA document over plain HTTP")
    if problems:
        violation("; ".join(problems), readings=("AMB-27",) + (("AMB-35",) if any("AMB-35" in p for p in problems) else ()))


def is_woa_document(body: bytes, document: bytes | None) -> bool:
    """Does ``body`` carry a WoA document: the bytes the host serves over HTTPS, or a JSON object
    holding woa_version or agents (AMB-35)? A page that only points to https does not."""
    if not body or not body.strip():
        return False
    if document is not None and body.strip() == document.strip():
        return True
    from conformance.document import loads

    try:
        value = loads(body.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(value, dict) and ("woa_version" in value or "agents" in value)
