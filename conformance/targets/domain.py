"""DNS-published targets (AID): a domain to look up, or a TXT record on its own."""

from __future__ import annotations

from conformance.dns import a_label, parse_zone_line
from conformance.targets import Target, TargetError, TargetOptions


class DomainTargets:
    drafts = ("aid",)
    help = "DOMAIN  a provider publishing _agent.DOMAIN (asks --nameserver, or the system's resolver)"

    def create(self, spec: str, options: TargetOptions) -> Target:
        domain = spec.rstrip(".")
        try:
            ascii_domain = a_label(domain)
        except Exception as exc:  # noqa: BLE001
            raise TargetError(f"--target {spec!r} is not a domain name: {exc}") from None
        servers = ", ".join(f"{h}:{p}" for h, p in options.nameservers) or "the system's resolver"
        return Target(spec=domain, kind="domain", description=f"provider {domain}", roles=("provider", "document"),
                      domain=ascii_domain, dns=options.dns_config(), http=options.http_config(),
                      notes=[f"DNS asked: {servers}"])


class RecordTargets:
    #: The drafts whose documents are DNS records (other drafts refuse ``txt:``).
    drafts = ("aid",)
    help = 'txt:RECORD  an AID TXT record on its own: the value ("v=aid1;...") or a zone-file line (document role)'

    def create(self, spec: str, options: TargetOptions) -> Target:
        value = spec.removeprefix("txt:")
        if not value.strip():
            raise TargetError("--target txt: needs the record, e.g. txt:\"v=aid1;uri=https://api.example.com/mcp;proto=mcp\"")
        if " TXT " in f" {value.upper()} " and value.lstrip().startswith("_"):
            try:
                line = parse_zone_line(value)
            except ValueError as exc:
                raise TargetError(f"--target {spec[:60]!r}: {exc}") from None
            record = (line.strings, line.ttl)
            description = f"TXT record of {line.name} (a zone-file line)"
        else:
            record = ([value.encode("utf-8")], None)
            description = "a TXT record value"
        return Target(spec=spec, kind="document", description=description, roles=("document",), record=record)
