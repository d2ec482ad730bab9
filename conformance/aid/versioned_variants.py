"""Broken variants of the reference AID client of v1.2 and v2.1
(:mod:`conformance.aid.versioned_client`): each overrides one decision to break one clause,
proving that clause's client test can fail. Their data (clause, summary) is in
fixtures/aid/client-mutants-versioned.toml."""

from __future__ import annotations

from conformance.aid.versioned_client import VersionedAidClient

#: name -> class (``builtin:NAME`` with ``--role client`` under aid@v1.2 or aid@v2.1).
VARIANTS: dict[str, type[VersionedAidClient]] = {}
