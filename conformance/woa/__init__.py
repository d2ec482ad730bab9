"""Everything of WoA that is code, in one folder (the same names in every draft's): the
conformance suite (``conftest.py``, ``test_*.py`` and their helpers), the reference host
(``reference_server.py``), the reference client (``reference_client.py``) and its harness
adapter (``adapter.py``), and the broken clients (``variants/``). The draft's data is in
``profiles/woa/`` (clauses, ambiguities, levels, schemas) and ``fixtures/woa/`` (documents,
sites, zones, and the tables of broken and conforming variants of both roles).

The conformance suite of The Web of Agents (WoA), draft-gaikwad-woa-00.

The **document** role is built: a woa.json on its own, one test module per section of the draft
(``test_4_1_agent_objects.py`` for §4.1, and so on), checked against the clause catalog
``profiles/woa/clauses.toml`` with the draft's ambiguities in ``profiles/woa/ambiguities.toml``
(the received text lost its section numbers: AMB-01 says how the kit numbered them).
``oracle.judge`` runs every document test in-process; ``strategies`` draws valid documents and
named ways of breaking each clause; ``schema_check`` judges the JSON Schema fields offline
(AMB-18, AMB-25). The kit's JSON Schema of the WoA document is
``profiles/woa/schemas/woa-document.schema.json``.

The **host** role (an origin serving ``/.well-known/woa.json`` and its agents' REST endpoint)
is built: ``_host_fixtures`` fetches the document once (the document role judges the same
bytes) and sends each kind of invocation once per run through the run's ``Invoker`` (always
for ``builtin``, with ``--invoke`` and within ``--invoke-budget`` for a live host); the
``test_<section>_host_*.py`` modules judge the location (§3), the media type (§9.2), caching
(§7), HTTPS and TLS 1.3 (§8.1, §4.3.1), what the REST endpoint accepts and answers (§4.3.1),
the implied operation (§5.1), agent mismatches, successes against ``outputs`` and errors
(§5.2), and accurate ``inputs`` (§4.2). ``inputs`` builds valid and invalid inputs from an
agent's own ``inputs`` schema (each proven by the 2020-12 validator before it is sent);
``reference`` is the reference host's REST handler, whose ``Options`` its broken variants
(``fixtures/woa/mutants.toml``) change. The host's readings are AMB-26..AMB-35
(``profiles/woa/ambiguities-host.toml``).

The host's **MCP transport** (§4.3.2, §5.3): ``_mcp_fixtures`` connects once per run to the
MCP server ``transports.mcp`` names (an https URL only) as a real MCP client, the official
SDK's over Streamable HTTP within the kit's limits; ``test_4_3_2_host_mcp`` checks that each
agent listing ``mcp`` has its tool listed, ``test_4_1_host_mcp_outputs`` calls each tool once
(counted against ``--invoke-budget``) and validates the result against ``outputs``. The
built-in host serves its MCP server from ``conformance/woa/reference_mcp_server.py`` (broken variants:
``fixtures/woa/mutants-mcp.toml``); the readings are AMB-40..AMB-44
(``profiles/woa/ambiguities-mcp.toml``).

The **client** role (software that discovers and invokes agents) is checked through the
harness (``adck-harness/1`` operations ``woa.discover`` and ``woa.invoke``, docs/harness-protocol.md):
the kit serves each scenario's document and invocation endpoints on loopback
(``_client_fixtures``: the reference host's site under a fresh name, private resolutions declared
in the step's ``network.resolve`` while the connection stays on loopback) and judges the requests
the client sends: the document fetch and its caching (§7), the invocation URL, method, media type
and envelope (§4.3.1, §5.1, §5.2), the MCP tools/call it translates the envelope into
(§4.3.2, a small MCP server routed in the scenario world: handler ``woa.client-mcp``), the inputs it builds from a schema (§4.2), certificates,
plain HTTP, private addresses and redirects (§8), in the ``test_*_client_*`` modules. The
reference client is ``conformance/woa/reference_client.py`` (``adck run woa --role client --target
builtin``), its broken variants ``conformance/woa/variants`` (``fixtures/woa/client-mutants*.toml``);
the readings are AMB-50..AMB-53 and AMB-55..AMB-57 (``profiles/woa/ambiguities-client.toml``).
"""
