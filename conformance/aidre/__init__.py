"""The conformance suite of draft-batum-aidre-00 (AIDRE), being built.

No test module exists yet: the clause catalog, the ambiguities and the kit's JSON Schemas are
in ``profiles/aidre/`` (``clauses.toml``, ``ambiguities.toml``, ``schemas/``), and the profile
says ``complete = false`` with no role implemented. Test modules will follow the other suites:
one module per section of the draft (``test_3_1_well_known_uri.py`` checks §3.1, and so on),
each test bound to one clause id with ``@clause("AIDRE-3.1-01")``.
"""
