"""``adck scan`` and ``adck judge``: many domains, all drafts, recorded once and judged offline.

The layout follows the data: :mod:`~conformance.scan.domain` scans (or judges again) one domain
through a :class:`~conformance.recording.Recording`; :mod:`~conformance.scan.run` scans many,
resumably; :mod:`~conformance.scan.warc` writes and reads the recordings as WARC;
:mod:`~conformance.scan.judge` judges a scan's WARC offline; :mod:`~conformance.scan.summary`
sums the results up. docs/scan.md is the user's guide.
"""
