"""2.2.4 Authentication Schema and Patterns (client): how a client asks for a credential and
where it puts it.

Each scenario serves a manifest whose one implementation needs a token. The simulated user
enters ``TOKEN`` when asked for one credential (``user.token``), or a value per key when asked
for the items of ``credentials`` (``user.credentials``). The client says what it asked
(``prompts``) and what it would send (``connect.headers`` and ``connect.query``, or the argv
of a local implementation). A client that asks for no credential at all is judged by
AID-2.3-15 (it follows the authentication object); where the token then goes cannot be seen.
"""

from __future__ import annotations

import json

from conformance.aid.clients import (AidClient, AidScenario, AidScenarios, argv, connection, found_record, local,
                                     manifest, prompts, record, remote, said)
from conformance.outcomes import clause, untestable, violation

#: What the user enters when the client asks for the token.
TOKEN = "tok-5f3a9c"
#: The implementation's own endpoint (the record's uri is elsewhere: https://api.{host}/mcp).
CLOUD = "https://cloud.{host}/agent"


def _pat(placement: dict | None = None, **extra: str) -> dict:
    """A personal-access-token authentication object."""
    auth: dict = {"scheme": "pat", "description": "Your Example personal access token"}
    if placement is not None:
        auth["placement"] = placement
    auth.update(extra)
    return auth


def _remote_with(scenarios: AidScenarios, name: str, authentication: dict) -> AidScenario:
    """A scenario whose manifest's only implementation is remote at CLOUD with ``authentication``."""
    return scenarios.new(name, record(config=True),
                         manifest=manifest(remote("Cloud", CLOUD, authentication=authentication)))


def _connect(client: AidClient, scenario: AidScenario) -> tuple[dict, dict, list[dict]]:
    """Discover ``scenario`` with the user holding TOKEN: (reply, connection, credential prompts).
    *Untestable* unless the client connects to the manifest's implementation having asked for
    a credential."""
    __tracebackhide__ = True
    reply = client.discover(scenario, user={"token": TOKEN})
    found_record(reply)
    conn = connection(reply, "AID-2.3-08")
    expected = CLOUD.replace("{host}", scenario.host)
    if conn.get("uri") != expected:
        untestable(f"the manifest's only implementation is at {expected} and {said(reply)} (see AID-2.3-08)")
    asked = prompts(reply, "credential")
    if not asked:
        untestable(f"the implementation's authentication is scheme pat and the client asked for no credential "
                   f"before connecting (see AID-2.3-15); {said(reply)}")
    return reply, conn, asked


def _header(headers: dict | None, name: str) -> str | None:
    """The value of header ``name`` (case-insensitive), or None."""
    return next((v for k, v in (headers or {}).items() if k.lower() == name.lower()), None)


def _holding(values: dict | None, token: str) -> list[str]:
    """The names in ``values`` whose value holds ``token``."""
    return [k for k, v in (values or {}).items() if isinstance(v, str) and token in v]


@clause("AID-2.2.4-05")
def test_2_2_4_client_shows_token_url_as_link(client: AidClient, scenarios: AidScenarios) -> None:
    """Clients **SHOULD** display this as a link."""
    client.needs("aid.manifest", "the authentication object is in a manifest")
    token_url = "https://{host}/settings/tokens?scopes=agent:read&note=AID#new"  # the URL as given, whole
    scenario = _remote_with(scenarios, "auth-token-url", _pat({"in": "header", "key": "X-Api-Key"},
                                                              tokenUrl=token_url))
    reply, _, asked = _connect(client, scenario)
    expected = token_url.replace("{host}", scenario.host)
    if not any(p.get("link") == expected for p in asked):
        shown = [p.get("link") for p in asked]
        violation(f"the authentication object has tokenUrl {expected} and the client's credential prompt(s) "
                  f"showed as link {json.dumps(shown)}; {said(reply)}")


@clause("AID-2.2.4-07")
def test_2_2_4_client_prompts_for_each_credential_item(client: AidClient, scenarios: AidScenarios) -> None:
    """| **`credentials`** | Array of Objects | No | For multi-part secrets (like Client ID/Secret). If
    present, prompts are generated from this array. See **Credential Item Schema** below. |"""
    client.needs("aid.manifest", "the authentication object is in a manifest")
    client.needs("aid.local", "the ${auth.<key>} values are arguments of a local implementation")
    items = [{"key": "a", "description": "Client ID of your Example application"},
             {"key": "b", "description": "Client secret of your Example application"}]
    auth = {"scheme": "custom", "description": "Your Example application credentials", "credentials": items}
    scenario = scenarios.new("auth-credentials", record(config=True), manifest=manifest(
        local(["run", "${package.identifier}", "--client-id", "${auth.a}", "--client-secret", "${auth.b}"],
              authentication=auth)))
    reply = client.discover(scenario, user={"token": TOKEN, "credentials": {"a": "id-7731", "b": "secret-0c4e"}})
    found_record(reply)
    asked = prompts(reply, "credential")
    if not asked:
        argv(reply, "AID-2.2.3-02")  # it ran nothing: whether it would have asked is not seen
    for item in items:
        mine = [p for p in asked if p.get("key") == item["key"]] or \
               [p for p in asked if item["description"] in str(p.get("text", ""))]
        if not mine:
            texts = [(p.get("key"), p.get("text")) for p in asked]
            violation(f"the credentials array has items {json.dumps([i['key'] for i in items])} and the client never "
                      f"asked for item {item['key']!r} ({item['description']!r}); its credential prompts (key, text) "
                      f"were {json.dumps(texts)}; {said(reply)}")
        if len(mine) > 1:
            violation(f"the client asked {len(mine)} times for the credentials item {item['key']!r}; {said(reply)}")
        if item["description"] not in str(mine[0].get("text", "")):
            violation(f"the client's prompt for the credentials item {item['key']!r} read {mine[0].get('text')!r}, "
                      f"without the item's description {item['description']!r}")


@clause("AID-2.2.4-20")
def test_2_2_4_client_places_token_where_placement_says(client: AidClient, scenarios: AidScenarios) -> None:
    """| **`in`** | String | Yes | Where to place the token. One of: `"header"`, `"query"`, `"cli_arg"`. |"""
    client.needs("aid.manifest", "the authentication object is in a manifest")
    # in = query: the token goes in the query parameter, and in no header.
    scenario = _remote_with(scenarios, "auth-in-query", _pat({"in": "query", "key": "api_key"}))
    reply, conn, _ = _connect(client, scenario)
    query, headers = conn.get("query") or {}, conn.get("headers") or {}
    if TOKEN not in str(query.get("api_key", "")):
        violation(f"placement is in=query key=api_key and the client's query parameters were {json.dumps(query)} "
                  f"(headers {json.dumps(headers)}) after the user entered {TOKEN!r}")
    if _holding(headers, TOKEN):
        violation(f"placement is in=query and the client also sent the token in the header(s) "
                  f"{', '.join(_holding(headers, TOKEN))}")
    # in = header: the token goes in the named header, and in no query parameter.
    scenario = _remote_with(scenarios, "auth-in-header", _pat({"in": "header", "key": "X-Api-Key"}))
    reply, conn, _ = _connect(client, scenario)
    query, headers = conn.get("query") or {}, conn.get("headers") or {}
    if TOKEN not in str(_header(headers, "X-Api-Key") or ""):
        violation(f"placement is in=header key=X-Api-Key and the client's headers were {json.dumps(headers)} "
                  f"(query {json.dumps(query)}) after the user entered {TOKEN!r}")
    if _holding(query, TOKEN):
        violation(f"placement is in=header and the client also sent the token in the query parameter(s) "
                  f"{', '.join(_holding(query, TOKEN))}")
    # in = cli_arg: the argument placement.key followed by the token (clients running local ones).
    if "aid.local" not in client.features:
        return
    scenario = scenarios.new("auth-in-cli-arg", record(config=True), manifest=manifest(
        local(["run", "${package.identifier}"], authentication=_pat({"in": "cli_arg", "key": "--token"}))))
    reply = client.discover(scenario, user={"token": TOKEN})
    found_record(reply)
    if not prompts(reply, "credential"):
        untestable(f"the local implementation's authentication is scheme pat and the client asked for no "
                   f"credential (see AID-2.3-15); {said(reply)}")
    run = argv(reply, "AID-2.2.3-02")
    pairs = [run[i:i + 2] for i in range(len(run) - 1)]
    if ["--token", TOKEN] not in pairs and f"--token={TOKEN}" not in run:
        violation(f"placement is in=cli_arg key=--token and the client would run {json.dumps(run)} "
                  f"after the user entered {TOKEN!r}")


@clause("AID-2.2.4-23")
def test_2_2_4_client_formats_token(client: AidClient, scenarios: AidScenarios) -> None:
    """| **`format`** | String | No | A format string for the value. `{token}` is the placeholder. Ex:
    `"Bearer {token}"`. Defaults to `"{token}"`. |"""
    client.needs("aid.manifest", "the authentication object is in a manifest")
    cases = [("auth-format-bearer", {"in": "header", "key": "Authorization", "format": "Bearer {token}"},
              f"Bearer {TOKEN}"),
             ("auth-format-default", {"in": "header", "key": "X-Api-Key"}, TOKEN),
             ("auth-format-inside", {"in": "header", "key": "X-Auth", "format": "token={token}; realm=agents"},
              f"token={TOKEN}; realm=agents")]
    for name, placement, expected in cases:
        scenario = _remote_with(scenarios, name, _pat(placement))
        reply, conn, _ = _connect(client, scenario)
        value = _header(conn.get("headers"), placement["key"])
        if value is None:
            untestable(f"placement is in=header key={placement['key']} and the client sent no such header "
                       f"(headers {json.dumps(conn.get('headers') or {})}) (see AID-2.2.4-20)")
        if value != expected:
            fmt = f"format {placement['format']!r}" if "format" in placement else "no format"
            violation(f"placement has {fmt}, the user entered {TOKEN!r}, and the client's {placement['key']} "
                      f"header was {value!r}")
