"""AID v1.2 Appendix B: Protocol Registry, each token's allowed uri schemes (document role).

The rows v2.1 holds word for word (mcp, a2a, grpc, graphql, websocket, zeroconf, ucp) judge
every aid1 and aid2 record; openapi's and local's (v1.2's own wording) the aid1 records."""

from __future__ import annotations

import re

from conformance.aid.conftest import PublishedRecord
from conformance.aid.v1_2 import judge
from conformance.aid.v1_2.judge import label
from conformance.outcomes import clause, not_applicable, untestable, violation

#: A DNS-SD service type (RFC 6763 7): _<service name of 1-15 letters, digits, hyphens>._tcp or _udp.
SERVICE_TYPE = re.compile(r"_[A-Za-z0-9](?:[A-Za-z0-9-]{0,13}[A-Za-z0-9])?\._(?:tcp|udp)", re.IGNORECASE)


def _row(aid_records: list[PublishedRecord], token: str, *, both: bool) -> None:
    """Every record (aid1 and aid2 when ``both``) with p=``token`` has a uri Appendix B allows."""
    __tracebackhide__ = True
    records = judge.shared(aid_records) if both else judge.aid1(aid_records)
    mine = [r for r in records if r.reading.fields.get("proto") == token]
    if not mine:
        not_applicable(f"no {'aid1 or aid2' if both else 'aid1'} record has p={token}")

    def check(record: PublishedRecord) -> None:
        uri = record.reading.fields.get("uri")
        if not uri:
            untestable(f"{label(record)} has no u (see AID-2.1-35)")
        allowed = judge.PROTOCOLS[token]
        expected = " or ".join(f"{s}:" for s in allowed)
        if token == "zeroconf":
            why = None if judge.scheme(uri) == "zeroconf" else f"its scheme is {judge.scheme(uri) or 'missing'}"
            rest = uri.split(":", 1)[1] if ":" in uri else ""
            if why is None and not SERVICE_TYPE.fullmatch(rest):
                why = f"{rest!r} is no DNS-SD service type such as _mcp._tcp"
            expected = "zeroconf:<service_type> (such as zeroconf:_mcp._tcp)"
        elif allowed in (("https",), ("wss",)):
            # https rows: the scheme (its form as an absolute URL is AID-3-03's); wss: the whole
            # URL, which no other v1.2 sentence judges (AMB-55)
            why = (judge.absolute_url_problem(uri, allowed[0])
                   if judge.scheme(uri) != allowed[0] or token == "websocket" else None)
            expected = f"{allowed[0]}://"
        else:
            rest = uri.split(":", 1)[1] if ":" in uri else ""
            why = None if judge.scheme(uri) in allowed and rest.strip() else (
                f"its scheme is {judge.scheme(uri) or 'missing'}" if judge.scheme(uri) not in allowed
                else "no package after the scheme")
        if why:
            violation(f"{label(record)}: expected p={token} to have a {expected} uri (Appendix B); "
                      f"saw u={uri[:80]!r} ({why})",
                      readings=("AMB-65",) if token == "zeroconf" else ("AMB-55",) if token == "websocket" else ())
    judge.judge(mine, check)


@clause("AID-B-06")
def test_B_mcp_uri_is_https(aid_records: list[PublishedRecord]) -> None:
    """| `mcp` | Model Context Protocol | `https://` |

    Every aid1 and aid2 record with p=mcp has a u whose scheme is https (its form as an absolute
    URL: AID-3-03)."""
    _row(aid_records, "mcp", both=True)


@clause("AID-B-07")
def test_B_a2a_uri_is_https(aid_records: list[PublishedRecord]) -> None:
    """| `a2a` | Agent-to-Agent Protocol | `https://` |"""
    _row(aid_records, "a2a", both=True)


@clause("AID-B-08")
def test_B_openapi_uri_is_https(aid_records: list[PublishedRecord]) -> None:
    """| `openapi` | URI points to an OpenAPI specification document | `https://` |

    Every aid1 record with p=openapi has a u whose scheme is https."""
    _row(aid_records, "openapi", both=False)


@clause("AID-B-09")
def test_B_grpc_uri_is_https(aid_records: list[PublishedRecord]) -> None:
    """| `grpc` | gRPC over HTTP/2 or HTTP/3 | `https://` |"""
    _row(aid_records, "grpc", both=True)


@clause("AID-B-10")
def test_B_graphql_uri_is_https(aid_records: list[PublishedRecord]) -> None:
    """| `graphql` | GraphQL over HTTP | `https://` |"""
    _row(aid_records, "graphql", both=True)


@clause("AID-B-11")
def test_B_websocket_uri_is_wss(aid_records: list[PublishedRecord]) -> None:
    """| `websocket` | WebSocket transport | `wss://` |

    Every aid1 and aid2 record with p=websocket has a u whose scheme is wss: not https (AMB-55),
    not the unencrypted ws."""
    _row(aid_records, "websocket", both=True)


@clause("AID-B-12")
def test_B_local_uri_is_a_package_locator(aid_records: list[PublishedRecord]) -> None:
    """| `local` | The agent runs locally on the client machine | `docker:`, `npx:`, `pip:` |

    Every aid1 record with p=local has a u docker:, npx: or pip: followed by the package."""
    _row(aid_records, "local", both=False)


@clause("AID-B-13")
def test_B_zeroconf_uri_names_a_service_type(aid_records: list[PublishedRecord]) -> None:
    """| `zeroconf` | mDNS/DNS-SD service discovery | `zeroconf:<service_type>` |

    Every aid1 and aid2 record with p=zeroconf has a u zeroconf:<service type>, the service type
    a DNS-SD one (RFC 6763 7: _name._tcp or _name._udp), as 2.2's zeroconf:_mcp._tcp."""
    _row(aid_records, "zeroconf", both=True)


@clause("AID-B-14")
def test_B_ucp_uri_is_https(aid_records: list[PublishedRecord]) -> None:
    """| `ucp` | Universal Commerce Protocol | `https://` |"""
    _row(aid_records, "ucp", both=True)
