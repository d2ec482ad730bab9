"""The conformance suite of draft-batum-aidre-00 (AIDRE), being built.

The document role is implemented for the discovery document (AMB-25): one module per section
of the draft (``test_23_1_discovery_version.py`` checks §23.1, and so on), each test bound to
one clause id with ``@clause("AIDRE-23.1-01")``. ``oracle.judge`` runs them in-process;
``strategies`` draws valid discovery documents and named ways of breaking each clause. The
server and client roles, and search responses and error objects as documents, are catalogued
in ``profiles/aidre/`` and not tested yet (``complete = false``).
"""
