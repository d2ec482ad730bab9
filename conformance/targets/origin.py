"""A live origin: ``https://host[:port]`` (or ``http://``, to see the HTTPS clauses fail)."""

from __future__ import annotations

import ipaddress
import re

import httpx

from conformance import catalog
from conformance.targets import Target, TargetError, TargetOptions


_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def host_problem(host: str) -> str | None:
    """Why ``host`` (as it goes on the wire: A-labels, or an IP literal) is not a host name, or None."""
    try:
        ipaddress.ip_address(host)
        return None
    except ValueError:
        pass
    name = host[:-1] if host.endswith(".") else host
    if not name or len(name) > 253:
        return f"{host!r} is not a host name"
    bad = [label for label in name.split(".") if not _LABEL.match(label)]
    if bad:
        return f"{host!r} is not a host name (label {bad[0]!r}: letters, digits and inner hyphens only)"
    return None


class OriginTargets:
    help = "https://HOST[:PORT]  a live server (http:// is tested too, and fails the HTTPS clauses)"
    #: A URL names an origin (``conformance.preflight`` suggests its host where a DOMAIN is due).
    origin = True

    @staticmethod
    def serves(profile: catalog.Profile) -> bool:
        """A draft whose server is reached at an origin; not one published in DNS (AID's
        provider is a DOMAIN: its record names the endpoint)."""
        return profile.bare_target != "domain"

    def create(self, spec: str, options: TargetOptions) -> Target:
        try:
            url = httpx.URL(spec)
        except Exception as exc:  # noqa: BLE001
            raise TargetError(f"--target {spec!r} is not a URL: {exc}") from None
        if url.scheme not in ("http", "https") or not url.host:
            raise TargetError(f"--target {spec!r}: expected https://HOST[:PORT]")
        problem = host_problem(url.raw_host.decode("ascii", "replace"))
        if problem:
            raise TargetError(f"--target {spec!r}: {problem}; expected https://HOST[:PORT]")
        if url.port is not None and not 0 < url.port < 65536:
            raise TargetError(f"--target {spec!r}: port {url.port} is out of range (1-65535)")
        notes = []
        if url.userinfo:
            notes.append("credentials in the target URL were removed; the kit sends none (2.2)")
        origin = str(url.copy_with(userinfo=None, path="/", query=None, fragment=None)).rstrip("/")
        profile = catalog.load(options.draft)
        base = None
        if profile.binding and url.path not in ("", "/"):
            # the operations of a draft with a binding hang off the target the user named, path and all
            base = str(url.copy_with(userinfo=None, query=None, fragment=None)).rstrip("/")
            notes.append(f"the base of the binding is {base} (the target's path kept)")
            if url.query:
                notes.append(f"the query of {url.copy_with(userinfo=None)} is not used")
        elif url.path not in ("", "/") or url.query:
            notes.append(f"only the origin of {url.copy_with(userinfo=None)} is used; the kit builds the well-known URI itself")
        return Target(
            spec=base or origin,
            base=base,
            kind="origin",
            description=f"live origin {origin}",
            roles=(profile.server_role, "document"),
            invoke=options.invoke,
            origin=origin,
            http=options.http_config(),
            notes=notes,
        )
