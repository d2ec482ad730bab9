"""Broken AID clients: the record (1.2, 2.1), the §2.3 discovery steps, and §4 security."""

from __future__ import annotations

import ssl
from dataclasses import replace
from urllib.parse import urlsplit

import dns.exception
import dns.rdtypes.svcbbase

from conformance.agent import broken_tls
from conformance.agent.aid_client import ReferenceAidClient
from conformance.dns import TxtAnswer
from conformance.fetch import HttpConfig


class QueriesWithoutUnderscore(ReferenceAidClient):
    """2.3 step 1: looks up TXT at agent.<domain> instead of _agent.<domain>."""

    def query_name(self, domain: str) -> str:
        return super().query_name(domain).removeprefix("_")


class IgnoresConfig(ReferenceAidClient):
    """2.3 step 3: claims manifest support, yet connects to the record's uri without fetching config."""

    def wants_manifest(self, record: dict[str, str]) -> bool:
        return False


class PrefersHttpsRecord(ReferenceAidClient):
    """1.2: reads the v2 HTTPS record at _agent already, and prefers its target to the TXT record."""

    def lookup(self, name: str) -> TxtAnswer:
        answer = super().lookup(name)
        try:
            https = self.resolver._resolver.resolve(name, "HTTPS", raise_on_no_answer=False)
        except dns.exception.DNSException:
            return answer
        services = sorted((r for r in https.rrset or () if r.priority > 0), key=lambda r: r.priority)
        if not services:
            return answer
        port = services[0].params.get(dns.rdtypes.svcbbase.ParamKey.PORT)
        netloc = services[0].target.to_text().rstrip(".") + (f":{port.port}" if port and port.port != 443 else "")
        records = [[f"v=aid1;uri=https://{netloc}/;proto=mcp".encode()]]
        return replace(answer, status="ok", records=records + (answer.records if answer.status == "ok" else []))


class JoinsStringsWithSemicolon(ReferenceAidClient):
    """2.1: joins a record's character-strings with ";" (each string read as whole pairs)."""

    def join(self, strings: list[bytes]) -> str:
        return ";".join(s.decode("utf-8", errors="replace") for s in strings)


class StringsAsRecords(ReferenceAidClient):
    """2.3 step 2: takes each character-string of a TXT record for a record of its own."""

    def lookup(self, name: str) -> TxtAnswer:
        answer = super().lookup(name)
        return replace(answer, records=[[s] for strings in answer.records for s in strings])


class UsesOwnProtocolPreference(ReferenceAidClient):
    """2.1: of the protocols proto lists, uses the one it likes best, not the first listed."""

    def protocol(self, proto: str) -> str | None:
        listed = [p.strip() for p in proto.split(",") if p.strip()]
        return next((p for p in self.protocols if p in listed), listed[0] if listed else None)


class FallsBackToWellKnown(ReferenceAidClient):
    """2.3 step 1: with no TXT record at _agent (NXDOMAIN, NODATA), tries the manifest at
    https://<domain>/.well-known/aid.json instead of failing."""

    def lookup(self, name: str) -> TxtAnswer:
        answer = super().lookup(name)
        if answer.status not in ("nxdomain", "nodata"):
            return answer
        domain = name.removeprefix("_agent.")
        return replace(answer, status="ok",
                       records=[[f"v=aid1;config=https://{domain}/.well-known/aid.json".encode()]])


class StopsAtUnknownKey(ReferenceAidClient):
    """2.3 step 2: stops reading the record at the first key it does not know."""

    KNOWN = ("v", "uri", "proto", "auth", "env", "config")

    def parse(self, text: str) -> dict[str, str]:
        kept = []
        for part in text.split(";"):
            if part.partition("=")[0].strip().lower() not in self.KNOWN:
                break
            kept.append(part)
        return super().parse(";".join(kept))


class AcceptsAnyAidVersion(ReferenceAidClient):
    """2.3 step 2: accepts any v=aid<N>, in any case, as v=aid1."""

    def is_aid1(self, pairs: dict[str, str]) -> bool:
        return pairs.get("v", "").lower().startswith("aid")


class ProbesWellKnownInSimpleProfile(ReferenceAidClient):
    """2.3 step 3: without config, still GETs /.well-known/aid.json at the uri's host (to show
    the service's name), though discovery is complete with the record."""

    def wants_manifest(self, record: dict[str, str]) -> bool:
        uri = record.get("uri", "")
        if not record.get("config") and urlsplit(uri).scheme == "https":
            self.fetcher.fetch(f"https://{urlsplit(uri).netloc}/.well-known/aid.json")
        return super().wants_manifest(record)


class FetchesWellKnownPath(ReferenceAidClient):
    """2.3 step 4: fetches /.well-known/aid.json at the config URL's host, whatever path it names."""

    def manifest_url(self, record: dict[str, str]) -> str | None:
        url = super().manifest_url(record)
        return f"https://{urlsplit(url).netloc}/.well-known/aid.json" if url else None


class TrustsAnyIssuer(ReferenceAidClient):
    """2.3 step 4: accepts a certificate from any CA, though it does check the host name itself."""

    def ssl_context(self, http: HttpConfig) -> ssl.SSLContext | None:
        return broken_tls.any_issuer()


class NoHostNameCheck(ReferenceAidClient):
    """4: validates the certificate chain against the trusted CA but not the host name."""

    def ssl_context(self, http: HttpConfig) -> ssl.SSLContext | None:
        return broken_tls.no_host_name_check(http)


class IgnoresDnssec(ReferenceAidClient):
    """4: uses the TXT answer whatever its DNSSEC state, a failed signature included."""

    def trust(self, answer: TxtAnswer) -> bool:
        return True


class Idna2003Labels(ReferenceAidClient):
    """4: converts a non-ASCII domain with Python's "idna" codec (IDNA 2003: ß becomes ss)."""

    def query_name(self, domain: str) -> str:
        return "_agent." + domain.strip().rstrip(".").encode("idna").decode("ascii")


VARIANTS = {
    "queries-agent-without-underscore": QueriesWithoutUnderscore,
    "ignores-config": IgnoresConfig,
    "prefers-https-record": PrefersHttpsRecord,
    "joins-strings-with-semicolon": JoinsStringsWithSemicolon,
    "strings-as-records": StringsAsRecords,
    "uses-own-protocol-preference": UsesOwnProtocolPreference,
    "falls-back-to-well-known": FallsBackToWellKnown,
    "stops-at-unknown-key": StopsAtUnknownKey,
    "accepts-any-aid-version": AcceptsAnyAidVersion,
    "probes-well-known-in-simple-profile": ProbesWellKnownInSimpleProfile,
    "fetches-well-known-path": FetchesWellKnownPath,
    "trusts-any-issuer": TrustsAnyIssuer,
    "no-host-name-check": NoHostNameCheck,
    "ignores-dnssec": IgnoresDnssec,
    "idna-2003-labels": Idna2003Labels,
}
