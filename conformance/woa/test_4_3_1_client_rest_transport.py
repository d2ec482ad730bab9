"""§4.3.1 REST Transport (client): the invocation URL (base + invoke_path, every {agent_id}
replaced), the method and the request body's encoding and media type."""

from __future__ import annotations

import json
from urllib.parse import unquote, urlsplit

from conformance.outcomes import clause, untestable, violation
from conformance.woa._client_fixtures import (WoaClient, WoaScenarios, agent, each, invocation, posts,
                                             random_agent_id, said)

PLACEHOLDER_TEXT = "{agent_id}"

#: The space of 4.3.1-08 (AMB-12): (case, base, invoke_path, expected URL). ``{host}`` is the
#: scenario's name. The agent id is plain ("echo") and {agent_id} appears at most once: the
#: substitution itself is 4.3.1-09.
CONCATENATION = [
    ("base without a path", "https://{host}", "/agents/{agent_id}/invoke", "https://{host}/agents/echo/invoke"),
    ("base with a path", "https://{host}/api/v1", "/agents/{agent_id}/invoke", "https://{host}/api/v1/agents/echo/invoke"),
    ("base with a path ending in /", "https://{host}/api/", "/run/{agent_id}", "https://{host}/api//run/echo"),
    ("invoke_path with a query", "https://{host}", "/invoke?agent={agent_id}&v=2", "https://{host}/invoke?agent=echo&v=2"),
    ("base with a path, invoke_path with a query", "https://{host}/svc", "/call?mode=sync",
     "https://{host}/svc/call?mode=sync"),
    ("no {agent_id} in invoke_path", "https://{host}", "/agents/invoke", "https://{host}/agents/invoke"),
    # paths compare case-sensitively, a query keeps its order and its repeated keys
    ("upper-case path segments", "https://{host}/API/V1", "/Agents/{agent_id}/Invoke",
     "https://{host}/API/V1/Agents/echo/Invoke"),
    ("a query with a repeated key, out of order", "https://{host}", "/invoke?b=2&a=1&a=3",
     "https://{host}/invoke?b=2&a=1&a=3"),
    ("invoke_path ending in /", "https://{host}/svc", "/agents/{agent_id}/", "https://{host}/svc/agents/echo/"),
]

#: The space of 4.3.1-09: (case, agent id, invoke_path, expected path). ``{AGENT_ID}``,
#: ``{Agent_Id}`` and an unclosed ``{agent_id`` are not the case-sensitive placeholder.
SUBSTITUTION = [
    ("a one-character id", "a", "/agents/{agent_id}/invoke", "/agents/a/invoke"),
    ("an id of digits only", "0042", "/agents/{agent_id}/invoke", "/agents/0042/invoke"),
    ("an id with - and _ and upper case", "Translate_v2-beta", "/agents/{agent_id}/invoke",
     "/agents/Translate_v2-beta/invoke"),
    ("an id of - and _ only", "-_", "/agents/{agent_id}/invoke", "/agents/-_/invoke"),
    ("two placeholders", "echo", "/a/{agent_id}/b/{agent_id}", "/a/echo/b/echo"),
    ("{AGENT_ID} beside {agent_id}", "echo", "/agents/{AGENT_ID}/{agent_id}", "/agents/{AGENT_ID}/echo"),
    ("{Agent_Id} only", "echo", "/agents/{Agent_Id}/invoke", "/agents/{Agent_Id}/invoke"),
    ("an unclosed {agent_id", "echo", "/agents/{agent_id/{agent_id}", "/agents/{agent_id/echo"),
]


def _sent_to(request) -> str:
    return f"{request.method} {request.path}" + (f"?{request.query}" if request.query else "")


def _judge_concatenation(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: str, base: str, invoke_path: str,
                         expected: str) -> None:
    __tracebackhide__ = True
    s = woa_scenarios.new("concatenation", agents=[agent("echo")], base=base, invoke_path=invoke_path)
    want = urlsplit(expected.replace("{host}", s.host))
    reply = woa_client.invoke(woa_scenarios, s, "echo", input={"text": "hi"})
    sent = posts(s)
    if not sent:
        untestable(f"{case}: the client sent no invocation; {said(reply)} (see WOA-3-02)")
    if not any(r.path == unquote(want.path) and r.query == want.query for r in sent):
        violation(f"{case}: base {base.replace('{host}', s.host)!r} + invoke_path {invoke_path!r} is "
                  f"{want.geturl()}, and the client sent {', '.join(_sent_to(r) for r in sent)}")


@clause("WOA-4.3.1-08")
def test_4_3_1_client_concatenates_base_and_invoke_path(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """To construct the invocation URL, the client concatenates the base URL and the
    invoke_path value. (As strings, AMB-12: base's path kept, no slash added or removed, the
    query of invoke_path kept.)"""
    each(CONCATENATION, lambda case: _judge_concatenation(woa_client, woa_scenarios, *case))


def _judge_substitution(woa_client: WoaClient, woa_scenarios: WoaScenarios, case: str, agent_id: str,
                        invoke_path: str, expected: str) -> None:
    __tracebackhide__ = True
    s = woa_scenarios.new("substitution", agents=[agent(agent_id)], invoke_path=invoke_path)
    reply = woa_client.invoke(woa_scenarios, s, agent_id, input={"text": "hi"})
    sent = posts(s)
    if not sent:
        untestable(f"{case}: the client sent no invocation; {said(reply)} (see WOA-3-02)")
    if not any(r.path == expected for r in sent):
        violation(f"{case}: invoke_path {invoke_path!r} for agent {agent_id!r} gives the path {expected}, and the "
                  f"client sent {', '.join(_sent_to(r) for r in sent)}")


@clause("WOA-4.3.1-09")
def test_4_3_1_client_replaces_agent_id(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """If the invoke_path contains the case sensitive substring "{agent_id}", the client MUST
    replace it with the target agent's id value. (Every occurrence, verbatim; other spellings
    stay as written: AMB-12.)"""
    each(SUBSTITUTION, lambda case: _judge_substitution(woa_client, woa_scenarios, *case))


@clause("WOA-4.3.1-09")
def test_4_3_1_client_replaces_generated_agent_ids(woa_client: WoaClient, woa_scenarios: WoaScenarios,
                                                  adck_seed: int) -> None:
    """If the invoke_path contains the case sensitive substring "{agent_id}", the client MUST
    replace it with the target agent's id value. (Agent ids drawn over the ABNF, 1 to 40
    characters of ALPHA / DIGIT / "-" / "_", in invoke paths with one to three placeholders and
    a {AGENT_ID} decoy, from the run's seed.)"""
    import random

    rng = random.Random(adck_seed)
    cases = []
    for n in range(3):
        agent_id = random_agent_id(rng)
        parts = ["agents"] + [PLACEHOLDER_TEXT] * rng.randint(1, 3) + rng.sample(["run", "{AGENT_ID}", "v1"], 2)
        rng.shuffle(parts)
        template = "/" + "/".join(parts)
        cases.append((f"generated id {agent_id!r}", agent_id, template, template.replace(PLACEHOLDER_TEXT, agent_id)))
    each(cases, lambda case: _judge_substitution(woa_client, woa_scenarios, *case))


def _one_invocation(woa_client: WoaClient, woa_scenarios: WoaScenarios, name: str):
    s = woa_scenarios.new(name)
    reply = woa_client.invoke(woa_scenarios, s, "summarizer", operation="default", input={"text": "Zürich notes"})
    return s, reply


@clause("WOA-4.3.1-10")
def test_4_3_1_client_uses_post(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """Clients invoking an agent via the REST transport MUST use HTTP POST"""
    s, reply = _one_invocation(woa_client, woa_scenarios, "method")
    sent = posts(s)
    if not sent:
        untestable(f"the client sent no invocation; {said(reply)} (see WOA-3-02)")
    other = [r for r in sent if r.method != "POST"]
    if other:
        violation(f"the client invoked agent summarizer with {', '.join(_sent_to(r) for r in other)}, not POST")


@clause("WOA-4.3.1-11")
def test_4_3_1_client_sends_json_as_application_json(woa_client: WoaClient, woa_scenarios: WoaScenarios) -> None:
    """MUST send a request body encoded as JSON with media type application/json (parameters
    such as charset allowed; UTF-8, RFC 8259)."""
    s, reply = _one_invocation(woa_client, woa_scenarios, "media-type")
    request = invocation(s, reply)
    content_type = next((v for k, v in request.headers.items() if k.lower() == "content-type"), None)
    media = (content_type or "").split(";")[0].strip().lower()
    if media != "application/json":
        violation(f"the invocation's Content-Type is {content_type!r}, not application/json "
                  f"(body {request.body[:80]!r})")
    try:
        json.loads(request.body.decode("utf-8"))
    except UnicodeDecodeError as exc:
        violation(f"the invocation body is not UTF-8 ({exc}): {request.body[:80]!r}")
    except ValueError as exc:
        violation(f"the invocation body is not JSON ({exc}): {request.body[:80]!r}")
