"""The built-in targets: the draft's reference implementation, and its variants.

``builtin`` serves the reference of the draft's server role, ``fixtures/<draft>/<role>.toml``
(``publisher.toml``, ``host.toml``, ``server.toml``, ``service.toml``; an AID provider is a zone
and a site), from the mock HTTPS world on loopback, with a WoA host's MCP server beside it;
``builtin:<name>`` serves the variant ``<name>`` of ``fixtures/<draft>/mutants*.toml``, and with
the client role, a broken reference client (``adck targets <draft>`` lists them all). Nothing
leaves 127.0.0.1.
"""

from __future__ import annotations

from conformance.targets import Target, TargetError, TargetOptions
from conformance.world import https
from conformance.world.site import load_mutants, load_reference, mutate


def _client_of(options: TargetOptions):
    """The reference client of the revision judged (a revision may name its own, AID v1.2)."""
    from conformance import catalog, revisions

    if options.revision:
        return revisions.profile_of(options.draft, options.revision).client
    return catalog.load(options.draft).client


def _unknown_variant(draft: str, name: str, role: str | None, count: int) -> TargetError:
    """No variant ``name`` for the role being checked: say which ``--role`` has it, if one does."""
    from conformance import catalog

    client = catalog.load(draft).client
    if client is not None:
        if role != client.role and name in load_mutants(draft, "mutants", file=client.mutants):
            return TargetError(f"builtin:{name} is a broken {client.role} of {draft}: check it with "
                               f"--role {client.role} --target builtin:{name}")
        if role == client.role and (name in load_mutants(draft) or name in load_mutants(draft, "conforming")):
            return TargetError(f"builtin:{name} is a built-in variant of {draft}'s reference server, not a "
                               f"{client.role}: check it without --role {client.role}")
    what = f"{role} variant" if role else "variant"
    return TargetError(f"no built-in {what} {name!r} for {draft}; `adck targets {draft}` lists the {count} there are")


def _with_companion(companion: str, site, origin, http, notes):
    """Start the draft's companion server beside the origin (``[world] companion`` of its
    profile: a WoA host's MCP server): the target's HttpConfig maps its name too, and closing
    the target stops both. A companion answers None when the site needs none."""
    import importlib
    from dataclasses import replace

    module, _, function = companion.partition(":")
    try:
        server = getattr(importlib.import_module(module), function)(site)
    except BaseException:
        origin.stop()
        raise
    if server is None:
        return http, notes, origin.stop

    def close() -> None:
        try:
            server.stop()
        finally:
            origin.stop()

    http = replace(http, connect_to=http.connect_to + (server.connect_to,))
    return http, notes + [server.note], close


class BuiltinTargets:
    help = "builtin | builtin:MUTANT  the reference implementation, or a broken variant of it"

    def create(self, spec: str, options: TargetOptions) -> Target:
        name = spec.partition(":")[2]
        from conformance import catalog

        client = _client_of(options)
        if client and client.role in options.roles:
            return self._client(spec, name, options, client)
        from conformance.resources import fixtures_dir

        if (fixtures_dir(options.draft) / "provider.toml").exists():
            return self._provider(spec, name, options)
        server_role = catalog.load(options.draft).server_role
        try:
            site = load_reference(options.draft)
        except FileNotFoundError:
            raise TargetError(f"draft {options.draft!r} has no built-in reference {server_role}") from None
        description = f"built-in reference {server_role} of {options.draft}"
        declares: tuple[str, ...] = ()
        if name:
            broken, conforming = load_mutants(options.draft), load_mutants(options.draft, "conforming")
            if name in broken:
                variant, kind = broken[name], "broken"
            elif name in conforming:
                variant, kind = conforming[name], "conforming"
            else:
                raise _unknown_variant(options.draft, name, None, len(broken) + len(conforming))
            site = mutate(site, variant)
            description = f"built-in {kind} variant {name!r} of {options.draft} ({variant.summary})"
            declares = variant.declare
        origin = https.serve(site)
        http, notes = origin.http_config(options.limits), [f"served on 127.0.0.1:{origin.port} as {origin.origin}, trusted through the mock CA"]
        close = origin.stop
        companion = catalog.load(options.draft).world_companion
        if companion:  # a server beside the origin (a WoA host's MCP transport, 4.3.2)
            http, notes, close = _with_companion(companion, site, origin, http, notes)
        return Target(
            spec=spec,
            kind="origin",
            description=description,
            roles=(server_role, "document"),
            invoke=True,  # the built-in host is the kit's own: invoking it costs nothing
            origin=origin.origin,
            http=http,
            notes=notes,
            declares=declares,
            _on_close=close,
        )

    def _client(self, spec: str, name: str, options: TargetOptions, client) -> Target:
        """The reference client, or a broken variant of it (fixtures/<draft>/<client.mutants>)."""
        import importlib
        import shlex
        import sys

        from conformance.harness.adapters import callable_adapter, command_adapter
        from conformance.targets.agent import agent_target

        adapter_module = importlib.import_module(client.adapter)
        what = f"built-in reference {client.role}"
        if not name:
            return agent_target(spec, callable_adapter(adapter_module.make_handler(), spec), what, client.role)
        variants = load_mutants(options.draft, "mutants", file=client.mutants)
        classes = importlib.import_module(client.variants).VARIANTS
        if name not in variants or name not in classes:
            raise _unknown_variant(options.draft, name, client.role, len(variants))
        variant = variants[name]
        if variant.via == "cmd":
            command = f"cmd:{shlex.quote(sys.executable)} -m {client.adapter} --variant {name}"
            adapter = command_adapter(command)
        else:
            adapter = callable_adapter(adapter_module.make_handler(classes[name], f"{what}, broken variant {name}"), spec)
        return agent_target(spec, adapter, f"built-in broken {client.role} variant {name!r} ({variant.summary}):",
                            client.role)

    def _provider(self, spec: str, name: str, options: TargetOptions) -> Target:
        """A DNS-published provider: its zone on the mock DNS, its manifest on the mock HTTPS world."""
        from conformance.dns import DnsConfig
        from conformance.world.dns import MockDNS
        from conformance.world.site import load_provider, mutate_provider

        provider = load_provider(options.draft)
        description = f"built-in reference provider of {options.draft}"
        if name:
            mutants, conforming = load_mutants(options.draft), load_mutants(options.draft, "conforming")
            variant = mutants.get(name) or conforming.get(name)
            if variant is None:
                raise _unknown_variant(options.draft, name, None, len(mutants) + len(conforming))
            provider = mutate_provider(provider, variant)
            kind = "broken" if name in mutants else "conforming"
            description = f"built-in {kind} variant {name!r} of {options.draft} ({variant.summary})"
        server = MockDNS()
        origin = None
        try:
            zone = server.add_zone(provider.domain, provider.zone_text(), sign=provider.sign)
            if provider.fault:
                server.fault(f"_agent.{provider.domain}", provider.fault)  # type: ignore[arg-type]
            origin = https.serve(provider.site)
        except Exception:
            server.stop()
            raise

        def close() -> None:
            origin.stop()
            server.stop()

        anchors = ((provider.domain, zone.keys.ds),) if zone.keys else ()
        if provider.stale_ds and zone.keys:  # the DS of a key the zone is not signed with
            import dns.dnssec
            import dns.name
            import dns.rrset
            from cryptography.hazmat.primitives.asymmetric import ec

            apex = dns.name.from_text(provider.domain)
            key = dns.dnssec.make_dnskey(ec.generate_private_key(ec.SECP256R1()).public_key(),
                                         dns.dnssec.Algorithm.ECDSAP256SHA256, flags=257)
            anchors = ((provider.domain, dns.rrset.from_rdata(apex, 300, dns.dnssec.make_ds(apex, key, "SHA256"))),)
        return Target(
            spec=spec, kind="domain", description=description, roles=("provider", "document"),
            domain=provider.domain,
            dns=DnsConfig(nameservers=(("127.0.0.1", server.port),), trust_anchors=anchors),
            http=origin.http_config(options.limits),
            notes=[f"DNS: the kit's mock server on 127.0.0.1:{server.port} (zone signed: {provider.sign}); "
                   f"manifest host served on 127.0.0.1:{origin.port}"],
            _on_close=close,
        )
