"""AID endpoint proof (conformance/aid/pka.py): the authors' 17 vectors, sign-then-verify round
trips, every named break failing exactly its rule, and the key formats and keyids of the texts.

The vectors are read where the project reads every corpus (``resources.corpora_dir()``: ../shared
or $ADCK_CORPORA), never copied in."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import resources
from conformance.aid import pka

VECTORS = Path("aid-conformance") / "pka_vectors.json"


def _vector_ids() -> list[str]:
    folder = resources.corpora_dir()
    if folder is None or not (folder / VECTORS).is_file():
        return ["(corpus absent)"]
    return [v["id"] for v in json.loads((folder / VECTORS).read_text())["vectors"]]


@pytest.fixture(scope="module")
def vectors(corpora_dir: Path) -> dict[str, dict]:
    return {v["id"]: v for v in json.loads((corpora_dir / VECTORS).read_text())["vectors"]}


def test_the_corpus_has_the_vectors_the_kit_was_written_for(vectors) -> None:
    assert len(vectors) == 17
    assert set(pka.DISAGREES) <= set(vectors), "a disagreement names a vector that does not exist"


@pytest.mark.parametrize("vector_id", _vector_ids())
def test_the_kit_judges_each_vector_as_its_authors_do(vectors, vector_id: str) -> None:
    """The kit's verdict equals the vector's ``expect``, except where DISAGREES says why not."""
    vector = vectors[vector_id]
    accepted, reason = pka.judge_vector(vector)
    expected = vector["expect"] == "pass"
    if vector_id in pka.DISAGREES:
        assert accepted != expected, f"listed as a disagreement, but the kit now agrees: {reason}"
    else:
        assert accepted == expected, reason


def test_the_aid2_vectors_keys_and_keyids_are_the_kits(vectors) -> None:
    """B.2's thumbprint (joserfc) equals each aid2 vector's ``jwk_thumbprint``, and its ``seed_b64``
    is the private key of its ``public_x``."""
    for vector in vectors.values():
        if vector["record"]["v"] != "aid2":
            continue
        key = pka.decode_key(vector["record"]["k"], "aid2")
        assert pka.derived_keyid(key) == vector["key"]["jwk_thumbprint"]
        assert pka.public_bytes(base64.b64decode(vector["key"]["seed_b64"])) == key


def test_the_domain_mismatch_vector_fails_on_its_signature_not_its_shape(vectors) -> None:
    accepted, reason = pka.judge_vector(vectors["v2-db-domain-mismatch"])
    assert not accepted and reason.startswith("signature:")
    accepted, reason = pka.judge_vector(vectors["v2-db-rfc9421-domain-bound"])
    assert accepted and "for the queried domain" in reason


# -- keys and keyids -------------------------------------------------------------------------

#: RFC 8037 A.1-A.3: the Ed25519 key of the JOSE examples and its RFC 7638 thumbprint.
RFC8037_D = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"
RFC8037_X = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
RFC8037_THUMBPRINT = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"


def test_keyid_of_the_rfc8037_key_is_its_rfc7638_thumbprint() -> None:
    x = pka.decode_key(RFC8037_X, "aid2")
    assert pka.derived_keyid(x) == RFC8037_THUMBPRINT
    assert pka.public_bytes(base64.urlsafe_b64decode(RFC8037_D + "=")) == x


def test_keyid_is_not_a_hash_of_the_raw_key() -> None:
    """B.2: "Implementations MUST NOT hash the raw public key bytes directly for `keyid`." """
    import hashlib
    x = pka.decode_key(RFC8037_X, "aid2")
    assert pka.derived_keyid(x) != base64.urlsafe_b64encode(hashlib.sha256(x).digest()).rstrip(b"=").decode()


@pytest.mark.parametrize("value, why", [
    ("ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=", "padded"),
    ("z1111111111111111111111111111111111111111111", "legacy multibase (44 characters: 33 octets)"),
    ("z" + pka.encode_key(bytes(range(1, 33)), "aid1")[1:], "legacy multibase of a real 32-byte key"),
    ("ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60Elm+", "not base64url"),
    ("AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHw", "31 octets"),
    ("AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAh", "33 octets"),
    ("ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmR", "non-canonical last character"),
    ("", "empty"),
])
def test_aid2_key_decoding_refuses_what_b1_refuses(value: str, why: str) -> None:
    with pytest.raises(pka.PkaError):
        pka.decode_key(value, "aid2")


@pytest.mark.parametrize("value", ["z1111111111111111111111111111111111111111111",  # 43 zero octets
                                   "z7rW8rTq8o4mM6vVf7w1k3m4uQn9p2YxCAbcDeFgHiJ",  # v1.2 2.2's example: 31
                                   "ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ",  # no multibase prefix
                                   "z0OIl" + "1" * 30])  # not base58btc
def test_aid1_key_decoding_wants_32_octets_of_base58btc(value: str) -> None:
    with pytest.raises(pka.PkaError):
        pka.decode_key(value, "aid1")


def test_the_texts_example_aid2_key_decodes() -> None:
    assert len(pka.decode_key("JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs", "aid2")) == 32


@given(key=st.binary(min_size=32, max_size=32))
def test_keys_round_trip_and_migrate_unchanged(key: bytes) -> None:
    """E.1: the aid1 multibase key and the aid2 base64url key of one key decode to the same bytes."""
    assert pka.decode_key(pka.encode_key(key, "aid1"), "aid1") == key
    assert pka.decode_key(pka.encode_key(key, "aid2"), "aid2") == key


# -- sign, then verify -----------------------------------------------------------------------

_LABEL = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)
_HOST = st.lists(_LABEL, min_size=2, max_size=4).map(".".join)


@st.composite
def endpoint_uris(draw) -> str:
    """Discovered URIs: any case of host, default or other port, path, query and fragment."""
    host = draw(_HOST)
    host = "".join(c.upper() if draw(st.booleans()) else c for c in host) if draw(st.booleans()) else host
    host = draw(st.sampled_from([host, "[2001:db8::1]", "127.0.0.1"]))
    port = draw(st.sampled_from(["", ":443", ":8443", ":1"]))
    path = "/" + "/".join(draw(st.lists(st.from_regex(r"[A-Za-z0-9._~-]{1,8}", fullmatch=True), max_size=3)))
    query = draw(st.sampled_from(["", "?check=1", "?a=b&c=%20d", "?"]))
    fragment = draw(st.sampled_from(["", "#frag"]))
    return f"https://{host}{port}{path}{query}{fragment}"


def _prove(version: str, seed: bytes, uri: str, domain: str | None, now: int, status: int = 200,
           breaks: tuple[str, ...] = (), challenge: str | None = None, policy: str = "prefer") -> pka.Proof:
    """One exchange: the client's challenge, the prover's answer, the client's verdict."""
    public = pka.public_bytes(seed)
    record = {"v": version, "u": uri, "p": "mcp", "k": pka.encode_key(public, version)}
    if version == "aid1":
        record["i"] = "g1"
    sent = pka.challenge_headers(version, uri, domain, now, k=record["k"], challenge=challenge)
    base = {"Content-Type": "application/json"}
    added = pka.sign_response(sent, "GET", pka.request_uri(uri), status, base, seed, version,
                              kid=record.get("i"), now=now, breaks=breaks)

    class Response:
        status_code = status
        headers = base | added

    return pka.verify(version, record, sent, Response(), now=now, domain=domain, domain_binding=policy)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(version=st.sampled_from(pka.VERSIONS), seed=st.binary(min_size=32, max_size=32), uri=endpoint_uris(),
       domain=st.none() | _HOST, now=st.integers(1_000_000_000, 4_000_000_000),
       status=st.sampled_from([200, 401, 403, 500]),
       challenge=st.binary(min_size=32, max_size=48).map(lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()))
def test_sign_then_verify_round_trips(version, seed, uri, domain, now, status, challenge) -> None:
    status = 200 if version == "aid1" else status  # v1.2 D: "if response.status != 200: failWith"
    proof = _prove(version, seed, uri, domain, now, status, challenge=challenge)
    assert proof.ok, proof.reason
    if version == "aid2":
        assert proof.domain_bound is (domain is not None)
        assert _prove(version, seed, uri, domain, now, status, challenge=challenge,
                      policy="require").ok is (domain is not None)
    else:
        assert proof.domain_bound is None


@given(seed=st.binary(min_size=32, max_size=32), skew=st.integers(-pka.SKEW, pka.SKEW))
def test_a_verifier_allows_the_skew_it_names(seed, skew) -> None:
    """B.3: "Verifiers MAY allow a small clock-skew tolerance when evaluating created and expires." """
    now = 1_800_000_000
    proof = _prove("aid2", seed, "https://api.example.com/mcp", "example.com", now)
    assert proof.ok
    sent = pka.challenge_headers("aid2", "https://api.example.com/mcp", None, now)
    record = {"v": "aid2", "u": "https://api.example.com/mcp", "k": pka.encode_key(pka.public_bytes(seed), "aid2")}
    added = pka.sign_response(sent, "GET", "https://api.example.com/mcp", 200, {}, seed, "aid2", now=now + skew)

    class Response:
        status_code = 200
        headers = added

    assert pka.verify("aid2", record, sent, Response(), now=now).ok


BREAK_CASES = [(name, version) for name, (_rule, versions) in sorted(pka.BREAKS.items()) for version in versions]


def test_every_rule_a_break_names_quotes_its_sentence_for_that_revision() -> None:
    for name, (rule, versions) in pka.BREAKS.items():
        for version in versions:
            assert pka.RULES[rule].get(version), f"{name}: rule {rule} has no {version} sentence"
    assert {rule for rule, _ in pka.BREAKS.values()} >= {
        "signature", "keyid", "freshness", "alg", "covered-components", "signature-input", "tag", "nonce",
        "created-expires", "expires-after-created", "window", "no-store", "domain-binding-required"}


@pytest.mark.parametrize("name, version", BREAK_CASES, ids=[f"{v}:{n}" for n, v in BREAK_CASES])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.binary(min_size=32, max_size=32), uri=endpoint_uris())
def test_each_named_break_fails_its_rule_and_nothing_else(name: str, version: str, seed, uri) -> None:
    """With the same key, request and clock the unbroken proof passes (under domain-binding=require,
    so that domain-binding-absent has a rule to break); the broken one fails on the break's rule."""
    now = 1_800_000_000
    domain = "example.com" if version == "aid2" else None
    assert _prove(version, seed, uri, domain, now, policy="require").ok
    proof = _prove(version, seed, uri, domain, now, breaks=(name,), policy="require")
    rule = pka.BREAKS[name][0]
    assert not proof.ok and proof.rule == rule, proof.reason
    assert proof.reason.startswith(f"{rule}: {pka.RULES[rule][version]}")


def test_unknown_or_other_revision_breaks_are_refused() -> None:
    with pytest.raises(ValueError):
        pka.sign_response({}, "GET", "https://a.example/", 200, {}, bytes(32), "aid2", breaks=("nope",))
    with pytest.raises(ValueError):
        pka.sign_response({"AID-Challenge": "x", "Date": "d"}, "GET", "https://a.example/", 200, {}, bytes(32),
                          "aid1", kid="g1", breaks=("no-cache-control",))


# -- domain binding (v2.1 B.7, 3.3) ----------------------------------------------------------

def _exchange(seed: bytes, *, client_sends: str | None, server_sees: str | None, now: int = 1_800_000_000):
    uri = "https://api.example.com/mcp"
    record = {"v": "aid2", "u": uri, "k": pka.encode_key(pka.public_bytes(seed), "aid2")}
    sent = pka.challenge_headers("aid2", uri, client_sends, now)
    seen = {k: v for k, v in sent.items() if k != "AID-Domain"}
    if server_sees is not None:
        seen["AID-Domain"] = server_sees

    class Response:
        status_code = 200
        headers = pka.sign_response(seen, "GET", uri, 200, {}, seed, "aid2", now=now)

    return record, sent, Response()


def test_a_bound_proof_the_client_never_asked_for_is_refused() -> None:
    """B.7 3: "A client that did not send `AID-Domain` MUST reject a response whose covered set
    includes `aid-domain` (fail-closed)." """
    seed = bytes(range(32))
    record, sent, response = _exchange(seed, client_sends=None, server_sees="example.com")
    proof = pka.verify("aid2", record, sent, response, now=1_800_000_000, domain=None)
    assert not proof.ok and proof.rule == "domain-unrequested"


def test_an_unbound_proof_passes_under_prefer_and_fails_under_require() -> None:
    """3.3: prefer "records the outcome but does not enforce it"; require fails unbound proofs."""
    seed = bytes(range(32))
    record, sent, response = _exchange(seed, client_sends="example.com", server_sees=None)
    preferred = pka.verify("aid2", record, sent, response, now=1_800_000_000, domain="example.com")
    assert preferred.ok and preferred.domain_bound is False
    required = pka.verify("aid2", record, sent, response, now=1_800_000_000, domain="example.com",
                          domain_binding="require")
    assert not required.ok and required.rule == "domain-binding-required"


def test_a_proof_bound_to_another_domain_fails() -> None:
    seed = bytes(range(32))
    record, sent, response = _exchange(seed, client_sends="example.com", server_sees="other.example")
    proof = pka.verify("aid2", record, sent, response, now=1_800_000_000, domain="example.com")
    assert not proof.ok and proof.rule == "signature"


@pytest.mark.parametrize("queried, sent", [("Example.COM.", "example.com"), ("bücher.example", "xn--bcher-kva.example")])
def test_the_aid_domain_value_is_the_lowercased_a_label_without_trailing_dot(queried: str, sent: str) -> None:
    assert pka.challenge_headers("aid2", "https://a.example/", queried, 0)["AID-Domain"] == sent


def test_the_challenge_carries_32_octets_of_entropy() -> None:
    """B.3: "The client challenge MUST contain at least 32 bytes of entropy" (v1.2 D: 32 random bytes)."""
    import http_sf
    v2 = pka.challenge_headers("aid2", "https://a.example/", None, 0)
    nonce = http_sf.parse(v2["Accept-Signature"].encode(), tltype="dictionary")["aid-pka"][1]["nonce"]
    v1 = pka.challenge_headers("aid1", "https://a.example/", None, 0)["AID-Challenge"]
    for value in (nonce, v1):
        assert len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))) == 32 and "=" not in value


@pytest.mark.parametrize("uri, context", [
    ("https://API.EXAMPLE.COM:443/mcp?check=1#frag", "https://api.example.com/mcp?check=1"),
    ("https://[2001:DB8::1]:8443/mcp?check=1", "https://[2001:db8::1]:8443/mcp?check=1"),
    ("https://api.example.com", "https://api.example.com/"),
])
def test_the_request_context_drops_the_fragment_and_default_port(uri: str, context: str) -> None:
    assert pka.request_uri(uri) == context


def test_a_key_that_is_not_the_records_fails_the_signature() -> None:
    other = Ed25519PrivateKey.generate()
    seed = bytes(range(32))
    uri = "https://api.example.com/mcp"
    record = {"v": "aid2", "u": uri, "k": pka.encode_key(pka.public_bytes(other), "aid2")}
    sent = pka.challenge_headers("aid2", uri, None, 1_800_000_000)

    class Response:
        status_code = 200
        headers = pka.sign_response(sent, "GET", uri, 200, {}, seed, "aid2", now=1_800_000_000)

    proof = pka.verify("aid2", record, sent, Response(), now=1_800_000_000)
    assert not proof.ok and proof.rule == "keyid"  # its keyid names the other key first
