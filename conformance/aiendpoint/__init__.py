"""Everything of draft-aiendpoint-ai-discovery-00 that is code, in one folder (the same names in every draft's): the
conformance suite (``conftest.py``, ``test_*.py`` and their helpers), the reference publisher
(``reference_server.py``), the reference agent (``reference_client.py``) and its harness
adapter (``adapter.py``), and the broken agents (``variants/``). The draft's data is in
``profiles/aiendpoint/`` (clauses, ambiguities, levels, schemas) and ``fixtures/aiendpoint/`` (documents,
sites, zones, and the tables of broken and conforming variants of both roles).

The conformance suite of draft-aiendpoint-ai-discovery-00, one module per section.

``test_2_1_resource_location.py`` checks §2.1, and so on: reading the suite is reading the
draft. Every test is bound to one clause of ``profiles/aiendpoint/clauses.toml``.
"""

WELL_KNOWN_PATH = "/.well-known/ai"
ALIAS_PATH = "/ai"
