"""Deliberately broken variants of the reference WoA client: each overrides one step of
``conformance.woa.reference_client.ReferenceWoaClient``, so that it violates exactly one client
clause (which one: ``fixtures/woa/client-mutants*.toml``).

They exist to prove that each client-role test can fail. Never use them as clients. One
module per topic; ``VARIANTS`` merges them (a name defined twice is an error).
``conforming`` holds conforming but unusual clients (``CONFORMING``), which must pass.
"""

from __future__ import annotations

from conformance.harness.session import collect_variants
from conformance.woa.reference_client import ReferenceWoaClient

#: Variant name -> client class (broken).
VARIANTS: dict[str, type[ReferenceWoaClient]] = collect_variants(__name__, __path__, "WoA client")
#: Variant name -> client class (conforming edge cases).
CONFORMING: dict[str, type[ReferenceWoaClient]] = collect_variants(__name__, __path__, "WoA client", "CONFORMING")
