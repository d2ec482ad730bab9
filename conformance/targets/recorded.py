"""``warc:SCAN.warc.gz#DOMAIN``: a domain as a scan recorded it, judged offline.

The target is the one a live run would have (AID: the domain, its ``_agent`` TXT record; the
other drafts: the origin ``https://DOMAIN``), with every request and lookup answered from the
scan's WARC (:mod:`conformance.scan.warc`) and nothing sent: a request the scan did not record
makes the clauses that needed it *not checked* (:mod:`conformance.recording`). This is how
``adck judge`` judges, and the one command that replays a scanned domain's verdict.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from conformance.targets import Target, TargetError, TargetOptions


class RecordedTargets:
    help = "warc:SCAN.warc.gz#HOST  a domain as `adck scan` recorded it, judged offline (nothing is sent)"

    def create(self, spec: str, options: TargetOptions) -> Target:
        from conformance import catalog
        from conformance.scan import warc

        path_text, _, domain = spec.removeprefix("warc:").rpartition("#")
        path = Path(path_text)
        if not path_text or not domain:
            raise TargetError(f"--target {spec!r}: expected warc:SCAN.warc.gz#DOMAIN (a scan's WARC file and one of its domains)")
        if not path.is_file():
            raise TargetError(f"--target {spec!r}: no such file {path_text!r} (adck scan writes SCAN.warc.gz)")
        recording = warc.read_domain(path, domain)
        if not recording.http and not recording.dns:
            known = ", ".join(list(warc.domains(path))[:5]) or "none"
            raise TargetError(f"--target {spec!r}: the scan recorded nothing for {domain!r} (domains in it: {known}, …)")
        if catalog.load(options.draft).bare_target == "domain":
            from conformance.targets.domain import DomainTargets

            target = DomainTargets().create(domain, options)
        else:
            from conformance.targets.origin import OriginTargets

            target = OriginTargets().create(f"https://{domain}", options)
        target.http = replace(target.http, recording=recording)
        if target.dns is not None:
            target.dns = replace(target.dns, recording=recording)
        target.spec = spec
        target.description = f"{domain} as recorded in {path.name} (offline)"
        target.notes.append(f"recorded world: {path} (nothing is sent; a probe the scan did not record is not checked)")
        return target
