"""The PKA endpoint's scenario options (``aid.pka``, conformance/aid/reference_server.py:prove):
each breaks the proof in the one way it names, as the kit's verifier sees it, and a signature with
its parameters in another order (signed by the library over that order) still verifies."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request

from conformance.aid import pka
from conformance.aid import reference_server
from conformance.aid.clients import SCENARIO_SEED, scenario_key
from conformance.world.site import Route, Site

HOST = "agent.adck.test"
URI = f"https://{HOST}/mcp"
RECORD = {"v": "aid2", "u": URI, "p": "mcp", "k": scenario_key()}


def _verdict(options: dict, *, domain: str | None = HOST) -> pka.Proof:
    headers = pka.challenge_headers("aid2", URI, domain, int(time.time()), k=scenario_key())
    request = Request(EnvironBuilder(path="/mcp", base_url=f"https://{HOST}", headers=headers).get_environ())
    route = Route(path="/mcp", handler="aid.pka", options={"seed": SCENARIO_SEED, **options})
    answer = reference_server.prove(Site(hostname=HOST, document={}, routes=(route,)), route, request)
    response = SimpleNamespace(status_code=answer.status_code, headers=dict(answer.headers))
    return pka.verify("aid2", RECORD, headers, response, now=int(time.time()), domain=domain)


@pytest.mark.parametrize("domain", [HOST, None])
@pytest.mark.parametrize("options", [{}, {"alg": "Ed25519"}, {"alg": "ED25519"}, {"unbound": True},
                                     {"order": ["tag", "nonce", "alg", "keyid", "expires", "created"]},
                                     {"order": ["created", "expires", "keyid", "alg", "nonce", "tag"]}])
def test_valid_options_give_a_valid_proof(options: dict, domain: str | None) -> None:
    proof = _verdict(options, domain=domain)
    assert proof.ok, proof.reason
    assert proof.domain_bound is (domain is not None and not options.get("unbound"))


@pytest.mark.parametrize(("options", "rule"), [
    ({"nonce": "upper"}, "nonce"), ({"nonce": "trim"}, "nonce"), ({"nonce": "pad"}, "nonce"),
    ({"nonce": "extend"}, "nonce"), ({"nonce": "drop"}, "nonce"),
    ({"offset": 120}, "freshness"), ({"offset": -121}, "freshness"), ({"window": 301}, "window"),
    ({"window": 0}, "expires-after-created"),
    ({"sign_domain": "upper"}, "signature"), ({"sign_domain": "dot"}, "signature"),
    ({"sign_domain": "port"}, "signature"), ({"sign_domain": "parent"}, "signature")])
def test_each_break_fails_its_rule(options: dict, rule: str) -> None:
    proof = _verdict(options)
    assert not proof.ok and proof.rule == rule, proof.reason


def test_a_claimed_domain_is_an_unrequested_binding() -> None:
    proof = _verdict({"claim_domain": True}, domain=None)
    assert not proof.ok and proof.rule == "domain-unrequested", proof.reason


@pytest.mark.parametrize("order", [["tag", "nonce", "alg", "keyid", "expires", "created"],
                                   ["expires", "created", "tag", "keyid", "nonce", "alg"]])
def test_order_writes_the_parameters_in_that_order(order: list[str]) -> None:
    headers = pka.challenge_headers("aid2", URI, HOST, int(time.time()), k=scenario_key())
    request = Request(EnvironBuilder(path="/mcp", base_url=f"https://{HOST}", headers=headers).get_environ())
    route = Route(path="/mcp", handler="aid.pka", options={"seed": SCENARIO_SEED, "order": order})
    answer = reference_server.prove(Site(hostname=HOST, document={}, routes=(route,)), route, request)
    _, params = pka.signature_input("aid2", dict(answer.headers))
    assert list(params) == order
