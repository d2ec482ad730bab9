"""Everything of ADP that is code, in one folder (the same names in every draft's): the
conformance suite (``conftest.py``, ``test_*.py`` and their helpers), the reference service
(``reference_server.py``), the reference client (``reference_client.py``) and its harness
adapter (``adapter.py``), and the broken clients (``variants/``). The draft's data is in
``profiles/adp/`` (clauses, ambiguities, levels, schemas) and ``fixtures/adp/`` (documents,
sites, zones, and the tables of broken and conforming variants of both roles).

The conformance suite of the Agent Discovery Profile (draft-xu-efficient-agent-discovery-profile-00).

The document role (an Agent Metadata object, Discovery Request, Discovery Response or error
object given as a file, classified by its members: ``_kinds.py``, AMB-26) is tested by the
``test_*_document_*.py`` modules; the service role is being built. The clause catalog, the draft's conformance levels D0/D1/D2
(``[draft_levels]``), the ambiguities with the kit's reading (the HTTP binding the kit assumes is
AMB-01) and the JSON Schemas of the four objects are in ``profiles/adp/``. Test modules are
named by section (``test_5_2_hard_filters.py`` checks §5.2), each test bound to one clause id.
"""
