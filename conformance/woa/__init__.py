"""The conformance suite of The Web of Agents (WoA), draft-gaikwad-woa-00.

The **document** role is built: a woa.json on its own, one test module per section of the draft
(``test_4_1_agent_objects.py`` for §4.1, and so on), checked against the clause catalog
``profiles/woa/clauses.toml`` with the draft's ambiguities in ``profiles/woa/ambiguities.toml``
(the received text lost its section numbers: AMB-01 says how the kit numbered them).
``oracle.judge`` runs every document test in-process; ``strategies`` draws valid documents and
named ways of breaking each clause; ``schema_check`` judges the JSON Schema fields offline
(AMB-18, AMB-25). The kit's JSON Schema of the WoA document is
``profiles/woa/schemas/woa-document.schema.json``. The ``host`` (an origin serving
``/.well-known/woa.json`` and its agents' REST and MCP endpoints) and ``client`` roles are
catalogued but not yet tested.
"""
