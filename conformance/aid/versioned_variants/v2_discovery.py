"""Broken v2.1 clients: discovery (v2.1 2.1 parsing, 2.3 steps 1-7 and 10, the error codes of
Table 1 and Appendix A, 2.4 exact host, 2.5 protocol names, 4 TTL, Appendix C fallback).

Each class overrides one method of the reference client; its docstring names the clause it
breaks (``fixtures/aid/client-mutants-versioned-v2-discovery.toml`` pins each to v2.1).
"""

from __future__ import annotations

import re
import ssl
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import dns.name

from conformance.aid import versioned
from conformance.aid.reference_client import Found
from conformance.aid.versioned_client import MAX_FALLBACK_BYTES, WELL_KNOWN, VersionedAidClient
from conformance.dns import TxtAnswer, a_label
from conformance.fetch import Fetcher

_LONG = {alias: key for key, alias in versioned.ALIASES.items()}


def _pairs(text: str) -> list[tuple[str, str | None]]:
    """(key as written, value as written) of each segment; a segment without '=' is (segment, None)."""
    return [(s.split("=", 1)[0], s.split("=", 1)[1]) if "=" in s else (s, None) for s in text.split(";")]


def _join(pairs: list[tuple[str, str | None]]) -> str:
    return ";".join(k if v is None else f"{k}={v}" for k, v in pairs)


def _known(key: str) -> bool:
    key = key.strip().lower()
    return key in versioned.ALIASES or key in _LONG


def _record(found: Found) -> dict | None:
    return found.connect.get("record") if found.outcome == "connect" and found.connect else None


def _parent(domain: str, up: int = 1) -> str | None:
    labels = domain.strip().rstrip(".").split(".")
    return ".".join(labels[up:]) if len(labels) - up >= 2 else None


# ---------------------------------------------------------------- 2.1: parsing the record

class UntrimmedKeys(VersionedAidClient):
    """A key written with white space around it is an unknown key (AID-2.1-48)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select([_join([(k, v) for k, v in _pairs(t) if v is None or k == k.strip()]) for t in texts])


class UntrimmedValues(VersionedAidClient):
    """Uses the uri and proto values as written, white space around them kept (AID-2.1-48)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        selection = super().select(texts)
        if selection.record is not None:
            for key, value in _pairs(selection.record.text):
                if value is None:
                    continue
                long = _LONG.get(key.strip().lower(), key.strip().lower())
                if long in ("uri", "proto"):
                    selection.record.fields[long] = value
        return selection


class RejectsUnknownKeys(VersionedAidClient):
    """A record holding a key it does not know is no record at all (AID-2.1-49)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select([t for t in texts if all(_known(k) for k, v in _pairs(t) if v is not None)])


class StopsAtUnknownKey(VersionedAidClient):
    """Stops reading a record at its first unknown key (AID-2.1-49)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        cut = []
        for text in texts:
            pairs = _pairs(text)
            first = next((i for i, (k, v) in enumerate(pairs) if v is not None and not _known(k)), len(pairs))
            cut.append(_join(pairs[:first]) if first < len(pairs) else text)
        return super().select(cut)


class JoinsStringsWithSpace(VersionedAidClient):
    """Joins a record's character-strings with a space (AID-2.1-50)."""

    def texts(self, answer: TxtAnswer) -> list[str]:
        return [" ".join(s.decode("utf-8", "replace") for s in strings) for strings in answer.records]


class FirstStringOnly(VersionedAidClient):
    """Reads only the first character-string of each record (AID-2.1-50)."""

    def texts(self, answer: TxtAnswer) -> list[str]:
        return [strings[0].decode("utf-8", "replace") if strings else "" for strings in answer.records]


class _IgnoresAliases(VersionedAidClient):
    aliases: tuple[str, ...] = ()

    def select(self, texts: list[str]) -> versioned.Selection:
        selection = super().select(texts)
        if selection.record is not None:
            for alias in self.aliases:
                if alias in selection.record.written:  # the single letter, lower case, as written
                    selection.record.fields.pop(_LONG[alias], None)
        return selection


class IgnoresAuthAlias(_IgnoresAliases):
    """Does not read a as auth (AID-2.1-52)."""

    aliases = ("a",)


class IgnoresDescDocsAliases(_IgnoresAliases):
    """Does not read s as desc nor d as docs (AID-2.1-52)."""

    aliases = ("s", "d")


# ---------------------------------------------------------------- 2.3 steps 1-3: the query, parsing

class Idna2003(VersionedAidClient):
    """Converts a non-ASCII host with IDNA 2003 (faß becomes fass), not to its A-label (AID-2.3-46)."""

    def query_name(self, domain: str) -> str:
        name = dns.name.from_text(domain.strip().rstrip("."), idna_codec=dns.name.IDNA_2003)
        return "_agent." + name.to_text().rstrip(".")


class PunycodeWithoutPrefix(VersionedAidClient):
    """Punycodes each non-ASCII label without the xn-- prefix (AID-2.3-46)."""

    def query_name(self, domain: str) -> str:
        labels = [label if label.isascii() else label.encode("punycode").decode("ascii")
                  for label in domain.strip().rstrip(".").split(".")]
        return "_agent." + ".".join(labels)


class ApexFirst(VersionedAidClient):
    """Looks for the record at the host itself first, and at _agent.<host> after (AID-2.3-47)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        apex = self.resolver.txt(a_label(domain.strip().rstrip(".")))
        if apex.status == "ok" and any(versioned.read(t).is_aid for t in apex.texts()):
            return apex
        return super().lookup(domain, name, now)


class ProtocolNameFirst(VersionedAidClient):
    """Queries _agent._mcp.<host> before the base name (AID-2.3-47)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        first = self.resolver.txt("_agent._mcp." + a_label(domain.strip().rstrip(".")))
        if first.status == "ok" and any(versioned.read(t).is_aid for t in first.texts()):
            return first
        return super().lookup(domain, name, now)


class WalksUpOnNxdomain(VersionedAidClient):
    """When _agent.<host> does not exist, tries _agent.<parent>, then its parent, ... (AID-2.3-48)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        up = 1
        while answer.status == "nxdomain" and (parent := _parent(a_label(domain), up)) is not None:
            found = self.resolver.txt("_agent." + parent)
            if found.status == "ok":
                return found
            up += 1
        return answer


class ParentOnNodata(VersionedAidClient):
    """When _agent.<host> has no TXT record (NODATA), uses _agent.<parent>'s (AID-2.3-48)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        parent = _parent(a_label(domain))
        if answer.status == "nodata" and parent is not None:
            found = self.resolver.txt("_agent." + parent)
            if found.status == "ok":
                return found
        return answer


class CaseSensitiveLongKeys(VersionedAidClient):
    """Compares the long keys case-sensitively: URI or Proto is an unknown key (AID-2.3-49)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select([_join([(k, v) for k, v in _pairs(t) if v is None or len(k.strip()) == 1 or k == k.lower()])
                               for t in texts])


class NonAidAnswerFails(VersionedAidClient):
    """Fails when any TXT answer at the name is not a key=value AID record (AID-2.3-49)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        readings = [versioned.read(t) for t in texts]
        if any(not r.is_aid for r in readings) and any(r.is_aid for r in readings):
            return versioned.Selection(None, frozenset({"ERR_INVALID_TXT"}), "a TXT answer is not an AID record",
                                       readings)
        return super().select(texts)


# ---------------------------------------------------------------- 2.3 steps 4-7: validation and selection

class AcceptsKidInAid2(VersionedAidClient):
    """Ignores kid and i in an aid2 record instead of rejecting it (AID-2.3-50)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        return super().select([_join([(k, v) for k, v in _pairs(t) if k.strip().lower() not in ("kid", "i")])
                               if versioned.read(t).version == "aid2" else t for t in texts])


class FirstOfKeyAndAlias(VersionedAidClient):
    """Reads a record holding a key and its alias, the first written winning (AID-2.3-50)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        kept = []
        for text in texts:
            seen: set[str] = set()
            pairs = []
            for k, v in _pairs(text):
                long = _LONG.get(k.strip().lower(), k.strip().lower())
                if v is None or long not in seen:
                    seen.add(long)
                    pairs.append((k, v))
            kept.append(_join(pairs))
        return super().select(kept)


def _valid(texts: list[str], version: str) -> list[versioned.Reading]:
    return [r for r in map(versioned.read, texts) if r.is_aid and r.valid and r.version == version]


class AmbiguousAcrossVersions(VersionedAidClient):
    """Counts valid records of every version together: an aid1 beside an aid2 is ambiguous (AID-2.3-51)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        if len(_valid(texts, "aid1")) + len(_valid(texts, "aid2")) > 1:
            return versioned.Selection(None, frozenset({"ERR_INVALID_TXT"}), "several valid records: ambiguous")
        return super().select(texts)


class AmbiguousAid1Duplicates(VersionedAidClient):
    """Fails on two valid aid1 records even when one valid aid2 record is there (AID-2.3-51)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        if len(_valid(texts, "aid1")) > 1:
            return versioned.Selection(None, frozenset({"ERR_INVALID_TXT"}), "two valid aid1 records: ambiguous")
        return super().select(texts)


class AnyAid2BlocksAid1(VersionedAidClient):
    """Once any aid2 record is present, valid or not, selects among aid2 records only (AID-2.3-52)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        if any(versioned.read(t).version == "aid2" for t in texts):
            return super().select([t for t in texts if versioned.read(t).version == "aid2"])
        return super().select(texts)


class HigherUnknownVersionFails(VersionedAidClient):
    """Fails when a record names a higher version than it supports (aid3), instead of using aid2 (AID-2.3-52)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        for t in texts:
            m = re.fullmatch(r"aid(\d+)", versioned.read(t).version or "")
            if m and int(m.group(1)) > 2:
                return versioned.Selection(None, frozenset({"ERR_INVALID_TXT"}), f"v=aid{m.group(1)} is not supported")
        return super().select(texts)


class PrefersAid1(VersionedAidClient):
    """Uses the valid aid1 record when there is one, aid2 only otherwise (AID-2.3-53)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        aid1 = versioned.select([t for t in texts if versioned.read(t).version == "aid1"], "v2.1")
        return aid1 if aid1.record is not None else super().select(texts)


class AnswerOrderAcrossVersions(VersionedAidClient):
    """With one valid aid1 and one valid aid2 record, neither holding k, uses the one the DNS answer
    lists first (AID-2.3-53)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        one, two = _valid(texts, "aid1"), _valid(texts, "aid2")
        if len(one) == 1 and len(two) == 1 and "pka" not in one[0].fields and "pka" not in two[0].fields:
            first = min((one[0], two[0]), key=lambda r: texts.index(r.text))
            return versioned.Selection(first, frozenset(), "the first valid record in answer order")
        return super().select(texts)


class AmbiguityFallsBackToAid1(VersionedAidClient):
    """When two valid aid2 records are ambiguous, uses the aid1 record instead of failing (AID-2.3-54)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        selection = super().select(texts)
        if selection.record is None and len(_valid(texts, "aid2")) > 1:
            aid1 = versioned.select([t for t in texts if versioned.read(t).version == "aid1"], "v2.1")
            if aid1.record is not None:
                return aid1
        return selection


class MalformedBesideValidFails(VersionedAidClient):
    """Fails when a malformed aid2 record stands beside the one valid aid2 record (AID-2.3-54)."""

    def select(self, texts: list[str]) -> versioned.Selection:
        readings = [versioned.read(t) for t in texts]
        if len(_valid(texts, "aid2")) == 1 and any(r.version == "aid2" and not r.valid for r in readings):
            return versioned.Selection(None, frozenset({"ERR_INVALID_TXT"}), "a malformed aid2 record", readings)
        return super().select(texts)


# ---------------------------------------------------------------- 2.3 step 10: what discovery returns

class DropsMetadata(VersionedAidClient):
    """Returns the endpoint and protocol without the record's auth, desc and docs (AID-2.3-58)."""

    def discover(self, domain: str, now: datetime, *args: Any, **kwargs: Any) -> Found:
        found = super().discover(domain, now, *args, **kwargs)
        if (record := _record(found)) is not None:
            for key in ("auth", "desc", "docs"):
                record.pop(key, None)
        return found


class NoTrustSourceFromDns(VersionedAidClient):
    """Returns no trust source for a record found in DNS (AID-2.3-58)."""

    def discover(self, domain: str, now: datetime, *args: Any, **kwargs: Any) -> Found:
        found = super().discover(domain, now, *args, **kwargs)
        if (record := _record(found)) is not None and record.get("trust_source") == "dns":
            del record["trust_source"]
        return found


# ---------------------------------------------------------------- downgrade (after 2.3)

class NoVersionDowngrade(VersionedAidClient):
    """Remembers the version but never reports aid2 to aid1 as a downgrade (AID-2.3-59)."""

    def downgrade(self, domain: str, fields: dict[str, str], trust: str) -> str:
        change = super().downgrade(domain, fields, trust)
        return "" if change.startswith("aid2 was selected before") else change


class StateOnlyForPkaRecords(VersionedAidClient):
    """Keeps previous security state only for records holding k (AID-2.3-59)."""

    def remember(self, domain: str, fields: dict[str, str], trust: str) -> None:
        if fields.get("pka"):
            super().remember(domain, fields, trust)


# ---------------------------------------------------------------- both DNS and the fallback fail

class FallbackBodyOfAnyStatus(VersionedAidClient):
    """Uses a record the .well-known answer holds whatever its HTTP status (AID-2.3-61)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        text, why = super().fallback(domain)
        if text is not None:
            return text, why
        fetched = self.fetcher.fetch(self.fallback_url(domain))
        found = self.record_text(fetched.final.body)[0] if fetched.final is not None else None
        return (found, "") if found is not None else (text, why)


class TriesOtherFallbackPaths(VersionedAidClient):
    """After /.well-known/agent answers 404, tries /.well-known/agent.json (AID-2.3-61)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        text, why = super().fallback(domain)
        if text is not None or "HTTP 404" not in why:
            return text, why
        fetched = self.fetcher.fetch(self.fallback_url(domain, f"{WELL_KNOWN}.json"))
        if fetched.final is not None and fetched.final.status == 200:
            found = self.record_text(fetched.final.body)[0]
            if found is not None:
                return found, ""
        return text, why


# ---------------------------------------------------------------- Table 1 and Appendix A: the codes

class _Recode(VersionedAidClient):
    """Reports another code for some failures (``recode``)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return None

    def discover(self, domain: str, now: datetime, *args: Any, **kwargs: Any) -> Found:
        found = super().discover(domain, now, *args, **kwargs)
        if found.error_kind:
            found.error_kind = self.recode(domain, found) or found.error_kind
        return found


class NoRecordAsLookupFailed(_Recode):
    """Reports a name without an AID record as ERR_DNS_LOOKUP_FAILED (AID-2.3-62)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return "ERR_DNS_LOOKUP_FAILED" if found.error_kind == "ERR_NO_RECORD" else None


class NonAidTxtAsInvalid(_Recode):
    """Reports a name whose TXT records hold no AID record as ERR_INVALID_TXT (AID-2.3-62)."""

    def recode(self, domain: str, found: Found) -> str | None:
        memory = self.memory.get(domain)
        if found.error_kind == "ERR_NO_RECORD" and memory is not None and memory.answer is not None:
            return "ERR_INVALID_TXT"
        return None


def _invalid(found: Found) -> bool:
    return found.error_kind == "ERR_INVALID_TXT" and not any("ambiguous" in m for m in found.messages)


class MalformedAsNoRecord(_Recode):
    """Reports a malformed record (a required key missing) as ERR_NO_RECORD (AID-2.3-63)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return "ERR_NO_RECORD" if _invalid(found) and any("missing" in m or "empty" in m for m in found.messages) else None


class KidAsSecurity(_Recode):
    """Reports an aid2 record holding kid or i as ERR_SECURITY (AID-2.3-63)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return "ERR_SECURITY" if _invalid(found) and any("in a v=aid2 record" in m for m in found.messages) else None


class UnsupportedAsInvalid(_Recode):
    """Reports a protocol it does not speak as ERR_INVALID_TXT (AID-2.3-64)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return "ERR_INVALID_TXT" if found.error_kind == "ERR_UNSUPPORTED_PROTO" else None


class UnsupportedAsSecurity(_Recode):
    """Reports a protocol it does not speak as ERR_SECURITY (AID-2.3-64)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return "ERR_SECURITY" if found.error_kind == "ERR_UNSUPPORTED_PROTO" else None


class BogusDnssecAsLookupFailed(_Recode):
    """Reports a DNSSEC validation failure as ERR_DNS_LOOKUP_FAILED (AID-2.3-65)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return ("ERR_DNS_LOOKUP_FAILED" if found.error_kind == "ERR_SECURITY"
                and any("DNSSEC" in m for m in found.messages) else None)


class PolicyFailureAsInvalid(_Recode):
    """Reports a failure its security policy causes (pka=require without k) as ERR_INVALID_TXT (AID-2.3-65)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return ("ERR_INVALID_TXT" if found.error_kind == "ERR_SECURITY"
                and any(m.startswith("pka=require") for m in found.messages) else None)


class LookupFailureAsNoRecord(_Recode):
    """Reports a failed DNS lookup (SERVFAIL) as ERR_NO_RECORD (AID-2.3-66)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return "ERR_NO_RECORD" if found.error_kind == "ERR_DNS_LOOKUP_FAILED" else None


class LookupFailureAsFallbackFailed(_Recode):
    """Reports a failed DNS lookup as ERR_FALLBACK_FAILED, even with the fallback disabled (AID-2.3-66)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return "ERR_FALLBACK_FAILED" if found.error_kind == "ERR_DNS_LOOKUP_FAILED" else None


class OwnErrorNames(_Recode):
    """Reports failures under names of its own (NO_RECORD, INVALID_TXT, ...), outside the family (AID-A-04)."""

    def recode(self, domain: str, found: Found) -> str | None:
        return (found.error_kind or "").removeprefix("ERR_") or None


class HttpStyleCodes(_Recode):
    """Reports failures as HTTP-like numbers (404, 400, 501, 403, 502, 424), outside the family (AID-A-04)."""

    NUMBERS = {"ERR_NO_RECORD": "404", "ERR_INVALID_TXT": "400", "ERR_UNSUPPORTED_PROTO": "501",
               "ERR_SECURITY": "403", "ERR_DNS_LOOKUP_FAILED": "502", "ERR_FALLBACK_FAILED": "424"}

    def recode(self, domain: str, found: Found) -> str | None:
        return self.NUMBERS.get(found.error_kind or "")


# ---------------------------------------------------------------- 2.4 exact host, 2.5 protocol names

class ParentOnInvalid(VersionedAidClient):
    """When the exact host's record is invalid, retries the parent host and uses its record (AID-2.4-06)."""

    def discover(self, domain: str, now: datetime, *args: Any, **kwargs: Any) -> Found:
        found = super().discover(domain, now, *args, **kwargs)
        parent = _parent(domain)
        if found.error_kind == "ERR_INVALID_TXT" and parent is not None:
            again = super().discover(parent, now, *args, **kwargs)
            if again.outcome == "connect":
                return again
        return found


class GrandparentOnLookupFailure(VersionedAidClient):
    """When the lookup of _agent.<host> fails (SERVFAIL), uses _agent.<grandparent>'s answer (AID-2.4-06)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        parent = _parent(a_label(domain), 2)
        if answer.status in ("servfail", "timeout", "error") and parent is not None:
            found = self.resolver.txt("_agent." + parent)
            if found.status == "ok":
                return found
        return answer


class CompatProtocolNameOnFailure(VersionedAidClient):
    """When the base name has no record, looks at _agent.mcp.<host> (no underscore) (AID-2.5-13)."""

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        if answer.status != "ok":
            compat = self.resolver.txt("_agent.mcp." + a_label(domain.strip().rstrip(".")))
            if compat.status == "ok":
                return compat
        return answer


class ConfirmsAtCompatName(VersionedAidClient):
    """After a base record is found, also queries _agent.<proto>.<host> to confirm it (AID-2.5-13)."""

    def discover(self, domain: str, now: datetime, *args: Any, **kwargs: Any) -> Found:
        found = super().discover(domain, now, *args, **kwargs)
        if found.outcome == "connect":
            self.resolver.txt(f"_agent.{found.connect['protocol']}.{a_label(domain.strip().rstrip('.'))}")
        return found


# ---------------------------------------------------------------- 4: TTL

class _CacheLonger(VersionedAidClient):
    """Stretches how long an answer stays fresh (``fresh``: the TTL received -> seconds kept)."""

    def fresh(self, ttl: int) -> int:
        return ttl

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        answer = super().lookup(domain, name, now)
        memory = self.memory.get(domain)
        just_fetched = memory is not None and memory.fresh_until == now + timedelta(seconds=answer.ttl or 0)
        if just_fetched and memory is not None and memory.answer is answer and answer.ttl:
            memory.fresh_until = now + timedelta(seconds=self.fresh(answer.ttl))
        return answer


class CacheMinimumTtl(_CacheLonger):
    """Keeps every answer at least 5 seconds, even one whose TTL is 1 s (AID-4-16)."""

    def fresh(self, ttl: int) -> int:
        return max(ttl, 5)


class CacheLongTtlForADay(_CacheLonger):
    """Keeps an answer whose TTL is an hour or more for a whole day (AID-4-16)."""

    def fresh(self, ttl: int) -> int:
        return 86400 if ttl >= 3600 else ttl


class _ServeStale(VersionedAidClient):
    stale_on: tuple[str, ...] = ()

    def lookup(self, domain: str, name: str, now: datetime) -> TxtAnswer:
        memory = self.memory.get(domain)
        old = memory.answer if memory is not None else None
        answer = super().lookup(domain, name, now)
        if answer.status in self.stale_on and old is not None:
            return old
        return answer


class StaleOnLookupFailure(_ServeStale):
    """Uses the expired answer when the lookup after its TTL fails (SERVFAIL) (AID-4-17)."""

    stale_on = ("servfail", "timeout", "error")


class StaleOnRemoval(_ServeStale):
    """Uses the expired answer when the record is gone after its TTL (NXDOMAIN, NODATA) (AID-4-17)."""

    stale_on = ("nxdomain", "nodata")


# ---------------------------------------------------------------- Appendix C: the fallback

class FallbackReportedAsDns(VersionedAidClient):
    """Reports a record found through /.well-known/agent with trust source dns (AID-C-08)."""

    def discover(self, domain: str, now: datetime, *args: Any, **kwargs: Any) -> Found:
        found = super().discover(domain, now, *args, **kwargs)
        if (record := _record(found)) is not None and record.get("trust_source") == "well-known-tls":
            record["trust_source"] = "dns"
        return found


class FallbackTrustMisnamed(VersionedAidClient):
    """Reports a fallback record's trust source as 'well-known' (AID-C-08)."""

    def discover(self, domain: str, now: datetime, *args: Any, **kwargs: Any) -> Found:
        found = super().discover(domain, now, *args, **kwargs)
        if (record := _record(found)) is not None and record.get("trust_source") == "well-known-tls":
            record["trust_source"] = "well-known"
        return found


class FallbackSkipsTls(VersionedAidClient):
    """Fetches /.well-known/agent without checking the server's certificate (AID-C-09)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        insecure = ssl.create_default_context()
        insecure.check_hostname = False
        insecure.verify_mode = ssl.CERT_NONE
        trusting = Fetcher(replace(self.http, limits=replace(self.http.limits, max_redirects=0,
                                                              max_body_bytes=MAX_FALLBACK_BYTES)), ssl_context=insecure)
        saved, self.fetcher = self.fetcher, trusting
        try:
            return super().fallback(domain)
        finally:
            self.fetcher = saved


class FallbackSkipsHostname(VersionedAidClient):
    """Fetches /.well-known/agent checking the certificate's chain but not its name (AID-C-09)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        nameless = ssl.create_default_context(cafile=str(self.http.ca_bundle) if self.http.ca_bundle else None)
        nameless.check_hostname = False
        trusting = Fetcher(replace(self.http, limits=replace(self.http.limits, max_redirects=0,
                                                              max_body_bytes=MAX_FALLBACK_BYTES)), ssl_context=nameless)
        saved, self.fetcher = self.fetcher, trusting
        try:
            return super().fallback(domain)
        finally:
            self.fetcher = saved


class FallbackSkipsPka(VersionedAidClient):
    """Drops k from a record found through /.well-known/agent, so proves nothing (AID-C-09)."""

    def fallback(self, domain: str) -> tuple[str | None, str]:
        text, why = super().fallback(domain)
        if text is None:
            return text, why
        return _join([(k, v) for k, v in _pairs(text) if k.strip().lower() not in ("k", "pka")]), why


VARIANTS = {
    "v2-untrimmed-keys": UntrimmedKeys, "v2-untrimmed-values": UntrimmedValues,
    "v2-rejects-unknown-keys": RejectsUnknownKeys, "v2-stops-at-unknown-key": StopsAtUnknownKey,
    "v2-joins-strings-with-space": JoinsStringsWithSpace, "v2-first-string-only": FirstStringOnly,
    "v2-ignores-auth-alias": IgnoresAuthAlias, "v2-ignores-desc-docs-aliases": IgnoresDescDocsAliases,
    "v2-idna2003": Idna2003, "v2-punycode-without-prefix": PunycodeWithoutPrefix,
    "v2-apex-first": ApexFirst, "v2-protocol-name-first": ProtocolNameFirst,
    "v2-walks-up-on-nxdomain": WalksUpOnNxdomain, "v2-parent-on-nodata": ParentOnNodata,
    "v2-case-sensitive-long-keys": CaseSensitiveLongKeys, "v2-non-aid-answer-fails": NonAidAnswerFails,
    "v2-accepts-kid-in-aid2": AcceptsKidInAid2, "v2-first-of-key-and-alias": FirstOfKeyAndAlias,
    "v2-ambiguous-across-versions": AmbiguousAcrossVersions, "v2-ambiguous-aid1-duplicates": AmbiguousAid1Duplicates,
    "v2-any-aid2-blocks-aid1": AnyAid2BlocksAid1, "v2-higher-unknown-version-fails": HigherUnknownVersionFails,
    "v2-prefers-aid1": PrefersAid1, "v2-answer-order-across-versions": AnswerOrderAcrossVersions,
    "v2-ambiguity-falls-back-to-aid1": AmbiguityFallsBackToAid1, "v2-malformed-beside-valid-fails": MalformedBesideValidFails,
    "v2-drops-metadata": DropsMetadata, "v2-no-trust-source-from-dns": NoTrustSourceFromDns,
    "v2-no-version-downgrade": NoVersionDowngrade, "v2-state-only-for-pka-records": StateOnlyForPkaRecords,
    "v2-fallback-body-of-any-status": FallbackBodyOfAnyStatus, "v2-tries-other-fallback-paths": TriesOtherFallbackPaths,
    "v2-no-record-as-lookup-failed": NoRecordAsLookupFailed, "v2-non-aid-txt-as-invalid": NonAidTxtAsInvalid,
    "v2-malformed-as-no-record": MalformedAsNoRecord, "v2-kid-as-security": KidAsSecurity,
    "v2-unsupported-as-invalid": UnsupportedAsInvalid, "v2-unsupported-as-security": UnsupportedAsSecurity,
    "v2-bogus-dnssec-as-lookup-failed": BogusDnssecAsLookupFailed, "v2-policy-failure-as-invalid": PolicyFailureAsInvalid,
    "v2-lookup-failure-as-no-record": LookupFailureAsNoRecord,
    "v2-lookup-failure-as-fallback-failed": LookupFailureAsFallbackFailed,
    "v2-own-error-names": OwnErrorNames, "v2-http-style-codes": HttpStyleCodes,
    "v2-parent-on-invalid": ParentOnInvalid, "v2-grandparent-on-lookup-failure": GrandparentOnLookupFailure,
    "v2-compat-protocol-name-on-failure": CompatProtocolNameOnFailure, "v2-confirms-at-compat-name": ConfirmsAtCompatName,
    "v2-cache-minimum-ttl": CacheMinimumTtl, "v2-cache-long-ttl-for-a-day": CacheLongTtlForADay,
    "v2-stale-on-lookup-failure": StaleOnLookupFailure, "v2-stale-on-removal": StaleOnRemoval,
    "v2-fallback-reported-as-dns": FallbackReportedAsDns, "v2-fallback-trust-misnamed": FallbackTrustMisnamed,
    "v2-fallback-skips-tls": FallbackSkipsTls, "v2-fallback-skips-hostname": FallbackSkipsHostname,
    "v2-fallback-skips-pka": FallbackSkipsPka,
}
