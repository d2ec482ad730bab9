"""Broken WoA clients: §7 (caching), §8.1 (certificates, plain HTTP), §8.2 (private addresses,
redirects) and §8.4 (responses are data)."""

from __future__ import annotations

import ipaddress
import ssl
from datetime import datetime
from typing import Any, Literal
from urllib.parse import urlsplit

from conformance.harness import broken_tls
from conformance.woa.reference_client import ReferenceWoaClient, Refused, _Cached
from conformance.woa.variants.schema import mapped


# ---------------------------------------------------------------- §7

class RefetchesWhileFresh(ReferenceWoaClient):
    """7: treats every stored document as stale (asks again, conditionally, within max-age)."""

    def fresh(self, cached: _Cached, now: datetime) -> bool:
        return False


class RevalidatesUnconditionally(ReferenceWoaClient):
    """7: keeps no validators: a stale document is fetched again without If-None-Match or
    If-Modified-Since."""

    def conditional_headers(self, cached: _Cached) -> dict[str, str]:
        return {}


class StoresNoStore(ReferenceWoaClient):
    """7: stores a response marked no-store."""

    def storable(self, cache_control: str) -> bool:
        return True


class IgnoresLastModified(ReferenceWoaClient):
    """7: revalidates with the ETag only; Last-Modified is not used."""

    def conditional_headers(self, cached: _Cached) -> dict[str, str]:
        return {k: v for k, v in super().conditional_headers(cached).items() if k != "If-Modified-Since"}


class StripsWeakEtag(ReferenceWoaClient):
    """7: revalidates with the opaque tag of an ETag only: W/"v" is sent back as "v"."""

    def conditional_headers(self, cached: _Cached) -> dict[str, str]:
        out = super().conditional_headers(cached)
        if out.get("If-None-Match", "").startswith("W/"):
            out["If-None-Match"] = out["If-None-Match"][2:]
        return out


# ---------------------------------------------------------------- §8.1

class NoHostNameCheck(ReferenceWoaClient):
    """8.1: validates the chain, not that the certificate names the host."""

    def ssl_context(self, purpose: Literal["document", "invoke"]) -> ssl.SSLContext | None:
        return broken_tls.no_host_name_check(self.http)


class TrustsAnyIssuer(ReferenceWoaClient):
    """8.1: trusts a certificate from any CA (expired too), though it checks the name."""

    def ssl_context(self, purpose: Literal["document", "invoke"]) -> ssl.SSLContext | None:
        return broken_tls.any_issuer()


class UnverifiedInvocations(ReferenceWoaClient):
    """8.1: validates the document's certificate, but not the REST base's."""

    def ssl_context(self, purpose: Literal["document", "invoke"]) -> ssl.SSLContext | None:
        if purpose == "document":
            return None
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        return ctx


class KeepsHttpOrigin(ReferenceWoaClient):
    """8.1: fetches the document over the scheme the user typed, http:// included."""

    def document_url(self, origin: str) -> str:
        if origin.strip().lower().startswith("http://"):
            return f"http://{urlsplit(origin.strip()).netloc}/.well-known/woa.json"
        return super().document_url(origin)


class InvokesHttpBase(ReferenceWoaClient):
    """8.1: invokes an http:// REST base over plain HTTP."""

    def secure(self, url: str) -> None:
        return None


# ---------------------------------------------------------------- §8.2

class NoAddressCheck(ReferenceWoaClient):
    """8.2: invokes a REST base whatever it resolves to."""

    def invocation_allowed(self, url: str) -> None:
        return None


class Rfc1918Only(ReferenceWoaClient):
    """8.2: refuses RFC 1918 IPv4 addresses only (link-local and IPv6 ranges go through)."""

    def invocation_allowed(self, url: str) -> None:
        host = urlsplit(url).hostname or ""
        for address in self.addresses(host):
            ip = ipaddress.ip_address(address)
            if ip.version == 4 and any(ip in ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12",
                                                                                 "192.168.0.0/16")):
                raise Refused("private-address", f"{url} resolves to {address}")


class FollowsRedirectsUnchecked(ReferenceWoaClient):
    """8.2: follows an invocation's redirects wherever they lead (HTTPS only)."""

    def redirect_allowed(self, url: str) -> None:
        self.secure(url)


class ChecksFirstRedirectOnly(ReferenceWoaClient):
    """8.2: validates the first redirect target of an invocation, not the later ones."""

    def send(self, url: str, data: bytes):
        self.__dict__["_hops"] = 0
        return super().send(url, data)

    def redirect_allowed(self, url: str) -> None:
        self.__dict__["_hops"] = self.__dict__.get("_hops", 0) + 1
        if self.__dict__["_hops"] == 1:
            super().redirect_allowed(url)
        else:
            self.secure(url)


# ---------------------------------------------------------------- §8.4

def _urls(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.startswith("https://") and " " not in value else []
    if isinstance(value, dict):
        return [u for v in value.values() for u in _urls(v)]
    if isinstance(value, list):
        return [u for v in value for u in _urls(v)]
    return []


class FetchesUrlsInOutput(ReferenceWoaClient):
    """8.4: fetches the URLs an agent's output names."""

    def after_response(self, origin: str, document: dict, output: Any) -> None:
        for url in _urls(output):
            if mapped(self, url):
                self.fetcher("invoke").fetch(url)


class InvokesAgentNamedInOutput(ReferenceWoaClient):
    """8.4: invokes the agent an output asks it to invoke."""

    def after_response(self, origin: str, document: dict, output: Any) -> None:
        ask = output.get("invoke") if isinstance(output, dict) else None
        if isinstance(ask, dict) and isinstance(ask.get("agent"), str):
            agent = self.find_agent(document, ask["agent"])
            url = self.invocation_url(document, agent, self.choose_transport(document, agent))
            envelope = self.envelope(agent, None, ask.get("input") or {}, url)
            self.send(url, self.encode(self.body(envelope)))


class CaseSensitiveSchemeCheck(ReferenceWoaClient):
    """8.1: refuses a REST base that starts with "http://", in lower case only: HTTP:// goes
    through over plain HTTP."""

    def secure(self, url: str) -> None:
        if url.startswith("http://"):
            raise Refused("insecure", f"{url} is not an https URL")


VARIANTS = {
    "strips-weak-etag": StripsWeakEtag,
    "case-sensitive-scheme-check": CaseSensitiveSchemeCheck,
    "refetches-while-fresh": RefetchesWhileFresh,
    "revalidates-unconditionally": RevalidatesUnconditionally,
    "stores-no-store": StoresNoStore,
    "ignores-last-modified": IgnoresLastModified,
    "no-host-name-check": NoHostNameCheck,
    "trusts-any-issuer": TrustsAnyIssuer,
    "unverified-invocations": UnverifiedInvocations,
    "keeps-http-origin": KeepsHttpOrigin,
    "invokes-http-base": InvokesHttpBase,
    "no-address-check": NoAddressCheck,
    "rfc1918-only": Rfc1918Only,
    "follows-redirects-unchecked": FollowsRedirectsUnchecked,
    "checks-first-redirect-only": ChecksFirstRedirectOnly,
    "fetches-urls-in-output": FetchesUrlsInOutput,
    "invokes-agent-named-in-output": InvokesAgentNamedInOutput,
}
