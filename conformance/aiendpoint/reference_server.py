"""The reference aiendpoint publisher: data, served by the mock world.

The publisher is ``fixtures/aiendpoint/publisher.toml`` (its routes: the document of
``fixtures/aiendpoint/document.json`` at ``/.well-known/ai``, and the ``/ai`` alias), served
on loopback by :mod:`conformance.world.https`; its broken and conforming variants are patches
of it in ``fixtures/aiendpoint/mutants.toml`` (``builtin:NAME``). No code of its own runs: the
document is static, as a publisher's is. The same names in every draft's folder:
``reference_server`` (this), ``reference_client``, ``adapter``, ``variants``.
"""

from __future__ import annotations

from conformance.world.site import Reference

#: The reference publisher and its variants (``REFERENCE.site()``, ``REFERENCE.variants()``).
REFERENCE = Reference("aiendpoint")
