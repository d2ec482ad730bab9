"""The conformance suite of draft-aiendpoint-ai-discovery-00, one module per section.

``test_2_1_resource_location.py`` checks §2.1, and so on: reading the suite is reading the
draft. Every test is bound to one clause of ``profiles/aiendpoint/clauses.toml``.
"""

WELL_KNOWN_PATH = "/.well-known/ai"
ALIAS_PATH = "/ai"
