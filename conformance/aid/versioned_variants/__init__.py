"""Deliberately broken variants of the reference AID client of v1.2 and v2.1: each overrides one
step of ``conformance.aid.versioned_client.VersionedAidClient``, so that it violates exactly one
client clause (which one: ``fixtures/aid/client-mutants-versioned*.toml``).

They exist to prove that each client-role test of aid@v1.2 and aid@v2.1 can fail. Never use them
as clients. One module per topic; ``VARIANTS`` merges them (a name defined twice is an error).
"""

from __future__ import annotations

from conformance.aid.versioned_client import VersionedAidClient
from conformance.harness.session import collect_variants

#: Variant name -> client class.
VARIANTS: dict[str, type[VersionedAidClient]] = collect_variants(__name__, __path__, "AID v1.2/v2.1 client")
