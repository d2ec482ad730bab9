"""Deliberately broken variants of the reference ADP client: each overrides one step of
``conformance.adp.reference_client.ReferenceAdpClient``, so that it violates exactly one client
clause (which one: ``fixtures/adp/client-mutants*.toml``).

They exist to prove that each client-role test can fail. Never use them as clients. One
module per topic; ``VARIANTS`` merges them (a name defined twice is an error).
"""

from __future__ import annotations

from conformance.harness.session import collect_variants
from conformance.adp.reference_client import ReferenceAdpClient

#: Variant name -> client class.
VARIANTS: dict[str, type[ReferenceAdpClient]] = collect_variants(__name__, __path__, "ADP client")
