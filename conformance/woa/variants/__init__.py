"""Deliberately broken variants of the reference WoA client: each overrides one step of
``conformance.woa.reference_client.ReferenceWoaClient``, so that it violates exactly one client
clause (which one: ``fixtures/woa/client-mutants*.toml``).

They exist to prove that each client-role test can fail. Never use them as clients. One
module per topic; ``VARIANTS`` merges them (a name defined twice is an error).
``conforming`` holds conforming but unusual clients (``CONFORMING``), which must pass.
"""

from __future__ import annotations

import importlib
import pkgutil

from conformance.woa.reference_client import ReferenceWoaClient


def _collect(table: str) -> dict[str, type[ReferenceWoaClient]]:
    found: dict[str, type[ReferenceWoaClient]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name, cls in getattr(module, table, {}).items():
            if name in found:
                raise ValueError(f"WoA client variant {name!r} is defined twice ({info.name})")
            found[name] = cls
    return found


#: Variant name -> client class (broken).
VARIANTS: dict[str, type[ReferenceWoaClient]] = _collect("VARIANTS")
#: Variant name -> client class (conforming edge cases).
CONFORMING: dict[str, type[ReferenceWoaClient]] = _collect("CONFORMING")
