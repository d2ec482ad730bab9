"""Broken AID clients: the record (1.2, 2.1), the §2.3 discovery steps, and §4 security."""

from __future__ import annotations

import ssl
from dataclasses import replace
from datetime import datetime
from urllib.parse import urlsplit

import dns.dnssec
import dns.exception
import dns.rdatatype
import dns.rdtypes.svcbbase

from conformance.harness import broken_tls
from conformance.aid.reference_client import Found, ReferenceAidClient, User
from conformance.dns import TxtAnswer
from conformance.fetch import Fetcher, HttpConfig


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


# ---------------------------------------------------------------- second ways (issue #8)

class FollowsSvcbWithoutTxt(ReferenceAidClient):
    """1.2: reads the TXT record first, but where there is none, follows the SVCB record at _agent."""

    def lookup(self, name: str) -> TxtAnswer:
        answer = super().lookup(name)
        if answer.status != "nodata":
            return answer
        try:
            svcb = self.resolver._resolver.resolve(name, "SVCB", raise_on_no_answer=False)
        except dns.exception.DNSException:
            return answer
        services = sorted((r for r in svcb.rrset or () if r.priority > 0), key=lambda r: r.priority)
        if not services:
            return answer
        target = services[0].target.to_text().rstrip(".")
        return replace(answer, status="ok", records=[[f"v=aid1;uri=https://{target}/;proto=mcp".encode()]])


class CapsRecordAt255Bytes(ReferenceAidClient):
    """2.1: concatenates the strings into a 255-byte buffer: a longer record is cut at 255 bytes."""

    def join(self, strings: list[bytes]) -> str:
        return b"".join(strings)[:255].decode("utf-8", errors="replace")


class RejectsRecordsOver255Bytes(ReferenceAidClient):
    """2.1: takes a record longer than 255 bytes (the size 2.1 recommends) for a malformed one."""

    def join(self, strings: list[bytes]) -> str:
        joined = b"".join(strings)
        return "" if len(joined) > 255 else joined.decode("utf-8", errors="replace")


class JoinsOnlyFullStrings(ReferenceAidClient):
    """2.3 step 2: concatenates a 255-byte string with the next one (DNS's split of a long
    record), but takes a shorter string for the end of a record: short strings are records."""

    def lookup(self, name: str) -> TxtAnswer:
        answer = super().lookup(name)
        records = []
        for strings in answer.records:
            current: list[bytes] = []
            for s in strings:
                current.append(s)
                if len(s) < 255:
                    records.append(current)
                    current = []
            if current:
                records.append(current)
        return replace(answer, records=records)


class JoinsShortStringsWithSemicolon(ReferenceAidClient):
    """2.3 step 2: joins a 255-byte string to the next as is, but a shorter one with ";" (it
    takes a short string for whole pairs)."""

    def join(self, strings: list[bytes]) -> str:
        out = b""
        for i, s in enumerate(strings):
            out += s
            if i < len(strings) - 1 and len(s) < 255:
                out += b";"
        return out.decode("utf-8", errors="replace")


class UsesLastListedProtocol(ReferenceAidClient):
    """2.1: of the protocols proto lists, uses the last one it speaks (a list read back to front)."""

    def protocol(self, proto: str) -> str | None:
        listed = [p.strip() for p in proto.split(",") if p.strip()]
        return next((p for p in reversed(listed) if p in self.protocols), listed[-1] if listed else None)


class QueriesApexTxt(ReferenceAidClient):
    """2.3 step 1: looks for the record among the TXT records at <domain> itself (where
    verification records live), not at _agent.<domain>."""

    def query_name(self, domain: str) -> str:
        return super().query_name(domain).removeprefix("_agent.")


class NoRecordIsError(ReferenceAidClient):
    """2.3 step 1: with no TXT record at _agent (NXDOMAIN, NODATA), reports a DNS error
    instead of "no AID record"."""

    def discover(self, domain, now, user=User(), platform=None, protocol=None) -> Found:
        found = super().discover(domain, now, user, platform, protocol)
        if found.outcome == "none" and found.error_kind == "no-record":
            found.outcome, found.error_kind = "error", "dns-failure"
        return found


class RequiresVFirst(ReferenceAidClient):
    """2.3 step 2: reads a record only when it begins with v=aid1 (pairs in a fixed order)."""

    def parse(self, text: str) -> dict[str, str]:
        return super().parse(text) if text.lstrip().lower().startswith("v=") else {}


class AcceptsRecordWithoutV(ReferenceAidClient):
    """2.3 step 2: rejects another version, but takes a record without any v pair for v1."""

    def is_aid1(self, pairs: dict[str, str]) -> bool:
        return pairs.get("v", "aid1") == "aid1"


class ProbesUriOrigin(ReferenceAidClient):
    """2.3 step 3: in the Simple Profile, first GETs the origin of the record's uri (a health
    check), though discovery is complete with the record."""

    def simple(self, record: dict[str, str], why: str, found: Found | None = None) -> Found:
        uri = record.get("uri", "")
        if why == "simple profile" and urlsplit(uri).scheme == "https":
            self.fetcher.fetch(f"https://{urlsplit(uri).netloc}/")
        return super().simple(record, why, found)


class ManifestOnlyWithoutUri(ReferenceAidClient):
    """2.3 step 3: fetches config only when the record has no uri and proto of its own; with
    them, it connects to the record's uri."""

    def wants_manifest(self, record: dict[str, str]) -> bool:
        return bool(record.get("config")) and not (record.get("uri") and record.get("proto"))


class DropsConfigQuery(ReferenceAidClient):
    """2.3 step 4: fetches the config URL without its query string."""

    def manifest_url(self, record: dict[str, str]) -> str | None:
        url = super().manifest_url(record)
        return url.split("?", 1)[0] if url else None


class RetriesUntrustedIssuer(ReferenceAidClient):
    """2.3 step 4: when the manifest's certificate comes from an issuer it does not trust
    (self-signed, private CA), fetches it again without checking the issuer (host name kept)."""

    def fetch_manifest(self, url: str, now: datetime) -> tuple[bytes | None, str | None]:
        body, error = super().fetch_manifest(url, now)
        if error != "tls":
            return body, error
        lax = Fetcher(self.http, ssl_context=broken_tls.any_issuer())
        fetch = lax.fetch(url, headers={"Accept": "application/json"})
        if fetch.final is not None and fetch.final.status == 200 and not fetch.error:
            return fetch.final.body, None
        return body, error


class AcceptsExpiredSignatures(ReferenceAidClient):
    """4: validates the RRSIG, but ignores its validity period: an expired signature passes."""

    def lookup(self, name: str) -> TxtAnswer:
        answer = super().lookup(name)
        if answer.dnssec != "invalid":
            return answer
        try:  # validate again, at the signature's inception: the signature checked, not its period
            got = self.resolver._resolver.resolve(name, "TXT", raise_on_no_answer=False)
            rrset, response = got.rrset, got.response
            sigs = response.find_rrset(response.answer, rrset.name, rrset.rdclass, dns.rdatatype.RRSIG, rrset.rdtype)
            keys = self.resolver._resolver.resolve(sigs[0].signer, "DNSKEY").rrset
            dns.dnssec.validate(rrset, sigs, {sigs[0].signer: keys}, now=sigs[0].inception + 1)
        except Exception:  # noqa: BLE001 - a signature that fails for another reason stays failed
            return answer
        return replace(answer, dnssec="valid", detail="the RRSIG validates (its validity period unchecked)")


class RevocationWithoutHostNameCheck(ReferenceAidClient):
    """4: checks the host name for the manifest, but asks the revocation endpoint through a
    second HTTP client that does not."""

    def revocation(self, url: str):
        saved = self.fetcher
        self.fetcher = Fetcher(self.http, ssl_context=broken_tls.no_host_name_check(self.http))
        try:
            return super().revocation(url)
        finally:
            self.fetcher = saved


class PunycodeWithoutLabels(ReferenceAidClient):
    """4: converts a non-ASCII domain with Python's "punycode" codec, the whole name at once,
    without splitting it into labels or adding "xn--"."""

    def query_name(self, domain: str) -> str:
        domain = domain.strip().rstrip(".")
        if domain.isascii():
            return super().query_name(domain)
        return "_agent." + domain.encode("punycode").decode("ascii")


class TakesFirstListedProtocolBlindly(ReferenceAidClient):
    """2.1: uses the first protocol proto lists, whether it speaks it or not."""

    def protocol(self, proto: str) -> str | None:
        listed = [p.strip() for p in proto.split(",") if p.strip()]
        return listed[0] if listed else None


VARIANTS.update({
    "takes-first-listed-protocol-blindly": TakesFirstListedProtocolBlindly,
    "follows-svcb-without-txt": FollowsSvcbWithoutTxt,
    "caps-record-at-255-bytes": CapsRecordAt255Bytes,
    "rejects-records-over-255-bytes": RejectsRecordsOver255Bytes,
    "joins-only-full-strings": JoinsOnlyFullStrings,
    "joins-short-strings-with-semicolon": JoinsShortStringsWithSemicolon,
    "uses-last-listed-protocol": UsesLastListedProtocol,
    "queries-apex-txt": QueriesApexTxt,
    "no-record-is-error": NoRecordIsError,
    "requires-v-first": RequiresVFirst,
    "accepts-record-without-v": AcceptsRecordWithoutV,
    "probes-uri-origin": ProbesUriOrigin,
    "manifest-only-without-uri": ManifestOnlyWithoutUri,
    "drops-config-query": DropsConfigQuery,
    "retries-untrusted-issuer": RetriesUntrustedIssuer,
    "accepts-expired-signatures": AcceptsExpiredSignatures,
    "revocation-without-host-name-check": RevocationWithoutHostNameCheck,
    "punycode-without-labels": PunycodeWithoutLabels,
})
