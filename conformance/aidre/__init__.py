"""Everything of AIDRE that is code, in one folder (the same names in every draft's): the
conformance suite (``conftest.py``, ``test_*.py`` and their helpers), the reference server
(``reference_server.py``), the reference client (``reference_client.py``) and its harness
adapter (``adapter.py``), and the broken clients (``variants/``). The draft's data is in
``profiles/aidre/`` (clauses, ambiguities, levels, schemas) and ``fixtures/aidre/`` (documents,
sites, zones, and the tables of broken and conforming variants of both roles).

The conformance suite of draft-batum-aidre-00 (AIDRE), being built.

The document role is implemented for the discovery document (AMB-25): one module per section
of the draft (``test_23_1_discovery_version.py`` checks §23.1, and so on), each test bound to
one clause id with ``@clause("AIDRE-23.1-01")``. ``oracle.judge`` runs them in-process;
``strategies`` draws valid discovery documents and named ways of breaking each clause. The
server and client roles, and search responses and error objects as documents, are catalogued
in ``profiles/aidre/`` and not tested yet (``complete = false``).

The client role (modules ``test_*_client_*.py``, fixtures in ``_client_fixtures.py``): the kit
plays AIDRE origins on loopback (a discovery document per scenario, its search endpoint
answered by ``scenario_server.py`` over the reference server's corpus and ranking, with
cursors that change format between pages, unknown members, l2 and dot spaces), drives the
client under test through the harness operation ``aidre.search``, and judges from its reply
(the results in its order of relevance) and the requests it sent. The reference client is
``conformance/aidre/reference_client.py``; its broken variants ``conformance/aidre/variants/``.
"""
