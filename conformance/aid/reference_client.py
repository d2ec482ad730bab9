"""The reference AID client of aid-v1-2025-06-19, usable as a library.

    client = ReferenceAidClient(HttpConfig(ca_bundle=...), DnsConfig(nameservers=...))
    found = client.discover("example.com", now=..., user=User(consent=True))
    found.outcome  # "connect" | "execute" | "none" | "error" | "declined"

It *decides*, it never acts: a remote implementation gives the connection it would open
(``connect``: URI, protocol, where the token goes) and a local one the argv it would pass to
the OS ``exec`` call (``execute``). Nothing is ever run. What it would ask the user goes into
``prompts`` and is answered from :class:`User`; what it would warn about into ``warnings``.

Each decision the draft governs is one small method, so that a broken variant (see
``conformance.aid.variants``) overrides exactly one of them. Time is passed in (``now``)
so caching can be checked without sleeping. One instance is one client with its memory
(HTTP cache, processed manifests, consents given): the harness keeps one per session.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import ssl
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal
from urllib.parse import urlsplit

from conformance.dns import DnsConfig, Resolver, TxtAnswer, a_label
from conformance.document import loads
from conformance.fetch import Exchange, Fetcher, HttpConfig, Limits

#: What the client says it can do (the harness hello's ``features``).
FEATURES = ("aid.manifest", "aid.local")
#: The agent protocols it speaks, in no order of preference (the record's order decides).
PROTOCOLS = ("mcp", "a2a", "openapi")
#: Manifests are small; a client need not read more.
MAX_MANIFEST_BYTES = 256 * 1024
_PLACEHOLDER = re.compile(r"\$\{([a-z]+)\.([^}]*)\}")
_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?", re.IGNORECASE)
_NO_STORE = re.compile(r"(?:^|,)\s*no-store\b", re.IGNORECASE)
_NO_CACHE = re.compile(r"(?:^|,)\s*no-cache\b", re.IGNORECASE)

Outcome = Literal["connect", "execute", "none", "error", "declined"]


@dataclass(frozen=True)
class User:
    """What the (simulated) user answers when the client asks."""

    consent: bool = True
    confirm: bool = True
    choose: str | None = None
    token: str | None = None
    credentials: dict[str, str] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_json(cls, value: dict | None) -> "User":
        value = value or {}
        return cls(consent=value.get("consent", True), confirm=value.get("confirm", True),
                   choose=value.get("choose"), token=value.get("token"),
                   credentials=dict(value.get("credentials") or {}), config=dict(value.get("config") or {}),
                   paths=dict(value.get("paths") or {}))


@dataclass
class Prompt:
    """Something the client shows the user and waits for an answer to."""

    kind: Literal["consent", "confirm", "credential", "config", "path", "passphrase"]
    text: str
    key: str | None = None
    masked: bool = False
    link: str | None = None
    command: list[str] | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "masked": self.masked}
        for name in ("key", "link", "command"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out


@dataclass
class Found:
    """What the client concluded (the harness reply's content)."""

    outcome: Outcome
    error_kind: str | None = None
    connect: dict | None = None
    execute: dict | None = None
    prompts: list[Prompt] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    offered: list[dict] | None = None
    messages: list[str] = field(default_factory=list)


@dataclass
class _Cached:
    """An HTTP-cached manifest response (Appendix B, item 1)."""

    body: bytes
    fresh_until: datetime | None
    etag: str | None
    last_modified: str | None
    no_cache: bool


class ReferenceAidClient:
    """Discovers AID services the way the draft asks a client to."""

    features: tuple[str, ...] = FEATURES
    protocols: tuple[str, ...] = PROTOCOLS

    def __init__(self, http: HttpConfig, dns: DnsConfig, platform: str = "linux") -> None:
        self.http = replace(http, limits=self.limits(http.limits))
        self.fetcher = Fetcher(self.http, ssl_context=self.ssl_context(self.http))
        self.resolver = Resolver(dns)
        self.platform = platform
        #: Appendix B: HTTP cache of manifests by URL, and the last processed manifest by URL.
        self._http_cache: dict[str, _Cached] = {}
        self._processed: dict[str, tuple[str | None, Any]] = {}
        #: 4.1 item 2: fingerprints of approved execution objects, by implementation name.
        self._approved: dict[str, str] = {}

    # ------------------------------------------------------------------ network

    def limits(self, base: Limits) -> Limits:
        return replace(base, max_body_bytes=MAX_MANIFEST_BYTES)

    def ssl_context(self, http: HttpConfig) -> ssl.SSLContext | None:
        """2.3 step 4 and 4: standard TLS validation, host name included (None: the
        fetcher's verifying context, trusting exactly the configured CA)."""
        return None

    # ------------------------------------------------------------------ the record (2.1, 2.3 steps 1-3)

    def query_name(self, domain: str) -> str:
        """2.3 step 1 and 4: _agent.<domain>, the domain in IDNA-2008 A-label form."""
        return "_agent." + a_label(domain.strip().rstrip("."))

    def lookup(self, name: str) -> TxtAnswer:
        """2.3 step 1: the TXT records at the name (never SVCB/HTTPS: 1.2)."""
        return self.resolver.txt(name)

    def trust(self, answer: TxtAnswer) -> bool:
        """4: a validating client does not use an answer whose signature fails."""
        return answer.dnssec != "invalid"

    def join(self, strings: list[bytes]) -> str:
        """2.1 and 2.3 step 2: a record's character-strings, concatenated in order."""
        return b"".join(strings).decode("utf-8", errors="replace")

    def parse(self, text: str) -> dict[str, str]:
        """2.3 step 2: semicolon-delimited key=value pairs; unknown keys are kept (and ignored)."""
        pairs: dict[str, str] = {}
        for part in text.split(";"):
            key, sep, value = part.partition("=")
            key = key.strip().lower()
            if sep and key and key not in pairs:
                pairs[key] = value.strip()
        return pairs

    def is_aid1(self, pairs: dict[str, str]) -> bool:
        """2.3 step 2: v=aid1 must be present."""
        return pairs.get("v") == "aid1"

    def has_mandatory_keys(self, pairs: dict[str, str]) -> bool:
        """2.5: without uri and proto, only a manifest (config) can say how to connect."""
        return bool(pairs.get("config")) or bool(pairs.get("uri") and pairs.get("proto"))

    def choose_record(self, records: list[dict[str, str]]) -> dict[str, str] | None:
        return records[0] if records else None

    def protocol(self, proto: str) -> str | None:
        """2.1: a comma-separated list, the first preferred: the first one this client speaks."""
        listed = [p.strip() for p in proto.split(",") if p.strip()]
        return next((p for p in listed if p in self.protocols), listed[0] if listed else None)

    # ------------------------------------------------------------------ the manifest (2.3 steps 3-6, B)

    def wants_manifest(self, record: dict[str, str]) -> bool:
        """2.3 step 3: with config, the client fetches the manifest (it supports manifests)."""
        return bool(record.get("config"))

    def manifest_url(self, record: dict[str, str]) -> str | None:
        """2.3 step 4: exactly the config URL, and only over https (4)."""
        url = record.get("config", "")
        return url if urlsplit(url).scheme == "https" else None

    def fetch_manifest(self, url: str, now: datetime) -> tuple[bytes | None, str | None]:
        """2.3 step 4 with Appendix B's HTTP caching: (body, None) or (None, error kind)."""
        cached = self._http_cache.get(url)
        if cached and not cached.no_cache and cached.fresh_until and now < cached.fresh_until:
            return cached.body, None
        headers = {"Accept": "application/json"}
        if cached and cached.etag:
            headers["If-None-Match"] = cached.etag
        if cached and cached.last_modified:
            headers["If-Modified-Since"] = cached.last_modified
        fetch = self.fetcher.fetch(url, headers=headers)
        final = fetch.final
        if final is not None and final.status == 304 and cached:
            self._store(url, final, cached.body, now)
            return cached.body, None
        if fetch.error or final is None:
            return None, fetch.error_kind or "transport"
        if final.status >= 400:
            return None, f"http-{final.status}"  # 2.5: a transient network error
        if final.status != 200:
            return None, f"http-{final.status}"
        self._store(url, final, final.body, now)
        return final.body, None

    def _store(self, url: str, response: Exchange, body: bytes, now: datetime) -> None:
        value = response.header("cache-control") or ""
        if _NO_STORE.search(value):
            self._http_cache.pop(url, None)
            return
        m = _MAX_AGE.search(value)
        self._http_cache[url] = _Cached(
            body=body, fresh_until=now + timedelta(seconds=int(m.group(1))) if m else None,
            etag=response.header("etag"), last_modified=response.header("last-modified"),
            no_cache=bool(_NO_CACHE.search(value)))

    def parse_manifest(self, body: bytes) -> Any:
        """2.5: a body that is not a JSON object is an unparseable manifest."""
        value = loads(body)
        if not isinstance(value, dict) or not isinstance(value.get("implementations"), list):
            raise ValueError("not a JSON object with an implementations array")
        return value

    def processed(self, url: str, manifest: dict) -> dict:
        """Appendix B item 2: a different contentVersion means an updated manifest, processed
        anew; the same one may reuse what was processed (this client re-processes anyway)."""
        version = (manifest.get("metadata") or {}).get("contentVersion")
        self._processed[url] = (version, copy.deepcopy(manifest))
        return manifest

    def schema_version(self, manifest: dict) -> Literal["understood", "reject", "unknown"]:
        """2.3 step 5a, 2.4, 2.5: "1" is understood; a major of 2 under v=aid1 is rejected;
        anything else (or none) is unknown."""
        version = manifest.get("schemaVersion")
        if version == "1":
            return "understood"
        if isinstance(version, str) and (version.startswith("2.") or version == "2"):
            return "reject"
        return "unknown"

    def unknown_version(self, manifest: dict, found: Found) -> None:
        """2.5: a schemaVersion the client does not understand: warn the user."""
        found.warnings.append(f"unknown manifest schemaVersion {manifest.get('schemaVersion')!r}: "
                              "best-effort reading, local implementations disabled")

    def viable(self, impl: Any, local_allowed: bool) -> bool:
        """2.3 step 5b: what this client can use."""
        if not isinstance(impl, dict):
            return False
        if impl.get("type") == "remote":
            return isinstance(impl.get("uri"), str) and urlsplit(impl["uri"]).scheme == "https"
        if impl.get("type") == "local":
            execution = impl.get("execution")
            return (local_allowed and "aid.local" in self.features and isinstance(execution, dict)
                    and isinstance(execution.get("command"), str) and isinstance(execution.get("args"), list))
        return False

    def deprecated(self, impl: dict) -> bool:
        """0 and 2.2.2: status defaults to active."""
        return impl.get("status", "active") == "deprecated"

    def offer(self, viable: list[dict]) -> list[dict]:
        """2.3 step 5c and 2.2.2: what the user is offered; deprecated ones are marked."""
        return [{"name": str(i.get("name", "")), "deprecated": self.deprecated(i)} for i in viable]

    def choose(self, viable: list[dict], user: User) -> dict | None:
        """The user's pick, else the first active implementation, else the first."""
        if user.choose is not None:
            picked = next((i for i in viable if i.get("name") == user.choose), None)
            if picked is not None:
                return picked
        return next((i for i in viable if not self.deprecated(i)), viable[0] if viable else None)

    def deprecation(self, impl: dict, found: Found, user: User) -> bool:
        """2.3 step 5e: warn about a deprecated implementation (True: go on)."""
        if self.deprecated(impl):
            found.warnings.append(f"the implementation {impl.get('name')!r} is deprecated")
        return True

    # ------------------------------------------------------------------ revocation (C)

    def revocation_url(self, impl: dict, manifest: dict) -> str | None:
        """2.2.2: an implementation's own revocationURL overrides metadata's."""
        own = impl.get("revocationURL")
        if isinstance(own, str) and own:
            return own
        meta = manifest.get("metadata") if isinstance(manifest.get("metadata"), dict) else {}
        url = meta.get("revocationURL")
        return url if isinstance(url, str) and url else None

    def revocation(self, url: str) -> Literal["valid", "revoked", "failed"]:
        """C: GET before use; 200 with a JSON status; anything else is a temporary failure."""
        fetch = self.fetcher.fetch(url, headers={"Accept": "application/json"})
        final = fetch.final
        if fetch.error or final is None or final.status != 200:
            return "failed"
        return self.revocation_verdict(final.body)

    def revocation_verdict(self, body: bytes) -> Literal["valid", "revoked", "failed"]:
        """C: {"status":"valid"} or {"status":"revoked"}; any other body: a temporary failure."""
        try:
            status = loads(body).get("status")
        except (ValueError, AttributeError):
            return "failed"
        return status if status in ("valid", "revoked") else "failed"

    # ------------------------------------------------------------------ authentication (2.2.4, A)

    def credential_prompt(self, auth: dict) -> Prompt:
        """2.2.4: one secret, asked masked, tokenUrl shown as a link."""
        link = auth.get("tokenUrl") if isinstance(auth.get("tokenUrl"), str) else None
        return Prompt("credential", str(auth.get("description") or "credential"), key=None, masked=True, link=link)

    def credential_items(self, auth: dict) -> list[dict]:
        """2.2.4: with credentials, one prompt per item."""
        items = auth.get("credentials")
        return [c for c in items if isinstance(c, dict) and isinstance(c.get("key"), str)] if isinstance(items, list) else []

    def certificate_prompts(self, impl: dict) -> list[Prompt]:
        """Appendix A: mtls with certificate.source file: the file paths, and a masked passphrase."""
        cert = impl.get("certificate") if isinstance(impl.get("certificate"), dict) else {}
        if cert.get("source") != "file":
            return []
        return [Prompt("path", "client certificate file", key="certificate"),
                Prompt("path", "client private key file", key="private_key"),
                Prompt("passphrase", "passphrase of the private key (if any)", key="passphrase", masked=True)]

    def obtain(self, impl: dict, found: Found, user: User) -> tuple[str | None, dict[str, str]]:
        """2.3 step 5d: ask for what the authentication object names. Returns the single
        token (remote placement) and the ${auth.<key>} values."""
        auth = impl.get("authentication") if isinstance(impl.get("authentication"), dict) else {}
        scheme = auth.get("scheme")
        if scheme == "mtls":
            found.prompts.extend(self.certificate_prompts(impl))
            return None, {}
        if scheme in (None, "none"):
            return None, {}
        items = self.credential_items(auth)
        if items:
            values = {}
            for item in items:
                prompt = self.credential_prompt(auth)
                prompt.key, prompt.text = item["key"], str(item.get("description") or item["key"])
                found.prompts.append(prompt)
                values[item["key"]] = user.credentials.get(item["key"], "")
            return next(iter(values.values()), None), values
        found.prompts.append(self.credential_prompt(auth))
        return user.token or "", {}

    def place(self, auth: dict, token: str | None) -> tuple[dict[str, str], dict[str, str], list[str]]:
        """2.2.4 placement: where the token goes (headers, query, cli args), formatted."""
        placement = auth.get("placement") if isinstance(auth.get("placement"), dict) else None
        if not token or placement is None:
            return {}, {}, []
        value = self.format_token(placement, token)
        where, key = placement.get("in"), str(placement.get("key", ""))
        if where == "header":
            return {key: value}, {}, []
        if where == "query":
            return {}, {key: value}, []
        if where == "cli_arg":
            return {}, {}, [key, value]
        return {}, {}, []

    def format_token(self, placement: dict, token: str) -> str:
        """2.2.4: format with {token} replaced; default "{token}"."""
        fmt = placement.get("format")
        return fmt.replace("{token}", token) if isinstance(fmt, str) else token

    # ------------------------------------------------------------------ local execution (2.2.2, 2.2.3, 4.1)

    def execution_for(self, execution: dict, platform: str) -> tuple[str, list]:
        """2.2.2 platformOverrides: the OS's override replaces command and/or args."""
        command, args = execution.get("command"), execution.get("args", [])
        overrides = execution.get("platformOverrides")
        if isinstance(overrides, dict) and isinstance(overrides.get(platform), dict):
            override = overrides[platform]
            command = override.get("command", command)
            args = override.get("args", args)
        return str(command), list(args) if isinstance(args, list) else []

    def configuration(self, impl: dict, found: Found, user: User) -> dict[str, str]:
        """2.3 step 5d and 2.2.2: a value for every configuration item (masked when secret),
        the user's, else its defaultValue."""
        values: dict[str, str] = {}
        for item in impl.get("configuration") or []:
            if not isinstance(item, dict) or not isinstance(item.get("key"), str):
                continue
            key = item["key"]
            found.prompts.append(Prompt("config", str(item.get("description") or key), key=key,
                                        masked=self.masked(item)))
            value = user.config.get(key)
            if value is None:
                value = self.default(item)
            values[key] = "" if value is None else _text(value)
        return values

    def masked(self, item: dict) -> bool:
        """2.2.2: secret true means a masked input."""
        return item.get("secret") is True

    def default(self, item: dict) -> Any:
        """2.2.2: defaultValue is used when the user gives none."""
        return item.get("defaultValue")

    def paths(self, impl: dict, found: Found, user: User) -> dict[str, str]:
        """2.2.2 requiredPaths: the user is asked for each path."""
        values: dict[str, str] = {}
        for item in impl.get("requiredPaths") or []:
            if isinstance(item, dict) and isinstance(item.get("key"), str):
                found.prompts.append(Prompt("path", str(item.get("description") or item["key"]), key=item["key"]))
                values[item["key"]] = user.paths.get(item["key"], "")
        return values

    def substitute(self, arg: str, values: dict[str, dict[str, str]]) -> tuple[str, bool]:
        """2.2.3: each ${ns.key} replaced; (result, True when a placeholder resolved to "")."""
        empty = False

        def one(m: re.Match) -> str:
            nonlocal empty
            value = values.get(m.group(1), {}).get(m.group(2))
            if value is None and m.group(1) == "package" and m.group(2) == "identifier":
                value = values.get("package", {}).get("identifier")
            if not value:
                empty = True
                return ""
            return value

        return _PLACEHOLDER.sub(one, arg), empty

    def resolve_args(self, args: list, values: dict[str, dict[str, str]]) -> list[str]:
        """2.2.3: substitute; an argument with an empty substitution goes, and so does the
        token just before it, as written in the manifest, when it begins with "-" (AMB-13: one
        token, never more: an argument left out does not expose the one before it)."""
        resolved = [self.substitute(str(raw), values) for raw in args]
        dropped = {i for i, (_, empty) in enumerate(resolved) if empty}
        dropped |= {i - 1 for i in list(dropped) if i > 0 and str(args[i - 1]).startswith("-")}
        return [text for i, (text, _) in enumerate(resolved) if i not in dropped]

    def argv(self, command: str, args: list[str]) -> list[str]:
        """4.1 item 3: the command itself, each argument one argv entry (no shell)."""
        return [command, *args]

    def fingerprint(self, execution: dict) -> str:
        """4.1 item 2: SHA-256 of the execution object (canonical JSON)."""
        return hashlib.sha256(json.dumps(execution, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    def consent(self, impl: dict, argv: list[str], found: Found, user: User) -> bool:
        """4.1 item 1: show the resolved command and ask, before the first run and after
        any change of the execution object."""
        name, print_ = str(impl.get("name")), self.fingerprint(impl.get("execution") or {})
        if self._approved.get(name) == print_:
            return True
        found.prompts.append(Prompt("consent", f"Run this command for {name!r}?", command=list(argv)))
        if not user.consent:
            return False
        self._approved[name] = print_
        return True

    # ------------------------------------------------------------------ the operation

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 protocol: str | None = None) -> Found:
        # ``protocol`` (a later revision's step param) is read by no v1 rule: v1 has only _agent.<domain>
        platform = platform or self.platform
        answer = self.lookup(self.query_name(domain))
        if answer.status in ("nxdomain", "nodata"):
            return Found("none", error_kind="no-record", messages=[answer.detail])
        if answer.status != "ok":
            return Found("error", error_kind=f"dns-{answer.status}", messages=[answer.detail])
        if not self.trust(answer):
            return Found("error", error_kind="dnssec-bogus", messages=[answer.detail])
        candidates = [self.parse(self.join(strings)) for strings in answer.records]
        records = [r for r in candidates if self.is_aid1(r) and self.has_mandatory_keys(r)]
        record = self.choose_record(records)
        if record is None:
            return Found("none", error_kind="no-aid-record", messages=["no record with v=aid1 and its mandatory keys"])
        if not self.wants_manifest(record):
            return self.simple(record, "simple profile")
        return self.extended(record, now, user, platform)

    def simple(self, record: dict[str, str], why: str, found: Found | None = None) -> Found:
        """2.3 step 3: connect to the record's uri with its (first usable) protocol."""
        found = found or Found("connect")
        if not (record.get("uri") and record.get("proto")):
            found.outcome, found.error_kind = "error", "no-usable-manifest"
            found.messages.append(f"{why}, and the record holds no uri and proto to fall back on")
            return found
        found.outcome = "connect"
        found.connect = {"uri": record["uri"], "protocol": self.protocol(record["proto"]), "implementation": None,
                         "headers": {}, "query": {}}
        found.messages.append(why)
        return found

    def extended(self, record: dict[str, str], now: datetime, user: User, platform: str) -> Found:
        url = self.manifest_url(record)
        if url is None:
            return self.simple(record, "the config URL is not https: the manifest is not fetched")
        body, error = self.fetch_manifest(url, now)
        if body is None:
            return Found("error", error_kind=f"manifest-{error}", messages=[f"could not fetch {url}: {error} (transient)"])
        try:
            manifest = self.parse_manifest(body)
        except ValueError as exc:
            return self.simple(record, f"the manifest at {url} is unparseable ({exc})",
                               Found("connect", warnings=[f"unparseable manifest at {url}"]))
        found = Found("error")
        version = self.schema_version(manifest)
        if version == "reject":
            found.warnings.append(f"manifest schemaVersion {manifest.get('schemaVersion')!r} does not match v=aid1: rejected")
            return self.simple(record, "the manifest was rejected (version interlock)", found)
        local_allowed = version == "understood"
        if version == "unknown":
            self.unknown_version(manifest, found)
        manifest = self.processed(url, manifest)
        viable = [i for i in manifest["implementations"] if self.viable(i, local_allowed)]
        if not viable:
            found.error_kind = "no-viable-implementation"
            found.messages.append("no implementation this client can use")
            return found
        if len(viable) > 1:
            found.offered = self.offer(viable)
        return self.use(manifest, viable, found, user, platform)

    def use(self, manifest: dict, viable: list[dict], found: Found, user: User, platform: str) -> Found:
        remaining = list(viable)
        while remaining:
            impl = self.choose(remaining, user)
            assert impl is not None
            url = self.revocation_url(impl, manifest)
            state = self.revocation(url) if url else "valid"
            if state == "valid":
                break
            remaining.remove(impl)
            if state == "failed":
                found.error_kind = "revocation-check-failed"
                found.messages.append(f"the revocation check at {url} failed (temporary)")
                return found
            found.warnings.append(f"the implementation {impl.get('name')!r} is revoked")
        else:
            found.error_kind = "revoked"
            return found
        if not self.deprecation(impl, found, user):
            found.outcome = "declined"
            return found
        token, auth_values = self.obtain(impl, found, user)
        auth = impl.get("authentication") if isinstance(impl.get("authentication"), dict) else {}
        if impl.get("type") == "remote":
            headers, query, _ = self.place(auth, token)
            found.outcome = "connect"
            found.connect = {"uri": impl["uri"], "protocol": impl.get("protocol"), "implementation": impl.get("name"),
                             "headers": headers, "query": query}
            return found
        package = impl.get("package") if isinstance(impl.get("package"), dict) else {}
        values = {"package": {"identifier": str(package.get("identifier", ""))}, "auth": auth_values,
                  "config": self.configuration(impl, found, user), "path": self.paths(impl, found, user)}
        command, args = self.execution_for(impl["execution"], platform)
        resolved = self.resolve_args(args, values)
        _, _, cli = self.place(auth, token) if not auth_values else ({}, {}, [])
        argv = self.argv(command, resolved + cli)
        if not self.consent(impl, argv, found, user):
            found.outcome = "declined"
            found.messages.append("the user did not consent to running the command")
            return found
        found.outcome = "execute"
        found.execute = {"argv": argv, "implementation": impl.get("name")}
        return found


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
