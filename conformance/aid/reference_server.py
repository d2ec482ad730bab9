"""The reference AID provider: data, served by the mock world.

The provider is ``fixtures/aid/provider.toml``: its ``_agent`` TXT record, in a zone (signed
or not) on the mock DNS server (:mod:`conformance.world.dns`), and its ``aid.json`` manifest
(``fixtures/aid/aid.json``) on the mock HTTPS world (:mod:`conformance.world.https`); its broken
variants are patches of it in ``fixtures/aid/mutants*.toml`` (``builtin:NAME``). No code of its
own runs: a provider publishes records and a file. The same names in every draft's folder:
``reference_server`` (this), ``reference_client``, ``adapter``, ``variants``.
"""

from __future__ import annotations

from conformance.world.site import Reference

#: The reference provider and its variants (``REFERENCE.site()``, ``REFERENCE.variants()``).
REFERENCE = Reference("aid")
