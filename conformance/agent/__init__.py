"""The kit's reference clients: small, real clients built on the kit's fetcher and resolver.

``conformance.agent.reference.ReferenceAgent`` discovers and invokes aiendpoint services as
the draft asks an agent to; ``conformance.agent.aid_client.ReferenceAidClient`` discovers AID
services (and says what it would connect to or run). ``conformance.agent.mutants`` and
``conformance.agent.aid_mutants`` hold their deliberately broken variants (each overrides one
step); ``conformance.agent.adapter`` and ``conformance.agent.aid_adapter`` expose any of them
over the harness protocol, in-process (``python:``) or as a subprocess (``cmd:``).
"""

from __future__ import annotations

from typing import Callable


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
