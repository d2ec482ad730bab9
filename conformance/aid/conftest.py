"""Fixtures of the aid suite: the _agent TXT record is looked up once per run and shared."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import pytest

from conformance.aid.record import AidRecord, parse
from conformance.dns import Resolver, TxtAnswer
from conformance.document import Document, kind_name
from conformance.fetch import Fetch, Fetcher
from conformance.outcomes import Untestable, not_applicable, untestable
from conformance.targets import Target


#: Fetch errors where no answer came at all: the kit cannot tell a provider that is down from its
#: own network, so a clause judged on such a fetch is untestable (a TLS failure is an answer).
NO_ANSWER = ("connect", "timeout", "transport")


@dataclass
class RecordUnderTest:
    """The AID record checked by the document role: its strings as published, and parsed."""

    strings: list[bytes]
    ttl: int | None
    source: str
    answer: TxtAnswer | None = None
    #: The other TXT records at the name, if there were several (AMB-07).
    others: list[list[bytes]] = field(default_factory=list)

    @cached_property
    def raw(self) -> bytes:
        """The character-strings concatenated (2.3 step 2)."""
        return b"".join(self.strings)

    @cached_property
    def text(self) -> str:
        return self.raw.decode("utf-8", errors="replace")

    @cached_property
    def parsed(self) -> AidRecord:
        return parse(self.text)

    def evidence(self) -> list:
        return [self.answer] if self.answer is not None else []


@pytest.fixture(scope="session")
def lookup(adck_target: Target, adck_resolver: Resolver) -> TxtAnswer:
    """The TXT answer at _agent.<domain> (provider targets), once per run."""
    assert adck_target.domain, "provider-role tests run on domain targets"
    return adck_resolver.txt(f"_agent.{adck_target.domain}")


@pytest.fixture(scope="session")
def record(adck_target: Target, request: pytest.FixtureRequest) -> RecordUnderTest:
    """The AID record: the one given with txt:, or the one the domain publishes."""
    if adck_target.document_path is not None:
        not_applicable("the target is a manifest on its own: it has no TXT record")
    if adck_target.record is not None:
        strings, ttl = adck_target.record
        return RecordUnderTest(strings=strings, ttl=ttl, source=adck_target.description)
    answer: TxtAnswer = request.getfixturevalue("lookup")
    if answer.status != "ok" or not answer.records:
        untestable(f"no TXT record at {answer.name}: {answer.status} ({answer.detail}) (see AID-2.1-01)")
    chosen, others = v1_record(answer.records)
    return RecordUnderTest(strings=chosen, ttl=answer.ttl, source=answer.name, answer=answer, others=others)


def _record_order(strings: list[bytes]) -> tuple[bytes, list[bytes]]:
    return b"".join(strings), strings


def v1_record(records: list[list[bytes]]) -> tuple[list[bytes], list[list[bytes]]]:
    """v1's record among the TXT records at _agent, and the others (AMB-07): a record whose v is
    aid1, else one whose v (trimmed, wherever it stands) begins with aid and is not aid2, else
    one without v, else any. An aid2 record beside it is a later revision's (v2.1 2.2), judged as
    v1's only when nothing else is there.

    The order of the records in a DNS answer carries no meaning (name servers rotate them), so
    among records of one rank the one whose bytes sort first is chosen, and the others keep
    that order: the same published records give the same verdicts and messages, whatever order
    they came in."""
    ordered = sorted(records, key=_record_order)
    versions = [parse(b"".join(r).decode("utf-8", errors="replace")).get("v") or "" for r in ordered]
    ranked = [lambda v: v == "aid1", lambda v: v.startswith("aid") and v != "aid2", lambda v: not v]
    chosen = next((r for rule in ranked for r, v in zip(ordered, versions) if rule(v)), ordered[0])
    return chosen, [r for r in ordered if r is not chosen]


@pytest.fixture(scope="session")
def manifest_fetch(adck_target: Target, adck_fetcher: Fetcher, request: pytest.FixtureRequest) -> Fetch:
    """GET of the record's config URL (provider targets), once per run."""
    rec: RecordUnderTest = request.getfixturevalue("record")
    config = rec.parsed.get("config")
    if config is None:
        not_applicable("the record has no config: Simple Profile, no manifest")
    if not config.lower().startswith("https://"):
        untestable(f"config={config!r} is not an https:// URL (see AID-2.1-21, AID-4-04); the kit fetches manifests over HTTPS only")
    return adck_fetcher.get(config)


class Manifest(Document):
    """The AID manifest. §2.2 calls it "a JSON document" and §2.2.1 gives its schema, an
    object whose first required member is schemaVersion: a document that is not JSON, or
    not a JSON object, fails AID-2.2.1-01 (AMB-30), and every clause that reads into it is
    *untestable*, naming that clause."""

    def not_json(self) -> str | None:
        """Why the readable bytes are not a JSON text (not UTF-8, RFC 8259 8.1, or not JSON),
        or None; None too when the kit could not judge (larger than it reads, nested too deep)."""
        if self.truncated or self.too_deep:
            return None
        return self.utf8_error and f"it is not UTF-8 ({self.utf8_error})" or self.parse_error

    def value(self):
        __tracebackhide__ = True
        if why := self.not_json():
            untestable(f"the manifest is not a JSON document: {why} (see AID-2.2.1-01)")
        return super().value()

    def top(self) -> dict:
        __tracebackhide__ = True
        value = self.value()
        if not isinstance(value, dict):
            untestable(f"the manifest is a JSON {kind_name(value)}, not an object (see AID-2.2.1-01)")
        return value

    #: The clause that requires (or types) each top-level member: a clause blocked by the
    #: member names it.
    MEMBER_CLAUSES = {"schemaVersion": "AID-2.2.1-01", "name": "AID-2.2.1-03", "metadata": "AID-2.2.1-04",
                      "implementations": "AID-2.2.1-10"}

    def member(self, *path, kind=None, required: bool = True):
        __tracebackhide__ = True
        try:
            return super().member(*path, kind=kind, required=required)
        except Untestable as exc:
            see = self.MEMBER_CLAUSES.get(path[0]) if path and isinstance(path[0], str) else None
            reason = str(exc.msg).removeprefix("untestable: ")
            if see is None or "AID-" in reason:
                raise
            untestable(f"{reason} (see {see})")


@pytest.fixture(scope="session")
def manifest(adck_target: Target, request: pytest.FixtureRequest) -> Manifest:
    """The AID manifest: the file of a manifest target, or the document at the record's config."""
    if adck_target.document_path is not None:
        return Manifest.from_file(adck_target.document_path, adck_target.http.limits.max_body_bytes)
    if adck_target.record is not None:
        not_applicable("the target is a TXT record on its own: its manifest is not fetched")
    fetch: Fetch = request.getfixturevalue("manifest_fetch")
    final = fetch.final
    if final is None or (fetch.error and fetch.error_kind != "too-large") or not 200 <= final.status < 300:
        why = fetch.describe_error() if fetch.error else f"{final.status} {final.reason}" if final else "no answer"
        untestable(f"the manifest at {fetch.url} could not be had: {why} (see AID-2.2-01)")
    found = Manifest.from_fetch(fetch)
    if not final.body:
        untestable(f"the manifest at {fetch.url} could not be had: 200 with an empty body (see AID-2.2-01)")
    if why := found.not_json():
        # what the config URL serves is not the manifest, "a JSON document" (§2.2): AMB-30
        untestable(f"what {fetch.url} serves is not a JSON document: {why} (see AID-2.2-01)")
    return found


def value_of(record: RecordUnderTest, key: str) -> str:
    """The value of ``key`` in the record, or *not-applicable* when the key is absent."""
    from conformance.outcomes import not_applicable

    __tracebackhide__ = True
    value = record.parsed.get(key)
    if value is None:
        not_applicable(f"the record has no {key} key")
    return value


# ---------------------------------------------------------------- client role (client under test)

@pytest.fixture(scope="session")
def client(adck_adapter, request: pytest.FixtureRequest):
    """The AID client under test, driven through its adapter (conformance.aid.clients)."""
    from conformance.aid.clients import AidClient
    from conformance.plugin import STATE

    return AidClient(adck_adapter, f"r{request.config.stash[STATE].seed}")


@pytest.fixture
def scenarios(scenario_world, scenario_dns):
    """The scenarios one client test publishes (DNS zones and HTTPS sites on loopback)."""
    from conformance.aid.clients import AidScenarios

    return AidScenarios(scenario_world, scenario_dns)


# ---------------------------------------------------------------- AID v1.2 and v2.1 (versioned rules)

@dataclass
class PublishedRecord:
    """One AID record at the name (or given with txt:), read by the rules of its version
    (:mod:`conformance.aid.versioned`): v1.2's for aid1, v2.1's for aid2."""

    strings: list[bytes]
    ttl: int | None
    source: str
    answer: TxtAnswer | None = None

    @cached_property
    def raw(self) -> bytes:
        return b"".join(self.strings)

    @cached_property
    def text(self) -> str:
        return self.raw.decode("utf-8", errors="replace")

    @cached_property
    def reading(self):
        from conformance.aid import versioned
        return versioned.read(self.text)

    def evidence(self) -> list:
        return [self.answer] if self.answer is not None else []


def _aid_like(text: str) -> bool:
    """A TXT string that is an AID record: it holds a version key, or both a uri and a proto
    (an AID record that lost its v); other TXT data may share the name (AMB-50)."""
    from conformance.aid import versioned
    reading = versioned.read(text)
    return reading.is_aid or {"uri", "proto"} <= set(reading.order)


@pytest.fixture(scope="session")
def published(adck_target: Target, request: pytest.FixtureRequest) -> list[PublishedRecord]:
    """Every AID record the target publishes: the one given with txt:, or each TXT record at
    _agent.<domain> that is an AID record (looked up once, shared with v1's ``record``)."""
    if adck_target.document_path is not None:
        not_applicable("the target is a manifest on its own: it has no TXT record")
    if adck_target.record is not None:
        strings, ttl = adck_target.record
        return [PublishedRecord(strings=strings, ttl=ttl, source=adck_target.description)]
    answer: TxtAnswer = request.getfixturevalue("lookup")
    if answer.status != "ok" or not answer.records:
        untestable(f"no TXT record at {answer.name}: {answer.status} ({answer.detail}) (see AID-2-01, AID-2-02)")
    # in byte order, not the answer's (which carries no meaning): the same verdicts and messages
    # whatever order the name server gave
    found = [PublishedRecord(strings=r, ttl=answer.ttl, source=answer.name, answer=answer)
             for r in sorted(answer.records, key=_record_order)]
    return [r for r in found if _aid_like(r.text)]


def records_of(published: list[PublishedRecord], version: str) -> list[PublishedRecord]:
    """The published records of one version (aid1: judged by v1.2's clauses, aid2: by v2.1's);
    untestable when there is none (the version clause of that revision fails then)."""
    __tracebackhide__ = True
    chosen = [r for r in published if r.reading.version == version]
    if not chosen:
        seen = ", ".join(repr(r.text[:60]) for r in published) or "none"
        untestable(f"no v={version} record is published (AID records seen: {seen}; see {VERSION_CLAUSES[version]})")
    return chosen


#: The clauses that fail when no record of a version is published (each revision's version row
#: and its record at _agent): what an untestable clause of that version names.
VERSION_CLAUSES = {"aid1": "AID-2.1-33, AID-2.1-34, AID-2-01",
                   "aid2": "AID-2.1-54, AID-2.1-55, AID-2.1-46, AID-2-02"}

#: What a keyed record must hold before the kit sends its PKA request, per version: the rule
#: (conformance.aid.versioned's problem clauses) whose failure leaves no proof to judge.
_PROOF_PREREQUISITES = {"aid1": ("AID-2.1-43", "AID-D.1-01", "AID-2.1-44", "AID-2.1-45", "AID-3-03"),
                        "aid2": ("AID-B.1-01", "AID-B.1-02", "AID-2.1-64", "AID-3-22")}


#: The clauses a record's key breaks when it is no Ed25519 public key a client decodes, per version.
_KEY_CLAUSES = {"aid1": "AID-2.1-43, AID-D.1-01", "aid2": "AID-2.1-63, AID-B.1-01, AID-B.1-02"}


@dataclass
class ProofExchange:
    """The kit's PKA request to a published record's endpoint (u) and what came back: the
    provider side of v1.2 Appendix D (aid1) and v2.1 Appendix B (aid2), sent once per run."""

    record: PublishedRecord
    version: str
    #: the AID-Domain the request named (None: no domain binding asked)
    domain: str | None
    sent: dict[str, str]
    fetch: Fetch

    @property
    def response(self):
        """The endpoint's answer, or None (no answer, or a redirect: a client never follows one)."""
        final = self.fetch.final
        return None if final is None or self.fetch.redirects else final

    def signature(self) -> tuple[list[str], dict] | None:
        """The covered components and parameters of the response's PKA signature."""
        from conformance.aid import pka
        return pka.signature_input(self.version, self.response.response_headers) if self.response else None

    def needs_signature(self) -> tuple[list[str], dict]:
        """The signature, or *untestable* (the endpoint gave none to judge)."""
        __tracebackhide__ = True
        if self.response is None:
            untestable(f"the PKA request to {self.fetch.url} got no answer to judge: "
                       + (f"a redirect (HTTP {self.fetch.exchanges[0].status}), which a client never follows"
                          if self.fetch.redirects else f"{self.fetch.error}"))
        signed = self.signature()
        if signed is None:
            untestable(f"the PKA response from {self.fetch.url} (HTTP {self.response.status}) holds no readable "
                       "Signature-Input for the proof")
        return signed

    def evidence(self) -> list:
        return self.record.evidence() + list(self.fetch.exchanges)


#: The AID-Domain of a request naming a domain no provider serves (v2.1 B.7: the refusal).
UNSERVED = "not-served.adck.invalid"


@pytest.fixture(scope="session")
def pka_exchanges(adck_target: Target, adck_fetcher: Fetcher, published: list[PublishedRecord]):
    """``get(version, domain)``: the PKA exchanges with each published record of ``version``
    holding a key, each sent once per run (``domain``: the AID-Domain asked, None for none);
    *not applicable* when no such record publishes a key."""
    import time

    from conformance.aid import pka

    sent: dict[tuple[str, str | None], list[ProofExchange]] = {}

    def get(version: str, domain: str | None) -> list[ProofExchange]:
        __tracebackhide__ = True
        if adck_target.domain is None:
            not_applicable("the target is a record on its own: the kit does not contact the endpoint a "
                           "document names, only a provider's")
        if (version, domain) not in sent:
            keyed = [r for r in records_of(published, version) if r.reading.fields.get("pka")]
            if not keyed:
                not_applicable(f"no v={version} record publishes a key (pka/k): there is no endpoint proof")
            out = []
            for record in keyed:
                fields = record.reading.fields
                uri = fields.get("uri", "")
                broken = [p for p in record.reading.problems if p.clause in _PROOF_PREREQUISITES[version]]
                if broken:
                    untestable(f"the record {record.text[:80]!r} gives no key and endpoint to prove: "
                               + "; ".join(f"{p.message} (see {p.clause})" for p in broken)
                               + (f" (see {_KEY_CLAUSES[version]})" if any(p.clause in _KEY_CLAUSES[version] for p in broken) else ""))
                try:  # a key no client can verify with leaves no proof to judge
                    from conformance.aid.pka.keys import point_error

                    why = point_error(pka.decode_key(fields["pka"], version))
                except pka.PkaError as error:
                    why = str(error)
                if why:
                    untestable(f"the record {record.text[:80]!r} gives no key a client would accept: {why} "
                               f"(see {_KEY_CLAUSES[version]})")
                if not uri.lower().startswith("https://"):
                    untestable(f"the record's u {uri[:80]!r} is no https:// URL the kit could send the PKA request "
                               f"to (see {'AID-3-03' if version == 'aid1' else 'AID-3-22'})")
                headers = pka.challenge_headers(version, uri, domain, int(time.time()),
                                                k=fields["pka"] if version == "aid2" else None)
                # no redirect is followed (v2.1 B.5): the first answer is the one judged
                fetch = adck_fetcher.fetch(pka.request_uri(uri), headers=headers,
                                           spend=lambda: "a PKA request is never redirected (v2.1 B.5)")
                out.append(ProofExchange(record, version, domain, headers, fetch))
            sent[(version, domain)] = out
        return sent[(version, domain)]

    return get
