"""Broken v1.2/v2.1 clients: discovery (v1.2 2.1's reading of the record, 2.3's steps and
Table 1, 2.4's exact host, Appendix E's fallback; dep and Table 1's lead-in and 1005 row, which
v2.1 shares). Each overrides one method of the reference client."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

import dns.rdatatype
import dns.resolver

from conformance.aid import versioned
from conformance.aid.reference_client import Found, User
from conformance.aid.versioned_client import VersionedAidClient
from conformance.dns import TxtAnswer

# ---------------------------------------------------------------- helpers (not variants)


def _pairs(text: str) -> list[tuple[str, str]]:
    return [tuple(p.split("=", 1)) if "=" in p else (p, None) for p in text.split(";")]  # type: ignore[misc]


def _join(pairs: list[tuple[str, str | None]]) -> str:
    return ";".join(k if v is None else f"{k}={v}" for k, v in pairs)


def _rekey(texts: list[str], rename) -> list[str]:
    """Each text with its keys renamed by ``rename(key) -> key`` (values kept)."""
    return [_join([(rename(k) if v is not None else k, v) for k, v in _pairs(t)]) for t in texts]


def _known(key: str) -> bool:
    key = key.strip().lower()
    return key in versioned.ALIASES or key in versioned.ALIASES.values()


def _ok(answer: TxtAnswer) -> bool:
    return answer.status == "ok" and bool(answer.records)


def _parent(name: str, levels: int = 1) -> str | None:
    """_agent.<host> -> _agent.<host minus ``levels`` labels>, or None above the root."""
    labels = name.split(".")[1:]
    return "_agent." + ".".join(labels[levels:]) if len(labels) - levels >= 2 else None


# ---------------------------------------------------------------- 2.1: the TXT record, read


class SpfOverTxt(VersionedAidClient):
    """Reads an SPF record at _agent.<host> before the TXT one (AID-2.1-24)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        try:
            spf = self.resolver._resolver.resolve(name, "SPF", raise_on_no_answer=False)
            if spf.rrset is not None:
                return TxtAnswer(name=name, status="ok", records=[list(r.strings) for r in spf.rrset], ttl=spf.rrset.ttl)
        except dns.exception.DNSException:
            pass
        return super().lookup(domain, name, now)


class UriRecordOverTxt(VersionedAidClient):
    """Takes the endpoint of a URI record (RFC 7553) at _agent.<host> over the TXT record (AID-2.1-24)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        try:
            uri = self.resolver._resolver.resolve(name, dns.rdatatype.URI, raise_on_no_answer=False)
            if uri.rrset is not None:
                target = next(iter(uri.rrset)).target.decode()
                return TxtAnswer(name=name, status="ok", records=[[f"v=aid1;u={target};p=mcp".encode()]], ttl=300)
        except dns.exception.DNSException:
            pass
        return super().lookup(domain, name, now)


class JoinsStringsWithSpace(VersionedAidClient):
    """Joins a record's character-strings with a space between them (AID-2.1-28)."""

    def texts(self, answer: TxtAnswer) -> list[str]:
        return [b" ".join(strings).decode("utf-8", errors="replace") for strings in answer.records]


class JoinsStringsReversed(VersionedAidClient):
    """Joins a record's character-strings in reverse order (AID-2.1-28)."""

    def texts(self, answer: TxtAnswer) -> list[str]:
        return [b"".join(reversed(strings)).decode("utf-8", errors="replace") for strings in answer.records]


_SPACED = re.compile(r"\s(=|;)|(=|;)\s|^\s|\s$")


class NoTrim(VersionedAidClient):
    """Does not trim keys and values: ' u' is not u, so a spaced record misses its keys (AID-2.1-26)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select([t if not _SPACED.search(t) else _rekey([t], lambda k: "x-" + k)[0] for t in texts])


class TrimsKeysNotValues(VersionedAidClient):
    """Trims keys but returns values with their white space (AID-2.1-26)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        selection = super().select(texts)
        if selection.record is None:
            return selection
        raw = {versioned._LONG.get(k.strip().lower(), k.strip().lower()): v
               for k, v in _pairs(selection.record.text) if v is not None}
        fields = {k: raw.get(k, v) for k, v in selection.record.fields.items()}
        return replace(selection, record=replace(selection.record, fields=fields))


class RejectsUnknownKeys(VersionedAidClient):
    """Rejects an AID record holding a key 2.1 does not define (AID-2.1-27)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        for text in texts:
            if versioned.read(text).is_aid and any(v is not None and not _known(k) for k, v in _pairs(text)):
                return versioned.Selection(None, frozenset({"ERR_INVALID_TXT"}), f"unknown key in {text!r}")
        return super().select(texts)


class StopsAtUnknownKey(VersionedAidClient):
    """Stops reading a record at its first unknown key: the pairs after it are lost (AID-2.1-27)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        cut = []
        for text in texts:
            pairs = _pairs(text)
            first = next((i for i, (k, v) in enumerate(pairs) if v is not None and not _known(k)), len(pairs))
            cut.append(_join(pairs[:first]) if versioned.read(text).is_aid else text)
        return super().select(cut)


class AliasSUnknown(VersionedAidClient):
    """Does not know the lowercase alias s (desc) (AID-2.1-30)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select(_rekey(texts, lambda k: "x-s" if k.strip() == "s" else k))


class AliasDUnknown(VersionedAidClient):
    """Does not know the lowercase alias d (docs) (AID-2.1-30)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select(_rekey(texts, lambda k: "x-d" if k.strip() == "d" else k))


# ---------------------------------------------------------------- 2.3 steps 1-2, 2.4


class Idna2003(VersionedAidClient):
    """Converts a Unicode domain with IDNA 2003 (ß becomes ss, ς becomes σ) (AID-2.3-21)."""

    def query_name(self, domain: str) -> str:
        host = domain.strip().rstrip(".")
        return "_agent." + (host if host.isascii() else host.encode("idna").decode("ascii"))


class DropsNonAscii(VersionedAidClient):
    """Drops the non-ASCII characters of a domain instead of converting it (AID-2.3-21)."""

    def query_name(self, domain: str) -> str:
        return super().query_name("".join(c for c in domain if c.isascii()))


class StripsWww(VersionedAidClient):
    """Queries _agent.<host> for www.<host> (AID-2.3-22)."""

    def query_name(self, domain: str) -> str:
        host = domain.strip()
        return super().query_name(host[4:] if host.lower().startswith("www.") else host)


class AtMostFiveLabels(VersionedAidClient):
    """Queries the last five labels of a longer host (AID-2.3-22)."""

    def query_name(self, domain: str) -> str:
        return super().query_name(".".join(domain.strip().rstrip(".").split(".")[-5:]))


class _RequestsProtocol(VersionedAidClient):
    """Keeps the protocol the application requested for ``lookup``: the walks of 2.3 step 2 and
    2.4 take one path (no protocol requested) or the other (a protocol requested, 2.4's last
    rule), so that each broken client breaks one of the three sentences."""

    requested: str | None = None

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        self.requested = protocol
        return super().discover(domain, now, user, platform, policy, protocol)


class RetriesParent(_RequestsProtocol):
    """Retries _agent.<parent> once when the exact host has no record, no protocol requested (AID-2.3-23)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        parent = _parent(name)
        if not self.requested and answer.status in ("nxdomain", "nodata") and parent:
            again = self.resolver.txt(parent)
            return again if _ok(again) else answer
        return answer


class RetriesParentOnFailure(VersionedAidClient):
    """Retries _agent.<parent> when the exact host's lookup fails or its record is malformed (AID-2.3-23)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        usable = _ok(answer) and versioned.select(answer.texts(), "v2.1").record is not None
        parent = _parent(name)
        if answer.status not in ("nxdomain", "nodata") and not usable and parent:
            again = self.resolver.txt(parent)
            return again if _ok(again) else answer
        return answer


class WalksFromGrandparent(_RequestsProtocol):
    """With no record and no protocol requested, walks up from the grandparent to the top (AID-2.4-03)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        levels = 2
        while not self.requested and answer.status in ("nxdomain", "nodata") and (above := _parent(name, levels)):
            again = self.resolver.txt(above)
            if _ok(again):
                return again
            levels += 1
        return answer


class WalksUpDeepNames(_RequestsProtocol):
    """With no record at a host of five labels or more, no protocol requested, tries every ancestor (AID-2.4-03)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        levels = 1
        while not self.requested and len(name.split(".")) > 5 and answer.status in ("nxdomain", "nodata") \
                and (above := _parent(name, levels)):
            again = self.resolver.txt(above)
            if _ok(again):
                return again
            levels += 1
        return answer


class ProtocolWalksUp(_RequestsProtocol):
    """With a protocol requested and no record at the exact host, asks _agent._<proto>.<parent>
    of every parent up to the top and uses the first record found (AID-2.4-05)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        levels = 1
        while self.requested and answer.status in ("nxdomain", "nodata") and (above := _parent(name, levels)):
            again = self.resolver.txt(above.replace("_agent.", f"_agent._{self.requested}.", 1))
            if _ok(again):
                return again
            levels += 1
        return answer


class ProtocolRetriesParent(_RequestsProtocol):
    """With a protocol requested and no record at the exact host, retries the base name of the
    parent host once, _agent.<parent> (AID-2.4-05; without a protocol it never does)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        if self.requested and answer.status in ("nxdomain", "nodata") and (parent := _parent(name)):
            again = self.resolver.txt(parent)
            return again if _ok(again) else answer
        return answer


class GuessesEndpoint(VersionedAidClient):
    """When the fallback answers an HTTP error too, guesses https://<host>/mcp (AID-2.3-25)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        text, why = super().fallback(domain)
        if text is None and ": HTTP " in why:
            return f"v=aid1;u=https://{domain.strip().rstrip('.')}/mcp;p=mcp", ""
        return text, why


class UsesErrorStatusFallback(VersionedAidClient):
    """Uses a fallback's JSON whatever its HTTP status (404, 503) (AID-2.3-25)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        text, why = super().fallback(domain)
        if text is not None:
            return text, why
        fetched = self.fetcher.fetch(self.fallback_url(domain))
        found = self.record_text(fetched.final.body)[0] if fetched.final is not None else None
        return (found, "") if found is not None else (text, why)


# ---------------------------------------------------------------- 2.3 step 3: parse and validate


class SplitsAtLastEquals(VersionedAidClient):
    """Splits a pair at its last '=' (u=https://x/?a=b reads as u=b) (AID-2.3-26)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select([";".join(f"{p.split('=', 1)[0]}={p.rsplit('=', 1)[1]}" if p.count("=") > 1 else p
                                        for p in t.split(";")) for t in texts])


class RejectsTrailingSemicolon(VersionedAidClient):
    """Rejects a record ending with ';' (AID-2.3-26)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        if any(t.rstrip().endswith(";") and versioned.read(t).is_aid for t in texts):
            return versioned.Selection(None, frozenset({"ERR_INVALID_TXT"}), "a record ends with ';'")
        return super().select(texts)


class FoldsShortKeysOnly(VersionedAidClient):
    """Compares single-letter keys case-insensitively, long keys other than pka and kid only in
    lower case (AID-2.3-27)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select(_rekey(texts, lambda k: "x-" + k if len(k.strip()) > 1 and k != k.lower()
                                     and k.strip().lower() not in ("pka", "kid") else k))


class FoldsUpperNotMixed(VersionedAidClient):
    """Reads keys in lower or upper case, not in title or mixed case (AID-2.3-27)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select(_rekey(texts, lambda k: k if k in (k.lower(), k.upper()) else "x-" + k))


class LowercaseAliasesOnly(VersionedAidClient):
    """Recognises aliases in lower case only (V, U, P are unknown keys) (AID-2.3-28)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select(_rekey(texts, lambda k: "x-" + k if len(k.strip()) == 1 and k.isupper() else k))


class UpperRequiredAliasesOnly(VersionedAidClient):
    """Recognises V, U, P, K, I in upper case, not the descriptive aliases A, S, D, E (AID-2.3-28)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select(_rekey(texts, lambda k: "x-" + k if len(k.strip()) == 1 and k.isupper()
                                     and k.strip() not in "VUPKI" else k))


class AnyMalformedFails(VersionedAidClient):
    """Fails when any AID answer at the name is malformed, even beside a valid one (AID-2.3-29)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        if any((r := versioned.read(t)).is_aid and not r.valid for t in texts):
            return versioned.Selection(None, frozenset({"ERR_INVALID_TXT"}), "a malformed answer")
        return super().select(texts)


class MalformedFirstFails(VersionedAidClient):
    """Fails when the first AID answer is malformed, whatever follows (AID-2.3-29)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        first = next((r for r in map(versioned.read, texts) if r.is_aid), None)
        if first is not None and not first.valid:
            return versioned.Selection(None, frozenset({"ERR_INVALID_TXT"}), "the first answer is malformed")
        return super().select(texts)


def _valid_aid1(texts: list[str]) -> list[versioned.Reading]:
    return [r for r in map(versioned.read, texts) if r.valid and r.version == "aid1"]


class FirstOfSeveralAid1(VersionedAidClient):
    """Uses the first of several valid aid1 records, in answer order (AID-2.3-30)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        valid = _valid_aid1(texts)
        if len(valid) > 1:
            return versioned.Selection(valid[0], frozenset(), "the first valid aid1 record")
        return super().select(texts)


class LastOfSeveralAid1(VersionedAidClient):
    """Uses the last of several valid aid1 records, in answer order (AID-2.3-30)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        valid = _valid_aid1(texts)
        if len(valid) > 1:
            return versioned.Selection(valid[-1], frozenset(), "the last valid aid1 record")
        return super().select(texts)


# ---------------------------------------------------------------- 2.3 step 6: return


def _with_uri(selection: versioned.Selection, change) -> versioned.Selection:
    if selection.record is None or "uri" not in selection.record.fields:
        return selection
    fields = dict(selection.record.fields, uri=change(selection.record.fields["uri"]))
    return replace(selection, record=replace(selection.record, fields=fields))


class DropsUriPort(VersionedAidClient):
    """Returns the uri without its port (AID-2.3-36)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return _with_uri(super().select(texts), lambda u: re.sub(r"^(\w+://[^/:?#]+):\d+", r"\1", u))


class LowercasesUri(VersionedAidClient):
    """Returns the uri in lower case (AID-2.3-36)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return _with_uri(super().select(texts), str.lower)


class SpeaksEveryRegisteredToken(VersionedAidClient):
    """Returns a record of any protocol of Appendix B, spoken or not (zeroconf) (AID-2.3-37)."""

    def supports(self, proto: str) -> bool:
        return proto in versioned.PROTOCOLS


class UnknownTokenAsMcp(VersionedAidClient):
    """Reads a protocol token outside Appendix B as mcp (AID-2.3-37)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select(_rekey_values(texts))


def _rekey_values(texts: list[str]) -> list[str]:
    out = []
    for text in texts:
        pairs = [(k, "mcp" if v is not None and k.strip().lower() in ("p", "proto") and v.strip()
                  and v.strip() not in versioned.PROTOCOLS
                  else v) for k, v in _pairs(text)]
        out.append(_join(pairs))
    return out


# ---------------------------------------------------------------- Table 1


class NxdomainAsLookupFailure(VersionedAidClient):
    """Reports NXDOMAIN as a failed lookup (1004 instead of 1000) (AID-2.3-39)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        return replace(answer, status="servfail") if answer.status == "nxdomain" else answer


class NodataAsInvalid(VersionedAidClient):
    """Reports NODATA as a malformed record (1001 instead of 1000) (AID-2.3-39)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        return replace(answer, status="ok", records=[[b"v=aid1"]]) if answer.status == "nodata" else answer


class MalformedAsNoRecord(VersionedAidClient):
    """Reports a malformed record as no record (1000 instead of 1001) (AID-2.3-40)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        selection = super().select(texts)
        if selection.record is None and selection.codes == frozenset({"ERR_INVALID_TXT"}):
            return replace(selection, codes=frozenset({"ERR_NO_RECORD"}))
        return selection


class MissingProtoAsUnsupported(VersionedAidClient):
    """Reports a record without p as an unsupported protocol (1002 instead of 1001) (AID-2.3-40)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        readings = [versioned.read(t) for t in texts]
        if readings and all(r.is_aid and not r.fields.get("proto") for r in readings if r.is_aid) \
                and any(r.is_aid for r in readings):
            return versioned.Selection(None, frozenset({"ERR_UNSUPPORTED_PROTO"}), "no protocol")
        return super().select(texts)


def _unspoken(client: VersionedAidClient, selection: versioned.Selection, code: str) -> versioned.Selection:
    if selection.record is not None and selection.record.fields.get("proto") not in client.protocols:
        return versioned.Selection(None, frozenset({code}), "a protocol not spoken")
    return selection


class UnspokenAsInvalid(VersionedAidClient):
    """Reports a registered protocol it does not speak as a malformed record (1001) (AID-2.3-41)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return _unspoken(self, super().select(texts), "ERR_INVALID_TXT")


class UnspokenAsSecurity(VersionedAidClient):
    """Reports a registered protocol it does not speak as a security failure (1003) (AID-2.3-41)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return _unspoken(self, super().select(texts), "ERR_SECURITY")


class ServfailAsNoRecord(VersionedAidClient):
    """Reports SERVFAIL as no record (1000 instead of 1004) (AID-2.3-43)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        return replace(answer, status="nxdomain") if answer.status == "servfail" else answer


class TimeoutAsInvalid(VersionedAidClient):
    """Reports a lookup that got no answer as a malformed record (1001 instead of 1004) (AID-2.3-43)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        return replace(answer, status="ok", records=[[b"v=aid1"]]) if answer.status in ("timeout", "error") else answer


# ---------------------------------------------------------------- dep (shared with v2.1)


class WarnsOnlyDaysAhead(VersionedAidClient):
    """Warns of a future dep only when it is more than a day ahead (AID-2.3-32)."""

    def deprecation(self, fields: dict[str, str], now: datetime, found: Found) -> bool:
        stop = super().deprecation(fields, now, found)
        if not stop and found.warnings:
            when = _when(fields.get("dep", ""))
            if when is not None and when - now < timedelta(days=1):
                found.warnings[:] = [w for w in found.warnings if "deprecated" not in w]
        return stop


class NeverWarnsOfDep(VersionedAidClient):
    """Uses a record with a future dep without a warning (AID-2.3-32)."""

    def deprecation(self, fields: dict[str, str], now: datetime, found: Found) -> bool:
        when = _when(fields.get("dep", ""))
        return super().deprecation(fields, now, found) if when is not None and when <= now else False


def _when(dep: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(dep.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


class PastDepWarns(VersionedAidClient):
    """Uses a record whose dep is past, with a warning (AID-2.3-33)."""

    def deprecation(self, fields: dict[str, str], now: datetime, found: Found) -> bool:
        if fields.get("dep"):
            found.warnings.append(f"the record is deprecated since {fields['dep']}")
        return False


class PastDepByDate(VersionedAidClient):
    """Fails on a past dep only from the day after it (a dep earlier today is used) (AID-2.3-33)."""

    def deprecation(self, fields: dict[str, str], now: datetime, found: Found) -> bool:
        when = _when(fields.get("dep", ""))
        if when is not None and when <= now and when.date() == now.date():
            found.warnings.append(f"the record is deprecated from {fields['dep']}")
            return False
        return super().deprecation(fields, now, found)


# ---------------------------------------------------------------- Table 1's lead-in


class OwnErrorNames(VersionedAidClient):
    """Reports failures other than security ones with names of its own (no_record, ...) instead
    of Table 1's (AID-2.3-38)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        found = super().discover(domain, now, user, platform, policy, protocol)
        if found.error_kind and found.error_kind != "ERR_SECURITY":
            found.error_kind = found.error_kind.removeprefix("ERR_").lower()
        return found


class NoErrorCodes(VersionedAidClient):
    """Reports failures other than security ones without any code (AID-2.3-38)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        found = super().discover(domain, now, user, platform, policy, protocol)
        if found.error_kind != "ERR_SECURITY":
            found.error_kind = None
        return found


# ---------------------------------------------------------------- the fallback (E, 1005)


class FallbackDropsPka(VersionedAidClient):
    """Drops pka/k and kid/i from a .well-known fallback: no handshake (AID-E-03)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        text, why = super().fallback(domain)
        if text is None:
            return text, why
        return _join([(k, v) for k, v in _pairs(text) if k.strip().lower() not in ("k", "pka", "i", "kid")]), why


class FallbackIgnoresShortK(VersionedAidClient):
    """Reads pka in a .well-known fallback only under its long key (k and i ignored) (AID-E-03)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        text, why = super().fallback(domain)
        if text is None:
            return text, why
        return _join([(k, v) for k, v in _pairs(text) if k.strip() not in ("k", "i")]), why


def _fallback_after(client: VersionedAidClient, found: Found, domain: str, codes: set[str]) -> Found:
    if found.error_kind not in codes:
        return found
    text, _ = client.fallback(domain)
    reading = versioned.read(text) if text else None
    if reading is None or not reading.valid:
        return found
    return Found("connect", connect={"uri": reading.fields["uri"], "protocol": reading.fields["proto"],
                                     "implementation": None, "headers": {}, "query": {},
                                     "record": {"version": reading.version, "trust_source": "well-known-tls",
                                                "pka": {"performed": False}}})


class FallsBackAfterInvalid(VersionedAidClient):
    """Tries the fallback after a malformed record (1001) (AID-E-04)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        return _fallback_after(self, super().discover(domain, now, user, platform, policy, protocol), domain, {"ERR_INVALID_TXT"})


class FallsBackAfterUnsupported(VersionedAidClient):
    """Tries the fallback after a protocol it does not speak (1002) (AID-E-04)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        return _fallback_after(self, super().discover(domain, now, user, platform, policy, protocol), domain,
                               {"ERR_UNSUPPORTED_PROTO"})


class FallbackFailureAsNotFound(VersionedAidClient):
    """Reports every failed fallback as if it were absent (1000 or 1004, never 1005) (AID-E-05)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        text, why = super().fallback(domain)
        return (text, why) if text is not None else (None, "HTTP 404 (taken as absent): " + why)


class FallbackFailureAsInvalidTxt(VersionedAidClient):
    """Reports a failed fallback as a malformed record (1001) (AID-E-05)."""

    def discover(self, domain: str, now: datetime, user: User = User(), platform: str | None = None,
                 policy: dict[str, Any] | None = None, protocol: str | None = None) -> Found:
        found = super().discover(domain, now, user, platform, policy, protocol)
        if found.error_kind == "ERR_FALLBACK_FAILED":
            found.error_kind = "ERR_INVALID_TXT"
        return found


def _aid2_body(body: Any) -> bool:
    return isinstance(body, dict) and body.get("v") == "aid2" or \
        isinstance(body, list) and any(isinstance(b, dict) and b.get("v") == "aid2" for b in body)


class Aid2InvalidFallbackAsNotFound(VersionedAidClient):
    """Reports an aid2 fallback holding an invalid record as absent (not 1005) (AID-2.3-44)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        text, why = super().fallback(domain)
        if text is not None and versioned.read(text).version == "aid2" and not versioned.read(text).valid:
            return None, "HTTP 404 (an invalid aid2 fallback, taken as absent)"
        return text, why


class Aid2ErrorStatusAsNotFound(VersionedAidClient):
    """Reports an HTTP error whose body is an aid2 fallback, or an aid2 array, as absent (not 1005) (AID-2.3-44)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        text, why = super().fallback(domain)
        if text is not None:
            return text, why
        fetched = self.fetcher.fetch(self.fallback_url(domain))
        try:
            body = json.loads(fetched.final.body) if fetched.final is not None else None
        except ValueError:
            body = None
        return (None, "HTTP 404 (an aid2 body, taken as absent)") if _aid2_body(body) else (text, why)


VARIANTS = {
    "v12-spf-over-txt": SpfOverTxt,
    "v12-uri-record-over-txt": UriRecordOverTxt,
    "v12-joins-strings-with-space": JoinsStringsWithSpace,
    "v12-joins-strings-reversed": JoinsStringsReversed,
    "v12-no-trim": NoTrim,
    "v12-trims-keys-not-values": TrimsKeysNotValues,
    "v12-rejects-unknown-keys": RejectsUnknownKeys,
    "v12-stops-at-unknown-key": StopsAtUnknownKey,
    "v12-alias-s-unknown": AliasSUnknown,
    "v12-alias-d-unknown": AliasDUnknown,
    "v12-idna-2003": Idna2003,
    "v12-drops-non-ascii": DropsNonAscii,
    "v12-strips-www": StripsWww,
    "v12-at-most-five-labels": AtMostFiveLabels,
    "v12-retries-parent": RetriesParent,
    "v12-retries-parent-on-failure": RetriesParentOnFailure,
    "v12-walks-from-grandparent": WalksFromGrandparent,
    "v12-walks-up-deep-names": WalksUpDeepNames,
    "v12-protocol-walks-up": ProtocolWalksUp,
    "v12-protocol-retries-parent": ProtocolRetriesParent,
    "v12-guesses-endpoint": GuessesEndpoint,
    "v12-uses-error-status-fallback": UsesErrorStatusFallback,
    "v12-splits-at-last-equals": SplitsAtLastEquals,
    "v12-rejects-trailing-semicolon": RejectsTrailingSemicolon,
    "v12-folds-short-keys-only": FoldsShortKeysOnly,
    "v12-folds-upper-not-mixed": FoldsUpperNotMixed,
    "v12-lowercase-aliases-only": LowercaseAliasesOnly,
    "v12-upper-required-aliases-only": UpperRequiredAliasesOnly,
    "v12-any-malformed-fails": AnyMalformedFails,
    "v12-malformed-first-fails": MalformedFirstFails,
    "v12-first-of-several-aid1": FirstOfSeveralAid1,
    "v12-last-of-several-aid1": LastOfSeveralAid1,
    "v12-drops-uri-port": DropsUriPort,
    "v12-lowercases-uri": LowercasesUri,
    "v12-speaks-every-registered-token": SpeaksEveryRegisteredToken,
    "v12-unknown-token-as-mcp": UnknownTokenAsMcp,
    "v12-nxdomain-as-lookup-failure": NxdomainAsLookupFailure,
    "v12-nodata-as-invalid": NodataAsInvalid,
    "v12-malformed-as-no-record": MalformedAsNoRecord,
    "v12-missing-proto-as-unsupported": MissingProtoAsUnsupported,
    "v12-unspoken-as-invalid": UnspokenAsInvalid,
    "v12-unspoken-as-security": UnspokenAsSecurity,
    "v12-servfail-as-no-record": ServfailAsNoRecord,
    "v12-timeout-as-invalid": TimeoutAsInvalid,
    "v12-warns-only-days-ahead": WarnsOnlyDaysAhead,
    "v21-never-warns-of-dep": NeverWarnsOfDep,
    "v12-past-dep-warns": PastDepWarns,
    "v21-past-dep-by-date": PastDepByDate,
    "v12-own-error-names": OwnErrorNames,
    "v12-no-error-codes": NoErrorCodes,
    "v12-fallback-drops-pka": FallbackDropsPka,
    "v12-fallback-ignores-short-k": FallbackIgnoresShortK,
    "v12-falls-back-after-invalid": FallsBackAfterInvalid,
    "v12-falls-back-after-unsupported": FallsBackAfterUnsupported,
    "v12-fallback-failure-as-not-found": FallbackFailureAsNotFound,
    "v12-fallback-failure-as-invalid-txt": FallbackFailureAsInvalidTxt,
    "v21-aid2-invalid-fallback-as-not-found": Aid2InvalidFallbackAsNotFound,
    "v21-aid2-error-status-as-not-found": Aid2ErrorStatusAsNotFound,
}
