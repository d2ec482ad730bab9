"""Deliberately broken variants of the reference AID client: each overrides one step of
``conformance.aid.reference_client.ReferenceAidClient``, so that it violates exactly one client
clause (which one: ``fixtures/aid/client-mutants*.toml``).

They exist to prove that each client-role test can fail. Never use them as clients. One
module per topic; ``VARIANTS`` merges them (a name defined twice is an error).
"""

from __future__ import annotations

import importlib
import pkgutil

from conformance.aid.reference_client import ReferenceAidClient


def _collect() -> dict[str, type[ReferenceAidClient]]:
    found: dict[str, type[ReferenceAidClient]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name, cls in getattr(module, "VARIANTS", {}).items():
            if name in found:
                raise ValueError(f"AID client variant {name!r} is defined twice ({info.name})")
            found[name] = cls
    return found


#: Variant name -> client class.
VARIANTS: dict[str, type[ReferenceAidClient]] = _collect()
