"""The conformance suite of The Web of Agents (WoA), draft-gaikwad-woa-00.

Being built: no test module exists yet. The clause catalog it will check, one test module
per section of the draft (``test_4_1_agent_objects.py`` for §4.1, and so on), is
``profiles/woa/clauses.toml``, with the draft's ambiguities in ``profiles/woa/ambiguities.toml``
(the received text lost its section numbers: AMB-01 says how the kit numbered them) and the
kit's JSON Schema of the WoA document in ``profiles/woa/schemas/woa-document.schema.json``.
Roles: ``document`` (a woa.json on its own), ``host`` (an origin serving
``/.well-known/woa.json`` and its agents' REST and MCP endpoints) and ``client``.
"""
