"""The kit's one DNS resolver: every lookup any suite makes goes through :class:`Resolver`.

Like the HTTP fetcher it faces hostile targets: every lookup has a per-try timeout and a
whole-lookup lifetime, answers too large for UDP are retried over TCP, and failures become
data (a :class:`TxtAnswer` with a status), never exceptions. Names are converted to IDNA-2008
A-labels before the query. With ``nameservers`` the kit asks exactly those servers (tests
always do, on loopback); without, the system's resolver configuration is used.

DNSSEC: queries set the DO bit; an answer's RRSIG is validated against the zone's DNSKEY,
which is validated against a trust anchor (a DS record set) when one is given. Without a
trust anchor the kit cannot know the chain is genuine (it has no root of its own offline):
the state is then ``unchecked``, never ``valid``.
"""

from __future__ import annotations

import re
import shlex
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import dns.dnssec
import dns.exception
import dns.flags
import dns.message
import dns.name
import dns.query
import dns.rcode
import dns.rdata
import dns.rdataclass
import dns.rdatatype
import dns.resolver
import dns.rrset

if TYPE_CHECKING:
    from conformance.recording import Recording

Status = Literal["ok", "nxdomain", "nodata", "servfail", "timeout", "refused", "truncated", "error"]
DnssecState = Literal["valid", "invalid", "unsigned", "unchecked"]


@dataclass(frozen=True)
class DnsConfig:
    """Where to ask and how long to wait."""

    #: (address, port) pairs; empty: the system's resolver configuration.
    nameservers: tuple[tuple[str, int], ...] = ()
    #: Seconds for one try of one server.
    timeout: float = 2.0
    #: Seconds for a whole lookup, retries included.
    lifetime: float = 5.0
    #: DS record sets that anchor DNSSEC validation, by zone name (text).
    trust_anchors: tuple[tuple[str, dns.rrset.RRset], ...] = ()
    #: The recorded world a scan keeps, or a judge answers from (:mod:`conformance.recording`);
    #: None: every lookup goes to the network.
    recording: "Recording | None" = None

    @staticmethod
    def parse_anchor(spec: str) -> tuple[str, dns.rrset.RRset]:
        """A DS record in zone-file form, ``example.com. IN DS 12345 13 2 <hex>`` (TTL optional),
        as a trust anchor for the zone it names."""
        text = " ".join(spec.split())
        try:
            owner, rest = text.split(" ", 1)
            rest = rest.split(" ", 1)[1] if rest.split(" ", 1)[0].isdigit() else rest  # drop a TTL
            rest = rest.split(" ", 1)[1] if rest.split(" ", 1)[0].upper() == "IN" else rest
            rdtype, rdata = rest.split(" ", 1)
            if rdtype.upper() != "DS":
                raise ValueError("not a DS record")
            rrset = dns.rrset.from_text(owner if owner.endswith(".") else owner + ".", 3600, "IN", "DS", rdata)
        except (ValueError, IndexError, dns.exception.DNSException) as exc:
            raise ValueError(f"--dnssec-anchor {spec[:60]!r}: expected a DS record, e.g. "
                             f"'example.com. IN DS 12345 13 2 49FD46E6...' ({exc})") from None
        return rrset.name.to_text().rstrip("."), rrset

    @staticmethod
    def parse_nameserver(spec: str) -> tuple[str, int]:
        """``HOST``, ``HOST:PORT`` or ``[V6]:PORT``."""
        text = spec.strip()
        if text.startswith("["):
            host, _, rest = text[1:].partition("]")
            port = rest.lstrip(":") or "53"
        elif text.count(":") == 1:
            host, port = text.split(":")
        else:
            host, port = text, "53"
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"--nameserver {spec!r}: expected HOST[:PORT], e.g. 127.0.0.1:5353")
        return host, int(port)


@dataclass
class TxtAnswer:
    """What a TXT lookup found, as evidence and as data."""

    name: str
    status: Status
    #: Each TXT record's character-strings, as sent (a record longer than 255 bytes has several).
    records: list[list[bytes]] = field(default_factory=list)
    ttl: int | None = None
    dnssec: DnssecState = "unchecked"
    detail: str = ""

    def texts(self) -> list[str]:
        """Each record's strings concatenated (RFC 6763 / AID 2.3), decoded as UTF-8."""
        return [b"".join(strings).decode("utf-8", errors="replace") for strings in self.records]


def a_label(domain: str) -> str:
    """The IDNA-2008 A-label form of a domain (``bücher.example`` -> ``xn--bcher-kva.example``)."""
    return dns.name.from_text(domain, idna_codec=dns.name.IDNA_2008).to_text().rstrip(".")


class Resolver:
    """Sends the kit's DNS queries, within limits, and counts them."""

    def __init__(self, config: DnsConfig = DnsConfig()) -> None:
        self.config = config
        if config.nameservers:
            self._resolver = dns.resolver.Resolver(configure=False)
            self._resolver.nameservers = [host for host, _ in config.nameservers]
            self._resolver.port = config.nameservers[0][1]
        else:  # the user's own machine, for a live target
            self._resolver = dns.resolver.Resolver()
        self._resolver.timeout = config.timeout
        self._resolver.lifetime = config.lifetime
        self._resolver.use_edns(0, dns.flags.DO, 1232)
        self._lock = threading.Lock()
        self.queries_sent = 0

    def txt(self, domain: str) -> TxtAnswer:
        """The TXT records at ``domain``; never raises for the target's faults. A recording
        answers first, refuses (offline), or keeps what the network answered (a scan)."""
        try:
            qname = dns.name.from_text(domain, idna_codec=dns.name.IDNA_2008)
        except dns.exception.DNSException as exc:
            return TxtAnswer(name=domain, status="error", detail=f"not a domain name: {exc}")
        name = qname.to_text().rstrip(".")
        recording = self.config.recording
        if recording is None:
            return self._txt(qname, name)
        held = recording.txt(name)
        if held is None:
            held = recording.refuse_txt(name)
        if held is None:
            held = self._txt(qname, name)
            recording.keep_txt(held)
        return held

    def addresses(self, domain: str) -> tuple[list[str], tuple[str, ...]]:
        """The addresses of ``domain`` (empty when it has none or the lookups fail): its A
        records, or its AAAA records when it has no A record (a name that does not exist has
        neither: no AAAA query after NXDOMAIN); and the types asked, ``("A",)`` or
        ``("A", "AAAA")``. A scan asks it only to pace its requests per address (one address a
        name is enough for that: one query a domain instead of two), and keeps what it found in
        its recording (a WARC resource record, docs/scan.md); a judged run never asks it."""
        asked: list[str] = []
        for rdtype in ("A", "AAAA"):
            asked.append(rdtype)
            try:
                answer = self._resolver.resolve(domain, rdtype, raise_on_no_answer=False)
            except dns.resolver.NXDOMAIN:
                break
            except dns.exception.DNSException:
                continue
            finally:
                with self._lock:
                    self.queries_sent += 1
            if answer.rrset is not None:
                return [r.to_text() for r in answer.rrset], tuple(asked)
        return [], tuple(asked)

    def records(self, domain: str, rdtype: str) -> list[str] | None:
        """The records of type ``rdtype`` at ``domain``, each as zone-file text (empty when it has
        none or the lookup fails); None when this run may not ask: a recorded world (``adck scan``,
        ``adck judge``) holds TXT lookups only, so another type is neither sent by a scan (it asks
        little, docs/scan.md) nor answered offline."""
        if self.config.recording is not None:
            return None
        with self._lock:
            self.queries_sent += 1
        try:
            answer = self._resolver.resolve(domain, rdtype, raise_on_no_answer=False)
        except dns.exception.DNSException:
            return []
        return [r.to_text() for r in answer.rrset or ()]

    def _txt(self, qname: dns.name.Name, name: str) -> TxtAnswer:
        with self._lock:
            self.queries_sent += 1
        try:
            answer = self._resolver.resolve(qname, "TXT", raise_on_no_answer=False)
        except dns.resolver.NXDOMAIN:
            return TxtAnswer(name=name, status="nxdomain", detail="the name does not exist (NXDOMAIN)")
        except dns.resolver.NoNameservers as exc:
            return TxtAnswer(name=name, status="servfail", detail=f"no server answered usefully: {exc}")
        except dns.resolver.LifetimeTimeout:
            return TxtAnswer(name=name, status="timeout", detail=f"no answer within {self.config.lifetime:g} s")
        except dns.exception.DNSException as exc:
            return TxtAnswer(name=name, status="error", detail=f"{type(exc).__name__}: {exc}")
        if answer.response.flags & dns.flags.TC:
            # a server that truncates even over TCP never gives the whole answer: not "no data"
            return TxtAnswer(name=name, status="truncated",
                             detail="the answer is truncated (TC bit) even over TCP: the records cannot be read whole")
        if answer.rrset is None:
            return TxtAnswer(name=name, status="nodata", detail="the name exists but has no TXT record")
        result = TxtAnswer(name=name, status="ok", records=[list(r.strings) for r in answer.rrset],
                           ttl=answer.rrset.ttl)
        result.dnssec, result.detail = self._dnssec(answer)
        return result

    def _dnssec(self, answer: dns.resolver.Answer) -> tuple[DnssecState, str]:
        response = answer.response
        rrset = answer.rrset
        try:
            sigs = response.find_rrset(response.answer, rrset.name, rrset.rdclass, dns.rdatatype.RRSIG, rrset.rdtype)
        except KeyError:
            return "unsigned", "the answer carries no RRSIG"
        signer = sigs[0].signer
        try:
            keys = self._resolver.resolve(signer, "DNSKEY").rrset
            with self._lock:
                self.queries_sent += 1
            dns.dnssec.validate(rrset, sigs, {signer: keys})
        except dns.dnssec.ValidationFailure as exc:
            return "invalid", f"the RRSIG does not validate: {exc}"
        except dns.exception.DNSException as exc:
            return "invalid", f"the zone's DNSKEY could not be had: {exc}"
        anchor = dict(self.config.trust_anchors).get(signer.to_text().rstrip("."))
        if anchor is None:
            return "unchecked", f"signed by {signer}; no trust anchor for it, so the chain is not checked"
        digests = {dns.dnssec.make_ds(signer, key, ds.digest_type).digest for key in keys for ds in anchor}
        if not any(ds.digest in digests for ds in anchor):
            return "invalid", f"the DNSKEY of {signer} does not match the trust anchor"
        return "valid", f"signed by {signer}, validated to the trust anchor"


@dataclass
class ZoneLine:
    """A zone-file TXT line: ``_agent.example.com. 300 IN TXT "v=aid1;..." "..."``."""

    name: str
    ttl: int | None
    strings: list[bytes]

    def text(self) -> str:
        return b"".join(self.strings).decode("utf-8", errors="replace")


_TTL = re.compile(r"^\d+$")


def parse_zone_line(line: str) -> ZoneLine:
    """Parse one zone-file line holding a TXT record (owner [ttl] [class] TXT strings...)."""
    tokens = shlex.split(line.split(" ;", 1)[0], posix=False)
    if len(tokens) < 3:
        raise ValueError(f"not a zone-file TXT line: {line[:80]!r}")
    name, rest = tokens[0], tokens[1:]
    ttl = None
    if rest and _TTL.match(rest[0]):
        ttl, rest = int(rest[0]), rest[1:]
    if rest and rest[0].upper() in ("IN", "CH", "HS"):
        rest = rest[1:]
    if not rest or rest[0].upper() != "TXT":
        raise ValueError(f"not a TXT record: {line[:80]!r}")
    rdata_text = line[line.upper().index(" TXT ") + 5:].strip()
    try:
        rdata = dns.rdata.from_text(dns.rdataclass.IN, dns.rdatatype.TXT, rdata_text)
        dns.name.from_text(name)
    except dns.exception.DNSException as exc:
        raise ValueError(f"cannot parse the TXT data of {line[:80]!r}: {exc}") from None
    return ZoneLine(name=name, ttl=ttl, strings=list(rdata.strings))
