"""The conformance suite of the Agent Discovery Profile (draft-xu-efficient-agent-discovery-profile-00).

Being built: no test module yet. The clause catalog, the draft's conformance levels D0/D1/D2
(``[draft_levels]``), the ambiguities with the kit's reading (the HTTP binding the kit assumes is
AMB-01) and the JSON Schemas of the four objects are in ``profiles/adp/``. Test modules will be
named by section (``test_5_2_hard_filters.py`` checks §5.2), each test bound to one clause id.
"""
