"""The recorded world (conformance/recording.py): a request it holds is answered from it, one it
does not is sent and kept (live) or refused (offline, read-only, out of scope); a clause that
looked at a refused request is not checked, never passed; a WARC round trip keeps every field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import api
from conformance.dns import DnsConfig, Resolver, TxtAnswer
from conformance.fetch import ConnectTo, Exchange, Fetcher, HttpConfig
from conformance.outcomes import NARROWED
from conformance.recording import NOT_RECORDED, OUT_OF_SCOPE, READ_ONLY, Addresses, Recording, refusal
from conformance.scan import warc
from conformance.world import tls
from conformance.world.scenarios import ScenarioWorld
from conformance.world.site import Reference


@pytest.fixture(scope="module")
def publisher():
    with ScenarioWorld() as world:
        yield world, world.add("pub", Reference("aiendpoint").site())


def _config(world: ScenarioWorld, recording: Recording) -> HttpConfig:
    return HttpConfig(ca_bundle=tls.ca_bundle(), connect_to=(ConnectTo.parse(f"::127.0.0.1:{world.port('https')}"),),
                      recording=recording)


def test_live_sends_once_then_answers_from_the_recording(publisher) -> None:
    world, site = publisher
    recording = Recording(live=True)
    url = f"https://{site.host}/.well-known/ai"
    before = len(world.log_of(site.host))
    with Fetcher(_config(world, recording)) as fetcher:
        first = fetcher.fetch(url)
        second = fetcher.fetch(url)  # fetch(), not get(): no cache of the fetcher's own
        assert fetcher.requests_sent == 1
    assert len(world.log_of(site.host)) == before + 1
    assert first.final.status == second.final.status == 200 and first.final.body == second.final.body
    with Fetcher(_config(world, recording.offline())) as fetcher:
        again = fetcher.fetch(url)
        assert fetcher.requests_sent == 0 and again.final.body == first.final.body


@pytest.mark.parametrize(("recording", "method", "path", "kind"), [
    (Recording(live=False), "GET", "/.well-known/ai", NOT_RECORDED),
    (Recording(live=True, read_only=True), "POST", "/.well-known/ai", READ_ONLY),
    (Recording(live=True, read_only=True), "DELETE", "/.well-known/ai", READ_ONLY),
    (Recording(live=True, scope=("https://elsewhere.adck.test/",)), "GET", "/.well-known/ai", OUT_OF_SCOPE),
    (Recording(live=True, scope=("https://{host}/.well-known/woa.json",)), "GET", "/.well-known/ai", OUT_OF_SCOPE),
])
def test_a_refused_request_is_never_sent(publisher, recording: Recording, method: str, path: str, kind: str) -> None:
    world, site = publisher
    if recording.scope:
        recording.scope = tuple(p.replace("{host}", site.host) for p in recording.scope)
    before = len(world.log_of(site.host))
    with Fetcher(_config(world, recording)) as fetcher:
        fetch = fetcher.fetch(f"https://{site.host}{path}", method=method)
        assert fetcher.requests_sent == 0
    assert len(world.log_of(site.host)) == before
    assert fetch.final is None and fetch.error_kind == kind and refusal(fetch.exchanges[-1])[0] == kind


def test_an_offline_txt_lookup_is_refused_and_a_recorded_one_answered() -> None:
    recording = Recording(live=False)
    recording.keep_txt(TxtAnswer(name="_agent.example.test", status="ok", records=[[b"v=aid1;u=https://x"]], ttl=60))
    resolver = Resolver(DnsConfig(nameservers=(("127.0.0.1", 9),), lifetime=0.2, recording=recording))
    assert resolver.txt("_agent.example.test").texts() == ["v=aid1;u=https://x"]
    refused = resolver.txt("_agent.other.test")
    assert refused.status == "error" and refusal(refused)[0] == NOT_RECORDED
    assert resolver.queries_sent == 0


def test_every_clause_looking_at_a_refused_request_is_not_checked(publisher) -> None:
    """An offline recording that holds nothing: no clause of the publisher passes or fails;
    each one that fetched is untestable, narrowed, naming the probe the scan did not send."""
    world, site = publisher
    result = api.run("aiendpoint", f"https://{site.host}", roles=["publisher", "document"],
                     ca_bundle=str(tls.ca_bundle()), connect_to=[f"::127.0.0.1:{world.port('https')}"],
                     recording=Recording(live=False))
    outcomes = {r.clause: (r.outcome, r.message or "") for r in result.report.results}
    assert not [c for c, (o, _) in outcomes.items() if o in ("pass", "fail")], outcomes
    narrowed = [c for c, (o, m) in outcomes.items() if o == "untestable" and m.startswith(NARROWED)]
    assert narrowed and all(NOT_RECORDED in outcomes[c][1] for c in narrowed)
    assert result.report.summary.level != "full" and result.report.summary.partial


def test_a_recorded_run_judges_as_the_live_one(publisher) -> None:
    """The same clauses, judged live while recording and offline from the recording, agree."""
    world, site = publisher
    common = dict(roles=["publisher", "document"], ca_bundle=str(tls.ca_bundle()),
                  connect_to=[f"::127.0.0.1:{world.port('https')}"], seed=3)
    recording = Recording(live=True)
    live = api.run("aiendpoint", f"https://{site.host}", recording=recording, **common)
    offline = api.run("aiendpoint", f"https://{site.host}", recording=recording.offline(), **common)
    assert [(r.clause, r.outcome) for r in live.report.results] == [(r.clause, r.outcome) for r in offline.report.results]
    assert live.report.summary.level == offline.report.summary.level == "full"


def test_warc_round_trip_keeps_every_field(tmp_path: Path) -> None:
    recording = Recording(live=True)
    exchanges = [
        Exchange(method="GET", url="https://a.test/.well-known/ai?x=1", request_headers={"accept": "application/json"},
                 status=200, reason="OK", http_version="HTTP/1.1",
                 response_headers=[("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
                                   ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")],
                 body=b'{"a":1}', elapsed_headers=0.01, elapsed_total=0.02, tls_version="TLSv1.3"),
        Exchange(method="GET", url="https://a.test/.well-known/woa.json", request_headers={"accept": "*/*"},
                 error=("connect", "refused"), elapsed_total=0.5),
        Exchange(method="GET", url="https://a.test/big", request_headers={}, status=200, reason="OK", http_version="HTTP/2",
                 body=b"\x00\xff" * 5, body_truncated=True, error=("too-large", "cut")),
    ]
    for ex in exchanges:
        recording.keep(ex)
    recording.keep_txt(TxtAnswer(name="_agent.a.test", status="ok", records=[[b"v=aid1;", b"u=https://x"]], ttl=300))
    recording.keep_txt(TxtAnswer(name="_agent.b.test", status="nxdomain", detail="nx"))
    recording.keep_addresses(Addresses("a.test", ("192.0.2.1",), ("A",)))  # a pacing lookup: A only
    recording.keep_addresses(Addresses("v6.a.test", ("2001:db8::1",), ("A", "AAAA")))  # no A: AAAA asked too
    recording.keep_addresses(Addresses("none.a.test", ()))
    path = tmp_path / "s.warc.gz"
    with warc.DomainWriter(path, {"adck-scan-drafts": "aiendpoint, aid@v1.2"}) as writer:
        writer.write("a.test", recording)
        writer.write("b.test", Recording(live=True))
    back = warc.read_domain(path, "a.test")
    assert [item for _, item in back.items()] == [item for _, item in recording.items()]
    assert not back.live and back.answer(exchanges[0]) == exchanges[0]
    assert warc.scanned_drafts(path) == ("aiendpoint", "aid@v1.2")
    assert [s.domain for s in warc.spans(path)] == ["a.test", "b.test"]
    assert json.loads(warc.index_path(path).read_text().splitlines()[0])["domain"] == "a.test"
