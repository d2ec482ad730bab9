"""Deliberately broken variants of the reference AIDRE client: each overrides one step of
``conformance.aidre.reference_client.ReferenceAidreClient``, so that it violates exactly one client
clause (which one: ``fixtures/aidre/client-mutants*.toml``).

They exist to prove that each client-role test can fail. Never use them as clients. One
module per topic; ``VARIANTS`` merges them (a name defined twice is an error).
"""

from __future__ import annotations

from conformance.harness.session import collect_variants
from conformance.aidre.reference_client import ReferenceAidreClient

#: Variant name -> client class.
VARIANTS: dict[str, type[ReferenceAidreClient]] = collect_variants(__name__, __path__, "AIDRE client")
