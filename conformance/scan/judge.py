"""``adck judge SCAN.warc.gz``: a scan's recorded exchanges judged again, offline.

Every domain of the WARC is classed and judged as the scan did, by the same code
(:func:`conformance.scan.domain.scan_domain`), with a recording that answers only what the
scan sent and sends nothing: under the revision the scan judged, the verdicts are the scan's;
under another (``--revision aid@v1.2``), a clause that needs a probe the scan did not send is
*not checked*, never passed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conformance.scan import warc
from conformance.scan.domain import DraftResult, ScanOptions, scan_domain
from conformance.scan.run import Outputs


def judge(path: Path, options: ScanOptions, out: Outputs,
          on_domain: Callable[[str, list[DraftResult]], None] | None = None) -> int:
    """Judge every domain of the WARC at ``path`` into ``out`` (its results file is written
    anew); the number of domains judged."""
    recordings = warc.read_all(path)
    out.prefix.parent.mkdir(parents=True, exist_ok=True)
    with open(out.results, "w", encoding="utf-8") as handle:
        for domain in warc.domains(path) if warc.spans(path) else sorted(recordings):
            results = scan_domain(domain, options, recordings[domain], warc_name=path.name)
            handle.write("".join(r.to_json() + "\n" for r in results))
            if on_domain is not None:
                on_domain(domain, results)
    from conformance.scan import summary

    summary.write(out)
    return len(recordings)
