"""2.3 (client) sentences v1.2 and v2.1 both hold: dep (step 4 of v1.2, step 8 of v2.1), Table 1's
lead-in and its 1005 row. Judged with aid1 records and, for a client that claims v2.1
(``aid.v2.1``), with aid2 records too."""

from __future__ import annotations

from datetime import timedelta

from conformance.aid.clients import AidClient, AidScenarios, T0, connected_to, error_code, said, txt
from conformance.aid.v1_2._discovery import WELL_KNOWN, fetched_fallback, reported, well_known
from conformance.outcomes import clause, untestable, violation


def _versions(client: AidClient) -> list[str]:
    return ["aid1"] + (["aid2"] if "aid.v2.1" in client.features else [])


def _works(client: AidClient, scenarios: AidScenarios, version: str) -> set[str]:
    """*Untestable* unless the client connects to the u of one plain record of ``version``; the
    warnings it gives for that record (host names as ``{host}``)."""
    __tracebackhide__ = True
    scenario = scenarios.new(f"plain-{version}", txt(version))
    reply = client.discover(scenario)
    if connected_to(reply) != f"https://{scenario.host}/mcp":
        untestable(f"with the one record {txt(version)!r} {said(reply)}, not a connection to its u (see AID-2.3-36)")
    return {str(w).replace(scenario.host, "{host}") for w in reply.get("warnings") or []}


def _stamp(when, form: str) -> str:
    """``when`` (UTC) written in one ISO 8601 UTC form."""
    return {"seconds": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "minutes": when.strftime("%Y-%m-%dT%H:%MZ"),
            "fraction": when.strftime("%Y-%m-%dT%H:%M:%S.5Z"), "offset": when.strftime("%Y-%m-%dT%H:%M:%S+00:00"),
            "basic": when.strftime("%Y%m%dT%H%M%SZ")}[form]


FORMS = ("seconds", "minutes", "fraction", "offset", "basic")


def _dep_cases(sign: int) -> list[tuple[str, str, str]]:
    """(what, key, value): a dep ``sign`` of the client's clock (+1 after, -1 before) in every
    form, a minute and years away, under the long key and the alias e."""
    cases = []
    for distance, label in ((timedelta(minutes=2), "2 minutes"), (timedelta(days=3650), "ten years")):
        when = T0 + sign * distance
        for form in FORMS:
            if form == "minutes" and distance < timedelta(minutes=3):
                continue
            for key in ("dep", "e"):
                cases.append((f"{label} {'ahead' if sign > 0 else 'ago'}, {form} form, key {key}", key,
                              _stamp(when, form)))
    return cases


@clause("AID-2.3-32")
def test_2_3_client_warns_of_a_future_dep(client: AidClient, scenarios: AidScenarios) -> None:
    """If `dep` (`e`) is in the future, clients SHOULD warn. (The record is still used, with a
    warning: dep in every ISO 8601 UTC form, minutes and years ahead, long key and alias.)"""
    for version in _versions(client):
        usual = _works(client, scenarios, version)
        for what, key, value in _dep_cases(+1):
            text = txt(version, **{key: value})
            scenario = scenarios.new("future-dep", text)
            reply = client.discover(scenario)
            if connected_to(reply) is None:
                untestable(f"the record {text.replace('{host}', scenario.host)!r} (dep {what}) is still in "
                           f"service, and {said(reply)}")
            # a warning the same record without dep does not bring (DNSSEC's, for one, is not this one)
            more = [w for w in reply.get("warnings") or [] if str(w).replace(scenario.host, "{host}") not in usual]
            if not more:
                violation(f"the {version} record's {key}={value} is {what} of the client's clock "
                          f"({T0.isoformat()}), and the client connected without a warning "
                          f"(warnings: {reply.get('warnings') or 'none'}, as for the record without dep)")


@clause("AID-2.3-33")
def test_2_3_client_fails_gracefully_on_a_past_dep(client: AidClient, scenarios: AidScenarios) -> None:
    """If `dep` is in the past, clients SHOULD fail gracefully. (No endpoint, an error reported:
    dep in every ISO 8601 UTC form, minutes and years ago, long key and alias; any code, AMB-50.)"""
    for version in _versions(client):
        _works(client, scenarios, version)
        for what, key, value in _dep_cases(-1):
            text = txt(version, **{key: value})
            scenario = scenarios.new("past-dep", text)
            reply = client.discover(scenario)
            if reply.get("outcome") != "error":
                violation(f"the {version} record's {key}={value} is {what} the client's clock ({T0.isoformat()}): "
                          f"discovery should fail gracefully, and {said(reply)}")


#: A failure of each row of Table 1 (the code a conforming client gives, for the message).
def _failures(version: str, bogus: bool) -> list[tuple[str, dict]]:
    cases = [("no record (1000)", {"txt": None}),
             ("a malformed record (1001)", {"txt": f"v={version};p=mcp"}),
             ("an unknown protocol token (1002)", {"txt": txt(version, p="smtp")}),
             ("a record whose DNSSEC signature is bogus (1003)", {"txt": txt(version), "bogus": True}),
             ("a SERVFAIL (1004)", {"txt": txt(version), "fault": "servfail"}),
             ("a failing fallback (1005)", {"txt": None, "routes": [well_known("not json")]}),
             ("a past dep", {"txt": txt(version, dep="2020-01-01T00:00:00Z")})]
    return [c for c in cases if bogus or "bogus" not in c[1]]


@clause("AID-2.3-38")
def test_2_3_client_reports_failures_with_table_1_codes(client: AidClient, scenarios: AidScenarios) -> None:
    """Client implementations **SHOULD** use these codes to report specific failure modes. (Each
    failure is reported with a code of Table 1, by name or number; which one for each failure is
    its row's clause.)"""
    for version in _versions(client):
        _works(client, scenarios, version)
        for what, setup in _failures(version, bogus=True):
            scenario = scenarios.new("table-1", setup.pop("txt"), **setup)
            reply = client.discover(scenario)
            if reply.get("outcome") in ("connect", "execute"):
                continue  # the failure's own clause judges that
            if error_code(reply) is None:
                violation(f"discovery failed on {what} ({version}), and the client reported "
                          f"{reply.get('error_kind')!r}: no code of Table 1 (ERR_NO_RECORD ... ERR_FALLBACK_FAILED, "
                          f"1000 ... 1005)")


def _failing_fallbacks(version: str) -> list[tuple[str, str, int]]:
    record = '{"v":"%s","u":"https://{host}/mcp","p":"mcp"}' % version
    return [("HTTP 500", "{}", 500), ("HTTP 503 with a record", record, 503),
            ("not JSON", f"v={version};u=https://{{host}}/mcp;p=mcp", 200),
            ("a JSON array", f"[{record}]", 200),
            ("a number member", '{"v":"%s","u":"https://{host}/mcp","p":1}' % version, 200),
            ("u missing", '{"v":"%s","p":"mcp"}' % version, 200),
            ("u beside uri", '{"v":"%s","u":"https://{host}/mcp","uri":"https://{host}/mcp","p":"mcp"}' % version, 200)]


@clause("AID-2.3-44")
def test_2_3_client_reports_a_failed_fallback_as_1005(client: AidClient, scenarios: AidScenarios) -> None:
    """| `1005` | `ERR_FALLBACK_FAILED` | The `.well-known` fallback failed or returned invalid data. |
    (An HTTP error, data that is no JSON object of strings, an invalid record; after NXDOMAIN and
    after a failed lookup; aid1 and aid2 fallbacks.)"""
    client.needs("aid.well-known", "the .well-known fallback is a MAY (v1.2 2.3 step 2, v2.1 2.3 step 3)")
    judged: list = []
    for version in _versions(client):
        plain = scenarios.new(f"plain-fallback-{version}", None,
                              routes=[well_known({"v": version, "u": "https://{host}/fallback", "p": "mcp"})])
        reply = client.discover(plain)
        if connected_to(reply) != f"https://{plain.host}/fallback":
            untestable(f"with no record and a plain {version} fallback, {said(reply)} (see AID-E-01, AID-C-01)")
        for what, body, status in _failing_fallbacks(version):
            for fault in (None, "servfail"):
                scenario = scenarios.new("fallback-fails", None, fault=fault, routes=[well_known(body, status)])
                reply = client.discover(scenario)
                if not fetched_fallback(scenario):
                    continue  # the fallback is a MAY: after a failed lookup too
                code = reported(reply, judged)
                if code is not None and code != "ERR_FALLBACK_FAILED":
                    violation(f"the {version} fallback at {WELL_KNOWN} fails ({what}) after "
                              f"{'SERVFAIL' if fault else 'NXDOMAIN'}, and the client reported "
                              f"{reply.get('error_kind')!r}, not ERR_FALLBACK_FAILED (1005)")
    if not judged:
        untestable("the client reported no error after any of the failing fallbacks it fetched (see AID-2.3-25)")
