"""2.5 Error Handling (client): incomplete records, unparseable manifests, unknown schema
versions and failed manifest fetches (AMB-08 to AMB-11).

Each test publishes its own scenario, asks the client under test to discover it, and judges
from the reply and from the HTTP requests the client sent.
"""

from __future__ import annotations

import json
from datetime import timedelta

from conformance.aid.clients import (MANIFEST_PATH, AidClient, AidScenario, AidScenarios, argv, connected_to, fetched_manifest, found_record, local, manifest, record, remote, said, warned)
from conformance.outcomes import clause, untestable, violation

#: A body that is not JSON (a manifest cut short), served with the manifest's JSON content type.
_NOT_JSON = [{"path": MANIFEST_PATH, "body": "text", "text": '{"schemaVersion": "1", "implementations": ['}]




def _shown(text: str, scenario: AidScenario) -> str:
    return text.replace("{host}", scenario.host)


@clause("AID-2.5-01")
def test_2_5_client_treats_incomplete_record_as_no_record(client: AidClient, scenarios: AidScenarios) -> None:
    """**Missing mandatory TXT keys** → treat as "no AID record"."""
    control = scenarios.new("complete-record", record())
    found_record(client.discover(control))
    for missing, txt in (("uri", "v=aid1;proto=mcp"), ("proto", "v=aid1;uri=https://api.{host}/mcp")):
        scenario = scenarios.new(f"record-without-{missing}", txt)
        reply = client.discover(scenario)
        if reply.get("outcome") != "none":
            violation(f"the only record, {_shown(txt, scenario)!r}, has no config and no {missing}, and {said(reply)}, "
                      "not 'none' (no AID record)")
        sent = scenario.requests()
        if sent:
            violation(f"the only record, {_shown(txt, scenario)!r}, has no config and no {missing}, and the client "
                      f"still sent {sent[0].method} https://{sent[0].host}{sent[0].path}")


@clause("AID-2.5-02")
def test_2_5_client_falls_back_to_record_on_unparseable_manifest(client: AidClient, scenarios: AidScenarios) -> None:
    """**Unparseable manifest** → fall back to Simple Profile if possible, otherwise fail with
    a clear error to the user. (The record holds uri and proto: falling back is possible.)"""
    client.needs("aid.manifest", "a client without manifest support falls back without fetching (AID-2.3-09)")
    scenario = scenarios.new("unparseable-with-uri", record(config=True),
                             manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")), routes=_NOT_JSON)
    reply = client.discover(scenario)
    found_record(reply)
    fetched_manifest(scenario, reply)
    wanted = f"https://api.{scenario.host}/mcp"
    if connected_to(reply) != wanted:
        violation(f"the manifest body is not JSON and the record holds uri={wanted} and proto=mcp to fall back on, "
                  f"and {said(reply)}")


@clause("AID-2.5-03")
def test_2_5_client_reports_error_on_unparseable_manifest_without_fallback(client: AidClient,
                                                                          scenarios: AidScenarios) -> None:
    """**Unparseable manifest** → fall back to Simple Profile if possible, otherwise fail with
    a clear error to the user. (The record holds config only: no fallback is possible.)"""
    client.needs("aid.manifest", "the record has only config: a client without manifest support cannot use it")
    scenario = scenarios.new("unparseable-config-only", record(uri=None, proto=None, config=True),
                             manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")), routes=_NOT_JSON)
    reply = client.discover(scenario)
    fetched_manifest(scenario, reply)
    if reply.get("outcome") != "error":
        violation(f"the manifest body is not JSON, the record holds no uri and proto to fall back on, and {said(reply)}, "
                  "not an error")
    if not (reply.get("messages") or reply.get("warnings")):
        violation("the manifest body is not JSON and the client answered 'error' without any message to the user")


@clause("AID-2.5-05")
def test_2_5_client_warns_about_unknown_schema_version(client: AidClient, scenarios: AidScenarios) -> None:
    """**Unknown `schemaVersion`** → client MAY attempt best-effort parse but MUST warn the user
    and MUST NOT execute any `local` implementation. (schemaVersion "1.1", a minor v1 does not
    define, and "3", a later major; remote implementations only.)"""
    client.needs("aid.manifest", "the schema version is the manifest's")
    for version in ("1.1", "3"):
        scenario = scenarios.new("schema-version-unknown", record(config=True),
                                 manifest=manifest(remote("Cloud", "https://cloud.{host}/agent"), schema_version=version))
        reply = client.discover(scenario)
        found_record(reply)
        fetched_manifest(scenario, reply)
        if not warned(reply):
            violation(f"the manifest's schemaVersion is {json.dumps(version)}, which v1 does not define, and "
                      f"{said(reply)} without a warning or an error message to the user")


@clause("AID-2.5-06")
def test_2_5_client_runs_no_local_implementation_of_unknown_schema_version(client: AidClient,
                                                                          scenarios: AidScenarios) -> None:
    """**Unknown `schemaVersion`** → client MAY attempt best-effort parse but MUST warn the user
    and MUST NOT execute any `local` implementation. (schemaVersion "1.1", the user consents.)"""
    client.needs("aid.manifest", "the schema version is the manifest's")
    client.needs("aid.local", "the clause forbids running a local implementation")
    tool = local(["run", "--rm", "example/agent:1.0"], name="Local")
    control = scenarios.new("local-schema-version-1", record(uri=None, proto=None, config=True),
                            manifest=manifest(tool))
    argv(client.discover(control, user={"consent": True}), "AID-2.3-17")
    scenario = scenarios.new("local-schema-version-1-1", record(uri=None, proto=None, config=True),
                             manifest=manifest(tool, schema_version="1.1"))
    reply = client.discover(scenario, user={"consent": True})
    fetched_manifest(scenario, reply)
    if reply.get("outcome") == "execute":
        violation(f"the manifest's schemaVersion is \"1.1\", which v1 does not define, and {said(reply)}, "
                  "its local implementation")


@clause("AID-2.5-07")
def test_2_5_client_treats_manifest_http_error_as_transient(client: AidClient, scenarios: AidScenarios) -> None:
    """**HTTPS fetch returns ≥400** → treat as transient network error; (The manifest answers
    an error status: 400, the boundary, 404 and 503; then the provider repairs it and the client
    is asked again an hour later.)"""
    client.needs("aid.manifest", "the failing fetch is the manifest's")
    for status in (400, 404, 503):
        _transient(client, scenarios, status)


def _transient(client: AidClient, scenarios: AidScenarios, status: int) -> None:
    __tracebackhide__ = True
    scenario = scenarios.new(f"manifest-{status}", record(config=True),
                             manifest=manifest(remote("Cloud", "https://cloud.{host}/agent")),
                             routes=[{"path": MANIFEST_PATH, "status": status, "body": "text",
                                      "text": "unavailable", "headers": {"Content-Type": "text/plain"}}])
    session = client.session(scenario)
    first = client.discover(scenario, session=session)
    fetched_manifest(scenario, first)
    if first.get("outcome") == "none":
        violation(f"the manifest answered {status} and {said(first)}: the domain does publish an AID record")
    before = len(scenario.requests(MANIFEST_PATH))
    scenario.change(routes=[{"path": MANIFEST_PATH, "status": 200, "body": "document",
                             "headers": {"Content-Type": "application/json"}}])
    again = client.discover(scenario, at=timedelta(hours=1), session=session)
    if again.get("outcome") == "none":
        violation(f"an hour after a {status} (the manifest now answers 200), {said(again)}")
    if len(scenario.requests(MANIFEST_PATH)) == before:
        violation(f"the manifest answered {status} and, asked again an hour later (it now answers 200), the client did not "
                  f"fetch it again; {said(again)}")
    wanted = f"https://cloud.{scenario.host}/agent"
    if connected_to(again) != wanted:
        untestable(f"the client fetched the repaired manifest, whose only implementation is at {wanted}, and "
                   f"{said(again)} (see AID-2.3-17)")
