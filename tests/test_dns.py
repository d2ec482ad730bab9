"""The mock DNS server and the kit's one resolver (loopback only; resolv.conf is never read)."""

from __future__ import annotations

import math

import dns.name
import dns.rdatatype
import dns.rdtypes.ANY.TXT
import pytest

from conformance.dns import DnsConfig, Resolver, a_label
from conformance.world.dns import MockDNS
from tests.conftest import ends

ZONE = """
_agent 300 IN TXT "v=aid1;uri=https://api.example.test/mcp;" "proto=mcp"
alias 60 IN CNAME _agent
big 300 IN TXT "{x}" "{y}" "{z}" "{x}" "{y}" "{z}"
multi 300 IN TXT "v=aid1;uri=https://a.example.test/;proto=mcp"
multi 300 IN TXT "v=aid1;uri=https://b.example.test/;proto=mcp"
sub.deeper 300 IN TXT "exists below"
""".format(x="x" * 250, y="y" * 250, z="z" * 200)


@pytest.fixture
def resolver(adck_dns: MockDNS) -> Resolver:
    adck_dns.add_zone("example.test", ZONE)
    return Resolver(DnsConfig(nameservers=(("127.0.0.1", adck_dns.port),), timeout=0.5, lifetime=1.0))


def test_multi_string_txt_is_kept_as_sent_and_joined(resolver: Resolver) -> None:
    answer = resolver.txt("_agent.example.test")
    assert answer.status == "ok" and answer.ttl == 300
    assert answer.records == [[b"v=aid1;uri=https://api.example.test/mcp;", b"proto=mcp"]]
    assert answer.texts() == ["v=aid1;uri=https://api.example.test/mcp;proto=mcp"]


def test_cname_is_followed(resolver: Resolver) -> None:
    assert resolver.txt("alias.example.test").texts() == ["v=aid1;uri=https://api.example.test/mcp;proto=mcp"]


def test_large_answers_are_truncated_over_udp_and_retried_over_tcp(resolver: Resolver, adck_dns: MockDNS) -> None:
    answer = resolver.txt("big.example.test")
    assert [len(s) for s in answer.records[0]] == [250, 250, 200] * 2  # 1,400 bytes: over EDNS's 1,232
    assert [q.transport for q in adck_dns.log if q.name.startswith("big.")] == ["udp", "tcp"]


def test_several_txt_records_at_one_name(resolver: Resolver) -> None:
    assert len(resolver.txt("multi.example.test").texts()) == 2


@pytest.mark.parametrize("order", [("a", "b", "c"), ("c", "b", "a"), ("b", "c", "a")])
def test_the_mock_serves_an_rrset_in_zone_order(adck_dns: MockDNS, order: tuple[str, ...]) -> None:
    """Self-tests that serve records in both orders mean both orders (dnspython would shuffle
    them on every answer), over UDP and over TCP, signed or not."""
    for signed in (False, True):
        zone = f"{''.join(order)}-{int(signed)}.test"
        adck_dns.add_zone(zone, "".join(f'_agent 300 IN TXT "v=aid1;u=https://{x}.test/"\n' for x in order)
                          + 'big 300 IN TXT "{0}" "{0}" "{0}" "{0}" "{0}" "{0}"\nbig 300 IN TXT "2"\n'.format("x" * 250),
                          sign=signed)
        resolver = Resolver(DnsConfig(nameservers=(("127.0.0.1", adck_dns.port),), timeout=0.5, lifetime=1.0))
        for _ in range(8):
            assert resolver.txt(f"_agent.{zone}").texts() == [f"v=aid1;u=https://{x}.test/" for x in order]
            assert resolver.txt(f"big.{zone}").texts()[1] == "2"  # over TCP (1,500 bytes: truncated over UDP)


@pytest.mark.parametrize("name, status", [
    ("nothing.example.test", "nxdomain"),
    ("example.test", "nodata"),
    ("deeper.example.test", "nodata"),  # an empty non-terminal exists
    ("elsewhere.invalid", "servfail"),  # no zone: the server refuses, the resolver gives up
])
def test_missing_answers(resolver: Resolver, name: str, status: str) -> None:
    assert resolver.txt(name).status == status


def test_servfail(resolver: Resolver, adck_dns: MockDNS) -> None:
    adck_dns.fault("_agent.example.test", "servfail")
    assert resolver.txt("_agent.example.test").status == "servfail"


def test_a_server_that_does_not_answer_is_a_bounded_timeout(resolver: Resolver, adck_dns: MockDNS) -> None:
    """The lookup ends at its lifetime, says so, and made no more tries than the lifetime holds
    (each try waits ``timeout``). How long it takes is measured in ``benchmarks/limits.py``."""
    adck_dns.fault("_agent.example.test", "drop")
    answer = ends(resolver.txt, "_agent.example.test")
    assert answer.status == "timeout"
    assert answer.detail == f"no answer within {resolver.config.lifetime:g} s", answer.detail
    tries = [q.transport for q in adck_dns.log if q.name == "_agent.example.test."]
    assert 1 <= len(tries) <= math.ceil(resolver.config.lifetime / resolver.config.timeout), tries
    assert set(tries) == {"udp"}


def test_forced_truncation_falls_back_to_tcp(resolver: Resolver, adck_dns: MockDNS) -> None:
    adck_dns.fault("_agent.example.test", "truncate")
    assert resolver.txt("_agent.example.test").status == "ok"
    assert [q.transport for q in adck_dns.log][-2:] == ["udp", "tcp"]


def test_truncation_even_over_tcp_is_a_truncation_failure_not_no_data(resolver: Resolver, adck_dns: MockDNS) -> None:
    adck_dns.add_zone("example.test", '_agent 300 IN TXT "v=aid1;uri=https://x.example.test/;proto=mcp"')
    adck_dns.fault("_agent.example.test", "truncate-always")
    answer = ends(resolver.txt, "_agent.example.test")
    assert answer.status == "truncated" and "TC" in answer.detail
    # one query over UDP, one retry over TCP, and no loop after it
    assert [q.transport for q in adck_dns.log if q.name == "_agent.example.test."] == ["udp", "tcp"]


def test_dnssec_valid_only_with_a_trust_anchor(adck_dns: MockDNS) -> None:
    zone = adck_dns.add_zone("signed.test", '_agent 300 IN TXT "v=aid1;uri=https://x.signed.test/;proto=mcp"',
                             sign=True)
    ns = (("127.0.0.1", adck_dns.port),)
    anchored = Resolver(DnsConfig(nameservers=ns, trust_anchors=(("signed.test", zone.keys.ds),)))
    assert anchored.txt("_agent.signed.test").dnssec == "valid"
    assert Resolver(DnsConfig(nameservers=ns)).txt("_agent.signed.test").dnssec == "unchecked"
    assert all(q.dnssec_ok for q in adck_dns.log), "the kit asks with the DO bit"


def test_dnssec_tampered_record_is_invalid(adck_dns: MockDNS) -> None:
    zone = adck_dns.add_zone("signed.test", '_agent 300 IN TXT "v=aid1;uri=https://x.signed.test/;proto=mcp"',
                             sign=True)
    name = dns.name.from_text("_agent.signed.test")
    node = zone.zone.get_node(name)
    node.get_rdataset(1, dns.rdatatype.TXT).items.clear()
    node.get_rdataset(1, dns.rdatatype.TXT).add(
        dns.rdtypes.ANY.TXT.TXT(1, dns.rdatatype.TXT, [b"v=aid1;uri=https://evil.test/;proto=mcp"]))
    resolver = Resolver(DnsConfig(nameservers=(("127.0.0.1", adck_dns.port),),
                                  trust_anchors=(("signed.test", zone.keys.ds),)))
    assert resolver.txt("_agent.signed.test").dnssec == "invalid"


def test_unsigned_zone(resolver: Resolver) -> None:
    assert resolver.txt("_agent.example.test").dnssec == "unsigned"


def test_idna_a_labels(adck_dns: MockDNS) -> None:
    adck_dns.add_zone("xn--bcher-kva.test", '_agent 300 IN TXT "v=aid1"')
    resolver = Resolver(DnsConfig(nameservers=(("127.0.0.1", adck_dns.port),)))
    assert a_label("bücher.test") == "xn--bcher-kva.test"
    assert resolver.txt("_agent.bücher.test").texts() == ["v=aid1"]
    assert adck_dns.log[-1].name == "_agent.xn--bcher-kva.test."


@pytest.mark.parametrize("spec, parsed", [("127.0.0.1", ("127.0.0.1", 53)), ("127.0.0.1:5353", ("127.0.0.1", 5353)),
                                          ("[::1]:5353", ("::1", 5353)), ("::1", ("::1", 53))])
def test_nameserver_specs(spec: str, parsed: tuple[str, int]) -> None:
    assert DnsConfig.parse_nameserver(spec) == parsed


@pytest.mark.parametrize("spec", ["", "host:", "host:99999", "host:port"])
def test_bad_nameserver_specs(spec: str) -> None:
    with pytest.raises(ValueError, match="HOST"):
        DnsConfig.parse_nameserver(spec)


@pytest.mark.parametrize(("records", "found", "asked"), [
    ("host 300 IN A 192.0.2.9\nhost 300 IN A 192.0.2.1\nhost 300 IN AAAA 2001:db8::1\n",
     ["192.0.2.9", "192.0.2.1"], ("A",)),
    ("host 300 IN A 192.0.2.9\n", ["192.0.2.9"], ("A",)),
    ("host 300 IN AAAA 2001:db8::2\nhost 300 IN AAAA 2001:db8::1\n", ["2001:db8::2", "2001:db8::1"], ("A", "AAAA")),
    ("host 300 IN TXT \"no address\"\n", [], ("A", "AAAA")),
    ("", [], ("A",)),  # NXDOMAIN: no name, so no AAAA either
])
def test_a_hosts_addresses_are_its_a_records_else_its_aaaa_records(
        adck_dns: MockDNS, records: str, found: list[str], asked: tuple[str, ...]) -> None:
    """The pacer's lookup (one address a host is all a per-address budget needs): A first, AAAA
    only when there is no A record, every query sent counted."""
    adck_dns.add_zone("addresses.test", records or "other 300 IN A 192.0.2.7\n")
    resolver = Resolver(DnsConfig(nameservers=(("127.0.0.1", adck_dns.port),), timeout=0.5, lifetime=1.0))
    assert resolver.addresses("host.addresses.test") == (found, asked)
    assert resolver.queries_sent == len(asked)
    assert [q.rdtype for q in adck_dns.log if q.name.startswith("host.")] == list(asked)


def test_queries_are_counted(resolver: Resolver) -> None:
    resolver.txt("_agent.example.test")
    resolver.txt("multi.example.test")
    assert resolver.queries_sent == 2


def test_a_clients_dns_query_says_who_asked() -> None:
    """The DNS evidence of a client's query says who sent it: the client itself (no declaration:
    as before), the client through a resolver its adapter set, or the adapter on its behalf
    (the hello's optional ``dns``, docs/harness-protocol.md), and the transport the kit's
    nameserver saw."""
    from conformance.harness.adapters import Adapter
    from conformance.reports.model import dns_query_evidence, evidence_line
    from conformance.world.dns import QueryLog

    q = QueryLog("_agent.x.adck.test.", "TXT", "udp", False)
    plain = dns_query_evidence(q)["dns"]
    assert plain["status"] == "asked by the client over udp" and "asked_by" not in plain
    assert dns_query_evidence(q, Adapter(spec="python:m:f", send=lambda m: None).dns_asker()) == {"dns": plain}

    def asker(dns: dict) -> dict:
        adapter = Adapter(spec="cmd:node proxy.mjs", send=lambda m: None)
        adapter.dns = dns
        return adapter.dns_asker()

    forwarded = dns_query_evidence(q, asker({"asked_by": "adapter", "client_transport": "https",
                                             "how": "a DNS-over-HTTPS endpoint forwarding to the kit"}))["dns"]
    assert forwarded["status"] == ("asked by the adapter cmd:node proxy.mjs on the client's behalf over udp "
                                   "(the client asked the adapter over https): a DNS-over-HTTPS endpoint forwarding to the kit")
    assert (forwarded["asked_by"], forwarded["adapter"], forwarded["transport"]) == ("adapter", "cmd:node proxy.mjs", "udp")
    pointed = dns_query_evidence(QueryLog("_agent.x.adck.test.", "TXT", "tcp", True),
                                 asker({"asked_by": "client", "adapter": "toy"}))
    assert evidence_line(pointed) == ("DNS _agent.x.adck.test. TXT -> asked by the client over tcp, to the nameserver "
                                      "its adapter toy pointed it at")


def test_the_hello_may_declare_how_dns_reaches_the_kit() -> None:
    from conformance.harness.adapters import AdapterError, callable_adapter

    base = {"type": "hello", "protocol": "adck-harness/1", "client": {"name": "toy"}, "operations": ["aid.discover"]}
    for dns, ok in [({"asked_by": "adapter", "client_transport": "https"}, True), ({"asked_by": "proxy"}, False),
                    ({"how": "x"}, False)]:
        try:
            adapter = callable_adapter(lambda m, dns=dns: {**base, "dns": dns} if m["type"] == "hello" else None,
                                       "python:t:t")  # sends the hello
        except AdapterError:
            assert not ok, dns
        else:
            assert ok and adapter.dns == dns, dns
