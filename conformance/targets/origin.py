"""A live origin: ``https://host[:port]`` (or ``http://``, to see the HTTPS clauses fail)."""

from __future__ import annotations

import httpx

from conformance.targets import Target, TargetError, TargetOptions


class OriginTargets:
    help = "https://HOST[:PORT]  a live server (http:// is tested too, and fails the HTTPS clauses)"

    def create(self, spec: str, options: TargetOptions) -> Target:
        try:
            url = httpx.URL(spec)
        except Exception as exc:  # noqa: BLE001
            raise TargetError(f"--target {spec!r} is not a URL: {exc}") from None
        if url.scheme not in ("http", "https") or not url.host:
            raise TargetError(f"--target {spec!r}: expected https://HOST[:PORT]")
        notes = []
        if url.userinfo:
            notes.append("credentials in the target URL were removed; the kit sends none (2.2)")
        if url.path not in ("", "/") or url.query:
            notes.append(f"only the origin of {url.copy_with(userinfo=None)} is used; the kit builds the well-known URI itself")
        origin = str(url.copy_with(userinfo=None, path="/", query=None, fragment=None)).rstrip("/")
        return Target(
            spec=origin,
            kind="origin",
            description=f"live origin {origin}",
            roles=("publisher", "document"),
            origin=origin,
            http=options.http_config(),
            notes=notes,
        )
