"""The conformance suite of Agent Interface Discovery (AID) via DNS, v1 (2025-06-19).

Empty for now: the clause catalog (``profiles/aid/clauses.toml``) comes first. The suite's
modules will be named by section like ``conformance/aiendpoint``'s: ``test_2_1_dns_record.py``
checks §2.1, ``test_2_2_2_implementation_object.py`` §2.2.2, ``test_4_1_local_execution.py``
§4.1, ``test_B_caching.py`` Appendix B, and so on, each test bound to one clause id.
"""
