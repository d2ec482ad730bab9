"""Everything of AID that is code, in one folder (the same names in every draft's): the
conformance suite (``conftest.py``, ``test_*.py`` and their helpers), the reference provider
(``reference_server.py``), the reference client (``reference_client.py``) and its harness
adapter (``adapter.py``), and the broken clients (``variants/``). The draft's data is in
``profiles/aid/`` (clauses, ambiguities, levels, schemas) and ``fixtures/aid/`` (documents,
sites, zones, and the tables of broken and conforming variants of both roles).

The conformance suite of Agent Interface Discovery (AID) via DNS, v1 (2025-06-19).

One module per section of the draft, each test bound to one clause id of
``profiles/aid/clauses.toml`` and quoting its sentence:

* provider and document roles (the ``_agent`` TXT record, the ``aid.json`` manifest):
  ``test_2_1_dns_record.py`` checks §2.1, ``test_2_2_2_implementation_object.py`` §2.2.2,
  ``test_4_security.py`` §4, ``test_C_revocation.py`` Appendix C, and so on;
* client role (``test_*_client_*.py``): the kit publishes scenarios on its mock DNS and HTTPS
  servers and asks the client under test, through the harness protocol, what it would do
  (``clients.py`` holds the scenarios and the driver; ``strategies.py`` the generated records
  and manifests).
"""
