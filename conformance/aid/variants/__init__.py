"""Deliberately broken variants of the reference AID client: each overrides one step of
``conformance.aid.reference_client.ReferenceAidClient``, so that it violates exactly one client
clause (which one: ``fixtures/aid/client-mutants*.toml``).

They exist to prove that each client-role test can fail. Never use them as clients. One
module per topic; ``VARIANTS`` merges them (a name defined twice is an error).
"""

from __future__ import annotations

from conformance.harness.session import collect_variants
from conformance.aid.reference_client import ReferenceAidClient

#: Variant name -> client class.
VARIANTS: dict[str, type[ReferenceAidClient]] = collect_variants(__name__, __path__, "AID client")
