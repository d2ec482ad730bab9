"""AID v1.2 (aid@v1.2): the tests of its document and provider sentences.

Every AID record published at ``_agent.<domain>`` (or given with ``txt:``) is read by the rules of
its own version (:mod:`conformance.aid.versioned`). A sentence only v1.2 holds judges the v=aid1
records (an aid2 record beside them is v2.1's, not a v1.2 record); a sentence v1.2 shares word
for word with v2.1 (AID-2.1-31, AID-2.1-41, the https/wss/zeroconf rows of Appendix B) judges
every aid1 and every aid2 record, each by its own version's table (:mod:`.judge`).
"""
