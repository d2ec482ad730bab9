"""§4.3.3 Private transport names (host role)."""

from __future__ import annotations

from conformance.outcomes import clause

REGISTERED = ("rest", "mcp")


@clause("WOA-4.3.3-01")
def test_4_3_3_host_may_define_private_transports(host_value: dict) -> None:
    """Hosts MAY define private transport names for experimental use. (A MAY: the kit reports
    the transport names the served document configures beyond the registered rest and mcp,
    and fails none; their syntax is the document role's WOA-4.3.3-02: AMB-10.)"""
    transports = host_value.get("transports")
    names = sorted(n for n in transports if n not in REGISTERED) if isinstance(transports, dict) else []
    print("private transport names: " + (", ".join(names) if names else "none"))
