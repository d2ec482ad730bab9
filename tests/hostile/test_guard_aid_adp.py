"""Issue #21, point 2, for the AID and ADP drafts: every URL the target gives (in a TXT record,
a manifest, a Discovery Response, Agent Metadata, a redirect's Location) goes through the one
private-address guard of :meth:`conformance.fetch.Fetcher.fetch`, as
``tests/hostile/test_budgets_and_guard.py`` proves for AIDRE and WoA.

Each target below names loopback addresses (listening :class:`Recorder` sockets on 127.0.0.1
and ::1) in every URL field of its draft. Run through a fetcher that records every connection
(the ``connections`` fixture), the suite reaches none of them, ends with a clean verdict, and
every clause the guard kept from its evidence is untestable or not applicable, naming the
refused address, never failed for the kit's own refusal. With ``allow_private`` (the
``--allow-private`` option) the same targets do reach the Recorders: the tests can fail.

* AID (provider role, on the mock DNS and HTTPS world): the record's ``config`` and ``uri``;
  the manifest's ``metadata.revocationURL``, ``metadata.documentation`` and each
  implementation's ``uri``, ``revocationURL``, ``authentication.tokenUrl`` (the suite fetches
  the config URL and the revocation URLs, Appendix C; the others it reads and never fetches);
* ADP (service role, the reference service on the mock HTTPS world): every URL of its
  registry (bindings' endpoints, ``origin_service``, ``credential_refs``), served in every
  Discovery Response and Agent Metadata record, and a ``Location`` header of an agent resource
  that redirects to a loopback address (the suite fetches only its binding's paths under the
  target, so a redirect is the only way an ADP answer can send it elsewhere).
"""

from __future__ import annotations

import contextlib
import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

from conformance.world import https, tls
from conformance.world.dns import MockDNS
from conformance.world.site import Route, Site, load_reference
from tests.conftest import ends, quiet_run
from tests.hostile.test_budgets_and_guard import Recorder, _unguarded, connections, insiders  # noqa: F401 - fixtures

#: What the guard's refusal says (conformance.fetch: a URL taken from the target, PRIVATE_ADDRESS).
PRIVATE = "not the host the user named"
#: What a refused redirect says (conformance.fetch: private-redirect).
REDIRECT = "reported, not fetched (--allow-private follows it)"


def _hosts(insiders: list[Recorder]) -> tuple[str, str]:
    """host:port of the IPv4 Recorder and of the IPv6 one (the IPv4 one again without IPv6)."""
    v4, v6 = insiders[0], insiders[-1]
    return f"127.0.0.1:{v4.port}", (f"[::1]:{v6.port}" if v6 is not v4 else f"127.0.0.1:{v4.port}")


def _clean(result) -> list:
    """The report's results; the run ended with a verdict and no clause errored."""
    __tracebackhide__ = True
    assert result.report is not None and result.exit_code in (0, 1), (result.exit_code, result.error)
    errors = [(r.clause, r.message[:160]) for r in result.report.results if r.outcome == "error"]
    assert errors == []
    return result.report.results


def _judged_refusals(results: list, *words: str) -> list:
    """The results whose message names a refusal (any of ``words``): each is untestable or
    not applicable, never failed, and names the address it refused."""
    __tracebackhide__ = True
    refused = [r for r in results if any(w in r.message for w in words)]
    assert refused, "no clause says a private address was refused"
    assert [(r.clause, r.outcome) for r in refused if r.outcome not in ("untestable", "not-applicable")] == []
    assert all("127.0.0.1" in r.message or "::1" in r.message for r in refused)
    return refused


# ------------------------------------------------------------------ AID (provider role)

DOMAIN = "provider.adck.test"
MANIFEST_PATH = "/.well-known/aid.json"


def _aid_manifest(v4: str, v6: str) -> dict:
    """The reference manifest with every URL it holds at a loopback address."""
    manifest = json.loads((Path(__file__).parents[2] / "fixtures" / "aid" / "aid.json").read_text("utf-8"))
    manifest["metadata"]["revocationURL"] = f"https://{v4}/agent/status"
    manifest["metadata"]["documentation"] = f"https://{v6}/docs"
    remote = manifest["implementations"][0]
    remote["uri"] = f"https://{v4}/mcp"
    remote["revocationURL"] = f"https://{v6}/agent/status"
    remote["authentication"]["tokenUrl"] = f"https://{v4}/account/tokens"
    return manifest


def _txt(value: str) -> str:
    """A TXT record's zone-file data: ``value`` in quoted character-strings of at most 200 bytes."""
    return " ".join('"' + value[i:i + 200] + '"' for i in range(0, len(value), 200))


@contextlib.contextmanager
def _aid_world(record: str, manifest: dict | None) -> Iterator[dict]:
    """``record`` at _agent.provider.adck.test on a mock DNS server, and (when given) ``manifest``
    at https://provider.adck.test/.well-known/aid.json on a mock HTTPS origin; yields quiet_run's
    keywords that reach them (the origin by --connect-to, no other mapping)."""
    dns_server = MockDNS()
    zone = dns_server.add_zone(DOMAIN, f"_agent 300 IN TXT {_txt(record)}\n", sign=True)  # AID-4-01 passes
    origin = None
    if manifest is not None:
        origin = https.serve(Site(hostname=DOMAIN, document=manifest, routes=(
            Route(path=MANIFEST_PATH, body="document", headers=(("Content-Type", "application/json"),)),)))
    try:
        yield dict(nameservers=[f"127.0.0.1:{dns_server.port}"], ca_bundle=str(tls.ca_bundle()), timeout=3,
                   dnssec_anchors=[f"{DOMAIN}. IN DS {zone.keys.ds[0].to_text()}"],
                   connect_to=[f"{DOMAIN}:443:127.0.0.1:{origin.port}"] if origin else [])
    finally:
        dns_server.stop()
        if origin is not None:
            origin.stop()


def _aid_private_config(insiders: list[Recorder], **run: Any):
    v4, v6 = _hosts(insiders)
    record = f"v=aid1;uri=https://{v4}/mcp;proto=mcp;auth=pat;config=https://{v6}{MANIFEST_PATH}"
    with _aid_world(record, None) as reach:
        return ends(quiet_run, "aid@v1", DOMAIN, seed=5, **reach, **run)


def _aid_private_manifest_urls(insiders: list[Recorder], **run: Any):
    v4, v6 = _hosts(insiders)
    record = f"v=aid1;uri=https://{v4}/mcp;proto=mcp;auth=pat;config=https://{DOMAIN}{MANIFEST_PATH}"
    with _aid_world(record, _aid_manifest(v4, v6)) as reach:
        return ends(quiet_run, "aid@v1", DOMAIN, seed=5, **reach, **run)


def test_aid_config_at_a_private_address_is_not_fetched(insiders: list[Recorder], connections: list) -> None:
    """The record's config (and uri) at loopback addresses: the manifest is not fetched; the
    clause that judges its fetch (AID-2.2-01) and every clause that reads it are untestable,
    none failed because the kit refused."""
    results = _clean(_aid_private_config(insiders))
    assert _unguarded(connections) == [] and [r.connections for r in insiders] == [0] * len(insiders)
    refused = _judged_refusals(results, PRIVATE)
    assert "AID-2.2-01" in {r.clause for r in refused}, [(r.clause, r.outcome, r.message[:100]) for r in results
                                                         if r.clause == "AID-2.2-01"]
    assert [(r.clause, r.message[:120]) for r in results if r.outcome == "fail"] == []


def test_aid_manifest_urls_at_private_addresses_are_not_fetched(insiders: list[Recorder], connections: list) -> None:
    """The manifest (fetched from the named domain) names loopback addresses in every URL
    field: its revocation URLs (Appendix C) are not fetched; AID-C-02 and AID-C-03 are
    untestable, naming the refused address."""
    results = _clean(_aid_private_manifest_urls(insiders))
    assert connections, "the fetcher was not used"
    assert any(h == DOMAIN and mapped for h, _p, mapped in connections), "the manifest was not fetched"
    assert _unguarded(connections) == [] and [r.connections for r in insiders] == [0] * len(insiders)
    refused = _judged_refusals(results, PRIVATE)
    assert {"AID-C-02", "AID-C-03"} <= {r.clause for r in refused}, \
        [(r.clause, r.outcome, r.message[:100]) for r in results if r.clause.startswith("AID-C")]
    assert [(r.clause, r.message[:120]) for r in results if r.outcome == "fail"] == []


def test_aid_with_allow_private_the_recorders_are_reached(insiders: list[Recorder]) -> None:
    """The positive control: with --allow-private the same targets reach the loopback addresses
    (the config URL of the first, the revocation URLs of the second)."""
    _clean(_aid_private_config(insiders, allow_private=True))
    assert insiders[-1].connections > 0, "the config URL was not fetched with --allow-private"
    _clean(_aid_private_manifest_urls(insiders, allow_private=True))
    assert all(r.connections > 0 for r in insiders), [r.connections for r in insiders]


# ------------------------------------------------------------------ ADP (service role)

ADP_HOST = "adp.adck.test"


def _privatised(value: Any, hosts: tuple[str, str], count: list[int]) -> Any:
    """``value`` with every absolute http(s) URL moved to a loopback address (alternately the
    IPv4 and the IPv6 Recorder), its path kept; ``count`` counts them."""
    if isinstance(value, dict):
        return {k: _privatised(v, hosts, count) for k, v in value.items()}
    if isinstance(value, list):
        return [_privatised(v, hosts, count) for v in value]
    if isinstance(value, str) and value.lower().startswith(("https://", "http://")):
        scheme, _, rest = value.partition("://")
        path = rest[rest.find("/"):] if "/" in rest else "/"
        count[0] += 1
        return f"{scheme}://{hosts[count[0] % 2]}{path}"
    return value


def _adp_site(insiders: list[Recorder]):
    """The reference service with every URL of its registry at a loopback address, and its
    agent resource of one (federated) agent redirecting there; (site, agent id, URLs moved)."""
    v4, v6 = _hosts(insiders)
    site = load_reference("adp")
    count = [0]
    document = _privatised(copy.deepcopy(site.document), (v4, v6), count)
    redirected = _redirected_agent(document)
    route = Route(path="/agents/" + redirected, status=307,  # the path as the server decodes it
                  headers=(("Location", f"https://{v4}/agents/elsewhere"),))
    return replace(site, document=document, routes=(route, *site.routes)), redirected, count[0]


def _redirected_agent(document: Any) -> str:
    """The id of a federated agent of the registry (one whose record names an origin_service)."""
    agents = document.get("agents", document) if isinstance(document, dict) else document
    for agent in agents:
        if isinstance(agent, dict) and "origin_service" in json.dumps(agent):
            return agent["id"]
    raise AssertionError("the reference registry has no federated agent")


@contextlib.contextmanager
def _adp_live(site) -> Iterator[dict]:
    origin = https.serve(site)
    try:
        yield dict(connect_to=[f"{ADP_HOST}:443:127.0.0.1:{origin.port}"], ca_bundle=str(tls.ca_bundle()),
                   invoke=True, timeout=3)
    finally:
        origin.stop()


def _adp_run(insiders: list[Recorder], **run: Any):
    site, agent, moved = _adp_site(insiders)
    with _adp_live(site) as reach:
        return ends(quiet_run, "adp", f"https://{ADP_HOST}", seed=7, **reach, **run), agent, moved


def test_adp_urls_of_answers_at_private_addresses_are_not_fetched(insiders: list[Recorder],
                                                                   connections: list) -> None:
    """Every URL the service's answers name is at a loopback address, and one agent resource
    redirects to one: none is reached; the clauses that needed the redirected record are
    untestable, naming the refused address."""
    result, agent, moved = _adp_run(insiders)
    assert moved >= 10, moved
    results = _clean(result)
    assert connections and all(h == ADP_HOST and mapped for h, _p, mapped in connections if not
                               h.startswith(("127.", "::1"))), connections
    assert _unguarded(connections) == [] and [r.connections for r in insiders] == [0] * len(insiders)
    refused = _judged_refusals(results, REDIRECT, PRIVATE)
    # the clauses that read the redirected agent's metadata (GET {base}/agents/{id}) say why they could not
    assert {"ADP-7.8-04", "ADP-10-07"} <= {r.clause for r in refused}, \
        [(r.clause, r.outcome, r.message[:120]) for r in results if r.clause in ("ADP-7.8-04", "ADP-10-07")]
    assert all(agent in r.message or quote(agent, safe="") in r.message for r in refused)
    # the one failure is the service's own: loopback addresses in answers below detail=full
    # (7.5, the kit's reading of "internal system names"), judged from what it sent, not a refusal
    failed = [r for r in results if r.outcome == "fail"]
    assert {r.clause for r in failed} <= {"ADP-7.5-02"}, [(r.clause, r.message[:120]) for r in failed]
    assert all("names the internal host" in r.message and REDIRECT not in r.message for r in failed)


def test_adp_with_allow_private_the_recorder_is_reached(insiders: list[Recorder]) -> None:
    result, _agent, _moved = _adp_run(insiders, allow_private=True)
    _clean(result)
    assert insiders[0].connections > 0, "the redirect was not followed with --allow-private"
