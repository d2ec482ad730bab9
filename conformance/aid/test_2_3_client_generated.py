"""2.3, 2.4 and 2.5 (client), with generated input: hypothesis serves records and manifests,
valid ones the client must use and broken ones (one clause each) it must refuse. Each example
is a scenario of its own; the run's seed makes them reproducible (``--seed``). A failing example
is reduced to its smallest failing forms, one per cause, each naming the generated features it
needs (conformance.generated.reduce), so the evidence never mixes causes."""

from __future__ import annotations

from conformance.aid.clients import (AidClient, AidScenarios, MANIFEST_PATH, connected_to, found_record,
                                     plain_record_works, record, said)
from conformance.generated import generated, shown
from conformance.outcomes import clause, violation


@clause("AID-2.3-05")
def test_2_3_client_parses_generated_records(client: AidClient, scenarios: AidScenarios, adck_seed: int) -> None:
    """Then, parse the semicolon-delimited `key=value` pairs. (Generated valid records: keys
    in any order, optional auth and env, keys v1 does not define.)"""
    from hypothesis import given

    from conformance.aid.strategies import record_pairs, simpler_records, smallest_forms, text

    plain_record_works(client, scenarios)

    def fails(pairs: list[tuple[str, str]]) -> bool:
        scenario = scenarios.new("generated-record", text(pairs))
        reply = client.discover(scenario)
        return connected_to(reply) != dict(pairs)["uri"].replace("{host}", scenario.host)

    reduced: dict[str, str] = {}  # hypothesis replays a failing example: reduce it once

    @generated(adck_seed)
    @given(pairs=record_pairs(client.adapter.protocols))
    def check(pairs: list[tuple[str, str]]) -> None:
        scenario = scenarios.new("generated-record", text(pairs))
        reply = client.discover(scenario)
        uri = dict(pairs)["uri"].replace("{host}", scenario.host)
        if connected_to(reply) != uri:
            found = _once(reduced, text(pairs), lambda: smallest_forms(pairs, simpler_records, fails), scenario.host)
            violation(f"the record {text(pairs).replace('{host}', scenario.host)!r} names {uri} and {said(reply)}; "
                      + found)

    check()


@clause("AID-2.5-01")
def test_2_5_client_generated_records_missing_a_key(client: AidClient, scenarios: AidScenarios,
                                                    adck_seed: int) -> None:
    """**Missing mandatory TXT keys** → treat as "no AID record". (Generated records without
    uri or without proto, and without config.)"""
    from hypothesis import given

    from conformance.aid.strategies import pairs_of, records_missing_a_key, simpler_records, smallest_forms, text

    def wrong(value: str, missing: str) -> tuple[dict, bool]:
        scenario = scenarios.new("generated-no-" + missing, value)
        reply = client.discover(scenario)
        return reply, reply.get("outcome") != "none" or bool(scenario.requests())

    reduced: dict[str, str] = {}  # hypothesis replays a failing example: reduce it once

    @generated(adck_seed)
    @given(case=records_missing_a_key())
    def check(case: tuple[str, str]) -> None:
        value, missing = case
        scenario = scenarios.new("generated-no-" + missing, value)
        reply = client.discover(scenario)
        if reply.get("outcome") != "none" or scenario.requests():
            found = _once(reduced, value, lambda: smallest_forms(pairs_of(value), simpler_records,
                                                                 lambda p: wrong(text(p), missing)[1]), scenario.host)
            violation(f"the record {value.replace('{host}', scenario.host)!r} has no {missing} and no config, "
                      f"and {said(reply)}" + (" after sending HTTP requests" if scenario.requests() else "")
                      + "; " + found)

    check()


@clause("AID-2.3-08")
def test_2_3_client_uses_generated_manifests(client: AidClient, scenarios: AidScenarios, adck_seed: int) -> None:
    """**If YES `config` key (Extended Profile):** The client **MUST** proceed to fetch the
    manifest. (Generated valid manifests of remote implementations: the client connects to one
    of them, not to the record's uri.)"""
    from hypothesis import given

    from conformance.aid.strategies import manifests, simpler_manifests, smallest_forms

    client.needs("aid.manifest", "a client without manifest support may fall back to uri and proto (AID-2.3-09)")

    def fails(document: dict) -> bool:
        scenario = scenarios.new("generated-manifest", record(config=True), manifest=document)
        reply = client.discover(scenario)
        uris = {i["uri"].replace("{host}", scenario.host) for i in document["implementations"]}
        return not scenario.requests(MANIFEST_PATH) or connected_to(reply) not in uris

    reduced: dict[str, str] = {}  # hypothesis replays a failing example: reduce it once

    @generated(adck_seed)
    @given(document=manifests(client.adapter.protocols))
    def check(document: dict) -> None:
        scenario = scenarios.new("generated-manifest", record(config=True), manifest=document)
        reply = client.discover(scenario)
        found_record(reply)
        uris = {i["uri"].replace("{host}", scenario.host) for i in document["implementations"]}
        if not scenario.requests(MANIFEST_PATH) or connected_to(reply) not in uris:
            found = _once(reduced, repr(document), lambda: smallest_forms(document, simpler_manifests, fails),
                          scenario.host)
            violation(f"the manifest lists {sorted(uris)} and {said(reply)}: {shown(document)}; {found}")

    check()


@clause("AID-2.4-02")
def test_2_4_client_rejects_generated_major_two_manifests(client: AidClient, scenarios: AidScenarios,
                                                          adck_seed: int) -> None:
    """If the TXT record advertises `v=aid1`, any manifest with `schemaVersion` beginning with
    '2.' **MUST** be rejected. (Generated valid manifests, their schemaVersion "2." and a minor;
    "2" alone, AMB-46, is judged in test_2_4_client_version_interlock.)"""
    from hypothesis import given

    from conformance.aid.strategies import major_two, manifests, simpler_manifests, smallest_forms

    client.needs("aid.manifest", "a client without manifest support never reads schemaVersion")

    def fails(document: dict) -> bool:
        scenario = scenarios.new("generated-major-two", record(config=True), manifest=document)
        reply = client.discover(scenario)
        uris = {i["uri"].replace("{host}", scenario.host) for i in document["implementations"]}
        return connected_to(reply) in uris or reply.get("outcome") == "execute"

    reduced: dict[str, str] = {}  # hypothesis replays a failing example: reduce it once

    @generated(adck_seed)
    @given(document=manifests(client.adapter.protocols), version=major_two.filter(lambda v: v.startswith("2.")))
    def check(document: dict, version: str) -> None:
        document = {**document, "schemaVersion": version}
        scenario = scenarios.new("generated-major-two", record(config=True), manifest=document)
        reply = client.discover(scenario)
        found_record(reply)
        uris = {i["uri"].replace("{host}", scenario.host) for i in document["implementations"]}
        if connected_to(reply) in uris or reply.get("outcome") == "execute":
            found = _once(reduced, repr(document), lambda: smallest_forms(document, simpler_manifests, fails),
                          scenario.host)
            violation(f"under v=aid1 the manifest has schemaVersion {version!r} and {said(reply)}; {found}")

    check()


def _once(reduced: dict[str, str], key: str, reduce_it, host: str) -> str:
    """The reduction of a failing example, computed on its first failure (hypothesis runs the
    failing example again to report it), shown with this scenario's host."""
    if key not in reduced:
        reduced[key] = reduce_it()
    return reduced[key].replace("{host}", host)
