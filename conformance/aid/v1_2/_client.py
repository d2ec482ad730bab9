"""Scenarios and readings shared by the v1.2 client tests of sections 2.3 (steps 5), 3, 3.2, 4 and
Appendix D (topic "security"): aid1 records, the aid1 PKA handshake, sessions, policies.

A record of these tests is written in the short-key form (:func:`conformance.aid.clients.txt`) with
``v=aid1``; one holding the scenario key (``k``, ``i=g1``) is served by a PKA endpoint at its ``u``
signing with that key (:func:`conformance.aid.clients.pka_route`); ``breaks`` make its proof
violate one rule of :data:`conformance.aid.pka.BREAKS`.
"""

from __future__ import annotations

import base64
import hashlib
from datetime import timedelta

from conformance.aid.clients import (AidClient, AidScenario, AidScenarios, connected_to, pka_route, said,
                                     scenario_key, txt)
from conformance.outcomes import untestable

#: A second published test key (never a secret): the seed of another Ed25519 key, for rotations.
OTHER_SEED = base64.urlsafe_b64encode(hashlib.sha256(b"adck aid v1.2 rotation key").digest()).decode().rstrip("=")
#: Past any TTL these tests publish (300 s): a later discovery reads DNS again.
LATER = timedelta(minutes=10)


def aid1(**more: str) -> str:
    """A plain aid1 record (``u=https://{host}/mcp``, ``p=mcp``), ``more`` keys after them."""
    return txt("aid1", **more)


def keyed(kid: str = "g1", seed: str | None = None, **more: str) -> str:
    """An aid1 record holding a key (``k``) and its ``i``: the scenario key, or ``seed``'s."""
    key = scenario_key("aid1") if seed is None else scenario_key("aid1", seed=seed)
    return aid1(k=key, i=kid, **more)


def proof(kid: str = "g1", breaks: tuple[str, ...] = (), status: int = 200, seed: str | None = None) -> dict:
    """The PKA route at /mcp proving the scenario key (or ``seed``'s) under ``kid``."""
    options = {"seed": seed} if seed is not None else {}
    return pka_route("aid1", kid=kid, breaks=breaks, status=status, **options)


def keyed_scenario(scenarios: AidScenarios, name: str, *, breaks: tuple[str, ...] = (), status: int = 200,
                   record: str | None = None, **more) -> AidScenario:
    """A scenario publishing :func:`keyed` and its PKA endpoint (with ``breaks``)."""
    return scenarios.new(name, record or keyed(), routes=[proof(breaks=breaks, status=status)], **more)


def endpoint(scenario: AidScenario) -> str:
    """The ``u`` of :func:`aid1` for ``scenario``."""
    return f"https://{scenario.host}/mcp"


def refused(reply: dict) -> bool:
    """The client returned no endpoint and runs nothing."""
    return connected_to(reply) is None and reply.get("outcome") != "execute"


def aid1_works(client: AidClient, scenarios: AidScenarios, policy: dict | None = None) -> None:
    """*Untestable* unless the client connects to the ``u`` of one plain aid1 record (under ``policy``)."""
    __tracebackhide__ = True
    scenario = scenarios.new("plain-aid1", aid1())
    reply = client.discover(scenario, policy=policy)
    if connected_to(reply) != endpoint(scenario):
        untestable(f"with the one record {aid1()!r}{' under ' + repr(policy) if policy else ''} {said(reply)}, "
                   f"not a connection to its u (see AID-2.3-22)")


def proof_works(client: AidClient, scenarios: AidScenarios, policy: dict | None = None) -> None:
    """*Not applicable* unless the client claims PKA; *untestable* unless a record with a key whose
    endpoint proves it (Appendix D) is returned."""
    __tracebackhide__ = True
    client.needs("aid.pka", "the endpoint proof of Appendix D")
    scenario = keyed_scenario(scenarios, "valid-proof")
    reply = client.discover(scenario, policy=policy)
    if connected_to(reply) != endpoint(scenario):
        untestable(f"the record {keyed()!r}, whose endpoint proves its key as Appendix D asks, "
                   f"{'under ' + repr(policy) + ' ' if policy else ''}{said(reply)}: not a connection to its u "
                   f"(see AID-D-01)")


def policy_works(client: AidClient, scenarios: AidScenarios) -> None:
    """*Not applicable* unless the client claims policy knobs (3.2), then a plain record works."""
    __tracebackhide__ = True
    client.needs("aid.policy", "the enterprise policy knobs and presets of 3.2")
    aid1_works(client, scenarios)


def warnings_of(reply: dict) -> list[str]:
    """What the client surfaced to the user: its warnings and the texts of its prompts."""
    prompts = [str(p.get("text")) for p in reply.get("prompts") or [] if isinstance(p, dict)]
    return [str(w) for w in reply.get("warnings") or []] + prompts


def new_warnings(client: AidClient, scenario: AidScenario, reply: dict, policy: dict | None = None,
                 baseline: AidScenario | None = None) -> list[str]:
    """What ``reply`` surfaced beyond what the client surfaces on discovering ``baseline`` (default:
    the same scenario as it is now) afresh, with no memory of it: a downgrade or rotation notice is
    what a second discovery adds, not the warning every unsigned answer gets (dnssec=prefer)."""
    fresh = client.discover(baseline or scenario, policy=policy)
    seen = set(warnings_of(fresh))
    return [w for w in warnings_of(reply) if w not in seen]


def txt_queries(scenario: AidScenario) -> int:
    """The TXT queries the client sent for the scenario's _agent name so far."""
    return sum(1 for q in scenario.queries() if q.name.lower().startswith("_agent.") and q.rdtype in ("TXT", 16))


def republish(scenario: AidScenario, record: str, ttl: int = 300) -> int:
    """Publish ``record`` (``{host}`` filled in) in place of the scenario's; the TXT queries so far."""
    scenario.publish([record.replace("{host}", scenario.host).encode()], ttl=ttl)
    return txt_queries(scenario)


def reread(scenario: AidScenario, asked: int, reply: dict, marker: str = "after") -> None:
    """*Untestable* unless the client read the record republished after ``asked`` queries: it asked
    DNS again (AID-4-13) and, where its reply reports the record's ``s`` (desc), it is the new one's
    ``marker`` (AID-4-14). A test of a second discovery judges the change, not the cache."""
    __tracebackhide__ = True
    if txt_queries(scenario) <= asked:
        untestable("the record changed and its TTL ran out, and the client did not ask DNS again: the second "
                   "discovery did not see the change (see AID-4-13)")
    for part in ("connect", "execute"):
        record = (reply.get(part) or {}).get("record") or {}
        if "desc" in record and record["desc"] != marker:
            untestable(f"the record changed (s={marker}) and the client returned the one it had before "
                       f"(s={record['desc']}) (see AID-4-14)")
