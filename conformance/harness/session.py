"""The adapters' side of the harness, shared by every draft's reference client.

Each draft's folder holds a small, real reference client built on the kit's fetcher and
resolver (``conformance/<draft>/reference_client.py``), its broken variants
(``conformance/<draft>/variants/``) and the adapter that exposes any of them over the harness
protocol (``conformance/<draft>/adapter.py``), in-process (``python:``) or as a subprocess
(``cmd:``). What those adapters share is here: :func:`session_handler` (hello, one client per
session, run steps, stop), :func:`variant_main` (``python -m <adapter> [--variant NAME]``),
:func:`http_config_of` (the network a harness request describes) and :func:`collect_variants`
(a ``variants`` package's broken clients, merged).
"""

from __future__ import annotations

from typing import Any, Callable


def variant_main(argv: list[str] | None, description: str, make_handler: Callable, reference: type, name: str,
                 variants_module: str) -> int:
    """``python -m <adapter> [--variant NAME]``: serve the reference client, or one of its
    broken variants (``VARIANTS`` of ``variants_module``), over JSON lines."""
    import argparse
    import importlib

    from conformance.harness import serve_lines

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--variant", help=f"a broken variant from {variants_module} (default: the reference)")
    args = parser.parse_args(argv)
    chosen = reference
    if args.variant:
        variants = importlib.import_module(variants_module).VARIANTS
        if args.variant not in variants:
            parser.error(f"unknown variant {args.variant!r}; known: {', '.join(sorted(variants))}")
        chosen, name = variants[args.variant], f"{name}, broken variant {args.variant}"
    return serve_lines(make_handler(chosen, name))


def session_handler(*, name: str, operations: list[str], features: list[str], new_client: Callable[[dict], Any],
                    step: Callable[[Any, dict], dict], failed: Callable[[str, Exception], dict],
                    close: Callable[[Any], None] | None = None) -> Callable[[dict], dict | None]:
    """A harness message handler (``hello``, ``run`` steps, ``stop``) over one client per session:
    ``new_client(network)`` makes a session's client, ``step(client, message)`` answers a step,
    and ``failed(step_id, exc)`` is the reply when the client raised (the client broke, not the
    adapter: an ``unhandled`` error outcome). One piece of code for every draft's reference client."""
    from conformance import __version__
    from conformance.harness import PROTOCOL

    sessions: dict[str, Any] = {}

    def handle(message: dict) -> dict | None:
        kind = message.get("type")
        if kind == "hello":
            return {"type": "hello", "protocol": PROTOCOL,
                    "client": {"name": name, "version": __version__, "language": "python"},
                    "operations": list(operations), "features": list(features)}
        if kind == "stop":
            for client in sessions.values():
                if close is not None:
                    close(client)
            sessions.clear()
            return None  # stop has no reply
        try:
            client = sessions.get(message["session"])
            if client is None:
                client = sessions[message["session"]] = new_client(message["params"]["network"])
            return step(client, message)
        except Exception as exc:  # noqa: BLE001 - the client broke; the adapter says so
            return failed(message["id"], exc)

    return handle


def http_config_of(network: dict):
    """The HTTP configuration a harness request's ``network`` describes (CA file, --connect-to)."""
    from pathlib import Path

    from conformance.fetch import ConnectTo, HttpConfig

    return HttpConfig(ca_bundle=Path(network["ca_file"]),
                      connect_to=tuple(ConnectTo.parse(c) for c in network.get("connect_to", [])))


def collect_variants(package: str, path: list[str], label: str, table: str = "VARIANTS") -> dict[str, type]:
    """A ``variants`` package's broken clients, one module per topic, merged: ``table`` (name ->
    client class) of every module of ``package`` (its ``__path__``), in module order; a name
    defined twice is an error naming ``label`` ("AID client")."""
    import importlib
    import pkgutil

    found: dict[str, type] = {}
    for info in sorted(pkgutil.iter_modules(path), key=lambda i: i.name):
        module = importlib.import_module(f"{package}.{info.name}")
        for name, cls in getattr(module, table, {}).items():
            if name in found:
                raise ValueError(f"{label} variant {name!r} is defined twice ({info.name})")
            found[name] = cls
    return found
