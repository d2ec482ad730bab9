"""The tests of AID v2.1's document and provider sentences that only v2.1 holds (aid@v2.1).

Only ``v=aid2`` records are judged by these document sentences; an ``aid1`` record beside them
is the legacy version, read by v1.2's rules (AMB-60). One module per section:

* document (a record, given with ``txt:`` or published at ``_agent.<domain>``):
  ``test_2_1_record_format.py`` (2.1's keys and values), ``test_3_record_security.py`` (https,
  no secrets), ``test_7_2_record_protocols.py`` (the openapi and local rows),
  ``test_B_1_record_key.py`` (k's encoding), ``test_C_wellknown_document.py`` (the fallback JSON);
* provider (the domain's DNS): ``test_2_provider_record.py``, ``test_2_1_provider_format.py``,
  ``test_3_provider_dnssec.py``, ``test_4_provider_ttl.py``.

``_rules.py`` holds what they share: the aid2 records, the problems :mod:`conformance.aid.versioned`
finds by clause, and the checks it does not make (a calendar date, a canonical key, a curve point).
"""
