"""The reference agent of draft-aiendpoint-ai-discovery-00, usable as a library.

    agent = ReferenceAgent(HttpConfig(ca_bundle=...))
    found = agent.discover("https://api.example.com", now=datetime.now(timezone.utc))
    if found.outcome == "document": ...

Each decision the draft governs is one small method, so that a broken variant (see
``conformance.aiendpoint.variants``) overrides exactly one of them. Time is passed in (``now``)
rather than read from a clock, so caching and backoff can be checked without sleeping.
"""

from __future__ import annotations

import copy
import email.utils
import json
import re
import ssl
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any, Literal
from urllib.parse import urlencode, urlsplit

from conformance.document import loads
from conformance.fetch import REDIRECT_STATUSES, Exchange, Fetch, Fetcher, HttpConfig, Limits

WELL_KNOWN = "/.well-known/ai"
#: 4.5: an agent MAY refuse a document over 256 kilobytes; 6.5: it SHOULD enforce that.
MAX_DOCUMENT_BYTES = 256 * 1024
#: 6.5: RECOMMENDED no more than 100 capabilities per document.
MAX_CAPABILITIES = 100
#: 6.5: a limit on the length of individual string fields.
MAX_STRING = 2048
#: 4.3: after a 404, no retry for the same authority within 24 hours (RECOMMENDED).
NOT_FOUND_QUIET = timedelta(hours=24)
#: 4.3: a 429 without a usable Retry-After: wait this long.
DEFAULT_RETRY_AFTER = timedelta(seconds=60)
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
_ID = re.compile(r"^[a-z][a-z0-9_]*\Z")
_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?", re.IGNORECASE)
_NO_STORE = re.compile(r"(?:^|,)\s*no-store\b", re.IGNORECASE)
_NO_CACHE = re.compile(r"(?:^|,)\s*no-cache\b", re.IGNORECASE)

Outcome = Literal["document", "none", "error", "invoked", "refused"]


@dataclass
class Discovery:
    """What the agent concluded (the harness reply's content)."""

    outcome: Outcome
    document: Any = None
    error_kind: str | None = None
    capabilities: list[dict] = field(default_factory=list)
    cached: Any = None
    auth_required: bool | None = None
    status: int | None = None
    messages: list[str] = field(default_factory=list)


@dataclass
class _Memory:
    """What the agent remembers of one authority."""

    found: Discovery | None = None
    fresh_until: datetime | None = None
    #: The stored response's validators (ETag, Last-Modified), for a conditional request.
    validators: dict[str, str] = field(default_factory=dict)
    #: No request to this authority before this time (after a 404 or a 429), and what to say.
    quiet_until: datetime | None = None
    quiet_answer: Discovery | None = None


class ReferenceAgent:
    """Discovers aiendpoint services the way the draft asks an agent to."""

    def __init__(self, http: HttpConfig, credentials: dict[str, str] | None = None) -> None:
        self.http = replace(http, limits=self.limits(http.limits))
        self.fetcher = Fetcher(self.http, ssl_context=self.ssl_context(self.http))
        #: Credentials the agent holds for the services it uses (header -> value).
        self.credentials = dict(credentials or {})
        self._memory: dict[str, _Memory] = {}

    # ------------------------------------------------------------------ the steps

    def limits(self, base: Limits) -> Limits:
        """2.2: follow at most 5 redirects; 4.5/6.5: refuse documents over 256 KB."""
        return replace(base, max_redirects=5, max_body_bytes=MAX_DOCUMENT_BYTES)

    def ssl_context(self, http: HttpConfig) -> ssl.SSLContext | None:
        """6.4: validate certificates (None: the fetcher's verifying context)."""
        return None

    def origin(self, authority: str) -> str | None:
        """The https origin to discover: 6.4, the document is never fetched over plain HTTP,
        so an http:// authority is upgraded and a bare host gets https://."""
        text = authority.strip()
        if "://" not in text:
            text = "https://" + text
        parts = urlsplit(text)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return None
        netloc = parts.netloc.rpartition("@")[2]
        if parts.scheme == "http" and parts.port in (None, 80):
            netloc = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
        return f"https://{netloc}"

    def fetch_document(self, origin: str) -> Fetch:
        """4.1 steps 1-2: GET the well-known URI (the fetcher follows at most 5 redirects and
        never from https to http)."""
        return self.fetcher.fetch(origin + WELL_KNOWN)

    def not_found(self, origin: str, now: datetime) -> Discovery:
        """2.2: a 404 means the service publishes no document; 4.3: no retry for 24 hours."""
        answer = Discovery("none", error_kind="not-found")
        self._remember(origin).quiet_until, self._remember(origin).quiet_answer = now + NOT_FOUND_QUIET, answer
        return answer

    def rate_limited(self, origin: str, response: Exchange, now: datetime) -> Discovery:
        """4.3: respect Retry-After."""
        answer = Discovery("error", error_kind="rate-limited")
        memory = self._remember(origin)
        memory.quiet_until, memory.quiet_answer = now + retry_after(response, now), answer
        return answer

    def media_type_ok(self, response: Exchange) -> bool:
        """4.1 step 3: parse only when Content-Type indicates application/json."""
        value = response.header("content-type") or ""
        return value.split(";", 1)[0].strip().lower() == "application/json"

    def parse(self, response: Exchange) -> Any:
        """4.3: a body that is not JSON means the service does not implement the draft."""
        return loads(response.body)

    def invalid(self, value: Any) -> str | None:
        """4.1 step 4 and 4.3: the required fields; never the version (4.4) nor unknown fields."""
        if not isinstance(value, dict):
            return "not a JSON object"
        missing = [f for f in ("aiendpoint", "service", "capabilities") if f not in value]
        if missing:
            return f"missing {', '.join(missing)}"
        if not isinstance(value["service"], dict) or not isinstance(value["capabilities"], list):
            return "service or capabilities of the wrong type"
        return None

    def accept_version(self, version: Any) -> bool:
        """4.4: never reject a document for its version; parse it with the 1.0 rules."""
        return True

    def well_formed(self, capability: Any) -> bool:
        """4.1: only capabilities whose method, endpoint and parameters are well-formed are used."""
        if not isinstance(capability, dict):
            return False
        cid, method, endpoint = capability.get("id"), capability.get("method"), capability.get("endpoint")
        params = capability.get("params", {})
        return (isinstance(cid, str) and bool(_ID.match(cid)) and len(cid) <= 64
                and method in METHODS
                and isinstance(endpoint, str) and len(endpoint) <= MAX_STRING
                and (endpoint.startswith("/") or re.match(r"^https?://[^/\s]+", endpoint) is not None)
                and isinstance(params, dict) and all(isinstance(v, str) for v in params.values()))

    def resolve(self, origin: str, endpoint: str) -> str:
        """3.3: a value beginning with "/" is resolved against the document's authority."""
        return origin + endpoint if endpoint.startswith("/") else endpoint

    def capability_limit(self) -> int:
        """6.5: no more than 100 capabilities per document are processed."""
        return MAX_CAPABILITIES

    def accept_category(self, category: Any) -> bool:
        """3.2: an unrecognized category value is ignored without error."""
        return True

    def categories_ok(self, categories: list) -> bool:
        """3.2: a document is never refused for its categories (each one is accepted)."""
        return all(self.accept_category(c) for c in categories)

    def auth_required(self, auth: Any) -> bool | None:
        """3.4: without an auth object, authentication may be required (unknown: None)."""
        if not isinstance(auth, dict):
            return None
        return auth.get("type") != "none"

    def cache_copy(self, document: Any) -> Any:
        """6.2: what is stored holds no credential the agent has."""
        return copy.deepcopy(document)

    def freshness(self, response: Exchange, now: datetime) -> datetime | None:
        """4.2: standard HTTP caching (RFC 9111): until when the stored response may be reused
        without asking the server, or None: not stored at all (no-store, or nothing says how
        long it stays fresh; the agent uses no heuristic freshness). no-cache stores it stale:
        every reuse is revalidated first. max-age wins over Expires; an Expires that is not a
        date means already expired."""
        value = response.header("cache-control") or ""
        if _NO_STORE.search(value):
            return None
        if _NO_CACHE.search(value):
            return now
        if m := _MAX_AGE.search(value):
            return now + timedelta(seconds=int(m.group(1)))
        expires = response.header("expires")
        if expires is None:
            return None
        when, date = http_date(expires), http_date(response.header("date") or "")
        if when is None:
            return now
        return now + max(when - (date or now), timedelta(0))

    def revalidate(self, origin: str, memory: "_Memory", now: datetime) -> Discovery | None:
        """4.2: a stale stored document with a validator is revalidated with a conditional GET;
        a 304 makes it fresh again (None: the server sent something else, which is concluded)."""
        headers = {}
        if etag := memory.validators.get("etag"):
            headers["If-None-Match"] = etag
        if modified := memory.validators.get("last-modified"):
            headers["If-Modified-Since"] = modified
        fetch = self.fetcher.fetch(origin + WELL_KNOWN, headers=headers)
        if fetch.final is not None and fetch.final.status == 304 and memory.found is not None:
            memory.fresh_until = self.freshness(fetch.final, now) or now
            return memory.found
        return self.conclude(origin, fetch, now)

    # ------------------------------------------------------------------ the operations

    def discover(self, authority: str, now: datetime) -> Discovery:
        origin = self.origin(authority)
        if origin is None:
            return Discovery("error", error_kind="bad-authority", messages=[f"cannot discover {authority!r}"])
        memory = self._memory.get(origin)
        if memory and memory.quiet_until and now < memory.quiet_until and memory.quiet_answer:
            return memory.quiet_answer
        if memory and memory.found and memory.fresh_until and now < memory.fresh_until:
            return memory.found
        if memory and memory.found and memory.validators:
            return self.revalidate(origin, memory, now)
        return self.conclude(origin, self.fetch_document(origin), now)

    def conclude(self, origin: str, fetch: Fetch, now: datetime) -> Discovery:
        """From the fetch of the well-known URI to a conclusion."""
        final = fetch.final
        if fetch.error and (final is None or final.status in REDIRECT_STATUSES or fetch.error_kind == "too-large"):
            return Discovery("error", error_kind=fetch.error_kind, messages=[fetch.describe_error()])
        assert final is not None
        if final.status == 404:
            return self.not_found(origin, now)
        if final.status == 429:
            return self.rate_limited(origin, final, now)
        if final.status >= 500:
            return Discovery("error", error_kind="server-error", status=final.status)
        if final.status != 200:
            return Discovery("error", error_kind=f"http-{final.status}", status=final.status)
        if not self.media_type_ok(final):
            return Discovery("none", error_kind="not-json-media-type")
        try:
            value = self.parse(final)
        except ValueError as exc:
            return Discovery("none", error_kind="invalid-json", messages=[str(exc)[:200]])
        if (why := self.invalid(value)) is not None:
            return Discovery("none", error_kind="invalid-document", messages=[why])
        if not self.accept_version(value.get("aiendpoint")):
            return Discovery("none", error_kind="unsupported-version")
        service = value.get("service") if isinstance(value.get("service"), dict) else {}
        categories = service.get("category", [])
        if isinstance(categories, list) and not self.categories_ok(categories):
            return Discovery("none", error_kind="unknown-category")
        listed = value.get("capabilities") if isinstance(value.get("capabilities"), list) else []
        usable = [c for c in listed if self.well_formed(c)][: self.capability_limit()]
        fresh_until = self.freshness(final, now)
        found = Discovery(
            "document",
            document=value,
            capabilities=[{"id": c["id"], "method": c["method"], "url": self.resolve(origin, c["endpoint"])}
                          for c in usable],
            cached=self.cache_copy(value) if fresh_until is not None else None,
            auth_required=self.auth_required(value.get("auth")),
        )
        memory = self._remember(origin)
        memory.found, memory.fresh_until = (found, fresh_until) if fresh_until is not None else (None, None)
        memory.validators = {k: v for k in ("etag", "last-modified") if (v := final.header(k))}
        return found

    def invoke(self, authority: str, capability: str, arguments: dict, now: datetime) -> Discovery:
        """Invoke a capability, only after confirming the document and the capability (4.1)."""
        found = self.discover(authority, now)
        if found.outcome != "document":
            return Discovery("refused", error_kind="no-document", messages=[found.error_kind or ""])
        chosen = self.choose(found, capability)
        if chosen is None:
            return Discovery("refused", error_kind="not-well-formed-or-unknown")
        url, method = chosen["url"], chosen["method"]
        headers = self.credentials if urlsplit(url).netloc == urlsplit(self.origin(authority) or "").netloc else {}
        if method == "GET" and arguments:
            url += ("&" if "?" in url else "?") + urlencode({k: str(v) for k, v in arguments.items()})
            body = None
        else:
            body = json.dumps(arguments).encode() if method != "GET" else None
        fetch = self.fetcher.fetch(url, method=method, headers=dict(headers), content=body)
        final = fetch.final
        return Discovery("invoked", status=final.status if final else None, error_kind=fetch.error_kind)

    def choose(self, found: Discovery, capability: str) -> dict | None:
        """4.1, 6.5: only a capability the agent processed (well-formed, within its limit)."""
        return next((c for c in found.capabilities if c["id"] == capability), None)

    def _remember(self, origin: str) -> _Memory:
        return self._memory.setdefault(origin, _Memory())


def retry_after(response: Exchange, now: datetime) -> timedelta:
    """The wait a Retry-After header asks for: delay-seconds or an HTTP-date (any of the three
    forms of RFC 9110); a date in the past asks for none; a value that is neither, the default."""
    value = (response.header("retry-after") or "").strip()
    if value.isdigit():
        return timedelta(seconds=int(value))
    when = http_date(value)
    if when is None:
        return DEFAULT_RETRY_AFTER
    return max(when - now, timedelta(0))


def http_date(value: str) -> datetime | None:
    """An HTTP-date (IMF-fixdate, RFC 850 or asctime) as an aware UTC datetime, or None."""
    try:
        when = email.utils.parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError):
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)
