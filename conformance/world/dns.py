"""The mock world's DNS server: zones a test defines, on one loopback port, UDP and TCP.

Built on dnspython messages. It serves multi-string TXT, several TXT records at one name,
CNAMEs (chased within the zones), NXDOMAIN and NODATA (with the SOA), and faults set per
name: ``servfail``, ``drop`` (no answer: a timeout), ``truncate`` (TC over UDP, the full
answer over TCP), ``truncate-always`` (TC with no answer over UDP and TCP alike). Answers larger than the client's UDP size are truncated, as a real server
does, so clients must retry over TCP. A zone can be DNSSEC-signed locally
(``dns.dnssec.sign_zone``): answers then carry RRSIGs when the query sets the DO bit.

    with MockDNS() as server:
        server.add_zone("example.test", '_agent 300 IN TXT "v=aid1;uri=https://api.example.test/mcp;proto=mcp"')
        # resolve with nameserver 127.0.0.1, port server.port
"""

from __future__ import annotations

import socket
import socketserver
import struct
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import dns.dnssec
import dns.flags
import dns.message
import dns.name
import dns.rcode
import dns.rdataclass
import dns.rdatatype
import dns.rrset
import dns.zone
from dns.rdtypes.ANY.TXT import TXT

Fault = Literal["servfail", "drop", "truncate", "truncate-always"]
DEFAULT_SOA = "@ 300 IN SOA ns.{origin}. hostmaster.{origin}. 1 3600 600 86400 60\n@ 300 IN NS ns.{origin}.\n"


@dataclass
class SignedKeys:
    """The keys a signed zone was signed with, and its trust anchor (DS) for validators."""

    dnskey: dns.rrset.RRset
    ds: dns.rrset.RRset


@dataclass
class Zone:
    origin: dns.name.Name
    zone: dns.zone.Zone
    keys: SignedKeys | None = None


@dataclass
class QueryLog:
    """A query the server received: for tests that check what a client asked."""

    name: str
    rdtype: str
    transport: str
    dnssec_ok: bool


class MockDNS:
    """A DNS server on 127.0.0.1 (UDP and TCP, same port) for the zones added to it."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.zones: dict[dns.name.Name, Zone] = {}
        self.faults: dict[dns.name.Name, Fault] = {}
        self.log: list[QueryLog] = []
        self._lock = threading.Lock()
        self._udp, self._tcp = _bind_pair(host)
        self.port = self._udp.server_address[1]
        for server in (self._udp, self._tcp):
            server.dns = self  # type: ignore[attr-defined]
            threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    # ------------------------------------------------------------------ zones and faults

    def add_zone(self, origin: str, records: str, *, sign: bool = False, soa: bool = True,
                 valid: tuple[datetime, datetime] | None = None) -> Zone:
        """Add a zone from zone-file text (names relative to ``origin``); ``sign`` signs it, its
        signatures valid from ``valid[0]`` to ``valid[1]`` (default: from now, for 30 days)."""
        name = dns.name.from_text(origin)
        text = (DEFAULT_SOA.format(origin=origin.rstrip(".")) if soa else "") + records
        zone = dns.zone.from_text(text, origin=name, relativize=False, check_origin=soa)
        entry = Zone(origin=name, zone=zone)
        if sign:
            entry.keys = _sign(zone, name, valid)
        with self._lock:
            self.zones[name] = entry
        return entry

    def tamper(self, origin: str, name: str) -> None:
        """Change the TXT record at ``name`` (relative to a signed zone ``origin``) after signing,
        as an attacker on the path would: its RRSIG no longer validates. The uri now points
        at ``attacker.invalid`` (a record without uri gets a key added), so a client that uses
        the answer anyway shows it."""
        entry = self.zones[dns.name.from_text(origin)]
        owner = dns.name.from_text(name, entry.origin)
        with self._lock:
            rdataset = entry.zone.get_rdataset(owner, dns.rdatatype.TXT)
            if rdataset is None:
                raise KeyError(f"no TXT record at {owner}")
            changed = []
            for r in rdataset:
                strings = [s.replace(b"uri=https://", b"uri=https://attacker.invalid/") for s in r.strings]
                if strings == list(r.strings):  # no uri to redirect: change it all the same
                    strings[-1] += b";x-tampered=1"
                changed.append(TXT(dns.rdataclass.IN, dns.rdatatype.TXT, strings))
            with entry.zone.writer() as txn:
                txn.delete(owner, dns.rdatatype.TXT)
                for r in changed:
                    txn.add(owner, rdataset.ttl, r)

    def fault(self, name: str, fault: Fault | None) -> None:
        """Make queries for ``name`` fail this way (None clears it)."""
        key = dns.name.from_text(name)
        with self._lock:
            if fault is None:
                self.faults.pop(key, None)
            else:
                self.faults[key] = fault

    # ------------------------------------------------------------------ answering

    def answer(self, query: dns.message.Message, transport: str) -> dns.message.Message | None:
        question = query.question[0]
        qname, qtype = question.name, question.rdtype
        dnssec_ok = bool(query.ednsflags & dns.flags.DO)
        with self._lock:
            self.log.append(QueryLog(qname.to_text(), dns.rdatatype.to_text(qtype), transport, dnssec_ok))
            fault = self.faults.get(qname)
            zone = next((z for o, z in sorted(self.zones.items(), key=lambda kv: -len(kv[0]))
                         if qname.is_subdomain(o)), None)
        response = dns.message.make_response(query)
        response.flags |= dns.flags.AA
        if fault == "drop":
            return None
        if fault == "servfail":
            response.set_rcode(dns.rcode.SERVFAIL)
            return response
        if (fault == "truncate" and transport == "udp") or fault == "truncate-always":
            response.flags |= dns.flags.TC  # truncate-always: TC with no answer over TCP too
            return response
        if zone is None:
            response.set_rcode(dns.rcode.REFUSED)
            return response
        name = qname
        for _ in range(8):  # chase CNAMEs inside the zones
            node = zone.zone.get_node(name)
            if node is None:
                break
            rdataset = node.get_rdataset(dns.rdataclass.IN, qtype)
            if rdataset is not None:
                self._add(response.answer, zone, name, rdataset, dnssec_ok)
                return response
            cname = node.get_rdataset(dns.rdataclass.IN, dns.rdatatype.CNAME)
            if cname is None or qtype == dns.rdatatype.CNAME:
                break
            self._add(response.answer, zone, name, cname, dnssec_ok)
            name = cname[0].target
            zone = next((z for o, z in self.zones.items() if name.is_subdomain(o)), zone)
        exists = zone.zone.get_node(name) is not None or any(
            n.is_subdomain(name) and n != name for n in zone.zone.nodes)
        if not exists and not response.answer:
            response.set_rcode(dns.rcode.NXDOMAIN)
        soa = zone.zone.get_rdataset(zone.origin, dns.rdatatype.SOA)
        if soa is not None:
            self._add(response.authority, zone, zone.origin, soa, dnssec_ok)
        return response

    @staticmethod
    def _add(section: list, zone: Zone, name: dns.name.Name, rdataset, dnssec_ok: bool) -> None:
        rrset = dns.rrset.RRset(name, rdataset.rdclass, rdataset.rdtype)
        rrset.update(rdataset)
        section.append(rrset)
        if dnssec_ok and zone.keys is not None:
            sigs = zone.zone.get_rdataset(name, dns.rdatatype.RRSIG, covers=rdataset.rdtype)
            if sigs is not None:
                sig = dns.rrset.RRset(name, sigs.rdclass, sigs.rdtype, covers=rdataset.rdtype)
                sig.update(sigs)
                section.append(sig)

    # ------------------------------------------------------------------ life cycle

    def stop(self) -> None:
        for server in (self._udp, self._tcp):
            server.shutdown()
            server.server_close()

    def __enter__(self) -> "MockDNS":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# _ORDER: an RRset's records go out in the order the zone text lists them, never shuffled
# (dnspython shuffles by default, as a name server rotating its answers would). A self-test that
# serves two records in both orders then means both orders, and a run gives the same answers
# again when it is replayed. A check of the kit must not depend on the order of a DNS answer
# (it has none): v1's record choice, the one place that chose by it, is checked over every order
# in ``tests/test_aid_record.py``.
class _UDPHandler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        data, sock = self.request
        try:
            query = dns.message.from_wire(data)
        except Exception:  # noqa: BLE001 - a malformed query gets no answer
            return
        response = self.server.dns.answer(query, "udp")  # type: ignore[attr-defined]
        if response is None:
            return
        limit = query.payload if query.edns >= 0 else 512
        try:
            wire = response.to_wire(max_size=limit, want_shuffle=False)  # zone order: _ORDER
        except dns.exception.TooBig:
            truncated = dns.message.make_response(query)
            truncated.flags |= dns.flags.TC | dns.flags.AA
            wire = truncated.to_wire()
        sock.sendto(wire, self.client_address)


class _TCPHandler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        conn = self.request
        conn.settimeout(5)
        try:
            while True:
                head = _recv_exact(conn, 2)
                if not head:
                    return
                data = _recv_exact(conn, struct.unpack("!H", head)[0])
                query = dns.message.from_wire(data)
                response = self.server.dns.answer(query, "tcp")  # type: ignore[attr-defined]
                if response is None:
                    return
                # TCP: not the request's UDP payload size; zone order (_ORDER)
                wire = response.to_wire(max_size=65535, want_shuffle=False)
                conn.sendall(struct.pack("!H", len(wire)) + wire)
        except (OSError, dns.exception.DNSException):
            return


def _recv_exact(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            return b""
        data += chunk
    return data


class _ThreadingUDP(socketserver.ThreadingUDPServer):
    daemon_threads = True
    allow_reuse_address = True


class _ThreadingTCP(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def _bind_pair(host: str) -> tuple[_ThreadingUDP, _ThreadingTCP]:
    """A UDP and a TCP server on the same free port (retrying if TCP's side is taken)."""
    for _ in range(20):
        udp = _ThreadingUDP((host, 0), _UDPHandler)
        try:
            tcp = _ThreadingTCP((host, udp.server_address[1]), _TCPHandler)
        except OSError:
            udp.server_close()
            continue
        return udp, tcp
    raise OSError("no free port for both UDP and TCP on loopback")


def _sign(zone: dns.zone.Zone, origin: dns.name.Name,
          valid: tuple[datetime, datetime] | None = None) -> SignedKeys:
    from cryptography.hazmat.primitives.asymmetric import ec

    private = ec.generate_private_key(ec.SECP256R1())
    dnskey = dns.dnssec.make_dnskey(private.public_key(), dns.dnssec.Algorithm.ECDSAP256SHA256, flags=257)
    with zone.writer() as txn:
        txn.add(origin, 300, dnskey)
    if valid is None:
        dns.dnssec.sign_zone(zone, keys=[(private, dnskey)], lifetime=86400 * 30)
    else:
        dns.dnssec.sign_zone(zone, keys=[(private, dnskey)], inception=valid[0], expiration=valid[1])
    dnskey_rrset = dns.rrset.from_rdata(origin, 300, dnskey)
    ds = dns.rrset.from_rdata(origin, 300, dns.dnssec.make_ds(origin, dnskey, "SHA256"))
    return SignedKeys(dnskey=dnskey_rrset, ds=ds)
