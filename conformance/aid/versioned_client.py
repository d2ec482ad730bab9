"""The reference AID client of v1.2 and v2.1, usable as a library.

    client = VersionedAidClient(HttpConfig(ca_bundle=...), DnsConfig(nameservers=...))
    found = client.discover("example.com", now=..., user=User(consent=True), policy={...})
    found.outcome     # "connect" | "execute" | "none" | "error" | "declined"
    found.error_kind  # the code of Table 1 when discovery fails (ERR_INVALID_TXT, ...)

One client for both texts: it reads aid2 records by v2.1's rules and aid1 records by v1.2's
(v2.1 2.3 step 4, "Validate records using versioned rules"; E.2 "Support both aid1 and aid2
parsing"), prefers a valid aid2 (step 6), and so meets v1.2's client sentences on aid1-only
names and v2.1's everywhere. Like v1's reference client (``reference_client``) it *decides*
and never acts: ``connect`` names the endpoint and protocol, ``execute`` the argv of a local
agent; the one request it sends itself is the PKA handshake (Appendix D of v1.2, B of v2.1).

Each decision the texts govern is one small method, so that a broken variant overrides exactly
one. Time is passed in (``now``). One instance is one client with its memory (the DNS cache
within TTL, previous security state per domain, consents given).
"""

from __future__ import annotations

import hashlib
import json
import shlex
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace
from typing import Any

from conformance.aid import versioned
from conformance.aid.reference_client import Found, Prompt, User
from conformance.dns import DnsConfig, Resolver, TxtAnswer, a_label
from conformance.fetch import Fetcher, HttpConfig, Limits

#: What the client says it can do (the harness hello's ``features``).
FEATURES = ("aid.v1.2", "aid.v2.1", "aid.pka", "aid.local", "aid.well-known", "aid.policy")
#: The protocols it speaks (2.3 step 6 of v1.2: any other token fails with 1002).
PROTOCOLS = ("mcp", "a2a", "openapi", "grpc", "graphql", "websocket", "ucp", "local")
#: The policy knobs (v1.2 3.2, v2.1 3.3) and the presets of v1.2.
DEFAULT_POLICY = {"pka": "if-present", "dnssec": "prefer", "well-known": "auto", "downgrade": "warn",
                  "domain-binding": "prefer"}
PRESETS = {"balanced": {"pka": "if-present", "dnssec": "prefer", "well-known": "auto", "downgrade": "warn"},
           "strict": {"pka": "require", "dnssec": "require", "well-known": "disable", "downgrade": "fail"}}
WELL_KNOWN = "/.well-known/agent"
MAX_FALLBACK_BYTES = 16 * 1024
#: Locators of a local agent (Appendix B of v1.2, 7.2 of v2.1) and the command each runs.
RUNNERS = {"docker": ["docker", "run", "--rm", "-i"], "npx": ["npx", "-y"], "pip": ["pipx", "run"]}


@dataclass
class Memory:
    """What the client keeps about one domain between discoveries."""

    version: str | None = None
    trust: str | None = None
    #: RFC 7638 thumbprints of the keys seen (v2.1 E.2 item 5), and v1.2's kid
    keys: tuple[str, ...] = ()
    kid: str | None = None
    #: the DNS answer and when it stops being fresh (4: never kept past its TTL)
    answer: TxtAnswer | None = None
    fresh_until: datetime | None = None


class VersionedAidClient:
    """Discovers AID services the way v1.2 and v2.1 ask a client to."""

    features: tuple[str, ...] = FEATURES
    protocols: tuple[str, ...] = PROTOCOLS

    def __init__(self, http: HttpConfig, dns: DnsConfig, platform: str = "linux") -> None:
        self.http = http
        # PKA and the fallback never follow a redirect (v2.1 3; v1.2 E: the fallback is one GET)
        self.fetcher = Fetcher(replace(http, limits=replace(http.limits, max_redirects=0,
                                                            max_body_bytes=MAX_FALLBACK_BYTES)))
        self.resolver = Resolver(dns)
        self.platform = platform
        self.memory: dict[str, Memory] = {}
        #: 3 (local execution): fingerprints of u and p consented to, by domain
        self._approved: dict[str, str] = {}

    # ------------------------------------------------------------------ policy

    def policy(self, given: dict[str, Any] | None) -> dict[str, str]:
        """The knobs in force: the defaults, a preset (``mode``), then single knobs."""
        given = dict(given or {})
        knobs = dict(DEFAULT_POLICY)
        knobs.update(PRESETS.get(str(given.pop("mode", "")), {}))
        knobs.update({k: str(v) for k, v in given.items() if k in DEFAULT_POLICY})
        return knobs

    # ------------------------------------------------------------------ DNS (2.3 steps 1-2, 2.4, 4)

    def query_name(self, domain: str) -> str:
        """Step 1 and 2: _agent.<exact host>, the host in A-label form; never a parent."""
        return "_agent." + a_label(domain.strip().rstrip("."))

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        """The TXT answer, reused only while its TTL lasts (4: "Clients **MUST** respect the
        TTL of DNS records and **MUST NOT** cache DNS records longer than the received TTL")."""
        memory = self.memory.setdefault(domain, Memory())
        if memory.answer is not None and memory.fresh_until is not None and now < memory.fresh_until:
            return memory.answer
        answer = self.resolver.txt(name)
        if answer.status == "ok" and answer.ttl:
            memory.answer, memory.fresh_until = answer, now + timedelta(seconds=answer.ttl)
        else:
            memory.answer = memory.fresh_until = None
        return answer

    def texts(self, answer: TxtAnswer) -> list[str]:
        """2.1: each record's character-strings concatenated in order before parsing."""
        return answer.texts()

    # ------------------------------------------------------------------ the fallback (v1.2 E, v2.1 C)

    def fallback(self, domain: str) -> tuple[str | None, str]:
        """GET https://<exact host>/.well-known/agent, no redirect followed: (record text, '')
        or (None, why)."""
        url = self.fallback_url(domain)
        fetched = self.fetcher.fetch(url, headers={"Accept": "application/json"})
        final = fetched.final
        if final is None or final.status != 200 or fetched.redirects:
            return None, f"GET {url}: " + (f"HTTP {final.status}" if final is not None else str(fetched.error))
        text, why = self.record_text(final.body)
        return text, (f"GET {url}: {why}" if why else "")

    @staticmethod
    def fallback_url(domain: str, path: str = WELL_KNOWN) -> str:
        """The fallback's URL at the exact host, the host in A-label form."""
        return f"https://{a_label(domain.strip().rstrip('.'))}{path}"

    @staticmethod
    def record_text(body: bytes) -> tuple[str | None, str]:
        """A fallback body read as a record: (its members as ``key=value`` pairs joined by ';', '')
        for a JSON object of string members, else (None, why)."""
        try:
            data = json.loads(body)
        except ValueError:
            return None, "not JSON"
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            return None, "not a JSON object of string members"
        return ";".join(f"{k}={v}" for k, v in data.items()), ""

    # ------------------------------------------------------------------ selection (steps 3-7)

    def select(self, texts: list[str]) -> versioned.Selection:
        return versioned.select(texts, "v2.1")

    def supports(self, proto: str) -> bool:
        return proto in self.protocols

    # ------------------------------------------------------------------ metadata (step 8)

    def deprecation(self, fields: dict[str, str], now: datetime, found: Found) -> bool:
        """Step 8: a future dep warns; a past one fails gracefully (True: stop)."""
        dep = fields.get("dep")
        if not dep:
            return False
        try:
            when = datetime.fromisoformat(dep.replace("Z", "+00:00"))
        except ValueError:
            return False
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        if when <= now:
            found.outcome, found.error_kind = "error", "ERR_INVALID_TXT"
            found.messages.append(f"the record was deprecated at {dep}")
            return True
        found.warnings.append(f"the record is deprecated from {dep}")
        return False

    # ------------------------------------------------------------------ endpoint proof (step 9)

    def prove(self, fields: dict[str, str], domain: str, now: datetime, knobs: dict[str, str]) -> tuple[bool, str, bool]:
        """Appendix D (aid1) or B (aid2): (proved, why not, domain-bound)."""
        from conformance.aid import pka

        version = fields.get("version", "")
        bind = version == "aid2" and knobs.get("domain-binding") != "off"
        host = a_label(domain.strip().rstrip(".")).lower()
        # the proof is a live exchange: its freshness is judged on the wall clock, as the
        # endpoint signs on it (the step's ``now`` is the client's simulated clock for caching)
        clock = int(time.time())
        headers = pka.challenge_headers("aid1" if version == "aid1" else "aid2", fields["uri"],
                                        host if bind else None, clock, k=fields["pka"] if version == "aid2" else None)
        fetched = self.fetcher.fetch(fields["uri"], headers=headers)
        final = fetched.final
        if final is None or fetched.redirects:
            return False, f"the PKA request to {fields['uri']} got no answer to verify ({fetched.error})", False
        response = SimpleNamespace(status=final.status, status_code=final.status, headers=final.response_headers)
        proof = pka.verify(version, fields, headers, response, now=clock, domain=host if bind else None,
                           domain_binding=knobs.get("domain-binding", "prefer"))
        return proof.ok, proof.reason, bool(proof.domain_bound)

    # ------------------------------------------------------------------ local agents (3)

    def argv(self, uri: str) -> list[str] | None:
        """A local locator as the argv passed to exec, one argument never split by a shell
        (3 item 3); None for a locator the client does not run."""
        scheme, _, rest = uri.partition(":")
        runner = RUNNERS.get(scheme.lower())
        rest = rest.lstrip("/")
        if runner is None or not rest:
            return None
        return [*runner, rest]

    def nested(self, argv: list[str]) -> bool:
        """3 item 4: a locator that would start another AID discovery."""
        text = " ".join(argv).lower()
        return any(word in text for word in ("aid-doctor", "aid-discover", "@agentcommunity/aid", "aid_py",
                                             "aid-discovery", "_agent."))

    def fingerprint(self, fields: dict[str, str]) -> str:
        """3 item 2: a cryptographic fingerprint of the uri and proto values."""
        return hashlib.sha256(f"{fields.get('uri')}\n{fields.get('proto')}".encode()).hexdigest()

    def consent(self, domain: str, fields: dict[str, str], argv: list[str], found: Found, user: User) -> bool:
        """3 items 1-2: show the full resolved command and ask, again whenever u or p change."""
        if self._approved.get(domain) == self.fingerprint(fields):
            return True
        found.prompts.append(Prompt("consent", f"Run the local agent of {domain}: {shlex.join(argv)}",
                                    command=list(argv)))
        if not user.consent:
            return False
        self._approved[domain] = self.fingerprint(fields)
        return True

    # ------------------------------------------------------------------ downgrade (v1.2 3.2, v2.1 3.3)

    def downgrade(self, domain: str, fields: dict[str, str], trust: str) -> str:
        """What changed for the worse since the last discovery of ``domain`` ('' for nothing)."""
        memory = self.memory.get(domain)
        if memory is None or memory.version is None:
            return ""
        if memory.keys and not fields.get("pka"):
            return "the key (pka/k) published before is gone"
        if memory.version == "aid2" and fields.get("version") == "aid1":
            return "aid2 was selected before and only aid1 is now"
        # v2.1 3.3: "downgrade=warn|fail: applies to PKA removal, key replacement, ..."; v1.2 3.2 names
        # only removal: a changed key of an aid1 record is a rotation, noticed and never failed (AMB-58)
        if (fields.get("version") == "aid2" and memory.keys and fields.get("pka")
                and self.thumbprint(fields) not in memory.keys):
            return "the key was replaced"
        return ""

    def thumbprint(self, fields: dict[str, str]) -> str:
        from conformance.aid import pka
        version = fields.get("version", "aid2")
        try:
            return pka.derived_keyid(pka.decode_key(fields["pka"], version))
        except Exception:  # noqa: BLE001 - an undecodable key has no thumbprint
            return "undecodable:" + fields.get("pka", "")

    def remember(self, domain: str, fields: dict[str, str], trust: str) -> None:
        memory = self.memory.setdefault(domain, Memory())
        memory.version, memory.trust = fields.get("version"), trust
        memory.keys = (self.thumbprint(fields),) if fields.get("pka") else ()
        memory.kid = fields.get("kid")

    # ------------------------------------------------------------------ discovery

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        """``protocol``, the agent protocol the application requests, changes no name asked: the
        base record of the exact host is the canonical one in both revisions (v1.2 2.5, v2.1 2.3),
        the protocol-specific name only a permission (v1.2 2.5's MAY), and no parent is asked
        either way (v1.2 2.4: "it **MUST NOT** query parent hosts")."""
        knobs = self.policy(policy)
        answer = self.lookup(domain, self.query_name(domain), now)
        trust = "dns"
        texts: list[str] = []
        if answer.status == "ok":
            if answer.dnssec == "invalid":
                return Found("error", error_kind="ERR_SECURITY", messages=[f"DNSSEC validation failed: {answer.detail}"])
            texts = self.texts(answer)
        code = ("ERR_NO_RECORD" if answer.status in ("nxdomain", "nodata") or
                (answer.status == "ok" and not any(versioned.read(t).is_aid for t in texts))
                else "ERR_DNS_LOOKUP_FAILED" if answer.status != "ok" else "")
        if code:
            if knobs["well-known"] == "disable":
                return Found("none" if code == "ERR_NO_RECORD" else "error", error_kind=code,
                             messages=[f"{self.query_name(domain)}: {answer.status}; well-known=disable"])
            text, why = self.fallback(domain)
            if text is None:
                # a 404 is a fallback the host does not publish (AMB-80): the DNS outcome stands;
                # matched on the status, never on the URL's host name (fallback-fails-404.adck.test)
                absent = "HTTP 404" in why
                return Found("none" if code == "ERR_NO_RECORD" and absent else "error",
                             error_kind=code if absent else "ERR_FALLBACK_FAILED", messages=[why])
            texts, trust = [text], "well-known-tls"
        selection = self.select(texts)
        if selection.record is None:
            error = "ERR_UNSUPPORTED_PROTO" if "ERR_UNSUPPORTED_PROTO" in selection.codes else sorted(selection.codes)[0]
            if trust == "well-known-tls":
                error = "ERR_FALLBACK_FAILED"
            return Found("none" if error == "ERR_NO_RECORD" else "error", error_kind=error, messages=[selection.reason])
        fields = dict(selection.record.fields)
        found = Found("connect")
        found.messages.append(f"{selection.reason} (trust source {trust})")
        if not self.supports(fields["proto"]):
            return Found("error", error_kind="ERR_UNSUPPORTED_PROTO", messages=[f"p={fields['proto']} is not spoken"])
        if self.deprecation(fields, now, found):
            return found
        if knobs["pka"] == "require" and not fields.get("pka"):
            return Found("error", error_kind="ERR_SECURITY", messages=["pka=require and the record has no key"])
        if knobs["dnssec"] == "require" and (trust != "dns" or answer.dnssec != "valid"):
            return Found("error", error_kind="ERR_SECURITY", messages=["dnssec=require and the answer is not validated"])
        if knobs["dnssec"] == "prefer" and trust == "dns" and answer.dnssec != "valid":
            found.warnings.append("DNSSEC could not validate the answer")
        change = self.downgrade(domain, fields, trust)
        if change and knobs["downgrade"] == "fail":
            return Found("error", error_kind="ERR_SECURITY", messages=[f"downgrade: {change}"])
        if change and knobs["downgrade"] == "warn":
            found.warnings.append(f"downgrade: {change}")
        memory = self.memory.get(domain)
        if memory and memory.kid and fields.get("kid") and fields["kid"] != memory.kid:
            found.warnings.append(f"key rotation: kid {memory.kid} is now {fields['kid']}")
        proof: dict[str, Any] = {"performed": False}
        if fields.get("pka"):
            ok, why, bound = self.prove(fields, domain, now, knobs)
            if not ok:
                return Found("error", error_kind="ERR_SECURITY", messages=[f"endpoint proof failed: {why}"])
            if knobs["domain-binding"] == "require" and not bound:
                return Found("error", error_kind="ERR_SECURITY", messages=["domain-binding=require and the proof is unbound"])
            proof = {"performed": True, "verified": True, "domain_bound": bound}
        self.remember(domain, fields, trust)
        record = {"version": fields["version"], "trust_source": trust, "pka": proof,
                  **{k: fields[k] for k in ("docs", "dep", "desc", "auth") if k in fields}}
        if fields["proto"] == "local":
            argv = self.argv(fields["uri"])
            if argv is None or self.nested(argv):
                return Found("error", error_kind="ERR_SECURITY",
                             messages=[f"the local locator {fields['uri']!r} is not run"])
            if not self.consent(domain, fields, argv, found, user):
                found.outcome = "declined"
                return found
            found.outcome, found.execute = "execute", {"argv": argv, "sandbox": True, "record": record}
            return found
        found.connect = {"uri": fields["uri"], "protocol": fields["proto"], "implementation": None,
                         "headers": {}, "query": {}, "record": record}
        return found
